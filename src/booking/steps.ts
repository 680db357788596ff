/**
 * What a booking records in a journal (src/ledger/journal.ts), step by step: shared by the batch
 * runner and single `book`, both through the booking engine (src/booking/engine.ts), so both journals
 * say the same things.
 * Before each request that changes something: `create_sent` (with the step) or `accept_sent`,
 * flushed to disk before the request leaves; after each answer, written at the end of its turn: `shipment_created`, `created`
 * (order or consolidated parent, with its total), `accepted`; at the end `processed` with the
 * tracking numbers (`N/A` for a shipment without one) and the total (AUD, a decimal string).
 */
import type { BookingDeps } from './book.js';
import type { BookingEvent } from './progress.js';
import type { OrderResponse } from '../schema/order.js';
import { trackingNumberOf } from '../schema/shipment.js';
import { orderStatusWord } from '../schema/status.js';
import type { ClaimLedger } from '../ledger/claims.js';
import type { JournalRecord } from '../ledger/records.js';
import type { LedgerStore } from '../ledger/store.js';
import { sheetShipmentsOf } from '../ledger/sheet.js';
import { paperFields } from './papers/ledger.js';
import type { SignatureHints } from './papers/shipment.js';

/**
 * Where step records go: the ledger (src/ledger/store.ts), with the run's journal copy, and its
 * claims: appends (every record joins the turn's group write), waits
 * until they are on disk or written, and where a document stands.
 */
export type RecordSink = Pick<LedgerStore, 'append' | 'durable' | 'written' | 'get' | 'elsewhere' | keyof ClaimLedger>;

/** What an accept refused because the order was accepted before says: `order … was already processed; nothing was accepted`. */
export function acceptedBeforeText(order: OrderResponse): string {
  return `order ${order.id} was already ${orderStatusWord(order.status) === 'processed' ? 'processed' : 'accepted'}; nothing was accepted`;
}

/** The hooks of one order's journal records; `record` gives its identity (and file, line). */
interface StepRecorder {
  /** For {@link BookingDeps.beforeRequest}: records the request and waits until it is on disk. */
  beforeRequest: NonNullable<BookingDeps['beforeRequest']>;
  /** Records what a booking event says was created or accepted (other events are ignored). */
  onEvent(e: BookingEvent): void;
  /** Records the processed order; returns its tracking numbers and total as recorded. */
  processed(order: OrderResponse): { tracking: string[]; total?: string };
}

/**
 * A {@link StepRecorder} appending to `journal` (the ledger) under `record` (`id`, and `file`/`line`
 * when known); `signatures` are the document's, kept with an international order for its papers.
 */
export function stepRecorder(
  journal: RecordSink,
  record: Pick<JournalRecord, 'id' | 'file' | 'line'>,
  transientIds: readonly string[] = [],
  signatures?: SignatureHints,
): StepRecorder {
  const append = (fields: Omit<JournalRecord, 't' | 'id' | 'file' | 'line'>) => journal.append({ ...record, ...fields });
  return {
    async beforeRequest(step, progress) {
      if (step === 'accept') append({ event: 'accept_sent', order_id: progress.orderId });
      else
        append({
          event: 'create_sent',
          step,
          shipment_ids: [...progress.shipmentIds],
          ...(transientIds.length > 0 ? { transient_ids: [...transientIds] } : {}),
        });
      // On disk before the request leaves: a run killed now knows the request may have been sent.
      await journal.durable();
    },
    onEvent(e) {
      if (e.type === 'order_created')
        append({
          event: 'created',
          order_id: e.order.id,
          total: e.order.price?.total?.toString(),
          sheet: sheetShipmentsOf(e.order),
          ...paperFields(e.order, undefined, signatures),
        });
      else if (e.type === 'shipment_created')
        append({ event: 'shipment_created', shipment_ids: [...(journal.get(record.id)?.shipmentIds ?? []), e.shipment.id] });
      else if (e.type === 'combined')
        append({
          event: 'created',
          order_id: e.parent.id,
          shipment_ids: e.childIds.slice(),
          total: e.parent.price?.total?.toString(),
          sheet: sheetShipmentsOf(e.parent),
          ...paperFields(e.parent, e.childIds, signatures),
        });
      else if (e.type === 'accepted') append({ event: 'accepted', order_id: e.order.id });
      // Accepted before this run: the service refused this accept, nothing was accepted or paid now.
      else if (e.type === 'accepted_before')
        append({ event: 'refused', order_id: e.order.id, error: { code: 'already_accepted', message: acceptedBeforeText(e.order) } });
    },
    processed(order) {
      const tracking = order.shipments.map((s) => trackingNumberOf(s) ?? 'N/A');
      const total = order.price?.total?.toString();
      append({ event: 'processed', order_id: order.id, tracking_numbers: tracking, ...(total ? { total } : {}) });
      return total === undefined ? { tracking } : { tracking, total };
    },
  };
}
