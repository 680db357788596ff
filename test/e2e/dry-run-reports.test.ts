/**
 * The reports of a batch say what happened, a dry run included: `--report r.csv --junit j.xml
 * --dry-run` lists the plan, one row and one test case per order; JUnit test cases are named by
 * the input's place (never the order id, which changes with every run, so a CI's history of a
 * test case holds) and carry `time=`.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { batchFixture } from '../helpers/batch.js';
import { runShipbook } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const fx = useSandbox({ processingDelayMs: 20 });
const dir = mkdtempSync(join(tmpdir(), 'shipbook-dry-reports-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An NDJSON file of `n` orders tagged `tag-i`. */
const ordersFile = (tag: string, n: number): string => batchFixture(n, { dir, prefix: tag, name: `${tag}.ndjson` }).file;
const testcases = (xml: string) => [...xml.matchAll(/<testcase [^>]*name="([^"]*)"[^>]*time="([0-9.]+)"/g)].map((m) => ({ name: m[1]!, time: Number(m[2]) }));
const csvRows = (text: string) =>
  text
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\n')
    .map((l) => l.split(','));

describe('the reports of a dry run list the plan', () => {
  it('--report r.csv --junit j.xml --dry-run: a row and a skipped test case per order', async () => {
    const file = ordersFile('DRY', 3);
    const csv = join(dir, 'r.csv');
    const junit = join(dir, 'j.xml');
    const r = await runShipbook(['book', file, '--report', csv, '--junit', junit, '--dry-run'], { env: fx.env });
    expect(r.code, r.stderr).toBe(0);
    const rows = csvRows(readFileSync(csv, 'utf8'));
    expect(rows[0]).toEqual(['file', 'row', 'status', 'order_id', 'shipment_id', 'tracking_number', 'total_aud', 'error', 'warnings']);
    expect(rows.slice(1).map((row) => [row[1], row[2]])).toEqual([
      ['1', 'valid'],
      ['2', 'valid'],
      ['3', 'valid'],
    ]);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(/<testsuite name="shipbook book" tests="3" failures="0" errors="0" skipped="3"/);
    expect(testcases(xml).map((t) => t.name)).toEqual([1, 2, 3].map((n) => `${file}:${n}`));
    expect(xml.match(/<skipped message="dry run: book"\/>/g)).toHaveLength(3);
  });

  it('--report r.json --dry-run: every order with its plan, marked as a dry run', async () => {
    const file = ordersFile('DRYJ', 2);
    const json = join(dir, 'r.json');
    const r = await runShipbook(['book', file, '--report', json, '--dry-run'], { env: fx.env });
    expect(r.code, r.stderr).toBe(0);
    const rep = JSON.parse(readFileSync(json, 'utf8')) as { dry_run: boolean; orders: Array<{ line: number; status: string; plan: { action: string } }> };
    expect(rep.dry_run).toBe(true);
    expect(rep.orders.map((o) => [o.line, o.status, o.plan.action])).toEqual([
      [1, 'valid', 'book'],
      [2, 'valid', 'book'],
    ]);
  });
});

describe('JUnit test cases keep their names from run to run', () => {
  it('names a test case by its input, not its order id, and gives each a time', async () => {
    const file = ordersFile('JU', 2);
    const first = join(dir, 'j1.xml');
    const second = join(dir, 'j2.xml');
    const a = await runShipbook(['book', file, '--junit', first, '--poll', '50ms'], { env: fx.env });
    expect(a.code, a.stderr).toBe(0);
    const b = await runShipbook(['book', file, '--junit', second], { env: fx.env });
    expect(b.code, b.stderr).toBe(0);
    const one = testcases(readFileSync(first, 'utf8'));
    const two = testcases(readFileSync(second, 'utf8'));
    expect(one.map((t) => t.name)).toEqual([`${file}:1`, `${file}:2`]);
    expect(two.map((t) => t.name)).toEqual(one.map((t) => t.name));
    expect(readFileSync(first, 'utf8')).not.toMatch(/name="[^"]*ORD-/);
    // Booking took time in the first run; the second found both booked before.
    expect(one.every((t) => t.time > 0)).toBe(true);
    expect(readFileSync(first, 'utf8')).toMatch(/<testsuite [^>]*time="[0-9]+\.[0-9]{3}"/);
  });

  it('the CSV report gives each booked row its shipment id, as the JSON report does', async () => {
    const file = ordersFile('CSVID', 2);
    const csv = join(dir, 'booked.csv');
    const r = await runShipbook(['book', file, '--report', csv, '--poll', '50ms'], { env: fx.env });
    expect(r.code, r.stderr).toBe(0);
    const rows = csvRows(readFileSync(csv, 'utf8')).slice(1);
    for (const row of rows) expect(row[4], row.join(',')).toMatch(/^SHP-/);
  });
});
