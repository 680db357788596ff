/**
 * How far a document got, and the records that say so: what every ledger implementation uses to
 * take into itself what a journal copy (or another ledger) knows further along than it does.
 */
import type { EntryState, JournalRecord } from './records.js';

/**
 * How far a document got, as a rank: what a copy knows is taken into the ledger only when it is
 * further along than what the ledger knows.
 */
export function rank(s: EntryState | undefined): number {
  if (s === undefined) return -1;
  switch (s.stage) {
    case 'new':
      return s.records > 0 && s.resolvedAs === 'not_created' ? 1 : 0;
    case 'unknown':
      return 1;
    case 'failed':
      return s.orderId === undefined ? 1 : 2;
    case 'created':
      return 3;
    case 'accepted':
      return 4;
    case 'processed':
      return 5;
  }
}

/** Records that rebuild `s` when folded (src/ledger/fold.ts `applyRecord`). */
export function recordsOf(s: EntryState): Array<Omit<JournalRecord, 't'>> {
  const base = { id: s.id, ...(s.file !== undefined ? { file: s.file } : {}), ...(s.line !== undefined ? { line: s.line } : {}) };
  const out: Array<Omit<JournalRecord, 't'>> = [];
  if (s.stage === 'unknown') {
    if (s.shipmentIds.length > 0) out.push({ ...base, event: 'shipment_created', shipment_ids: [...s.shipmentIds] });
    out.push({
      ...base,
      event: 'create_sent',
      step: s.unknownStep,
      shipment_ids: [...s.shipmentIds],
      ...(s.transientIds ? { transient_ids: s.transientIds } : {}),
    });
    return out;
  }
  if (s.orderId === undefined) {
    if (s.shipmentIds.length > 0) out.push({ ...base, event: 'shipment_created', shipment_ids: [...s.shipmentIds] });
    if (s.stage === 'failed' || s.error !== undefined)
      out.push({ ...base, event: 'failed', created: s.shipmentIds.length > 0, ...(s.error ? { error: s.error } : {}), ...(s.limit ? { limit: s.limit } : {}) });
    else if (s.resolvedAs === 'not_created') out.push({ ...base, event: 'resolved', not_created: true });
    return out;
  }
  out.push({
    ...base,
    event: 'created',
    order_id: s.orderId,
    ...(s.shipmentIds.length > 0 ? { shipment_ids: [...s.shipmentIds] } : {}),
    ...(s.total ? { total: s.total } : {}),
  });
  if (s.stage === 'accepted' || s.stage === 'processed') out.push({ ...base, event: 'accepted', order_id: s.orderId });
  if (s.stage === 'processed')
    out.push({ ...base, event: 'processed', order_id: s.orderId, tracking_numbers: s.trackingNumbers ?? [], ...(s.total ? { total: s.total } : {}) });
  if (s.stage === 'failed')
    out.push({ ...base, event: 'failed', created: true, ...(s.error ? { error: s.error } : {}), ...(s.limit ? { limit: s.limit } : {}) });
  return out;
}
