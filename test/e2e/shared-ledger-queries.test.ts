/**
 * The queries of the ledger interface (src/ledger/store.ts `records`) on the shared ledger, against
 * a real PostgreSQL server (test/helpers/postgres.ts): the same answers as the file ledger gives for
 * the same records, which reach the database through `ledger push` (src/ledger/pg/push.ts).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerPath, openLedger } from '../../src/ledger/index.js';
import { targetLockKey } from '../../src/ledger/pg/ledger.js';
import { pushFileLedger } from '../../src/ledger/pg/push.js';
import type { JournalRecord } from '../../src/ledger/records.js';
import { dayFilter, type LedgerStore, type RecordFilter } from '../../src/ledger/store.js';
import { POSTGRES_MISSING, startPostgres, type TestPostgres } from '../helpers/postgres.js';

const TARGET = 'https://store.example/#key:555555555555';

const at = (t: string, id: string, r: Omit<JournalRecord, 't' | 'id'>): JournalRecord => ({ t, id, ...r });

/** Two documents: A became ORD-A on 2 March, B failed on 3 March. */
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

describe.skipIf(POSTGRES_MISSING !== undefined)(`queries of the shared ledger${POSTGRES_MISSING ? ` (skipped: ${POSTGRES_MISSING})` : ''}`, () => {
  let pg: TestPostgres;
  let ledger: LedgerStore;
  let state: string;

  beforeAll(async () => {
    pg = startPostgres();
    state = mkdtempSync(join(tmpdir(), 'shipbook-pg-queries-'));
    const path = ledgerPath(state, TARGET);
    mkdirSync(dirname(path), { recursive: true });
    const lines = [{ t: '2026-03-01T00:00:00.000Z', id: '#target', event: 'target', target: TARGET }, ...HISTORY];
    writeFileSync(path, lines.map((r) => `${JSON.stringify(r)}\n`).join(''));
    const pushed = await pushFileLedger({ url: pg.url, target: TARGET, path, lockKey: targetLockKey(TARGET) });
    expect(pushed).toEqual({ records: HISTORY.length, copied: HISTORY.length, documents: 2 });
    ledger = await openLedger({ mode: 'write', setting: pg.url, stateDir: state, target: TARGET, command: 'test' });
  }, 120_000);

  afterAll(async () => {
    await ledger?.close();
    pg?.stop();
  });

  it('folds what was pushed: where each document stands', () => {
    expect(ledger.location).toBe(pg.url);
    expect(ledger.get('a-1')).toMatchObject({ stage: 'processed', orderId: 'ORD-A', trackingNumbers: ['T1'] });
    expect(ledger.get('b-1')?.stage).toBe('new');
  });

  it('streams every record, oldest first; by document; by order id with the records written before the id was known', async () => {
    expect(await query(ledger)).toEqual(HISTORY.map((r) => `${r.id} ${r.event}`));
    expect(await query(ledger, { id: 'b-1' })).toEqual(['b-1 create_sent', 'b-1 failed']);
    expect(await query(ledger, { orderId: 'ORD-A' })).toEqual(['a-1 create_sent', 'a-1 created', 'a-1 accept_sent', 'a-1 processed']);
    expect(await query(ledger, { orderId: 'ORD-NONE' })).toEqual([]);
  });

  it('by time range (since inclusive, until exclusive) and by day, as the file ledger answers', async () => {
    expect(await query(ledger, { since: new Date('2026-03-03T10:00:01.000Z') })).toEqual(['b-1 failed', 'a-1 processed']);
    expect(await query(ledger, { until: new Date('2026-03-02T09:00:01.000Z') })).toEqual(['a-1 create_sent']);
    const day = dayFilter('2026-03-03')!;
    const onDay = HISTORY.filter((r) => Date.parse(r.t) >= day.since.getTime() && Date.parse(r.t) < day.until.getTime()).map((r) => `${r.id} ${r.event}`);
    expect(await query(ledger, { day: '2026-03-03' })).toEqual(onDay);
    expect(await query(ledger, { day: '2026-03-03', id: 'a-1' })).toEqual(onDay.filter((r) => r.startsWith('a-1')));
    await expect(query(ledger, { day: 'yesterday' })).rejects.toThrow(RangeError);
  });

  it('history and the hand-over sheet read the shared ledger when the setting names it: the same records as the file it was pushed from', async () => {
    const shared = await openLedger({ mode: 'query', setting: pg.url, stateDir: state, target: TARGET });
    const file = await openLedger({ mode: 'query', setting: 'file', stateDir: state, target: TARGET });
    try {
      expect(shared.location).toBe(pg.url);
      for (const filter of [{}, { orderId: 'ORD-A' }, { day: '2026-03-03' }, { since: new Date('2026-03-02T09:00:01.000Z') }] as RecordFilter[]) {
        const a: string[] = [];
        for await (const r of shared.records(filter)) a.push(`${r.id} ${r.event} ${r.t}`);
        const b: string[] = [];
        for await (const r of file.records(filter)) b.push(`${r.id} ${r.event} ${r.t}`);
        expect(a).toEqual(b);
      }
    } finally {
      await shared.close();
      await file.close();
    }
  });

  it('sees what this run appended once it is committed', async () => {
    ledger.append({ id: 'd-1', event: 'create_sent', step: 'create_order' });
    await ledger.written();
    expect(await query(ledger, { id: 'd-1' })).toEqual(['d-1 create_sent']);
  });
});
