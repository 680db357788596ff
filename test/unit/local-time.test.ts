/** Times shown to people: local, to the second, with the zone's name; JSON and tab-separated lines keep ISO 8601 UTC. */
import { describe, expect, it } from 'vitest';
import { localTime } from '../../src/output/local-time.js';
import { printHistory } from '../../src/output/history.js';
import { printOrderList } from '../../src/output/order-list.js';
import { bufferIO } from '../helpers/run.js';
import { prepareTables } from '../../src/output/table.js';

await prepareTables();

describe('local times', () => {
  it('shows an instant in a zone with its abbreviation, summer time included', () => {
    expect(localTime('2026-11-27T12:39:05.120Z', 'Australia/Sydney')).toBe('2026-11-27 23:39:05 AEDT');
    expect(localTime('2026-06-27T12:39:05Z', 'Australia/Sydney')).toBe('2026-06-27 22:39:05 AEST');
    expect(localTime('2026-11-27T12:39:05Z', 'Australia/Perth')).toBe('2026-11-27 20:39:05 AWST');
    expect(localTime('2026-11-27T12:39:05Z', 'UTC')).toBe('2026-11-27 12:39:05 UTC');
    expect(localTime('2026-11-27T12:39:05Z', 'America/New_York')).toBe('2026-11-27 07:39:05 EST');
    expect(localTime('2026-11-27T12:39:05Z', 'Asia/Kolkata')).toBe('2026-11-27 18:09:05 GMT+5:30');
    expect(localTime('not a time')).toBe('not a time');
  });

  it('puts the local time in the history table and keeps ISO 8601 in tab-separated lines', () => {
    const row = { time: '2026-11-27T12:39:05.000Z', operation: 'book', step: 'accept', id: 'x', status: 'done', order_id: 'ORD-1' } as const;
    const table = bufferIO();
    printHistory(table, 'table', [row]);
    expect(table.stdoutText()).toContain(localTime(row.time));
    expect(table.stdoutText()).not.toContain('2026-11-27T12:39:05.000Z');
    const tsv = bufferIO();
    printHistory(tsv, 'tsv', [row]);
    expect(tsv.stdoutText().split('\t')[0]).toBe('2026-11-27T12:39:05.000Z');
  });

  it('puts the local time in the order list table too', () => {
    const row = { order_id: 'ORD-1', status: 'processed', references: ['SO-1'], tracking_numbers: [], created_at: '2026-11-27T12:39:05.000Z' };
    const table = bufferIO();
    printOrderList(table, 'table', [row]);
    expect(table.stdoutText()).toContain(localTime(row.created_at));
    const tsv = bufferIO();
    printOrderList(tsv, 'tsv', [row]);
    expect(tsv.stdoutText()).toContain('2026-11-27T12:39:05.000Z');
  });
});
