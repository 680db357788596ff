/**
 * The stage an input of a stopped batch is reported at (src/booking/batch/results.ts `lastKnown`): an
 * order an earlier run's `--max-total` refused stays `over_limit` with its total while this run's
 * limit is still below it, and is booked anew (here: not started) once no limit holds it.
 */
import { describe, expect, it } from 'vitest';
import { lastKnown } from '../../src/booking/batch/results.js';
import { ShipbookError } from '../../src/errors.js';
import type { EntryState } from '../../src/ledger/records.js';

const refused: EntryState = {
  id: 'abc',
  stage: 'failed',
  orderId: 'ORD-7',
  shipmentIds: ['SH-1'],
  total: '83.70',
  limit: '60.00',
  error: { code: 'limit_refused', message: 'over --max-total' },
  records: 4,
};
const base = { id: 'abc', file: 'orders.ndjson', line: 3 };
const full = new ShipbookError('journal_write_failed', 'no space left on the device [ENOSPC]', 'storage');

describe('an input of a batch the ledger stopped', () => {
  it("is over_limit with its total while this run's --max-total is still below it", () => {
    const r = lastKnown(base, refused, full, 0, { maxTotalCents: 6_000 });
    expect(r.status).toBe('over_limit');
    expect(r.total).toBe('83.70');
    expect(r.next).toEqual({ action: 'raise_limit', total: '83.70' });
    expect(r.error?.exit_code).toBe(9);
  });

  it('is not started when no limit holds it any more (the next run books it anew)', () => {
    const r = lastKnown(base, refused, full);
    expect(r.status).toBe('not_started');
    expect(r.next).toEqual({ action: 'rerun' });
  });
});
