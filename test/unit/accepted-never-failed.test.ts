import { describe, expect, it } from 'vitest';
import { applyRecord } from '../../src/ledger/fold.js';
import type { EntryState, JournalRecord } from '../../src/ledger/records.js';
import { acceptedNotEnded, resumeFrom, stoppedAs } from '../../src/booking/engine.js';
import { ApiError, BookingFailedError, ResultUnreadableError, WaitTimeoutError } from '../../src/errors.js';

/** The state of one document after `records`, as the ledger folds them. */
function stateOf(...records: Array<Omit<JournalRecord, 't' | 'id'>>): EntryState {
  let s: EntryState | undefined;
  for (const r of records) s = applyRecord(s, { t: '', id: 'doc-1', ...r });
  return s!;
}

const accepted = [
  { event: 'created', order_id: 'ORD-A' },
  { event: 'accepted', order_id: 'ORD-A' },
] as const;

describe('an accepted order is never failed', () => {
  it('still leaves a booking that the service said ended failed', () => {
    const ended = stateOf(...accepted, { event: 'failed', created: true, error: { code: 'booking_failed', message: 'no' } });
    expect(resumeFrom(ended).action).toBe('ended');
    expect(acceptedNotEnded(ended)).toBe(false);
  });

  it('reports an accepted order whose wait timed out or whose result could not be read as accepted, and a booking that ended as failed', () => {
    const state = stateOf(...accepted);
    const refused = new ApiError({ status: 429, message: 'too many requests', method: 'GET', url: 'http://127.0.0.1/orders/ORD-A/' });
    expect(stoppedAs(state, new WaitTimeoutError('ORD-A', 'gave up'))).toBe('accepted');
    expect(stoppedAs(state, new ResultUnreadableError('ORD-A', 'accepted', refused))).toBe('accepted');
    expect(stoppedAs(state, new BookingFailedError('ORD-A', 'booking of order ORD-A failed'))).toBe('failed');
  });

  it('gives a result that could not be read the exit code of a result pending (7), whatever answer hid it', () => {
    const refused = new ApiError({ status: 404, message: 'not found', method: 'GET', url: 'http://127.0.0.1/orders/ORD-A/' });
    expect(new ResultUnreadableError('ORD-A', 'accepted', refused).exitCode).toBe(7);
  });
});
