/**
 * A parent order of consolidated mail (interface document, "Combine shipments", PUT /shipments/),
 * read with the child ids the client combined: which shipments are children and which is the main
 * shipment, and the exact sums of their prices. Beside the order schema so that both the flows
 * (src/booking/) and the tables (src/output/) can use it without importing each other.
 */
import { aud, Money } from './money.js';
import type { OrderResponse } from './order.js';
import { trackingNumberOf, type ShipmentResponse } from './shipment.js';

/** A parent order's shipments told apart: the children (in the order they were combined) and the main shipment. */
interface ParentParts {
  children: ShipmentResponse[];
  /** The shipment that carries the children to the hub; absent when combined under free pickup. */
  main: ShipmentResponse | undefined;
  /** Child ids the order does not list (should be none). */
  missing: string[];
}

/**
 * Splits a parent order's shipments into the children (`childIds`, in that order) and the main
 * shipment (the first shipment that is not a child). The response does not mark which is which;
 * the client knows the ids it combined.
 */
export function splitParent(order: Pick<OrderResponse, 'shipments'>, childIds: readonly string[]): ParentParts {
  const byId = new Map(order.shipments.map((s) => [s.id, s] as const));
  const children: ShipmentResponse[] = [];
  const missing: string[] = [];
  for (const id of childIds) {
    const s = byId.get(id);
    if (s === undefined) missing.push(id);
    else children.push(s);
  }
  const main = order.shipments.find((s) => !childIds.includes(s.id));
  return { children, main, missing };
}

/** The sum of the shipments' `service.price.total`, exactly (AUD); a shipment without a price counts 0. */
export function sumOfTotals(shipments: readonly ShipmentResponse[]): Money {
  return new Money(shipments.reduce((sum, s) => sum + (s.service?.price?.total.cents ?? 0), 0));
}

/**
 * Checks `price.summary_child_shipments` of a parent against the sum of its children's totals, to
 * the cent. Returns a warning for people, or `undefined` when they agree (or the summary is absent).
 */
export function summaryMismatch(order: Pick<OrderResponse, 'price'>, children: readonly ShipmentResponse[]): string | undefined {
  const summary = order.price?.summary_child_shipments;
  if (summary === undefined) return undefined;
  const sum = sumOfTotals(children);
  if (summary.cents === sum.cents) return undefined;
  return `the service's summary_child_shipments (${aud(summary)}) differs from the sum of the children's prices (${aud(sum)})`;
}

/** The ids of shipments of an order that have no tracking number yet (`N/A`). */
export function withoutTrackingNumber(order: Pick<OrderResponse, 'shipments'>): string[] {
  return order.shipments.filter((s) => trackingNumberOf(s) === undefined).map((s) => s.id);
}
