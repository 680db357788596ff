/**
 * Which orders of the ledger get papers: the orders named (by order id or tracking number), the
 * orders of a day (their shipments' pickup date, or for a drop-off the day the order was created,
 * as the hand-over sheet counts days), or the orders of a batch report; and, for each order left
 * out, why (data the command words).
 */
import type { LedgerPaperOrder } from './ledger.js';
import { isInternational } from './shipment.js';

/** Why an order gets no papers, or what to know about its papers. */
export type PaperNote =
  /** Every shipment stays in Australia: customs papers are not needed. */
  | { kind: 'domestic'; order_id: string }
  /** An international order recorded by a version that did not keep what the papers need. */
  | { kind: 'not_recorded'; order_id: string }
  /** Cancelled, or failed at the service: nothing travels. */
  | { kind: 'cancelled' | 'failed'; order_id: string }
  /** Made before the order was processed: no tracking number on the papers yet. */
  | { kind: 'no_tracking_yet'; order_id: string };

/** The orders chosen, the notes on them, and the names that matched no order. */
interface PaperSelection {
  orders: LedgerPaperOrder[];
  notes: PaperNote[];
  unknown: string[];
}

/** What to choose: names (order ids or tracking numbers), a day, or order ids of a report. */
interface PaperQuery {
  names?: readonly string[];
  /** YYYY-MM-DD. */
  date?: string;
  /** Order ids listed by a batch report. */
  reportOrderIds?: readonly string[];
}

/** True when an order's day (as the hand-over sheet counts it) is `day`. */
function onDay(o: LedgerPaperOrder, day: string): boolean {
  if (o.sheet.length === 0) return o.date === day;
  return o.sheet.some((s) => (s.pickup ?? o.date) === day);
}

/** True when some shipment of the order leaves Australia, by the papers' record or else the sheet's. */
function leavesAustralia(o: LedgerPaperOrder): boolean {
  if (o.recorded) return o.shipments.some(isInternational);
  return o.sheet.some((s) => s.country !== undefined && s.country.toUpperCase() !== 'AU');
}

/**
 * The orders of `all` that `q` asks for, in the ledger's order (names in the order given), each
 * international order with its papers' data, and a note for each one left out or made without a
 * tracking number.
 */
export function selectPaperOrders(all: readonly LedgerPaperOrder[], q: PaperQuery): PaperSelection {
  const chosen: LedgerPaperOrder[] = [];
  const unknown: string[] = [];
  const add = (o: LedgerPaperOrder) => chosen.includes(o) || chosen.push(o);
  for (const name of q.names ?? []) {
    const o = all.find((x) => x.orderId === name) ?? all.find((x) => x.tracking?.includes(name) === true);
    if (o === undefined) unknown.push(name);
    else add(o);
  }
  for (const id of q.reportOrderIds ?? []) {
    const o = all.find((x) => x.orderId === id);
    if (o === undefined) unknown.push(id);
    else add(o);
  }
  if (q.date !== undefined) for (const o of all) if (onDay(o, q.date)) add(o);
  const orders: LedgerPaperOrder[] = [];
  const notes: PaperNote[] = [];
  for (const o of chosen) {
    if (!leavesAustralia(o)) notes.push({ kind: 'domestic', order_id: o.orderId });
    else if (o.stage === 'cancelled' || o.stage === 'failed') notes.push({ kind: o.stage, order_id: o.orderId });
    else if (!o.recorded) notes.push({ kind: 'not_recorded', order_id: o.orderId });
    else {
      if (o.stage !== 'processed') notes.push({ kind: 'no_tracking_yet', order_id: o.orderId });
      orders.push(o);
    }
  }
  return { orders, notes, unknown };
}
