/**
 * Batch booking for CI, end to end: shipbook books generated NDJSON orders against `shipbook
 * sandbox` in its own process (with injected faults where the test says), and the sandbox's own
 * list (GET /_sandbox/orders/) is the witness that no input was booked twice. The 200-order run,
 * the shards run side by side, runs in another working directory, and what is killed or
 * interrupted are bin/shipbook.js processes; the other runs are in-process.
 */
import { batchExitCode } from '../helpers/batch-exit.js';
import { batchFixture } from '../helpers/batch.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runShipbook } from '../helpers/run.js';
import { BIN, ROOT, isolatedEnv, runCli } from '../helpers/cli.js';
import { ordersByInput as ordersAt, startSandboxProcess } from '../helpers/sandbox-process.js';
import { serviceIdentity } from '../../src/config/target.js';

/** `shipbook sandbox` in its own process with `args`; resolves with its URL once it listens. */
const sandbox = (args: string[] = []) => startSandboxProcess(args, running);
/** Every order the sandbox holds, as `{transient_id → order ids}`. */
const ordersByInput = (url: string) => ordersAt(url, KEY);

const KEY = 'sk_test_batch_0123456789';
const running: ChildProcess[] = [];
afterEach(async () => {
  for (const c of running.splice(0)) {
    if (c.exitCode === null && c.signalCode === null) {
      const exited = once(c, 'exit');
      c.kill('SIGKILL');
      await exited;
    }
  }
});

/** A directory with an NDJSON file of `n` orders (transient ids B-0 … B-n-1), each picked up on one fixed day. */
function ordersFile(n: number): { dir: string; file: string } {
  const { dir, file } = batchFixture(n);
  return { dir, file };
}

/** What a {@link countingProxy} saw. */
interface Traffic {
  /** The most requests it had in flight at once, polls included. */
  most: number;
  /**
   * The most orders being created and accepted at once: from the create's request until the
   * accept's answer (each order sends its create, then its accept), whether a request of theirs
   * is in flight or not.
   */
  mostOrders: number;
  /** Answers in the order they went back: method, path and the order's status when the answer has one. */
  answers: Array<{ method: string; path: string; status?: string }>;
}

/**
 * A plain HTTP proxy on 127.0.0.1 in front of `target` that counts the requests in flight and
 * notes each answer (the witness of what the batch sent, and when).
 */
async function countingProxy(target: string): Promise<{ url: string; traffic: Traffic; server: Server }> {
  const traffic: Traffic = { most: 0, mostOrders: 0, answers: [] };
  let inFlight = 0;
  let orders = 0;
  const server = createServer((req, res) => {
    // An order starts with its create and is accepted with the answer to its accept.
    const create = req.method === 'POST' && req.url!.endsWith('/orders/');
    const accept = req.method === 'PUT' && req.url!.endsWith('/accept/');
    inFlight++;
    if (create) orders++;
    traffic.most = Math.max(traffic.most, inFlight);
    traffic.mostOrders = Math.max(traffic.mostOrders, orders);
    const upstream = httpRequest(new URL(req.url!.slice(1), target), { method: req.method, headers: req.headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () => {
        const body = Buffer.concat(chunks);
        let status: string | undefined;
        try {
          status = (JSON.parse(body.toString('utf8')) as { result?: { order?: { status?: string } } }).result?.order?.status;
        } catch {
          status = undefined;
        }
        traffic.answers.push({ method: req.method!, path: req.url!, ...(status !== undefined ? { status } : {}) });
        inFlight--;
        if (accept) orders--;
        res.writeHead(answer.statusCode!, answer.headers);
        res.end(body);
      });
    });
    req.pipe(upstream);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, traffic, server };
}

const envFor = (url: string) => ({ SHIPBOOK_BASE_URL: url, SHIPBOOK_API_KEY: KEY });

