/**
 * End-to-end: the hints of a create whose answer never came, and `shipbook order list`. The first
 * run (the answer lost) and the second (the ledger says unknown) give the same steps, the safe path
 * first: find out with `order list --from-service --reference …`, record it with `journal resolve`,
 * and last, with its risk stated, `--again`. Every command of the hint works when pasted. `order
 * list` lists what the ledger knows, filtered by reference, tracking number, status, day and user.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { ROOT, runCli } from '../helpers/cli.js';

// Every connection is closed without an answer (half of them after the request was processed) until a test turns it off.
const faults = { resetRate: 1 };
const fx = useSandbox({ faults });

/** The Sydney–Melbourne order with the reference `ref`, as a file of its own. */
function orderFile(dir: string, ref: string): string {
  const file = join(dir, `${ref}.yaml`);
  writeFileSync(file, readFileSync(join(ROOT, 'fixtures/orders/domestic-syd-mel.yaml'), 'utf8').replace(/transient_id: .*/, `transient_id: ${ref}`));
  return file;
}

/** The lines of the hint (from `hint:` to the end of stderr). */
function hintLines(stderr: string): string[] {
  return stderr.slice(stderr.indexOf('hint: ')).split('\n');
}

/** Checks the order of the hint's steps: find out, record (both answers), and --again last with its risk. */
function expectSafePathFirst(stderr: string, id: string, ref: string, file: string): void {
  const lines = hintLines(stderr);
  const find = lines.findIndex((l) => l.includes(`shipbook order list --from-service --reference ${ref}`));
  const exists = lines.findIndex((l) => l.includes(`shipbook journal resolve ${id} --order <order-id>`));
  const notCreated = lines.findIndex((l) => l.includes(`shipbook journal resolve ${id} --not-created`));
  const again = lines.findIndex((l) => l.includes(`shipbook book ${file} --again`));
  expect(find, stderr).toBeGreaterThanOrEqual(0);
  expect(exists).toBeGreaterThan(find);
  expect(notCreated).toBeGreaterThan(find);
  expect(again).toBeGreaterThan(Math.max(exists, notCreated));
  // --again alone on its line, with its risk, never in the sentence of the safe path.
  expect(lines[again]).toContain('a second order, paid twice');
  expect(lines[again]).not.toContain('journal resolve');
  // The route that answers 401 without the key is no longer offered.
  expect(stderr).not.toContain('GET /_sandbox/orders/');
}

