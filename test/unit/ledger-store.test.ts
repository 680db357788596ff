import { appendFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JournalCorruptError } from '../../src/ledger/errors.js';
import { contentHash, IdentityCounter, identityOf } from '../../src/ledger/identity.js';
import { ledgerPath, openLedger } from '../../src/ledger/index.js';
import type { JournalRecord } from '../../src/ledger/records.js';
import { dayFilter, type LedgerStore, type RecordFilter } from '../../src/ledger/store.js';

const TARGET = 'https://store.example/#key:444444444444';

/** A state directory whose ledger holds `records` (one line each), then `tail` as written. */
function stateWith(records: JournalRecord[], tail = ''): string {
  const state = mkdtempSync(join(tmpdir(), 'shipbook-store-'));
  const path = ledgerPath(state, TARGET);
  mkdirSync(dirname(path), { recursive: true });
  const lines = [{ t: '2026-03-01T00:00:00.000Z', id: '#target', event: 'target', target: TARGET }, ...records].map((r) => `${JSON.stringify(r)}\n`);
  writeFileSync(path, lines.join('') + tail);
  return state;
}

const at = (t: string, id: string, r: Omit<JournalRecord, 't' | 'id'>): JournalRecord => ({ t, id, ...r });

/** Two documents: A became ORD-A on 2 March, B failed on 3 March; a torn last record at the end. */
const HISTORY: JournalRecord[] = [
  at('2026-03-02T09:00:00.000Z', 'a-1', { event: 'create_sent', step: 'create_order', file: 'a.json' }),
  at('2026-03-02T09:00:01.000Z', 'a-1', { event: 'created', order_id: 'ORD-A', total: '12.50' }),
  at('2026-03-02T09:00:02.000Z', 'a-1', { event: 'accept_sent', order_id: 'ORD-A' }),
  at('2026-03-03T10:00:00.000Z', 'b-1', { event: 'create_sent', step: 'create_order', file: 'b.json' }),
  at('2026-03-03T10:00:01.000Z', 'b-1', { event: 'failed', created: false, error: { code: 'validation', message: 'no' } }),
  at('2026-03-03T11:00:00.000Z', 'a-1', { event: 'processed', order_id: 'ORD-A', tracking_numbers: ['T1'] }),
];

async function query(ledger: LedgerStore, filter?: RecordFilter): Promise<string[]> {
  const out: string[] = [];
  for await (const r of ledger.records(filter)) out.push(`${r.id} ${r.event}`);
  return out;
}

describe('the ledger store: queries over the records', () => {
  it('streams every record of every document, oldest first, without the target record or a torn tail', async () => {
    const state = stateWith(HISTORY, '{"t":"2026-03-03T12:00:00.000Z","id":"c-1","ev');
    const ledger = await openLedger({ mode: 'write', stateDir: state, target: TARGET, command: 'test' });
    try {
      expect(ledger.location).toBe(ledgerPath(state, TARGET));
      expect(ledger.target).toBe(TARGET);
      expect(await query(ledger)).toEqual(HISTORY.map((r) => `${r.id} ${r.event}`));
    } finally {
      await ledger.close();
    }
  });

  it('finds a document by identity, and by its order id with the records written before the id was known', async () => {
    const ledger = await openLedger({ mode: 'write', stateDir: stateWith(HISTORY), target: TARGET, command: 'test' });
    try {
      expect(await query(ledger, { id: 'b-1' })).toEqual(['b-1 create_sent', 'b-1 failed']);
      expect(await query(ledger, { orderId: 'ORD-A' })).toEqual(['a-1 create_sent', 'a-1 created', 'a-1 accept_sent', 'a-1 processed']);
      expect(await query(ledger, { orderId: 'ORD-NONE' })).toEqual([]);
    } finally {
      await ledger.close();
    }
  });

  it('finds records by time range (since inclusive, until exclusive) and by day', async () => {
    const ledger = await openLedger({ mode: 'write', stateDir: stateWith(HISTORY), target: TARGET, command: 'test' });
    try {
      expect(await query(ledger, { since: new Date('2026-03-03T10:00:01.000Z') })).toEqual(['b-1 failed', 'a-1 processed']);
      expect(await query(ledger, { until: new Date('2026-03-02T09:00:01.000Z') })).toEqual(['a-1 create_sent']);
      const day = dayFilter('2026-03-03')!;
      expect(day.until.getTime() - day.since.getTime()).toBeGreaterThanOrEqual(23 * 3600_000);
      const onDay = HISTORY.filter((r) => Date.parse(r.t) >= day.since.getTime() && Date.parse(r.t) < day.until.getTime()).map((r) => `${r.id} ${r.event}`);
      expect(await query(ledger, { day: '2026-03-03' })).toEqual(onDay);
      expect(await query(ledger, { day: '2026-03-03', id: 'a-1' })).toEqual(onDay.filter((r) => r.startsWith('a-1')));
      expect(dayFilter('2026-02-30')).toBeUndefined();
      await expect(query(ledger, { day: 'yesterday' })).rejects.toThrow(RangeError);
    } finally {
      await ledger.close();
    }
  });

  it('sees records appended by this run, and names a line in the middle that is not a record', async () => {
    const state = stateWith(HISTORY);
    const ledger = await openLedger({ mode: 'write', stateDir: state, target: TARGET, command: 'test' });
    try {
      ledger.append({ id: 'd-1', event: 'create_sent', step: 'create_order' });
      await ledger.written();
      expect((await query(ledger, { id: 'd-1' })).length).toBe(1);
      appendFileSync(ledger.location, 'not a record\n{"t":"2026-03-04T00:00:00.000Z","id":"e-1","event":"failed"}\n');
      await expect(query(ledger)).rejects.toThrow(JournalCorruptError);
    } finally {
      await ledger.close();
    }
  });
});

describe('identityOf: one identity rule for a batch and a single booking', () => {
  const doc = { order: { shipments: [{ ref: 'x' }] } };
  const hash = contentHash(doc);

  it('a batch numbers identical documents in input order; a single booking takes the latest the ledger knows, or the next with again', async () => {
    const counter = new IdentityCounter();
    expect([counter.next(doc), counter.next(doc)]).toEqual([`${hash}-1`, `${hash}-2`]);
    expect(identityOf(undefined, doc, { occurrence: 2 }).id).toBe(`${hash}-2`);

    const ledger = await openLedger({ mode: 'write', stateDir: stateWith([]), target: TARGET, command: 'test' });
    try {
      expect(identityOf(ledger, doc).id).toBe(`${hash}-1`);
      expect(identityOf(ledger, doc, { again: true }).id).toBe(`${hash}-1`);
      ledger.append({ id: `${hash}-1`, event: 'processed', order_id: 'ORD-1' });
      ledger.append({ id: `${hash}-2`, event: 'processed', order_id: 'ORD-2' });
      // What a batch booked as its second copy is what a single book of the same file finds.
      expect(identityOf(ledger, doc).id).toBe(`${hash}-2`);
      const again = identityOf(ledger, doc, { again: true });
      expect(again.id).toBe(`${hash}-3`);
      again.again();
      expect(again.id).toBe(`${hash}-3`);
      again.next();
      expect(again.id).toBe(`${hash}-4`);
      // A claim alone is no booking of an occurrence.
      ledger.append({ id: `${hash}-3`, event: 'claimed', run: ledger.run });
      expect(identityOf(ledger, doc).id).toBe(`${hash}-2`);
    } finally {
      await ledger.close();
    }
  });
});
