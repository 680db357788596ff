/**
 * The run's journal copy beside the shared ledger, through the one chooser (src/ledger/index.ts
 * `openLedger`), against a real PostgreSQL server (test/helpers/postgres.ts): a peek reads the
 * further along of the shared ledger and the copy; a run that records takes into the shared ledger
 * what its copy knows further, and writes what it records to the copy too; a copy written against
 * another target is refused, as the file ledger refuses it.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLedger, type JournalRecord } from '../../src/ledger/index.js';
import { POSTGRES_MISSING, startPostgres, type TestPostgres } from '../helpers/postgres.js';

const TARGET = 'https://copy.example/#key:666666666666';
const OTHER = 'https://other.example/#key:777777777777';

/** A journal file against `target` holding `records` (with their times). */
function journal(dir: string, name: string, target: string, records: Array<Omit<JournalRecord, 't'>>): string {
  const path = join(dir, name);
  const lines = [{ id: '#target', event: 'target', target }, ...records].map((r, i) => JSON.stringify({ t: `2026-03-0${1 + (i % 8)}T09:00:00.000Z`, ...r }));
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

describe.skipIf(POSTGRES_MISSING !== undefined)(
  `the journal copy of a run on the shared ledger${POSTGRES_MISSING ? ` (skipped: ${POSTGRES_MISSING})` : ''}`,
  () => {
    let pg: TestPostgres;
    let dir: string;
    let state: string;

    beforeAll(async () => {
      pg = startPostgres();
      dir = mkdtempSync(join(tmpdir(), 'shipbook-pg-copy-'));
      state = mkdtempSync(join(tmpdir(), 'shipbook-pg-copy-state-'));
      // The shared ledger knows c-1 as sent, not yet answered.
      const ledger = await openLedger({ mode: 'write', setting: pg.url, stateDir: state, target: TARGET, command: 'test' });
      ledger.append({ id: 'c-1', event: 'create_sent', step: 'create_order' });
      await ledger.durable();
      await ledger.close();
    }, 120_000);

    afterAll(() => {
      pg?.stop();
    });

    it('a peek gives the further along of the shared ledger and the copy, and refuses a copy of another target', async () => {
      const copy = journal(dir, 'peek.ndjson', TARGET, [{ id: 'c-1', event: 'created', order_id: 'ORD-C' }]);
      const without = await openLedger({ mode: 'peek', setting: pg.url, stateDir: state, target: TARGET });
      expect(without('c-1')?.stage).toBe('unknown');
      const withCopy = await openLedger({ mode: 'peek', setting: pg.url, stateDir: state, target: TARGET, copy: { path: copy } });
      expect(withCopy('c-1')).toMatchObject({ stage: 'created', orderId: 'ORD-C' });
      expect(withCopy('nothing')).toBeUndefined();
      const foreign = journal(dir, 'peek-other.ndjson', OTHER, []);
      await expect(openLedger({ mode: 'peek', setting: pg.url, stateDir: state, target: TARGET, copy: { path: foreign } })).rejects.toMatchObject({
        code: 'journal_other_target',
      });
    });

    it('a run takes into the shared ledger what its copy knows further, and writes to the copy what it records', async () => {
      const copy = journal(dir, 'run.ndjson', TARGET, [
        { id: 'c-1', event: 'created', order_id: 'ORD-C' },
        { id: 'c-1', event: 'accepted', order_id: 'ORD-C' },
      ]);
      const ledger = await openLedger({ mode: 'write', setting: pg.url, stateDir: state, target: TARGET, command: 'test', copy: { path: copy, lock: true } });
      try {
        expect(ledger.get('c-1')).toMatchObject({ stage: 'accepted', orderId: 'ORD-C' });
        ledger.append({ id: 'd-1', event: 'create_sent', step: 'create_order' });
        await ledger.durable();
      } finally {
        await ledger.close();
      }
      const queries = await openLedger({ mode: 'query', setting: pg.url, stateDir: state, target: TARGET });
      try {
        const events: string[] = [];
        for await (const r of queries.records({ id: 'c-1' })) events.push(r.event);
        expect(events).toContain('accepted');
      } finally {
        await queries.close();
      }
      const written = readFileSync(copy, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as JournalRecord);
      expect(written.some((r) => r.id === 'd-1' && r.event === 'create_sent')).toBe(true);
    });

    it('a run refuses a copy written against another target, before it opens the shared ledger', async () => {
      const foreign = journal(dir, 'run-other.ndjson', OTHER, []);
      await expect(
        openLedger({ mode: 'write', setting: pg.url, stateDir: state, target: TARGET, command: 'test', copy: { path: foreign, lock: true } }),
      ).rejects.toMatchObject({ code: 'journal_other_target' });
    });
  },
);
