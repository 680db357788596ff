import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyRecord } from '../../src/ledger/fold.js';
import type { EntryState, JournalRecord } from '../../src/ledger/records.js';
import { resumeFrom } from '../../src/booking/engine.js';
import { JournalTargetError } from '../../src/ledger/errors.js';
import { Ledger, peekLedger } from '../../src/ledger/file/ledger.js';
import { ledgerPath } from '../../src/ledger/paths.js';

/** The state of one document after `records`, as the ledger folds them. */
function stateOf(...records: Array<Omit<JournalRecord, 't' | 'id'>>): EntryState {
  let s: EntryState | undefined;
  for (const r of records) s = applyRecord(s, { t: '', id: 'doc-1', ...r });
  return s!;
}

describe('the resume table: what the ledger says about a document → what this run does', () => {
  it('books what it knows nothing of, or what was not created', () => {
    expect(resumeFrom(undefined).action).toBe('book');
    expect(resumeFrom(stateOf({ event: 'create_sent' }, { event: 'failed', created: false, error: { code: 'api_error', message: '503' } })).action).toBe(
      'book',
    );
    expect(resumeFrom(stateOf({ event: 'create_sent' }, { event: 'resolved', not_created: true })).action).toBe('book');
  });

  it('books nothing already processed, and nothing whose create was never answered', () => {
    expect(
      resumeFrom(stateOf({ event: 'created', order_id: 'ORD-A' }, { event: 'accepted', order_id: 'ORD-A' }, { event: 'processed', order_id: 'ORD-A' })),
    ).toMatchObject({ action: 'already_booked', orderId: 'ORD-A' });
    expect(resumeFrom(stateOf({ event: 'create_sent', step: 'create_order' })).action).toBe('unknown');
  });

  it('continues an order that exists: accepts a pending or refused one, waits for an accepted one', () => {
    expect(resumeFrom(stateOf({ event: 'created', order_id: 'ORD-A' }))).toMatchObject({ action: 'accept', orderId: 'ORD-A' });
    expect(
      resumeFrom(stateOf({ event: 'created', order_id: 'ORD-A' }, { event: 'failed', created: true, error: { code: 'api_error', message: 'card declined' } })),
    ).toMatchObject({ action: 'accept' });
    expect(resumeFrom(stateOf({ event: 'created', order_id: 'ORD-A' }, { event: 'accepted', order_id: 'ORD-A' }))).toMatchObject({
      action: 'wait',
      orderId: 'ORD-A',
    });
  });

  it('leaves a booking that ended at the carrier, and shipments not combined', () => {
    expect(
      resumeFrom(stateOf({ event: 'created', order_id: 'ORD-A' }, { event: 'failed', created: true, error: { code: 'booking_failed', message: 'no' } })).action,
    ).toBe('ended');
    expect(resumeFrom(stateOf({ event: 'shipment_created', shipment_ids: ['SHP-1'] })).action).toBe('combine');
  });

  it('books anew an order refused by --max-total once the limit allows its total, and not before', () => {
    const refused = stateOf(
      { event: 'created', order_id: 'ORD-A', total: '42.50' },
      { event: 'failed', created: true, error: { code: 'limit_refused', message: 'over' }, limit: '30.00' },
    );
    expect(refused.limit).toBe('30.00');
    expect(resumeFrom(refused, { maxTotalCents: 3000 })).toMatchObject({ action: 'over_limit', totalCents: 4250 });
    expect(resumeFrom(refused, { maxTotalCents: 6000 }).action).toBe('book');
    expect(resumeFrom(refused).action).toBe('book');
  });
});

describe('the ledger of a target', () => {
  it('names its target in its first record, and refuses a journal copy written against another', async () => {
    const state = mkdtempSync(join(tmpdir(), 'shipbook-ledger-unit-'));
    const copy = join(state, 'journal.ndjson');
    const ledger = await Ledger.open({ stateDir: state, target: 'https://a.example/#key:111111111111', copy: { path: copy, lock: false }, command: 'test' });
    ledger.append({ id: 'doc-1', event: 'created', order_id: 'ORD-A' });
    await ledger.durable();
    await ledger.close();
    const first = JSON.parse(readFileSync(ledgerPath(state, 'https://a.example/#key:111111111111'), 'utf8').split('\n')[0]!) as JournalRecord;
    expect(first).toMatchObject({ event: 'target', target: 'https://a.example/#key:111111111111' });
    expect(JSON.parse(readFileSync(copy, 'utf8').split('\n')[0]!)).toMatchObject({ event: 'target' });
    await expect(
      Ledger.open({ stateDir: state, target: 'https://b.example/#key:222222222222', copy: { path: copy, lock: false }, command: 'test' }),
    ).rejects.toThrow(JournalTargetError);
    expect(() => peekLedger({ stateDir: state, target: 'https://b.example/#key:222222222222', copy: { path: copy, lock: false } })).toThrow(
      /was written against https:\/\/a\.example\/ \(key fingerprint 111111111111\)/,
    );
  });

  it('takes into the ledger what a journal copy knows further along (a fresh machine), never the other way round', async () => {
    const state = mkdtempSync(join(tmpdir(), 'shipbook-ledger-unit-'));
    const copy = join(state, 'journal.ndjson');
    const target = 'builtin-sandbox:/tmp/x';
    const lines = [
      { t: '', id: '#target', event: 'target', target },
      { t: '', id: 'doc-1', event: 'created', order_id: 'ORD-A' },
      { t: '', id: 'doc-1', event: 'accepted', order_id: 'ORD-A' },
      { t: '', id: 'doc-1', event: 'processed', order_id: 'ORD-A', tracking_numbers: ['SBX1'] },
    ];
    writeFileSync(copy, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const ledger = await Ledger.open({ stateDir: state, target, copy: { path: copy, lock: false }, command: 'test' });
    expect(ledger.get('doc-1')).toMatchObject({ stage: 'processed', orderId: 'ORD-A', trackingNumbers: ['SBX1'] });
    await ledger.close();
    // Without the copy, the ledger alone knows it now.
    expect(peekLedger({ stateDir: state, target })('doc-1')).toMatchObject({ stage: 'processed' });
  });
});
