/**
 * Before a hand-over sheet is drawn or the dock opens: the booking result of every order of the
 * day that the ledger holds as accepted but not processed is read from the service
 * (fetch-order-data) and what it says is recorded, so that an order accepted without waiting, and
 * processed since, is on the sheet with its tracking number.
 */
import type { SheetOrder } from '../../ledger/index.js';
import type { LedgerStore } from '../../ledger/index.js';
import type { OrderResponse } from '../../schema/order.js';
import { recordLearned } from '../record.js';

/** Orders read at the same time at most; the client's pacer sets how fast requests leave. */
const READERS = 4;

/** What reading the day's pending results found. */
export interface PendingResults {
  /** Orders of the day the ledger held as accepted, not processed. */
  accepted: number;
  /** Of them, recorded now as processed, cancelled, failed. */
  processed: number;
  cancelled: number;
  failed: number;
  /** Still accepted at the service: no result yet. */
  stillAccepted: string[];
  /** Order ids whose result could not be read (the service could not be reached, or refused): they may be missing from the sheet. */
  unread: string[];
}

/** The accepted, unprocessed orders of `date` (a shipment picked up that day, or a drop-off created that day). */
export function acceptedOn(orders: readonly SheetOrder[], date: string): SheetOrder[] {
  return orders.filter((o) => o.stage === 'accepted' && o.shipments.some((s) => (s.pickup ?? o.createdDay) === date));
}

/**
 * Reads the result of each order of `o.orders` accepted on `o.date` and not processed, a few at a
 * time, and records what is new in the ledger that `o.ledger` opens (opened only when there is
 * an order to read).
 * @throws only what opening or writing the ledger throws (JournalWriteError, exit 10); a read that fails counts in `unread`
 */
export async function readPendingResults(o: {
  orders: readonly SheetOrder[];
  date: string;
  fetch: (orderId: string) => Promise<{ order: OrderResponse; message?: string }>;
  ledger: () => Promise<LedgerStore>;
  signal?: AbortSignal;
}): Promise<PendingResults> {
  const todo = acceptedOn(o.orders, o.date).map((x) => x.orderId);
  const out: PendingResults = { accepted: todo.length, processed: 0, cancelled: 0, failed: 0, stillAccepted: [], unread: [] };
  if (todo.length === 0) return out;
  const ledger = await o.ledger();
  const queue = [...todo];
  const worker = async (): Promise<void> => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      if (o.signal?.aborted) {
        out.unread.push(id);
        continue;
      }
      let read: { order: OrderResponse; message?: string };
      try {
        read = await o.fetch(id);
      } catch {
        out.unread.push(id);
        continue;
      }
      const recorded = await recordLearned(ledger, read.order, read.message);
      if (recorded === undefined) out.stillAccepted.push(id);
      else out[recorded]++;
    }
  };
  await Promise.all(Array.from({ length: Math.min(READERS, todo.length) }, worker));
  await ledger.written();
  out.unread.sort();
  out.stillAccepted.sort();
  return out;
}
