/**
 * The CSV report of a batch ended at once (a second Ctrl-C): written synchronously as the process
 * exits, from the rows' layout read while the batch ran, it holds the same rows as the report
 * written at the batch's end, for the same results; rows of orders not reached have no status.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CsvReportWriter } from '../../src/booking/batch/report-csv.js';
import type { BatchResult } from '../../src/booking/batch/results.js';

const dir = mkdtempSync(join(tmpdir(), 'shipbook-report-now-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const orders = readFileSync('fixtures/csv/orders.csv');

/** Results for the first order of fixtures/csv/orders.csv (rows 2–3): booked, with its two tracking numbers. */
const results = (file: string): BatchResult[] => [
  {
    id: 'a-1',
    file,
    line: 2,
    status: 'booked',
    attempts: 1,
    order_id: 'ORD-AAAA1111',
    shipment_ids: ['SHP-1'],
    tracking_numbers: ['TRK0001'],
    total: '1,234.56',
  } as BatchResult,
];

async function both(file: string, name: string): Promise<{ atEnd: string; atOnce: string }> {
  const end = new CsvReportWriter(join(dir, `${name}-end.csv`), [file]);
  const now = new CsvReportWriter(join(dir, `${name}-now.csv`), [file]);
  for (const r of results(file)) {
    end.add(r);
    now.add(r);
  }
  await now.prepare();
  now.finishNow();
  await end.finish();
  return { atEnd: readFileSync(join(dir, `${name}-end.csv`), 'utf8'), atOnce: readFileSync(join(dir, `${name}-now.csv`), 'utf8') };
}

describe('CsvReportWriter.finishNow', () => {
  it('writes the same rows as the report at the end, for the same results', async () => {
    const file = join(dir, 'orders.csv');
    writeFileSync(file, orders);
    const { atEnd, atOnce } = await both(file, 'utf8');
    expect(atOnce).toBe(atEnd);
    const lines = atOnce
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    // The header, and every input row (the unreached order's rows without a status).
    expect(lines.length).toBe(orders.toString('utf8').trim().split('\n').length);
    expect(lines[1]).toContain('booked');
    expect(lines[1]).toContain('TRK0001');
    expect(lines[lines.length - 1]).not.toContain('booked');
    // No temporary file left beside it.
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('reads a UTF-16 file with semicolons as the batch read it', async () => {
    const text = orders.toString('utf8').replaceAll(',', ';');
    const file = join(dir, 'orders-16.csv');
    writeFileSync(file, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    const { atEnd, atOnce } = await both(file, 'utf16');
    expect(atOnce).toBe(atEnd);
    expect(atOnce).toContain('TRK0001');
  });

  it('before the layout is read, writes the rows of the results it has', () => {
    const file = join(dir, 'orders.csv');
    writeFileSync(file, orders);
    const w = new CsvReportWriter(join(dir, 'early.csv'), [file]);
    for (const r of results(file)) w.add(r);
    w.finishNow();
    const text = readFileSync(join(dir, 'early.csv'), 'utf8');
    expect(text).toContain('ORD-AAAA1111');
    expect(text).toContain('TRK0001');
    // Written once: a later finish leaves it as it is.
    w.finishNow();
  });
});
