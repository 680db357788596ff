/**
 * The summary shown before anything is sent: addresses, pickup or drop-off, packages, customs,
 * service and quoted price of every shipment, then a confirmation. Drawn as plain lines so the
 * same text reads well on any terminal and in the manual (docs/guided-booking.md).
 */
import type { PickupRule } from '../input/pickup.js';
import wrapAnsi from 'wrap-ansi';
import type { QuoteServiceEntry } from '../schema/quote.js';
import { aud } from '../schema/money.js';
import { oneLine } from '../schema/shipment.js';
import { addressLine } from './address.js';
import type { PromptIO } from './ask.js';
import { itemsInputTotalCents, type ItemInput } from './customs.js';
import { collectWarnings } from '../input/warnings.js';

/** A shipment as files write it, as far as the summary reads it. */
type ShipmentLike = Record<string, unknown>;

function pkgLine(p: Record<string, unknown>): string {
  const [size, mass] = p.unit === 'in' ? ['in', 'lb'] : ['cm', 'kg'];
  return `${String(p.length)} × ${String(p.width)} × ${String(p.height)} ${size}, ${String(p.weight)} ${mass}`;
}

/** Where in the summary a warning is shown: under the row of the part it is about. */
type WarningRow = 'from' | 'from-phone' | 'pickup' | 'to' | 'to-phone' | 'packages' | 'customs' | 'other';

/** A warning of a shipment as the summary shows it: its row, the part that changes it, the message. */
interface SummaryWarning {
  row: WarningRow;
  /** The part "change …" asks again to fix it (none for a warning about the whole shipment). */
  part?: EditablePart;
  message: string;
}

/**
 * The warnings of a shipment (as files write it) that the summary shows beside their parts: the
 * address checks of the sender and the recipient (postcode, suburb, state, phone), the packages'
 * weights (src/input/warnings.ts, the same words as for a file), and a pickup day no carrier
 * collects on, as the run's pickup rule finds it.
 */
export function summaryWarnings(shipment: ShipmentLike, pickup?: PickupRule): SummaryWarning[] {
  const found = collectWarnings(shipment);
  // The pickup day as the booking will check it: a day no carrier collects on is named here, beside the pickup, before "Book this?".
  const c = (shipment as { collection?: Record<string, unknown> }).collection;
  const date = (c?.pickup as { date?: unknown } | undefined)?.date;
  if (pickup !== undefined && c !== undefined && typeof c.country === 'string' && typeof date === 'string') {
    const fault = pickup.fault(date, {
      country: c.country,
      ...(typeof c.postcode === 'string' ? { postcode: c.postcode } : {}),
      ...(typeof c.city === 'string' ? { city: c.city } : {}),
    });
    if (fault !== undefined)
      found.push({
        segments: ['collection', 'pickup', 'date'],
        path: 'collection.pickup.date',
        message: `${fault.message}; the next collection day is ${fault.nextWords} (${fault.next})`,
      });
  }
  return found.map((w): SummaryWarning => {
    const [first, second] = w.segments;
    const row: WarningRow =
      first === 'collection'
        ? second === 'pickup'
          ? 'pickup'
          : second === 'phone'
            ? 'from-phone'
            : 'from'
        : first === 'delivery'
          ? second === 'phone'
            ? 'to-phone'
            : 'to'
          : first === 'packages'
            ? 'packages'
            : first === 'customs_information'
              ? 'customs'
              : 'other';
    const part = PART_OF_ROW[row];
    return { row, ...(part ? { part } : {}), message: w.message };
  });
}

/** The part that changes what a row shows. */
const PART_OF_ROW: Readonly<Record<WarningRow, EditablePart | undefined>> = {
  from: 'sender',
  'from-phone': 'sender',
  pickup: 'pickup',
  to: 'recipient',
  'to-phone': 'recipient',
  packages: 'packages',
  customs: 'customs',
  other: undefined,
};

/** `1 warning`, `2 warnings`. */
function warningCount(n: number): string {
  return `${n} warning${n === 1 ? '' : 's'}`;
}

/**
 * The summary of shipments (as files write them) with the chosen services (by shipment index),
 * as lines of text, at most `width` columns wide when given (a terminal's width). The warnings of
 * each shipment (by index, from {@link summaryWarnings}) are counted in its heading and shown
 * under the row of their part; a phone number with a warning gets a row of its own.
 */
