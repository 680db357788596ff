/**
 * The ledger's in-memory index keeps settled documents as one string each: what it gives back is
 * the state the fold made (the same properties in the same order, undefined ones included, the
 * same values), for every sequence of records; and a journal longer than one read's chunk is read
 * a chunk at a time with the same states, line numbers and torn tail as a short one.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyRecord } from '../../src/ledger/fold.js';
import { readJournalFile } from '../../src/ledger/file/read.js';
import { StateIndex } from '../../src/ledger/file/state-index.js';
import type { EntryState, JournalRecord } from '../../src/ledger/records.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'shipbook-index-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const run = { pid: 1, host: 'h', at: '2026-01-01T00:00:00.000Z', nonce: 'n1', command: 'shipbook book x' };
const stamp = (r: Omit<JournalRecord, 't'>, i: number): JournalRecord => ({ t: `2026-01-01T00:00:${String(i % 60).padStart(2, '0')}.000Z`, ...r });

/** Records of one document's possible histories: booked, failed before and after creation, refused, resolved, hostile ids. */
const histories: Array<Array<Omit<JournalRecord, 't' | 'id'>>> = [
  [
    { event: 'claimed', run },
    { event: 'create_sent', step: 'create_order', file: 'orders.ndjson', line: 3, transient_ids: ['T-1'] },
    { event: 'created', order_id: 'ORD-1', shipment_ids: ['SHP-1'], total: '47.30' },
    { event: 'accept_sent', payment: 'credit' },
    { event: 'accepted' },
    { event: 'processed', tracking_numbers: ['SBX1'], total: '47.30' },
  ],
  [
    { event: 'claimed', run },
    { event: 'create_sent', step: 'create_order', file: 'a.yaml', line: 1 },
    { event: 'failed', error: { code: 'validation', message: 'bad', exit_code: 5 }, created: false },
  ],
  [
    { event: 'claimed', run },
    { event: 'create_sent', step: 'create_order', file: 'a.yaml', line: 1 },
    { event: 'created', order_id: 'ORD-2' },
    { event: 'failed', error: { code: 'limit_refused', message: 'over' }, limit: '10.00' },
  ],
  [
    { event: 'create_sent', step: 'create_order', file: 'a.yaml', line: 2 },
    { event: 'resolved', order_id: 'ORD-3' },
    { event: 'accepted' },
    { event: 'processed', tracking_numbers: [] },
  ],
  [
    { event: 'create_sent', step: 'create_order', file: 'we\u0000ird\u0001.yaml', line: 2, transient_ids: [''] },
    { event: 'created', order_id: 'ORD-\u0002', shipment_ids: [''] },
    { event: 'processed', tracking_numbers: ['a\u0001b'] },
  ],
  [{ event: 'shipment_created', shipment_ids: [] }, { event: 'cancelled' }],
  [
    { event: 'processed', tracking_numbers: ['X'], total: '1.00' },
    { event: 'claimed', run },
    { event: 'released', run },
  ],
];

describe('the ledger index', () => {
  it('gives back every state the fold made, after every record of every history', () => {
    const index = new StateIndex();
    const folded = new Map<string, EntryState>();
    let i = 0;
    histories.forEach((history, h) => {
      const id = `doc-${h}`;
      for (const r of history) {
        const record = stamp({ id, ...r } as Omit<JournalRecord, 't'>, i++);
        // The fold of the index's copy, and of a plain map's object, side by side.
        index.set(id, applyRecord(index.get(id), record));
        folded.set(id, applyRecord(folded.get(id), structuredClone(record)));
        const got = index.get(id)!;
        // A claim let go reads back absent (see src/ledger/file/state-index.ts).
        const { claim, ...unclaimed } = folded.get(id)!;
        const want = claim === undefined && !('claim' in got) ? unclaimed : folded.get(id)!;
        expect(Object.keys(got)).toEqual(Object.keys(want));
        expect(got).toStrictEqual(want);
      }
    });
    expect([...index.keys()]).toEqual([...folded.keys()]);
    expect([...index.values()]).toEqual([...folded.values()]);
    // Only documents not settled (one failed before anything was created, so booked again by the
    // next run) and the hostile one (kept as it is) stay objects.
    expect([...index.unsettled()].map((s) => s.id)).toEqual(['doc-1', 'doc-4']);
  });

  it('reads a journal longer than a chunk as it reads a short one: states, a torn tail, a corrupt line named', () => {
    const path = join(dir, 'journal.ndjson');
    const lines: string[] = [JSON.stringify({ t: 'x', id: '#target', event: 'target', target: 't' })];
    for (let n = 0; n < 9_000; n++) {
      const id = `doc-${n}`;
      lines.push(
        JSON.stringify(
          stamp({ id, event: 'create_sent', step: 'create_order', file: 'o.ndjson', line: n + 1, transient_ids: [`T-${n}-${'é'.repeat(n % 7)}`] }, n),
        ),
      );
      lines.push(JSON.stringify(stamp({ id, event: 'created', order_id: `ORD-${n}`, shipment_ids: [`S-${n}`], total: '47.30' }, n)));
      lines.push(JSON.stringify(stamp({ id, event: 'processed', tracking_numbers: [`SBX${n}`] }, n)));
    }
    const text = `${lines.join('\n')}\n`;
    expect(Buffer.byteLength(text)).toBeGreaterThan(2 * 1024 * 1024);
    writeFileSync(path, `${text}{"t":"y","id":"torn`);
    const reading = readJournalFile(path);
    expect(reading.states.size).toBe(9_000);
    expect(reading.states.get('doc-8999')).toMatchObject({ stage: 'processed', orderId: 'ORD-8999', trackingNumbers: ['SBX8999'], line: 9000 });
    expect(reading.states.get('doc-6')?.transientIds).toEqual([`T-6-${'é'.repeat(6)}`]);
    expect(reading.tornAt).toBe(Buffer.byteLength(text));
    expect(reading.end).toBe(Buffer.byteLength(text));
    expect(reading.notes[0]).toContain(`${path}:${lines.length + 1}: an incomplete last record`);
    // A line that is no record in the middle is named by its number.
    writeFileSync(path, `${lines.slice(0, 20_000).join('\n')}\nnot a record\n${lines.slice(20_000).join('\n')}\n`);
    expect(() => readJournalFile(path)).toThrow(new RegExp(`${path}:20001`));
  });
});
