/**
 * The customs questions (interface document, "Customs information" and "Limits"): reason, tax
 * status, lithium, then the items one at a time (description, quantity, value of one item in AUD,
 * made-in country from the searchable list), the running total shown after each item and checked
 * against the 7,500 AUD limit by the customs schema itself; then the shipment's description.
 */
import type * as z from 'zod';
import { CUSTOMS_REASONS, MAX_ITEMS_VALUE_CENTS, TAX_STATUSES, customsRequest, itemRequest } from '../schema/customs.js';
import type { ShipmentFormKind } from '../schema/common.js';
import { aud, displayCents, parseAmountInput } from '../schema/money.js';
import { text } from '../schema/common.js';
import { askCountry } from './address.js';
import { askText, numberIfNumeric, problemOf, type PromptIO } from './ask.js';

/** Customs information as files write it (numbers for values). */
type CustomsInput = z.input<ReturnType<typeof customsRequest>>;
/** One item as files write it. */
export type ItemInput = z.input<ReturnType<typeof itemRequest>>;

/** Cents of a typed or written item value (0 when it is not an amount). */
function centsOf(value: unknown): number {
  const parsed = parseAmountInput(value);
  return 'cents' in parsed ? parsed.cents : 0;
}

/** The exact total of items as files write them: Σ quantity × value, in cents. */
export function itemsInputTotalCents(items: ReadonlyArray<ItemInput>): number {
  return items.reduce((sum, i) => sum + Number(i.quantity) * centsOf(i.value), 0);
}

/** `Items so far: 2, total 328.90 AUD of at most 7,500.00 AUD`. */
function runningTotalLine(items: ReadonlyArray<ItemInput>): string {
  const total = itemsInputTotalCents(items);
  return `Items so far: ${items.length}, total ${aud(total, { grouped: true })} of at most ${aud(MAX_ITEMS_VALUE_CENTS, { grouped: true })} (${displayCents(MAX_ITEMS_VALUE_CENTS - total)} left)`;
}

/** Options of {@link askCustoms}. */
interface AskCustomsOptions {
  kind: ShipmentFormKind;
  /** The sender's country code: proposed as where each item was made (Enter takes it). */
  from?: string;
  /** The recipient's country code: a shipment inside one country is not an export, and is not called one. */
  to?: string;
  /** The earlier answers (when changed from the summary): each is the default. */
  previous?: Partial<CustomsInput>;
}

/**
 * Asks for the customs information. An item value that would take the total above 7,500 AUD is
 * refused with the schema's message and asked again.
 */
export async function askCustoms(io: PromptIO, o: AskCustomsOptions): Promise<CustomsInput> {
  const prev = o.previous ?? {};
  const domestic = o.from !== undefined && o.to !== undefined && o.from.toUpperCase() === o.to.toUpperCase();
  const pick = (values: readonly string[], was: unknown, fallback: string) => values.find((v) => v.toLowerCase() === String(was).toLowerCase()) ?? fallback;
  const reason = await io.prompter.select<string>({
    message: domestic ? 'Reason for sending' : 'Reason for export',
    choices: CUSTOMS_REASONS.map((r) => ({ name: r, value: r })),
    default: pick(CUSTOMS_REASONS, prev.reason, 'Sale'),
  });
  const tax_status = await io.prompter.select<string>({
    message: 'Tax status',
    choices: TAX_STATUSES.map((t) => ({ name: t, value: t })),
    default: pick(TAX_STATUSES, prev.tax_status, 'Private'),
  });
  const lithium = await io.prompter.confirm({ message: 'Does the shipment contain lithium batteries?', default: prev.lithium === true });
  const whole = customsRequest(o.kind);
  const shape = itemRequest(o.kind).shape;
  const before = Array.isArray(prev.items) ? prev.items : [];
  const was = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : undefined);
  const items: ItemInput[] = [];
  for (;;) {
    const n = items.length + 1;
    const earlier: Partial<ItemInput> = before[n - 1] ?? {};
    const description = await askText(io, { message: `Item ${n} description`, schema: shape.description, default: was(earlier.description) });
    const quantity = Number(
      await askText(io, { message: `Item ${n} quantity`, schema: shape.quantity, convert: numberIfNumeric, default: was(earlier.quantity) ?? '1' }),
    );
    const value = await askText(io, {
      message: `Item ${n} value of one item (AUD)`,
      schema: shape.value,
      default: was(earlier.value),
      // The limit is the customs schema's own rule: check the items as they would be sent.
      also: (typed) =>
        problemOf(whole, { reason, tax_status, lithium, items: [...items, { description, quantity, value: typed, currency: 'AUD', madein: 'AU' }] }, ['items']),
    });
    const madein = await askCountry(io, `Item ${n} made in (type to search)`, was(earlier.madein) ?? o.from);
    items.push({ description, quantity, value: Number(value), currency: 'AUD', madein });
    io.say(runningTotalLine(items));
    if (!(await io.prompter.confirm({ message: 'Add another item?', default: before.length > items.length }))) break;
  }
  return { reason, tax_status, lithium, items };
}

/**
 * Asks for the shipment's brief description (at most 35 characters in create order); the first
 * item's description, cut to fit, is the default.
 */
export async function askDescription(io: PromptIO, kind: ShipmentFormKind, suggestion?: string): Promise<string> {
  const max = kind === 'order' ? 35 : undefined;
  const fallback = suggestion === undefined ? undefined : max === undefined ? suggestion : [...suggestion].slice(0, max).join('');
  return askText(io, { message: 'Shipment description (what is in it)', schema: text(max), default: fallback });
}

/**
 * Asks for the shipment's reference (`transient_id`, interface document "Shipment (request
 * form)": a client-chosen id echoed in the response, at most 35 characters in create order), with
 * `proposed` as the default.
 */
export async function askReference(io: PromptIO, kind: ShipmentFormKind, proposed: string): Promise<string> {
  return askText(io, { message: 'Your reference for this shipment', schema: text(kind === 'order' ? 35 : undefined), default: proposed });
}