describe('a create whose answer never came', () => {
  it('first and second run name journal resolve, with --again last; each command of the hint works when pasted', async () => {
    // Until a create's answer is lost after the order was made (the sandbox then holds it).
    for (let attempt = 0; attempt < 20; attempt++) {
      const dir = mkdtempSync(join(tmpdir(), 'shipbook-unknown-hints-'));
      const env = { ...fx.env, SHIPBOOK_STATE_DIR: dir };
      const ref = `UH-${attempt}-${process.pid}`;
      const file = orderFile(dir, ref);
      faults.resetRate = 1;
      const first = await runCli(['book', file], { env });
      faults.resetRate = 0;
      expect(first.code, first.stderr).toBe(5);
      const made = fx.sandbox.state
        .allOrders()
        .filter((o) => fx.sandbox.state.shipmentsOf(o).some((s) => s.request.transient_id === ref))
        .map((o) => o.id);
      if (made.length === 0) continue;
      // What the ledger knows: one unknown create, with its identity and reference.
      const unknown = await runCli(['order', 'list', '--status', 'unknown', '--json'], { env });
      expect(unknown.code, unknown.stderr).toBe(0);
      const rows = (JSON.parse(unknown.stdout) as { orders: Array<{ identity: string; status: string; references: string[]; order_id?: string }> }).orders;
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ status: 'unknown', references: [ref] });
      expect(rows[0]!.order_id).toBeUndefined();
      const id = rows[0]!.identity;
      // The first run's hint.
      expect(first.stderr).toContain('the request was sent but its answer was lost');
      expectSafePathFirst(first.stderr, id, ref, file);
      // The second run's hint: the same steps.
      const second = await runCli(['book', file], { env });
      expect(second.code).toBe(5);
      expectSafePathFirst(second.stderr, id, ref, file);
      // Pasted: the find command lists the sandbox's order with that reference.
      const found = await runCli(['order', 'list', '--from-service', '--reference', ref], { env });
      expect(found.code, found.stderr).toBe(0);
      expect(found.stdout).toContain(`${made[0]}\tpending\t${ref}`);
      // Pasted with the id found: recorded; the next book continues that order (no second one).
      const resolved = await runCli(['journal', 'resolve', id, '--order', made[0]!], { env });
      expect(resolved.code, resolved.stderr).toBe(0);
      const booked = await runCli(['book', file, '--json'], { env, timeoutMs: 60_000 });
      expect(booked.code, booked.stderr).toBe(0);
      const order = (JSON.parse(booked.stdout) as { order: { id: string; shipments: Array<{ tracking_number: string }> } }).order;
      expect(order.id).toBe(made[0]);
      // order list: what the ledger knows now, and its filters.
      const tracking = order.shipments[0]!.tracking_number;
      const byTracking = await runCli(['order', 'list', '--tracking', tracking, '--json'], { env });
      expect((JSON.parse(byTracking.stdout) as { orders: Array<{ order_id: string; status: string }> }).orders).toEqual([
        expect.objectContaining({ order_id: made[0], status: 'processed', tracking_numbers: [tracking], references: [ref] }),
      ]);
      for (const filter of [
        ['--reference', ref],
        ['--status', 'processed'],
        ['--day', 'today'],
        ['--user', userInfo().username],
      ]) {
        const r = await runCli(['order', 'list', ...filter], { env });
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout, filter.join(' ')).toContain(made[0]);
      }
      for (const filter of [
        ['--reference', 'NO-SUCH-REF'],
        ['--status', 'unknown'],
        ['--day', '2001-01-01'],
        ['--user', 'nobody-else'],
      ]) {
        const r = await runCli(['order', 'list', ...filter], { env });
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout, filter.join(' ')).toBe('');
        expect(r.stderr).toContain('No order in the ledger matches.');
      }
      const badDay = await runCli(['order', 'list', '--day', 'soon'], { env });
      expect(badDay.code).toBe(2);
      expect(badDay.stderr).toContain('--day "soon" is not a day');
      return;
    }
    throw new Error('no create in 20 attempts had its answer lost after the order was made');
  }, 180_000);
});

describe('order list --from-service', () => {
  it('lists the sandbox’s own orders, and the ledger’s list matches them', async () => {
    faults.resetRate = 0;
    const dir = mkdtempSync(join(tmpdir(), 'shipbook-order-list-'));
    const env = { ...fx.env, SHIPBOOK_STATE_DIR: dir };
    const ref = `OL-${process.pid}`;
    const created = await runCli(['order', 'create', orderFile(dir, ref), '-q'], { env });
    expect(created.code, created.stderr).toBe(0);
    const orderId = created.stdout.trim();
    const service = await runCli(['order', 'list', '--from-service', '--reference', ref, '--json'], { env });
    expect(service.code, service.stderr).toBe(0);
    expect((JSON.parse(service.stdout) as { orders: unknown[] }).orders).toEqual([
      expect.objectContaining({ order_id: orderId, status: 'pending', references: [ref] }),
    ]);
    const ledger = await runCli(['order', 'list', '--reference', ref, '--json'], { env });
    expect((JSON.parse(ledger.stdout) as { orders: unknown[] }).orders).toEqual([
      expect.objectContaining({ order_id: orderId, status: 'pending', references: [ref] }),
    ]);
    // --quiet gives the ids, ndjson one order a line.
    const quiet = await runCli(['order', 'list', '--reference', ref, '-q'], { env });
    expect(quiet.stdout).toBe(`${orderId}\n`);
    const ndjson = await runCli(['order', 'list', '--from-service', '--reference', ref, '-o', 'ndjson'], { env });
    expect(
      ndjson.stdout
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { order_id: string }).order_id),
    ).toEqual([orderId]);
    const withUser = await runCli(['order', 'list', '--from-service', '--user', 'x'], { env });
    expect(withUser.code).toBe(2);
  });
});
