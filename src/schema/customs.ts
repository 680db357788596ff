/** Customs information and Item: interface document, "Customs information". */
import { TEXT_LIMITS } from './limits.js';
import * as z from 'zod';
import { lazySchema } from './lazy.js';
import { amountInput, choice, countryCode, currencyAud, describe, optionalText, quantity, text, type ShipmentFormKind } from './common.js';
import { aud, formatCents, type Money } from './money.js';
import { moneyResponse, looseText } from './common.js';

/** Reasons for export, in the capitalised form the service shows; input is accepted in any case. */
export const CUSTOMS_REASONS = ['Gift', 'Purchase', 'Sale', 'Sample', 'Return', 'Repair', 'Personal Effects'] as const;
/** Tax status values. */
export const TAX_STATUSES = ['Private', 'Company'] as const;
/** Total item value limit per shipment: 7500 AUD (interface document, "Limits"), in cents. */
export const MAX_ITEMS_VALUE_CENTS = 750_000;

/** An item (request form). `value` is the value of one item in AUD, read exactly into Money. */
export function itemRequest(kind: ShipmentFormKind) {
  return z.strictObject(
    {
      description: text(kind === 'order' ? 35 : TEXT_LIMITS.text),
      quantity,
      value: amountInput,
      currency: currencyAud,
      madein: kind === 'order' ? countryCode : text(TEXT_LIMITS.text),
    },
    { error: (iss) => (iss.input === undefined ? 'required' : `expected an item (got ${describe(iss.input)})`) },
  );
}

/** Sum of quantity × value over the items, in exact cents. */
export function itemsTotalCents(items: ReadonlyArray<{ quantity: number; value: Money }>): number {
  return items.reduce((sum, i) => sum + i.quantity * i.value.cents, 0);
}

/**
 * The list of customs items (request form), without a minimum length.
 */
function itemList(kind: ShipmentFormKind) {
  return z.array(itemRequest(kind), { error: (iss) => (iss.input === undefined ? 'required' : `expected a list of items (got ${describe(iss.input)})`) });
}

/**
 * Customs information (request form). `lithium` is required in create order only, and so is at
 * least one item; the total item value must not exceed 7500 AUD (summed exactly, quantity × value).
 */
export function customsRequest(kind: ShipmentFormKind) {
  return z
    .strictObject(
      {
        description: optionalText(kind === 'order' ? 512 : undefined),
        reason: choice(CUSTOMS_REASONS, 'a customs reason'),
        tax_status: choice(TAX_STATUSES, 'a tax status'),
        lithium:
          kind === 'order'
            ? z.boolean({ error: (iss) => (iss.input === undefined ? 'required (true or false)' : `expected true or false (got ${describe(iss.input)})`) })
            : z.boolean({ error: (iss) => `expected true or false (got ${describe(iss.input)})` }).optional(),
        // "At least 1 in create order": create shipment and main_shipment state no minimum, so an
        // empty list passes there (a warning says the service may refuse it).
        items: kind === 'order' ? itemList(kind).min(1, { error: 'at least 1 item' }) : itemList(kind),
      },
      { error: (iss) => (iss.input === undefined ? 'required' : `expected customs information (got ${describe(iss.input)})`) },
    )
    .superRefine((c, ctx) => {
      const total = itemsTotalCents(c.items);
      if (total > MAX_ITEMS_VALUE_CENTS) {
        ctx.addIssue({
          code: 'custom',
          path: ['items'],
          message: `total item value at most ${aud(MAX_ITEMS_VALUE_CENTS)} (got ${formatCents(total)})`,
        });
      }
    });
}
/** Customs information as {@link customsRequest} reads it: items with their values as exact Money (AUD). */
export type CustomsRequest = z.output<ReturnType<typeof customsRequest>>;

/** Customs information in a response: lenient; item values read exactly. */
export const customsResponse = lazySchema(() =>
  z.looseObject({
    description: z.string().nullish(),
    reason: z.string().optional(),
    tax_status: z.string().optional(),
    lithium: z.boolean().optional(),
    items: z
      .array(
        z.looseObject({
          description: z.string().optional(),
          quantity: z.union([z.number(), z.string()]).transform(Number).optional(),
          value: moneyResponse.optional(),
          currency: z.string().optional(),
          madein: looseText.optional(),
        }),
      )
      .optional(),
  }),
);
