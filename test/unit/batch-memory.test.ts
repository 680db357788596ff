/**
 * A batch's memory is bounded by the work under way, not by its size: after 10,000 orders are
 * booked, the per-order objects of the run (each document's state in the ledger and its journal
 * copy, each result given to the reports) are no longer reachable. Counted with WeakRef probes
 * and a forced garbage collection: nothing here depends on time or on the machine's load.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Ledger } from '../../src/ledger/file/ledger.js';
import { ReportWriter } from '../../src/booking/batch/report.js';
import { CsvReportWriter } from '../../src/booking/batch/report-csv.js';
import type { BatchResult } from '../../src/booking/batch/results.js';
import type { EntryState } from '../../src/ledger/records.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** How many of `refs` still point at an object after full garbage collections. */
async function alive(refs: ReadonlyArray<WeakRef<object>>): Promise<number> {
  for (let i = 0; i < 3; i++) {
    // WeakRefs made in this turn keep their targets until it ends.
    await new Promise((resolve) => setImmediate(resolve));
    gc();
  }
  return refs.filter((r) => r.deref() !== undefined).length;
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'shipbook-memory-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const ORDERS = 10_000;

describe("a batch's memory", () => {
  it("keeps no object per booked order in the ledger's index nor in its journal copy's", async () => {
    const copy = join(dir, 'journal.ndjson');
    const ledger = await Ledger.open({ stateDir: dir, target: 'sandbox-test', copy: { path: copy, lock: true }, command: 'shipbook book orders.ndjson' });
    const probes: Array<WeakRef<EntryState>> = [];
    for (let n = 0; n < ORDERS; n++) {
      const id = `${n.toString(16).padStart(16, '0')}`;
      // What the booking engine records for one order, as a batch does.
      await ledger.claim(id, () => true);
      probes.push(
        new WeakRef(ledger.append({ id, event: 'create_sent', step: 'create_order', file: 'orders.ndjson', line: n + 1, transient_ids: [`T-${n}`] })),
      );
      probes.push(new WeakRef(ledger.append({ id, event: 'created', order_id: `ORD-${n}`, shipment_ids: [`SHP-${n}`], total: '47.30' })));
      ledger.append({ id, event: 'accept_sent' });
      ledger.append({ id, event: 'accepted' });
      probes.push(new WeakRef(ledger.append({ id, event: 'processed', tracking_numbers: [`SBX${n}`], total: '47.30' })));
      probes.push(new WeakRef(ledger.get(id)!));
      if (n % 500 === 0) await ledger.durable();
    }
    await ledger.durable();
    // Still told as booked, with everything a rerun's report needs.
    expect(ledger.get('0000000000000007')).toMatchObject({ stage: 'processed', orderId: 'ORD-7', trackingNumbers: ['SBX7'], total: '47.30', line: 8 });
    expect(await alive(probes)).toBeLessThanOrEqual(100);
    await ledger.close();
    expect(
      readFileSync(copy, 'utf8')
        .split('\n')
        .filter((l) => l.includes('"processed"')),
    ).toHaveLength(ORDERS);
  }, 60_000);
  /** The result of order `n`, as the runner gives it: booked, or (every seventh) failed with its next step. */
  const resultOf = (n: number): BatchResult =>
    n % 7 === 3
      ? {
          id: `id-${n}`,
          file: 'orders.csv',
          line: n + 2,
          status: 'failed',
          attempts: 1,
          error: { code: 'api_error', message: `the service refused order ${n}: "bad\npostcode"`, exit_code: 8 },
          next: { action: 'fix_and_rerun' },
          hint: 'fix the order, then run the same command again',
        }
      : {
          id: `id-${n}`,
          file: 'orders.csv',
          line: n + 2,
          status: 'booked',
          order_id: `ORD-${n}`,
          shipment_ids: [`SHP-${n}`],
          tracking_numbers: [`SBX${n}`],
          total: '47.30',
          attempts: 2,
          seconds: 0.25,
        };

  it('keeps no result in the JSON report writer, whose file holds every one, exactly as one document', async () => {
    const path = join(dir, 'report.json');
    const started = new Date('2026-11-27T10:00:00.000Z');
    const target = { kind: 'sandbox' as const, base_url: 'http://127.0.0.1:1/', profile: 'default' };
    const reports = new ReportWriter({ report: path, target: () => target }, 0, started);
    const probes: Array<WeakRef<BatchResult>> = [];
    for (let n = 0; n < ORDERS; n++) {
      const r = resultOf(n);
      reports.add(r);
      probes.push(new WeakRef(r));
      // Written as results come: the first at once, a whole document.
      if (n === 0) expect((JSON.parse(readFileSync(path, 'utf8')) as { orders: unknown[] }).orders).toEqual([r]);
    }
    expect(await alive(probes)).toBeLessThanOrEqual(100);
    const summary = { booked: ORDERS - 1_429, already_booked: 0, booked_by_other_run: 0, accepted: 0, failed: 1_429, unknown: 0, invalid: 0 };
    const rest = { still_booking: 0, pending: 0, not_started: 0, over_limit: 0, over_budget: 0, totalCents: 123, interrupted: false };
    const finished = new Date('2026-11-27T10:05:00.000Z');
    await reports.finish({ ...summary, ...rest }, finished);
    const { totalCents: _cents, ...written } = rest;
    const orders = Array.from({ length: ORDERS }, (_, n) => resultOf(n));
    // The very text of the document as a whole, written at once.
    const whole = {
      started_at: started.toISOString(),
      target,
      orders,
      finished_at: finished.toISOString(),
      summary: { ...summary, ...written, total: '1.23' },
    };
    expect(readFileSync(path, 'utf8')).toBe(`${JSON.stringify(whole, null, 2)}\n`);
    // Nothing left beside it.
    expect(existsSync(`${path}.${process.pid}.orders`)).toBe(false);
  }, 60_000);

  it('keeps no result in the CSV report writer, and writes a row for each', async () => {
    // Orders of NDJSON inputs: a row each, named by file and row.
    const csv = new CsvReportWriter(join(dir, 'results.csv'), []);
    const probes: Array<WeakRef<BatchResult>> = [];
    for (let n = 0; n < ORDERS; n++) {
      const r = { ...resultOf(n), file: 'orders.ndjson' };
      csv.add(r);
      probes.push(new WeakRef(r));
    }
    expect(await alive(probes)).toBeLessThanOrEqual(100);
    await csv.finish();
    const lines = readFileSync(join(dir, 'results.csv'), 'utf8').split('\n');
    expect(lines[0]).toBe('\uFEFFfile,row,status,order_id,shipment_id,tracking_number,total_aud,error,warnings');
    expect(lines[1]).toBe('orders.ndjson,2,booked,ORD-0,SHP-0,SBX0,47.30,,');
    expect(lines[4]).toBe('orders.ndjson,5,failed,,,,,"the service refused order 3: ""bad');
    expect(lines).toHaveLength(ORDERS + 1 + 1_429 + 1);
  }, 60_000);
});