export function renderSummary(
  shipments: ReadonlyArray<ShipmentLike>,
  services: ReadonlyMap<number, QuoteServiceEntry> = new Map(),
  width?: number,
  warnings: ReadonlyArray<ReadonlyArray<SummaryWarning>> = [],
): string {
  const out: string[] = [];
  const indent = ' '.repeat(13);
  // Within `width` columns a long value (an address) continues under itself, broken between words.
  const fit = (value: string) =>
    width === undefined || width - 14 < 20 ? value : wrapAnsi(value, width - 14, { hard: false, trim: true }).replace(/\n/g, `\n${indent}`);
  const row = (label: string, value: string) => out.push(`  ${label.padEnd(10)} ${fit(value)}`);
  shipments.forEach((s, i) => {
    const mine = warnings[i] ?? [];
    const warned = (r: WarningRow) => {
      for (const w of mine) if (w.row === r) row('', `warning: ${w.message}`);
    };
    const heading = shipments.length > 1 ? `Shipment ${i + 1}` : 'Summary';
    out.push(mine.length > 0 ? `${heading}: ${warningCount(mine.length)}, each under its part` : heading);
    const collection = (s.collection ?? undefined) as Record<string, unknown> | undefined;
    if (collection) row('From', addressLine(collection));
    warned('from');
    if (mine.some((w) => w.row === 'from-phone')) row('Phone', `${String(collection?.phone)} (sender)`);
    warned('from-phone');
    const pickup = collection?.pickup as Record<string, unknown> | undefined;
    if (s.collection_type === 'dropoff') row('Collect', 'drop-off at the carrier');
    else if (pickup) row('Pickup', `${String(pickup.date)} ${String(pickup.time_earliest)}–${String(pickup.time_latest)}`);
    warned('pickup');
    const delivery = (s.delivery ?? {}) as Record<string, unknown>;
    row('To', addressLine(delivery));
    warned('to');
    if (mine.some((w) => w.row === 'to-phone')) row('Phone', `${String(delivery.phone)} (recipient)`);
    warned('to-phone');
    const packages = Array.isArray(s.packages) ? (s.packages as Array<Record<string, unknown>>) : [];
    packages.forEach((p, k) => row(k === 0 ? 'Packages' : '', `${k + 1}. ${pkgLine(p)}`));
    warned('packages');
    const customs = (s.customs_information ?? {}) as Record<string, unknown>;
    const items = Array.isArray(customs.items) ? (customs.items as ItemInput[]) : [];
    row(
      'Customs',
      `${String(customs.reason)}, ${String(customs.tax_status)}, ${customs.lithium === true ? 'contains lithium' : 'no lithium'}; ${items.length} item${items.length === 1 ? '' : 's'}, ${aud(itemsInputTotalCents(items), { grouped: true })}`,
    );
    for (const item of items)
      row(
        '',
        `${String(item.quantity)} × ${String(item.description)} at ${aud(itemsInputTotalCents([{ ...item, quantity: 1 }]), { grouped: true })}, made in ${String(item.madein)}`,
      );
    warned('customs');
    if (typeof s.description === 'string') row('Contents', s.description);
    if (typeof s.transient_id === 'string') row('Reference', s.transient_id);
    const chosen = services.get(i);
    const code = (s.service as { code?: unknown } | undefined)?.code;
    if (chosen) {
      row('Service', `${chosen.code} ${[chosen.carrier, oneLine(chosen.name)].filter((p) => p !== '').join(' ')}`);
      row('Price', `${aud(chosen.price.total)} quoted (the exact price comes with the order)`);
    } else if (code !== undefined) {
      row('Service', String(code));
    }
    warned('other');
  });
  return out.join('\n');
}

/** A part of a shipment that can be changed from the summary. */
export type EditablePart = 'sender' | 'recipient' | 'pickup' | 'packages' | 'customs' | 'description' | 'reference' | 'service';

/** The parts in the order the summary offers them, with the words of the choice. */
const EDITABLE: ReadonlyArray<[EditablePart, string]> = [
  ['sender', 'the sender'],
  ['recipient', 'the recipient'],
  ['pickup', 'the pickup'],
  ['packages', 'the packages'],
  ['customs', 'the customs'],
  ['description', 'the description'],
  ['reference', 'the reference'],
  ['service', 'the service'],
];

/** What the person chose at the summary. */
type SummaryChoice = { action: 'go' } | { action: 'stop' } | { action: 'change'; shipment: number; part: EditablePart };

/** A shipment's parts as the summary offers them: which can be changed, and how each is worded. */
interface EditableShipment {
  parts: ReadonlySet<EditablePart>;
  /** The warnings of the shipment: each part with warnings says how many. */
  warnings?: ReadonlyArray<SummaryWarning>;
  /** True when the parcel is dropped off: its collection is offered as "the drop-off", not "the pickup". */
  dropoff?: boolean;
}

/**
 * Shows the summary and asks what to do: go on (the default, so Enter books), change one of the
 * editable parts of a shipment (by shipment index; a part with warnings says how many), or stop
 * and keep the answers.
 * @param question e.g. `Book this?`; `go` names the first choice, e.g. `yes, book it`
 */
export async function askAtSummary(
  io: PromptIO,
  summary: string,
  editable: ReadonlyArray<EditableShipment>,
  o: { question: string; go: string },
): Promise<SummaryChoice> {
  io.say(`\n${summary}\n`);
  const several = editable.length > 1;
  const choices = [{ name: o.go, value: 'go' }];
  editable.forEach((shipment, i) => {
    for (const [part, words] of EDITABLE) {
      if (!shipment.parts.has(part)) continue;
      const named = part === 'pickup' && shipment.dropoff ? 'the drop-off' : words;
      const count = (shipment.warnings ?? []).filter((w) => w.part === part).length;
      const warned = count > 0 ? ` (${warningCount(count)})` : '';
      choices.push({ name: `change ${named}${several ? ` of shipment ${i + 1}` : ''}${warned}`, value: `change:${i}:${part}` });
    }
  });
  choices.push({ name: 'no: keep the answers for later and stop', value: 'stop' });
  const picked = await io.prompter.select<string>({ message: o.question, choices, default: 'go' });
  if (picked === 'go' || picked === 'stop') return { action: picked };
  const [, index, part] = picked.split(':');
  return { action: 'change', shipment: Number(index), part: part as EditablePart };
}

/** Shows the summary and asks for confirmation (a yes/no, for forms with nothing to change). @returns true to go on */
export async function confirmSummary(io: PromptIO, summary: string, question = 'Book this?'): Promise<boolean> {
  io.say(`\n${summary}\n`);
  return io.prompter.confirm({ message: question, default: true });
}
