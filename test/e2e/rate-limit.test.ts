/**
 * Booking at the pace the service allows, end to end: batches against `shipbook sandbox
 * --rate-limit` (its own process) and behind a limiter written here (a sliding window in front of
 * a sandbox, answering 429 with `Retry-After` as an HTTP date); a single `book` whose polls meet
 * 429s. A counting proxy in front of each is the witness of how many requests were refused. No
 * figure here is a wall time: the pace itself is measured by `npm run bench`.
 */
import { batchExitCode } from '../helpers/batch-exit.js';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT, makeHome, runCli } from '../helpers/cli.js';
import { ordersByInput, startSandboxProcess } from '../helpers/sandbox-process.js';

const KEY = 'sk_test_pace_0123456789';
const running: ChildProcess[] = [];
const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) s.close();
  for (const c of running.splice(0)) {
    if (c.exitCode === null && c.signalCode === null) {
      const exited = once(c, 'exit');
      c.kill('SIGKILL');
      await exited;
    }
  }
});

/** A directory with an NDJSON file of `n` orders (transient ids P-0 … P-n-1). */
function ordersFile(n: number): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'shipbook-pace-'));
  const doc = parse(readFileSync(join(ROOT, 'fixtures/orders/domestic-syd-mel.yaml'), 'utf8')) as Record<string, any>;
  const order = doc.request ?? doc;
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const o = structuredClone(order);
    o.order.shipments[0].transient_id = `P-${i}`;
    lines.push(JSON.stringify(o));
  }
  const file = join(dir, 'orders.ndjson');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return { dir, file };
}

/** What a proxy counted: every answer and the 429s among them. */
interface Counts {
  answers: number;
  refused: number;
}

/**
 * A proxy on 127.0.0.1 in front of `target` that counts answers and 429s. With `window`, it is
 * also a rate limiter that is not shipbook's: at most `window` requests in any sliding second,
 * beyond which it answers 429 with `Retry-After` as an HTTP date, without asking the target.
 */
