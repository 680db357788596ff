/**
 * Price objects: the order price object (`amount`, `insurance`, `gst`, `total`, `currency`, and
 * in combine responses `summary_child_shipments`) and the service price of a shipment or quote
 * entry. Interface document, "Order" and "Quote service entry". Numbers or decimal strings,
 * read exactly into {@link Money}; a missing member reads as zero.
 */
import * as z from 'zod';
import { lazySchema } from './lazy.js';
import { moneyResponse } from './common.js';
import { Money } from './money.js';

const zero = () => new Money(0);

/** A price object in a response, every amount as exact {@link Money} (AUD). */
export const priceResponse = lazySchema(() =>
  z.looseObject({
    currency: z.string().default('AUD'),
    amount: moneyResponse.default(zero),
    insurance: moneyResponse.nullish().transform((m) => m ?? new Money(0)),
    gst: moneyResponse.nullish().transform((m) => m ?? new Money(0)),
    total: moneyResponse.default(zero),
    summary_child_shipments: moneyResponse.optional(),
  }),
);
/** A price object of a response, every amount as exact Money (AUD). */
export type Price = z.output<typeof priceResponse>;

/**
 * The price as the sandbox writes it: numbers (create order, create shipment, quote) or decimal
 * strings (combine, accept), as the interface document says each response does.
 */
export function priceToWire(
  price: { amount: Money; insurance: Money; gst: Money; total: Money; summary_child_shipments?: Money },
  form: 'numbers' | 'strings',
): Record<string, string | number> {
  const out: Record<string, string | number> = { currency: 'AUD' };
  for (const key of ['amount', 'insurance', 'gst', 'total', 'summary_child_shipments'] as const) {
    const m = price[key];
    if (m !== undefined) out[key] = form === 'numbers' ? m.toNumber() : m.toJSON();
  }
  return out;
}
