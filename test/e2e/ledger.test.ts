/**
 * Booked exactly once, however `book` is run: every `book` (single, batch, shard, with or without
 * `--journal`) consults the ledger of its target service in the state directory. Runs against
 * sandboxes on 127.0.0.1, each opening the ledger afresh: separate `bin/shipbook.js` processes
 * for shards side by side, runs from another working directory and the interrupted ones, in-process
 * for the rest; the sandbox's own list of orders (GET /_sandbox/orders/) is the witness.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { runShipbook } from '../helpers/run.js';
import { BIN, ROOT, isolatedEnv, runCli } from '../helpers/cli.js';
import { ordersByInput as ordersAt } from '../helpers/sandbox-process.js';

const KEY = 'sk_test_ledger_0123456789';
const A = join(ROOT, 'fixtures/orders/domestic-syd-mel.yaml');
/** Every order the sandbox holds, by the transient id of its first shipment. */
const ordersByInput = (url: string) => ordersAt(url, KEY);

/** A directory with an NDJSON file of `n` orders (transient ids L-0 … L-n-1), and each order as its own JSON file. */
function ordersFile(n: number): { dir: string; file: string; single: (i: number) => string } {
  const dir = mkdtempSync(join(tmpdir(), 'shipbook-ledger-'));
  const doc = parse(readFileSync(A, 'utf8')) as Record<string, any>;
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const o = structuredClone(doc);
    o.order.shipments[0].transient_id = `L-${i}`;
    lines.push(JSON.stringify(o));
  }
  const file = join(dir, 'orders.ndjson');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return {
    dir,
    file,
    single(i) {
      const one = join(dir, `order-${i}.json`);
      writeFileSync(one, `${lines[i]}\n`);
      return one;
    },
  };
}