/** Reads the JSON report. */
const reportOf = (path: string) =>
  JSON.parse(readFileSync(path, 'utf8')) as {
    summary: Record<string, number | string>;
    orders: Array<{ status: string; order_id?: string; line: number; error?: unknown }>;
  };

/** Every input is booked exactly once or reported unknown, and never two orders for one input. */
async function expectBookedOnceOrUnknown(url: string, report: ReturnType<typeof reportOf>, n: number): Promise<void> {
  const by = await ordersByInput(url);
  for (const [t, ids] of by) expect(ids, `input ${t}`).toHaveLength(1);
  expect(report.orders).toHaveLength(n);
  for (const o of report.orders) {
    expect(['booked', 'already_booked', 'unknown'], JSON.stringify(o)).toContain(o.status);
    if (o.status !== 'unknown') expect(by.get(`B-${o.line - 1}`)).toEqual([o.order_id]);
  }
}

describe('shipbook book with many orders', () => {
  it('books 200 orders at concurrency 8 against a faulty sandbox: each booked once or reported unknown, never twice', async () => {
    const url = await sandbox(['--fail-rate', '0.1', '--reset-rate', '0.1', '--seed', '1']);
    const { dir, file } = ordersFile(200);
    const report = join(dir, 'report.json');
    const junit = join(dir, 'junit.xml');
    const r = await runCli(
      ['book', file, '--concurrency', '8', '--poll', '100ms', '--journal', join(dir, 'journal.ndjson'), '--report', report, '--junit', junit],
      {
        env: envFor(url),
        timeoutMs: 120_000,
      },
    );
    // The faults are drawn from seed 1 and each request's content (not from the order in which
    // the requests arrive): this batch meets the same ones every time, so its outcome is known.
    // The client retries each request under its own policy and no more; an order whose accept
    // met faults every time is failed, and the same command again continues it (never creating
    // another); an order whose create was processed and whose answer was lost is unknown.
    // (A change to the client's retry policy changes these figures: read them again from a run.)
    expect(r.code, r.stderr.slice(-2000)).toBe(8);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    let rep = reportOf(report);
    expect(rep.summary).toMatchObject({ booked: 177, failed: 2, unknown: 21 });
    const again = await runCli(['book', file, '--concurrency', '8', '--poll', '100ms', '--journal', join(dir, 'journal.ndjson'), '--report', report], {
      env: envFor(url),
      timeoutMs: 120_000,
    });
    expect(again.code, again.stderr.slice(-2000)).toBe(8);
    rep = reportOf(report);
    expect(rep.summary).toMatchObject({ booked: 2, already_booked: 177, failed: 0, unknown: 21 });
    await expectBookedOnceOrUnknown(url, rep, 200);
    expect(readFileSync(junit, 'utf8')).toMatch(/<testsuite name="shipbook book" tests="200"/);
    // `shipbook sandbox` announces itself in its answers: the marker line comes as soon as the
    // first answer does (after an order whose every request was cut by a reset, it may follow that
    // order's line), once; then one line per order (input, order id, status, tracking numbers, total).
    const lines = r.stdout.trim().split('\n');
    const marker = 'sandbox\tsimulated service, nothing is really booked';
    expect(lines.filter((l) => l === marker)).toHaveLength(1);
    expect(lines.filter((l) => l !== marker)).toHaveLength(200);
  }, 240_000);

  it('ends the same after a SIGKILL half way and the same command again', async () => {
    const url = await sandbox(['--latency', '5ms']);
    const { dir, file } = ordersFile(120);
    const journal = join(dir, 'journal.ndjson');
    const args = [BIN, 'book', file, '--concurrency', '8', '--poll', '100ms', '--journal', journal];
    const first = spawn(process.execPath, args, { cwd: ROOT, env: isolatedEnv(envFor(url)), stdio: 'ignore' });
    running.push(first);
    // Kill it once about half of the orders exist at the service.
    for (;;) {
      const count = [...(await ordersByInput(url)).values()].length;
      if (count >= 60 || first.exitCode !== null) break;
      await new Promise((res) => setTimeout(res, 50));
    }
    const killed = once(first, 'exit');
    first.kill('SIGKILL');
    await killed;
    const report = join(dir, 'report.json');
    const again = await runShipbook(['book', file, '--concurrency', '8', '--poll', '100ms', '--journal', journal, '--report', report], {
      env: envFor(url),
      timeoutMs: 120_000,
    });
    const rep = reportOf(report);
    // Booked (0), or some order whose create the kill cut off left unknown (8): the report says which.
    expect(again.code, again.stderr.slice(-2000)).toBe(batchExitCode(rep.summary));
    await expectBookedOnceOrUnknown(url, rep, 120);
    expect(Number(rep.summary.already_booked)).toBeGreaterThan(0);
  }, 150_000);

  it('an order waiting for its booking result holds no request slot: every order is accepted before the first result, never more than --concurrency orders being created and accepted at once', async () => {
    // Booking takes 3 s at the sandbox; creating and accepting 24 orders three at a time takes far less.
    const url = await sandbox(['--delay', '3s', '--latency', '10ms']);
    const proxy = await countingProxy(url);
    try {
      const { dir, file } = ordersFile(24);
      const r = await runShipbook(['book', file, '--concurrency', '3', '--poll', '1s', '--journal', join(dir, 'journal.ndjson')], {
        env: envFor(proxy.url),
        timeoutMs: 60_000,
      });
      expect(r.code, r.stderr.slice(-2000)).toBe(0);
      const { answers, most, mostOrders } = proxy.traffic;
      // What --concurrency promises: three orders being created and accepted at once, no more, and no fewer.
      expect(mostOrders).toBe(3);
      const firstProcessed = answers.findIndex((a) => a.method === 'GET' && a.status === 'processed');
      expect(firstProcessed).toBeGreaterThan(0);
      const acceptedBefore = answers.slice(0, firstProcessed).filter((a) => a.method === 'PUT' && a.path.endsWith('/accept/'));
      expect(acceptedBefore).toHaveLength(24);
      expect(answers.filter((a) => a.status === 'processed')).toHaveLength(24);
    } finally {
      proxy.server.closeAllConnections();
      proxy.server.close();
    }
  }, 90_000);

  it('sizes its connection pool to one connection per order slot: polls of many orders waiting never put more than --concurrency requests in flight', async () => {
    // Slow answers and a short poll: the polls of the orders waiting would overlap far beyond two.
    const url = await sandbox(['--delay', '2s', '--latency', '300ms']);
    const proxy = await countingProxy(url);
    try {
      const { dir, file } = ordersFile(12);
      const r = await runShipbook(['book', file, '--concurrency', '2', '--poll', '100ms', '--journal', join(dir, 'journal.ndjson')], {
        env: envFor(proxy.url),
        timeoutMs: 60_000,
      });
      expect(r.code, r.stderr.slice(-2000)).toBe(0);
      const { answers, most } = proxy.traffic;
      expect(answers.filter((a) => a.status === 'processed')).toHaveLength(12);
      expect(answers.filter((a) => a.method === 'GET').length).toBeGreaterThan(12);
      expect(most).toBe(2);
    } finally {
      proxy.server.closeAllConnections();
      proxy.server.close();
    }
  }, 90_000);

  it('Ctrl-C while orders wait for their booking result: exit 130, each reported accepted and still booking, and the same command finishes them without accepting again', async () => {
    const url = await sandbox(['--delay', '3s']);
    const { dir, file } = ordersFile(12);
    const journal = join(dir, 'journal.ndjson');
    const child = spawn(process.execPath, [BIN, 'book', file, '--concurrency', '3', '--poll', '1s', '--journal', journal], {
      cwd: ROOT,
      env: isolatedEnv(envFor(url)),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.push(child);
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    // Interrupt once every order is accepted (booking takes 3 s at the sandbox).
    for (let i = 0; i < 200; i++) {
      const orders = [...(await ordersByInput(url)).values()].flat();
      if (orders.length === 12 && readFileSync(journal, 'utf8').split('"accepted"').length - 1 === 12) break;
      await new Promise((res) => setTimeout(res, 25));
    }
    const exited = once(child, 'exit');
    child.kill('SIGINT');
    const [code] = (await exited) as [number];
    expect(code).toBe(130);
    expect(stderr).toMatch(/interrupted while waiting for the booking result: order ORD-\w+ is accepted and its booking goes on at the service/);
    expect(stderr).toMatch(/interrupted: 12 order\(s\) accepted and still booking, 0 created and pending, 0 not started/);
    expect(stderr).not.toMatch(/\n\s+at /);
    const shown = JSON.parse((await runShipbook(['journal', 'show', '--journal', journal, '--json'])).stdout) as { orders: Array<{ stage: string }> };
    expect(shown.orders.map((o) => o.stage)).toEqual(Array(12).fill('accepted'));
    const report = join(dir, 'report.json');
    const again = await runShipbook(['book', file, '--concurrency', '3', '--poll', '1s', '--journal', journal, '--report', report], {
      env: envFor(url),
      timeoutMs: 60_000,
    });
    expect(again.code, again.stderr.slice(-2000)).toBe(0);
    const rep = reportOf(report);
    expect(rep.orders.map((o) => o.status)).toEqual(Array(12).fill('booked'));
    // Waiting is all the second run did: no order was accepted (or created) again.
    expect(rep.orders.map((o) => (o as { attempts?: number }).attempts)).toEqual(Array(12).fill(0));
    await expectBookedOnceOrUnknown(url, rep, 12);
  }, 90_000);

  it('splits the inputs over --shard 1/3, 2/3 and 3/3: every order booked exactly once', async () => {
    const url = await sandbox();
    const { dir, file } = ordersFile(45);
    const runs = await Promise.all(
      [1, 2, 3].map((i) =>
        runCli(['book', file, '--shard', `${i}/3`, '--concurrency', '4', '--poll', '100ms', '--journal', join(dir, `journal-${i}.ndjson`)], {
          env: envFor(url),
          timeoutMs: 120_000,
        }),
      ),
    );
    expect(runs.map((r) => r.code)).toEqual([0, 0, 0]);
    const lines = runs.map(
      (r) =>
        r.stdout
          .trim()
          .split('\n')
          .filter((l) => l !== '' && !l.startsWith('sandbox\t')).length,
    );
    expect(lines.reduce((a, b) => a + b, 0)).toBe(45);
    const by = await ordersByInput(url);
    expect(by.size).toBe(45);
    for (const ids of by.values()) expect(ids).toHaveLength(1);
  }, 150_000);

  it('a shard that holds none of the orders has nothing to book: exit 0, a note, and empty reports', async () => {
    const url = await sandbox();
    const { dir, file } = ordersFile(1);
    const runs = [];
    for (const i of [1, 2, 3, 4]) {
      const report = join(dir, `report-${i}.json`);
      const junit = join(dir, `junit-${i}.xml`);
      const r = await runShipbook(
        ['book', file, '--shard', `${i}/4`, '--poll', '100ms', '--journal', join(dir, `j-${i}.ndjson`), '--report', report, '--junit', junit],
        {
          env: envFor(url),
        },
      );
      runs.push({ ...r, report: reportOf(report), junit: readFileSync(junit, 'utf8') });
    }
    // Every job of the matrix succeeds; the one order is booked once, by the job whose share it is.
    expect(runs.map((r) => r.code)).toEqual([0, 0, 0, 0]);
    expect(runs.map((r) => r.report.orders.length).sort()).toEqual([0, 0, 0, 1]);
    const empty = runs.filter((r) => r.report.orders.length === 0);
    for (const r of empty) {
      expect(r.stderr).toMatch(/^note: shard \d\/4 holds none of the 1 order of the inputs \(an order's shard is fixed by its content\); nothing to book$/m);
      expect(r.stderr).toContain('batch: 0 booked, 0 already booked, 0 failed, 0 unknown');
      expect(r.junit).toMatch(/<testsuite name="shipbook book" tests="0"/);
    }
    expect([...(await ordersByInput(url)).values()]).toEqual([[expect.stringMatching(/^ORD-/)]]);
    // A dry run of an empty share says the same and sends nothing.
    const dry = await runShipbook(['book', file, '--shard', `${runs.indexOf(empty[0]!) + 1}/4`, '--dry-run'], { env: envFor(url) });
    expect(dry.code).toBe(0);
    expect(dry.stderr).toContain('holds none of the 1 order of the inputs');
    // Inputs without any order are still refused.
    writeFileSync(join(dir, 'none.ndjson'), '\n');
    const none = await runShipbook(['book', join(dir, 'none.ndjson'), '--shard', '1/4'], { env: envFor(url) });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no orders in the inputs');
  }, 60_000);

  it('--dry-run validates every order and sends nothing', async () => {
    const url = await sandbox();
    const { file } = ordersFile(25);
    const r = await runShipbook(['book', file, '--dry-run', '--json'], { env: envFor(url) });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ dry_run: true, sent: false, valid: 25, invalid: 0 });
    expect((await ordersByInput(url)).size).toBe(0);
  });

  it('stops before the first request when an input is invalid (exit 2, file:line), and books the rest with --skip-invalid', async () => {
    const url = await sandbox();
    const { dir, file } = ordersFile(5);
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    lines[2] = lines[2]!.replace('"currency":"AUD"', '"currency":"USD"');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const r = await runShipbook(['book', file, '--journal', join(dir, 'j.ndjson')], { env: envFor(url) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file}:3:`);
    expect((await ordersByInput(url)).size).toBe(0);
    const skipped = await runShipbook(['book', file, '--skip-invalid', '--poll', '100ms', '--journal', join(dir, 'j.ndjson')], { env: envFor(url) });
    expect(skipped.code).toBe(0);
    expect((await ordersByInput(url)).size).toBe(4);
    expect(skipped.stdout).toMatch(/:3\t\tinvalid/);
  });

  it('keeps an unknown create unknown until journal resolve says what became of it', async () => {
    const lossy = await sandbox(['--reset-rate', '1']);
    const { dir, file } = ordersFile(2);
    const journal = join(dir, 'journal.ndjson');
    const first = await runShipbook(['book', file, '--poll', '100ms', '--journal', journal], { env: envFor(lossy) });
    expect(first.code).toBe(8);
    expect(first.stderr).toMatch(/unknown/);
    const created = (await ordersByInput(lossy)).size;
    const second = await runShipbook(['book', file, '--poll', '100ms', '--journal', journal], { env: envFor(lossy) });
    expect(second.code).toBe(8);
    expect((await ordersByInput(lossy)).size).toBe(created); // never sent again by itself
    const shown = JSON.parse((await runShipbook(['journal', 'show', '--journal', journal, '--json'])).stdout) as {
      orders: Array<{ id: string; stage: string; known: string; command: string }>;
    };
    expect(shown.orders.map((o) => o.stage)).toEqual(['unknown', 'unknown']);
    expect(shown.orders[0]!.known).toContain('its answer never came: the order may exist');
    expect(shown.orders[0]!.command).toContain(`journal resolve ${shown.orders[0]!.id}`);
    // Half the lost answers came after the order was made: --not-created is checked against the
    // sandbox's list of orders, and refused for an order it holds.
    const held = await ordersByInput(lossy);
    const refOf = (known: string) => /transient ids ([^)]+)\)/.exec(known)![1]!;
    const notMade = shown.orders.find((o) => !held.has(refOf(o.known)));
    const made = shown.orders.find((o) => held.has(refOf(o.known)));
    if (made) {
      const refused = await runShipbook(['journal', 'resolve', made.id, '--not-created', '--journal', journal], { env: envFor(lossy) });
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stderr).toContain(`holds order ${held.get(refOf(made.known))![0]!}`);
    }
    if (!notMade) return;
    const resolved = await runShipbook(['journal', 'resolve', notMade.id, '--not-created', '--journal', journal], { env: envFor(lossy) });
    expect(resolved.code, resolved.stderr).toBe(0);
    const third = await runShipbook(['book', file, '--poll', '100ms', '--journal', journal], { env: envFor(lossy) });
    expect(third.code).toBe(8); // the other one is still unknown, the resolved one was sent again
    const sent = readFileSync(journal, 'utf8')
      .split('\n')
      .filter((l) => l.includes(notMade.id) && l.includes('"create_sent"'));
    expect(sent).toHaveLength(2);
  });

  it('refuses the journal of another target (exit 2, naming both), and the real run books every order the trial booked', async () => {
    const trial = await sandbox();
    const real = await sandbox();
    const { dir, file } = ordersFile(3);
    const journal = join(dir, 'journal.ndjson');
    const state = { SHIPBOOK_STATE_DIR: mkdtempSync(join(tmpdir(), 'shipbook-targets-')) };
    const rehearsal = await runShipbook(['book', file, '--poll', '100ms', '--journal', journal], { env: { ...envFor(trial), ...state } });
    expect(rehearsal.code, rehearsal.stderr).toBe(0);
    const refused = await runShipbook(['book', file, '--poll', '100ms', '--journal', journal], { env: { ...envFor(real), ...state } });
    expect(refused.code).toBe(2);
    // Targets are named by the service's normalised URL (127.0.0.1 and localhost are one host).
    expect(refused.stderr).toContain(`the journal ${journal} was written against ${serviceIdentity(trial)}`);
    expect(refused.stderr).toContain(`this run books on ${serviceIdentity(real)}`);
    expect(refused.stderr).toContain('--journal <new file>');
    expect((await ordersByInput(real)).size).toBe(0);
    // Without --journal, each target has its own default journal and ledger: the real run books all three.
    const cwd = mkdtempSync(join(tmpdir(), 'shipbook-cwd-'));
    expect((await runCli(['book', file, '--poll', '100ms'], { env: { ...envFor(trial), ...state }, cwd })).code).toBe(0);
    const realRun = await runCli(['book', file, '--poll', '100ms'], { env: { ...envFor(real), ...state }, cwd });
    expect(realRun.code, realRun.stderr).toBe(0);
    expect(realRun.stdout.split('\n').filter((l) => l.includes('\tbooked\t'))).toHaveLength(3);
    for (const ids of (await ordersByInput(real)).values()) expect(ids).toHaveLength(1);
    expect((await ordersByInput(real)).size).toBe(3);
  });

  it('refuses a second batch on a journal in use, naming the first', async () => {
    const url = await sandbox(['--latency', '300ms']);
    const { dir, file } = ordersFile(20);
    const journal = join(dir, 'journal.ndjson');
    const first = spawn(process.execPath, [BIN, 'book', file, '--concurrency', '1', '--journal', journal], {
      cwd: ROOT,
      env: isolatedEnv(envFor(url)),
      stdio: 'ignore',
    });
    running.push(first);
    for (let i = 0; i < 200 && !existsSync(`${journal}.lock/owner.json`); i++) await new Promise((res) => setTimeout(res, 25));
    const second = await runShipbook(['book', file, '--journal', journal], { env: envFor(url) });
    expect(second.code).toBe(2);
    expect(second.stderr).toMatch(new RegExp(`in use by another batch \\(pid ${first.pid}`));
    // The hint never suggests something that would book everything again.
    expect(second.stderr).toContain('Wait for it to finish, then run the same command again');
    expect(second.stderr).not.toContain('--journal <file>');
  });
});
