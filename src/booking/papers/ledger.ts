/**
 * The customs papers and the ledger: the one module of the papers that reads the ledger and the
 * one that writes to it.
 *
 * - Reading: the orders as the papers need them ({@link paperOrders}), folded from the records of
 *   the ledger of the target (the file ledger, or the shared one: src/ledger/query.ts
 *   `queryLedger`): what each order's `created` (or `answered`) record holds for the papers and
 *   for the hand-over sheet, its stage, its tracking numbers once processed, and the papers made.
 * - Writing: what the `created` record carries for the papers ({@link paperFields}), and the
 *   `papers` record that says which files were made for an order ({@link recordPapersMade}).
 */
import type { OrderResponse } from '../../schema/order.js';
import type { JournalRecord } from '../../ledger/index.js';
import type { SheetShipment } from '../../ledger/index.js';
import { foldOrderStage, localDay } from '../../ledger/index.js';
import type { LedgerStore, RecordFilter } from '../../ledger/index.js';
import type { PaperOrder } from './build.js';
import { paperShipmentsOf, type PaperShipment, type SignatureHints } from './shipment.js';

/** Where an order stands, as the ledger says. */
type PaperStage = 'created' | 'accepted' | 'processed' | 'cancelled' | 'failed';

/** An order of the ledger for the papers. */
export interface LedgerPaperOrder extends PaperOrder {
  /** The document's identity in the ledger. */
  id: string;
  stage: PaperStage;
  /** What the hand-over sheet recorded of each shipment (recipient country, pickup date …). */
  sheet: SheetShipment[];
  /** True when the order's record holds the papers' data (versions before it was recorded: false). */
  recorded: boolean;
  /** The papers made for it by `book --documents`, oldest first. */
  made: Array<{ t: string; files: string[] }>;
}

/** Folds records into orders (in the order they were created). */
async function fold(records: AsyncIterable<JournalRecord>): Promise<LedgerPaperOrder[]> {
  const byOrder = new Map<string, LedgerPaperOrder>();
  const orderOfId = new Map<string, string>();
  for await (const r of records) {
    if (r.order_id !== undefined) orderOfId.set(r.id, r.order_id);
    const orderId = r.order_id ?? orderOfId.get(r.id);
    if (orderId === undefined) continue;
    let o = byOrder.get(orderId);
    if ((r.event === 'created' || r.event === 'answered') && (r.sheet !== undefined || r.papers !== undefined)) {
      if (o === undefined) {
        o = { id: r.id, orderId, stage: 'created', date: localDay(new Date(r.t)), shipments: [], sheet: [], recorded: false, made: [] };
        byOrder.set(orderId, o);
      }
      if (r.sheet !== undefined) o.sheet = r.sheet;
      if (r.papers !== undefined) {
        o.shipments = r.papers as PaperShipment[];
        o.recorded = true;
      }
      continue;
    }
    if (o === undefined) continue;
    if (r.event === 'papers') o.made.push({ t: r.t, files: r.files ?? [] });
    else foldOrderStage(o, r);
  }
  return [...byOrder.values()];
}

/**
 * The orders of `ledger` (a file ledger or the shared one, opened to be read) as the papers need them; `filter` narrows the records read (one order: `orderId`).
 * @throws LedgerUnreachableError (exit 10) when a shared ledger cannot be reached; JournalCorruptError (exit 2)
 */
export async function paperOrders(ledger: Pick<LedgerStore, 'records'>, filter: RecordFilter = {}): Promise<LedgerPaperOrder[]> {
  return fold(ledger.records(filter));
}

/** The orders folded from `records` (for a ledger already open, and for tests). */
export function paperOrdersOf(records: AsyncIterable<JournalRecord>): Promise<LedgerPaperOrder[]> {
  return fold(records);
}

/**
 * What an order's `created` (or `answered`) record carries for the papers: each shipment's
 * addresses, packages, customs items and signature (src/booking/papers/shipment.ts), for an order
 * with a shipment that leaves Australia; nothing for a domestic order.
 */
export function paperFields(order: OrderResponse, childIds?: readonly string[], hints?: SignatureHints): Pick<JournalRecord, 'papers'> {
  const shipments = paperShipmentsOf(order, childIds, hints);
  return shipments.some((s) => s.main !== true && (s.delivery?.country ?? 'AU').toUpperCase() !== 'AU') ? { papers: shipments } : {};
}