describe('the ledger of a target, consulted by every book', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ processingDelayMs: 30, apiKey: KEY } as Parameters<typeof startSandbox>[0]);
  });
  afterAll(async () => {
    await sandbox.close();
  });
  const env = (state: string) => ({ SHIPBOOK_BASE_URL: sandbox.url, SHIPBOOK_API_KEY: KEY, SHIPBOOK_STATE_DIR: state });

  it('a single book after a batch books nothing new, and book a b after both were booked books nothing', async () => {
    const state = mkdtempSync(join(tmpdir(), 'shipbook-ledger-state-'));
    const cwd = mkdtempSync(join(tmpdir(), 'shipbook-ledger-cwd-'));
    const { file, single } = ordersFile(3);
    const batch = await runCli(['book', file, '--poll', '50ms'], { env: env(state), cwd });
    expect(batch.code, batch.stderr).toBe(0);
    const before = await ordersByInput(sandbox.url);
    const bookedId = before.get('L-1')![0]!;

    const one = await runCli(['book', single(1), '--json'], { env: env(state), cwd });
    expect(one.code, one.stderr).toBe(0);
    const out = JSON.parse(one.stdout) as { order: { id: string }; already_booked: { identity: string } };
    expect(out.order.id).toBe(bookedId);
    expect(one.stderr).toContain(`order ${bookedId}, processed`);

    const two = await runCli(['book', single(0), single(2), '--poll', '50ms'], { env: env(state), cwd });
    expect(two.code, two.stderr).toBe(0);
    expect(two.stderr).toMatch(/0 booked, 2 already booked/);
    const after = await ordersByInput(sandbox.url);
    for (const t of ['L-0', 'L-1', 'L-2']) expect(after.get(t), t).toHaveLength(1);
  });

  it('shard journals and a single book see each other', async () => {
    const state = mkdtempSync(join(tmpdir(), 'shipbook-ledger-state-'));
    const { dir, file } = ordersFile(6);
    const tagged = readFileSync(file, 'utf8').replace(/"L-/g, '"S-');
    writeFileSync(file, tagged);
    const shards = await Promise.all(
      [1, 2].map((i) => runCli(['book', file, '--shard', `${i}/2`, '--poll', '50ms', '--journal', join(dir, `journal-${i}.ndjson`)], { env: env(state) })),
    );
    for (const r of shards) expect(r.code, r.stderr).toBe(0);
    writeFileSync(join(dir, 'order-4.json'), `${tagged.trim().split('\n')[4]}\n`);
    const one = await runShipbook(['book', join(dir, 'order-4.json'), '--json'], { env: env(state) });
    expect(one.code, one.stderr).toBe(0);
    expect(JSON.parse(one.stdout)).toHaveProperty('already_booked');
    // The whole batch with a new journal of its own books nothing either.
    const whole = await runShipbook(['book', file, '--poll', '50ms', '--journal', join(dir, 'fresh.ndjson')], { env: env(state) });
    expect(whole.code, whole.stderr).toBe(0);
    expect(whole.stderr).toMatch(/0 booked, 6 already booked/);
    const by = await ordersByInput(sandbox.url);
    for (let i = 0; i < 6; i++) expect(by.get(`S-${i}`), `S-${i}`).toHaveLength(1);
  });

  it('--dry-run lists every input with its identity and what this run would do, in tsv and --json, honouring --shard', async () => {
    const state = mkdtempSync(join(tmpdir(), 'shipbook-ledger-state-'));
    const { dir, file } = ordersFile(4);
    writeFileSync(file, readFileSync(file, 'utf8').replace(/"L-/g, '"D-'));
    const first = await runShipbook(['book', file, '--shard', '1/2', '--poll', '50ms', '--journal', join(dir, 'j1.ndjson')], { env: env(state) });
    expect(first.code, first.stderr).toBe(0);
    const tsv = await runShipbook(['book', file, '--dry-run'], { env: env(state) });
    expect(tsv.code, tsv.stderr).toBe(0);
    const lines = tsv.stdout.trim().split('\n');
    expect(lines).toHaveLength(4);
    const booked = lines.filter((l) => /\talready booked as ORD-\w+$/.test(l));
    expect(booked.length).toBeGreaterThan(0);
    expect(lines.filter((l) => /\tbook$/.test(l))).toHaveLength(4 - booked.length);
    for (const l of lines) expect(l).toMatch(/^.+orders\.ndjson:\d+\t[0-9a-f]{16}-1\t/);

    const json = await runShipbook(['book', file, '--dry-run', '--json', '--shard', '2/2'], { env: env(state) });
    expect(json.code, json.stderr).toBe(0);
    const data = JSON.parse(json.stdout) as { dry_run: boolean; shard: string; inputs: Array<{ id: string; plan: { action: string } }> };
    expect(data).toMatchObject({ dry_run: true, shard: '2/2' });
    expect(data.inputs.length).toBe(4 - booked.length);
    expect(data.inputs.every((x) => x.plan.action === 'book')).toBe(true);
    expect((await ordersByInput(sandbox.url)).get('D-0')?.length ?? 0).toBeLessThanOrEqual(1);
  });

  it('--max-total: a refusal is recorded with its limit, and a rerun with a higher limit books the order', async () => {
    const state = mkdtempSync(join(tmpdir(), 'shipbook-ledger-state-'));
    const refused = await runShipbook(['book', A, '--max-total', '1', '--poll', '50ms'], { env: env(state) });
    expect(refused.code, refused.stderr).toBe(9);
    const again = await runShipbook(['book', A, '--max-total', '2', '--poll', '50ms'], { env: env(state) });
    expect(again.code).toBe(9);
    expect(again.stderr).toContain('refused by --max-total 1.00');
    expect(again.stderr).toContain("this run's --max-total 2.00 is still below it");
    const booked = await runShipbook(['book', A, '--max-total', '100000', '--poll', '50ms', '--json'], { env: env(state) });
    expect(booked.code, booked.stderr).toBe(0);
    expect((JSON.parse(booked.stdout) as { order: { status: string } }).order.status.toLowerCase()).toBe('processed');
  });

  it('SIGTERM while orders are accepted and still booking: exit 143, every input named in the report and JUnit, --json exit_code 143', async () => {
    const slow = await startSandbox({ processingDelayMs: 4000, apiKey: KEY } as Parameters<typeof startSandbox>[0]);
    try {
      const state = mkdtempSync(join(tmpdir(), 'shipbook-ledger-state-'));
      const { dir, file } = ordersFile(30);
      const report = join(dir, 'report.json');
      const junit = join(dir, 'junit.xml');
      const child = spawn(
        process.execPath,
        [BIN, 'book', file, '--concurrency', '2', '--poll', '1s', '--json', '--report', report, '--junit', junit, '--journal', join(dir, 'j.ndjson')],
        {
          cwd: ROOT,
          env: isolatedEnv({ SHIPBOOK_BASE_URL: slow.url, SHIPBOOK_API_KEY: KEY, SHIPBOOK_STATE_DIR: state }),
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      for (let i = 0; i < 400 && (await ordersByInput(slow.url)).size < 4; i++) await new Promise((r) => setTimeout(r, 25));
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const [code] = (await exited) as [number];
      expect(code, stderr).toBe(143);
      const out = JSON.parse(stdout) as { summary: Record<string, number>; orders: Array<{ status: string }> };
      expect(out.summary.exit_code).toBe(143);
      expect(out.orders).toHaveLength(30);
      const rep = JSON.parse(readFileSync(report, 'utf8')) as { orders: Array<{ status: string }> };
      expect(rep.orders).toHaveLength(30);
      const statuses = new Set(rep.orders.map((o) => o.status));
      expect(statuses.has('still_booking') || statuses.has('pending')).toBe(true);
      expect(statuses.has('not_started')).toBe(true);
      expect(statuses.has('failed')).toBe(false);
      const xml = readFileSync(junit, 'utf8');
      expect(xml).toMatch(/<testsuite name="shipbook book" tests="30"/);
      expect(xml).toMatch(/<skipped message="interrupted: not started"\/>/);
      expect(xml.split('<testcase ').length - 1).toBe(30);
      expect(stderr).toMatch(/accepted and still booking/);
    } finally {
      await slow.close();
    }
  }, 60_000);

  it('a closed stdout (| head -1) is an interruption: no new orders, summary on stderr, exit non-zero', async () => {
    const slow = await startSandbox({ processingDelayMs: 300, apiKey: KEY } as Parameters<typeof startSandbox>[0]);
    try {
      const state = mkdtempSync(join(tmpdir(), 'shipbook-ledger-state-'));
      const { dir, file } = ordersFile(40);
      const child = spawn(process.execPath, [BIN, 'book', file, '--concurrency', '2', '--poll', '100ms', '--journal', join(dir, 'j.ndjson')], {
        cwd: ROOT,
        env: isolatedEnv({ SHIPBOOK_BASE_URL: slow.url, SHIPBOOK_API_KEY: KEY, SHIPBOOK_STATE_DIR: state }),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      // Like `head -1`: read the first line, then close the pipe.
      await new Promise<void>((resolve) => {
        let got = '';
        child.stdout.setEncoding('utf8').on('data', (d: string) => {
          got += d;
          if (got.includes('\n')) {
            child.stdout.destroy();
            resolve();
          }
        });
      });
      const [code] = (await once(child, 'exit')) as [number];
      expect(code).not.toBe(0);
      expect(stderr).toMatch(/stdout was closed/);
      expect(stderr).toMatch(/batch: \d+ booked/);
      // The same command again finishes every order, none twice.
      const rest = await runShipbook(['book', file, '--poll', '100ms', '--journal', join(dir, 'j.ndjson')], {
        env: { SHIPBOOK_BASE_URL: slow.url, SHIPBOOK_API_KEY: KEY, SHIPBOOK_STATE_DIR: state },
        timeoutMs: 60_000,
      });
      expect(rest.code, rest.stderr).toBe(0);
      const by = await ordersByInput(slow.url);
      expect(by.size).toBe(40);
      for (const ids of by.values()) expect(ids).toHaveLength(1);
    } finally {
      await slow.close();
    }
  }, 90_000);
});

describe('journal resolve', () => {
  let server: FaultServer;
  beforeAll(async () => {
    server = await startFaultServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('refuses to contradict an earlier answer without --force, saying what the earlier answer was', async () => {
    const env = { SHIPBOOK_STATE_DIR: mkdtempSync(join(tmpdir(), 'shipbook-ledger-state-')), SHIPBOOK_BASE_URL: server.url, SHIPBOOK_API_KEY: KEY };
    server.set('POST /orders/', { mode: 'close-after-request' });
    expect((await runShipbook(['book', A], { env })).code).toBe(5);
    const shown = JSON.parse((await runShipbook(['journal', 'show', '--json'], { env })).stdout) as {
      orders: Array<{ id: string; stage: string; known: string }>;
    };
    expect(shown.orders).toHaveLength(1);
    expect(shown.orders[0]).toMatchObject({ stage: 'unknown' });
    expect(shown.orders[0]!.known).toContain('the order may exist');
    const id = shown.orders[0]!.id;
    // A service that cannot list its orders: the claim cannot be checked, so it needs --yes without a terminal.
    const unchecked = await runShipbook(['journal', 'resolve', id, '--not-created'], { env });
    expect(unchecked.code).toBe(2);
    expect(unchecked.stderr).toContain('"not created" cannot be checked');
    expect(unchecked.stderr).toContain('paid twice');
    expect(unchecked.stderr).toContain(`shipbook journal resolve ${id} --not-created --yes`);
    expect((await runShipbook(['journal', 'resolve', id, '--not-created', '--yes'], { env })).code).toBe(0);
    const contradiction = await runShipbook(['journal', 'resolve', id, '--order', 'ORD-ABCDEFGH'], { env });
    expect(contradiction.code).toBe(2);
    expect(contradiction.stderr).toContain(`${id} is already recorded as not created (an earlier journal resolve)`);
    expect(contradiction.stderr).toContain('--force');
  });
});
