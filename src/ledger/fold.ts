/**
 * The fold: where a document stands ({@link EntryState}), computed from its records in the order
 * they were written. Every reader of a journal or ledger folds the same way.
 */
import { currentRecord, isChangeIdentity, type EntryState, type JournalRecord } from './records.js';

/** Events that say nothing about where a document's booking stands: a cancel's intent, a change typed by hand, a refusal, a claim and its release, and the dock's records. */
const NOT_BOOKING: ReadonlySet<JournalRecord['event']> = new Set([
  'claimed',
  'released',
  'cancel_sent',
  'change_sent',
  'changed',
  'refused',
  'scanned',
  'handed_over',
  'not_handed_over',
  'papers',
]);

/**
 * Folds one record into the state of its order. Older records are read as today's dialect says
 * (src/ledger/records.ts `currentRecord`).
 */
export function applyRecord(state: EntryState | undefined, given: JournalRecord): EntryState {
  const s: EntryState = state ?? { id: given.id, stage: 'new', shipmentIds: [], records: 0 };
  // A change that belongs to no document (a shipment or combine by hand) says nothing about a document's booking.
  if (isChangeIdentity(given.id)) return s;
  const r = currentRecord(given);
  if (!NOT_BOOKING.has(r.event)) s.records++;
  if (r.file !== undefined) s.file = r.file;
  if (r.line !== undefined) s.line = r.line;
  switch (r.event) {
    case 'create_sent':
      s.stage = 'unknown';
      s.unknownStep = r.step;
      // A resolution answered an earlier create: a newer one is a new question, answered afresh.
      s.resolvedAs = undefined;
      if (r.transient_ids) s.transientIds = [...r.transient_ids];
      break;
    case 'shipment_created':
      s.shipmentIds = [...(r.shipment_ids ?? s.shipmentIds)];
      s.stage = 'failed'; // shipments exist, no parent yet: only a combine continues it
      s.unknownStep = undefined;
      break;
    case 'created':
      s.stage = 'created';
      s.orderId = r.order_id;
      if (r.shipment_ids) s.shipmentIds = [...r.shipment_ids];
      if (r.total) s.total = r.total;
      s.unknownStep = undefined;
      break;
    case 'accept_sent':
      // An accept is safe to send again: a rerun reads the order when the service answers 409.
      break;
    case 'accepted':
      s.stage = 'accepted';
      break;
    case 'processed':
      s.stage = 'processed';
      s.trackingNumbers = r.tracking_numbers;
      if (r.total) s.total = r.total;
      s.claim = undefined;
      break;
    case 'claimed':
      if (r.run) s.claim = { ...r.run, since: r.t };
      break;
    case 'released':
      if (s.claim !== undefined && s.claim.nonce === r.run?.nonce) s.claim = undefined;
      break;
    case 'failed':
      s.claim = undefined;
      s.error = r.error;
      s.limit = r.limit;
      s.stage = r.created === false && s.orderId === undefined ? 'new' : 'failed';
      if (r.created === false && s.orderId === undefined) s.unknownStep = undefined;
      break;
    case 'resolved':
      if (r.not_created) {
        s.stage = 'new';
        s.orderId = undefined;
      } else {
        s.stage = 'created';
        s.orderId = r.order_id;
      }
      s.unknownStep = undefined;
      s.error = undefined;
      s.resolvedAs = r.not_created ? 'not_created' : r.order_id;
      s.claim = undefined;
      break;
    case 'cancelled':
      // An order that was cancelled is over: nothing books it further.
      if (s.orderId === undefined || r.order_id === undefined || s.orderId === r.order_id) {
        if (r.order_id !== undefined) s.orderId = r.order_id;
        s.stage = 'failed';
        s.error = { code: 'cancelled', message: `order ${r.order_id ?? s.orderId ?? ''} was cancelled` };
        s.claim = undefined;
      }
      break;
    case 'target':
    case 'cancel_sent':
    case 'change_sent':
    case 'changed':
    case 'refused':
    case 'scanned':
    case 'handed_over':
    case 'not_handed_over':
    case 'sent':
    case 'answered':
    case 'papers':
      break;
  }
  return s;
}