async function proxy(target: string, window?: number): Promise<{ url: string; counts: Counts }> {
  const counts: Counts = { answers: 0, refused: 0 };
  const recent: number[] = [];
  const server = createServer((req, res) => {
    const now = Date.now();
    while (recent.length > 0 && recent[0]! <= now - 1000) recent.shift();
    if (window !== undefined && recent.length >= window) {
      counts.answers++;
      counts.refused++;
      // The oldest request leaves the window then; an HTTP date has whole seconds: round up.
      const at = Math.ceil((recent[0]! + 1000) / 1000) * 1000;
      req.resume();
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': new Date(at).toUTCString() });
      res.end(JSON.stringify({ message: 'too many requests', code: 429, result: null }));
      return;
    }
    recent.push(now);
    const upstream = httpRequest(new URL(req.url!.slice(1), target), { method: req.method, headers: req.headers }, (answer) => {
      counts.answers++;
      if (answer.statusCode === 429) counts.refused++;
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, counts };
}

const envFor = (url: string, home: string) => ({ SHIPBOOK_BASE_URL: url, SHIPBOOK_API_KEY: KEY, HOME: home });

interface Report {
  summary: Record<string, number | string>;
  orders: Array<{ status: string; order_id?: string; line: number }>;
}

/** Books `n` orders through `url` and checks the promise: nothing failed, each input booked once, few 429s. */
async function bookAtTheLimit(url: string, sandboxUrl: string, counts: Counts, n: number): Promise<void> {
  const { dir, file } = ordersFile(n);
  const { home, cleanup } = makeHome();
  try {
    const report = join(dir, 'report.json');
    const r = await runCli(
      ['book', file, '--concurrency', '16', '--poll', '1s', '--payment', 'credit', '--report', report, '--journal', join(dir, 'j.ndjson')],
      {
        env: envFor(url, home),
        timeoutMs: 180_000,
      },
    );
    // Every waiting order hangs off one abort listener of the run.
    expect(r.stderr).not.toContain('MaxListenersExceededWarning');
    const rep = JSON.parse(readFileSync(report, 'utf8')) as Report;
    // Done: every order booked (0), or booked and accepted with results pending (7), as the report says; never 8.
    expect(r.code, r.stderr).toBe(batchExitCode(rep.summary));
    expect(rep.summary.failed, r.stderr).toBe(0);
    expect(rep.summary.unknown).toBe(0);
    expect(rep.orders.every((o) => o.status === 'booked' || o.status === 'accepted')).toBe(true);
    const by = await ordersByInput(sandboxUrl, KEY);
    expect(by.size).toBe(n);
    for (const ids of by.values()) expect(ids).toHaveLength(1);
    // A loose bound, since CI machines vary (the bench holds the tighter target).
    expect(counts.refused / counts.answers, `${counts.refused} of ${counts.answers} answered 429`).toBeLessThanOrEqual(0.15);
  } finally {
    cleanup();
  }
}

describe('booking at the pace the service allows', () => {
  it('books a batch against shipbook sandbox --rate-limit 30/s: nothing failed, few 429s', async () => {
    const sandbox = await startSandboxProcess(['--rate-limit', '30/s', '--delay', '1ms'], running);
    const { url, counts } = await proxy(sandbox);
    await bookAtTheLimit(url, sandbox, counts, 90);
  }, 200_000);

  it('books a batch behind a sliding-window limiter that answers 429 with Retry-After as an HTTP date', async () => {
    const sandbox = await startSandboxProcess(['--delay', '1ms'], running);
    const { url, counts } = await proxy(sandbox, 20);
    await bookAtTheLimit(url, sandbox, counts, 60);
  }, 200_000);

  it('reports orders accepted but not read within --timeout as accepted (exit 7, JUnit skipped, a hint that reads them), and the rerun reads them', async () => {
    const sandbox = await startSandboxProcess(['--delay', '3s'], running);
    const { dir, file } = ordersFile(3);
    const { home, cleanup } = makeHome();
    try {
      // One state directory for the runs: the single book's ledger is there.
      const env = { ...envFor(sandbox, home), SHIPBOOK_STATE_DIR: join(home, 'state') };
      const report = join(dir, 'report.json');
      const junit = join(dir, 'junit.xml');
      const args = ['book', file, '--poll', '100ms', '--payment', 'credit', '--journal', join(dir, 'j.ndjson'), '--report', report, '--junit', junit];
      const first = await runCli([...args, '--timeout', '300ms'], { env, timeoutMs: 60_000, cwd: dir });
      expect(first.code, first.stderr).toBe(7);
      expect(first.stderr).toContain('3 accepted (result pending)');
      expect(first.stderr).toContain('done, results pending');
      expect(first.stderr).not.toContain('--again');
      const rep = JSON.parse(readFileSync(report, 'utf8')) as Report & { orders: Array<{ hint?: string }> };
      expect(rep.summary).toMatchObject({ accepted: 3, failed: 0, booked: 0 });
      for (const o of rep.orders) {
        expect(o.status).toBe('accepted');
        expect(o.hint).toContain(`shipbook order get ${o.order_id}`);
      }
      const xml = readFileSync(junit, 'utf8');
      expect(xml).toContain('failures="0"');
      expect(xml).toContain('skipped="3"');
      expect(xml).toContain('accepted (paid), its booking result pending');
      const again = await runCli(args, { env, timeoutMs: 60_000, cwd: dir });
      expect(again.code, again.stderr).toBe(0);
      expect(JSON.parse(readFileSync(report, 'utf8')).summary).toMatchObject({ booked: 3, failed: 0, accepted: 0 });
      // A single book left accepted by its --timeout ends 7 too, and its rerun reads it.
      const single = join(dir, 'single.json');
      const doc = parse(readFileSync(join(ROOT, 'fixtures/orders/domestic-syd-mel.yaml'), 'utf8')) as Record<string, any>;
      const order = structuredClone(doc.request ?? doc);
      order.order.shipments[0].transient_id = 'P-single';
      writeFileSync(single, JSON.stringify(order));
      const short = await runCli(['book', single, '--poll', '100ms', '--timeout', '300ms', '--payment', 'credit'], { env, timeoutMs: 60_000, cwd: dir });
      expect(short.code, short.stderr).toBe(7);
      expect(short.stderr).toContain('is accepted');
      expect(short.stderr).not.toContain('--again');
      const read = await runCli(['book', single, '--poll', '100ms', '--payment', 'credit'], { env, timeoutMs: 60_000, cwd: dir });
      expect(read.code, read.stderr).toBe(0);
      expect(read.stderr).toContain('accepted: continuing that order, not creating another');
      expect(read.stderr).not.toContain('--again');
      const by = await ordersByInput(sandbox, KEY);
      expect([...by.values()].map((ids) => ids.length)).toEqual([1, 1, 1, 1]);
    } finally {
      cleanup();
    }
  }, 120_000);

  it('a single book whose polls meet 429s never ends "could not read the booking result", and a rerun reads an accepted order', async () => {
    const sandbox = await startSandboxProcess(['--rate-limit', '2/s'], running);
    const { home, cleanup } = makeHome();
    try {
      const fixture = join(ROOT, 'fixtures/orders/domestic-syd-mel.yaml');
      const env = { ...envFor(sandbox, home), SHIPBOOK_STATE_DIR: join(home, 'state') };
      const first = await runCli(['book', fixture, '--poll', '100ms', '--payment', 'credit', '--json'], { env, timeoutMs: 120_000, cwd: home });
      expect(first.stderr).not.toContain('could not read the booking result');
      // Booked (0), or accepted with its result not read within the wait (7): the error object says which.
      expect(first.code, first.stderr).toBe((JSON.parse(first.stdout) as { error?: unknown }).error === undefined ? 0 : 7);
      expect(first.stderr).not.toContain('--again');
      // Again with a wait too short for the limit: the order may be left accepted (7), never failed.
      const dir = mkdtempSync(join(tmpdir(), 'shipbook-pace-single-'));
      const doc = parse(readFileSync(fixture, 'utf8')) as Record<string, any>;
      const order = structuredClone(doc.request ?? doc);
      order.order.shipments[0].transient_id = 'P-0';
      const file = join(dir, 'order.json');
      writeFileSync(file, JSON.stringify(order));
      const short = await runCli(['book', file, '--poll', '100ms', '--timeout', '200ms', '--payment', 'credit'], { env, timeoutMs: 120_000, cwd: dir });
      expect(short.code, short.stderr).toBe(short.stderr.includes('gave up waiting') ? 7 : 0);
      expect(short.stderr).not.toContain('--again');
      const rerun = await runCli(['book', file, '--poll', '100ms', '--payment', 'credit', '--json'], { env, timeoutMs: 120_000, cwd: dir });
      expect(rerun.code, rerun.stderr).toBe(0);
      if (short.code === 7) {
        // An order left accepted is read again, never booked again, and --again is never offered for it.
        expect(rerun.stderr).toContain('accepted: continuing that order, not creating another');
        expect(rerun.stderr).not.toContain('--again');
      } else {
        // Booked (processed) the first time: the rerun shows it; only then is --again offered, for a second order.
        expect(rerun.stderr).toContain('this document was booked before');
      }
      const by = await ordersByInput(sandbox, KEY);
      expect(by.get('P-0')).toHaveLength(1);
    } finally {
      cleanup();
    }
  }, 200_000);
});
