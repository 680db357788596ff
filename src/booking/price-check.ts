/**
 * A second look at the service's numbers: a price whose total is not amount +
 * insurance + GST, a negative figure, a `summary_child_shipments` that is not the sum of the
 * children's totals (interface document, "Order price object": it "is the sum of the child
 * shipments' price"). Each finding is a warning naming both figures; the booking goes on. Money is
 * compared in integer cents (exact). (An accept answered about another order is no warning but an
 * error: src/api/contradictions.ts.)
 */
import type { OrderResponse } from '../schema/order.js';
import type { Price } from '../schema/price.js';
import { aud, Money } from '../schema/money.js';

/** Warnings about one price object; `what` names it (`order ORD-…`, `shipment SHP-…`). */
export function priceWarnings(what: string, price: Price | undefined): string[] {
  if (!price) return [];
  const warnings: string[] = [];
  for (const key of ['amount', 'insurance', 'gst', 'total'] as const) {
    if (price[key].cents < 0) warnings.push(`${what}: ${key === 'gst' ? 'GST' : key} is negative (${aud(price[key])})`);
  }
  const sum = new Money(price.amount.cents + price.insurance.cents + price.gst.cents);
  if (sum.cents !== price.total.cents) {
    warnings.push(
      `${what}: total ${aud(price.total)} is not amount ${price.amount.toString()} + insurance ${price.insurance.toString()} + GST ${price.gst.toString()} = ${aud(sum)}`,
    );
  }
  return warnings;
}

/**
 * Warnings about an order: its price, each shipment's price, and for a consolidated parent
 * (`childIds` given) the children's sum against `summary_child_shipments`.
 */
export function orderWarnings(order: OrderResponse, childIds: readonly string[] = []): string[] {
  const warnings = priceWarnings(`order ${order.id}`, order.price);
  for (const s of order.shipments) warnings.push(...priceWarnings(`shipment ${s.id}`, s.service?.price));
  const summary = order.price?.summary_child_shipments;
  if (summary !== undefined && childIds.length > 0) {
    const children = order.shipments.filter((s) => childIds.includes(s.id));
    const priced = children.filter((s) => s.service?.price !== undefined);
    if (priced.length === childIds.length) {
      const sum = new Money(priced.reduce((c, s) => c + s.service!.price!.total.cents, 0));
      if (sum.cents !== summary.cents) {
        warnings.push(`order ${order.id}: summary_child_shipments ${aud(summary)} is not the sum of the children's totals ${aud(sum)}`);
      }
    }
  }
  return warnings;
}
