/**
 * A batch waits for its results by callback where that route works: one receiver for the run, the
 * callback URL in every accept request, and no fetch-order-data while the callbacks come. Counted
 * at the service: by `--debug`'s request lines against the built-in sandbox (it runs inside the
 * shipbook process), and by a counting proxy in front of `shipbook sandbox` as its own process.
 * `--poll` still polls; callbacks that never reach the run (the service is given a URL nobody
 * listens on) leave every order to the fallback poll, and the batch still books them all.
 */
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
import { startSandboxProcess } from '../helpers/sandbox-process.js';

const KEY = 'sk_test_callbacks_0123456789';
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

/** A directory with an NDJSON file of `n` orders (transient ids CB-0 … CB-n-1). */
function ordersFile(n: number): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'shipbook-callbacks-'));
  const doc = parse(readFileSync(join(ROOT, 'fixtures/orders/domestic-syd-mel.yaml'), 'utf8')) as Record<string, any>;
  const order = doc.request ?? doc;
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const o = structuredClone(order);
    o.order.shipments[0].transient_id = `CB-${i}`;
    lines.push(JSON.stringify(o));
  }
  const file = join(dir, 'orders.ndjson');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return { dir, file };
}

/** A proxy on 127.0.0.1 in front of `target` that counts the requests it passes on, by method and kind. */
async function countingProxy(target: string): Promise<{ url: string; counts: { create: number; accept: number; read: number } }> {
  const counts = { create: 0, accept: 0, read: 0 };
  const server = createServer((req, res) => {
    const path = req.url ?? '';
    if (req.method === 'POST' && /^\/orders\/$/.test(path)) counts.create++;
    else if (req.method === 'PUT' && /^\/orders\/[^/]+\/accept\/$/.test(path)) counts.accept++;
    else if (req.method === 'GET' && /^\/orders\/[^/]+\/$/.test(path)) counts.read++;
    const upstream = httpRequest(new URL(path.slice(1), target), { method: req.method, headers: req.headers }, (answer) => {
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

/** A port on 127.0.0.1 that nobody listens on (taken, then let go). */
async function deadPort(): Promise<number> {
  const s = createServer();
  s.listen(0, '127.0.0.1');
  await once(s, 'listening');
  const port = (s.address() as AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

interface Report {
  summary: Record<string, number | string>;
  orders: Array<{ status: string; order_id?: string; tracking_numbers?: string[]; total?: string }>;
}

/** Reads the batch's JSON report and checks that every one of `n` orders was booked, with its tracking number and total. */
function expectAllBooked(reportPath: string, n: number): void {
  const rep = JSON.parse(readFileSync(reportPath, 'utf8')) as Report;
  expect(rep.orders).toHaveLength(n);
  for (const o of rep.orders) {
    expect(o.status).toBe('booked');
    expect(o.tracking_numbers?.[0]).toMatch(/^SBX\d+$/);
    expect(o.total).toBe('47.30');
  }
}

describe('a batch that waits by callback', () => {
  it('books every order on the built-in sandbox by callback and reads none with fetch-order-data', async () => {
    const n = 8;
    const { dir, file } = ordersFile(n);
    const report = join(dir, 'report.json');
    // One state directory for both runs: the built-in sandbox's orders and the ledger.
    const env = { SHIPBOOK_STATE_DIR: join(dir, 'state') };
    const r = await runCli(['--debug', 'book', file, '--payment', 'credit', '--report', report, '--journal', join(dir, 'j.ndjson')], {
      env,
      cwd: dir,
      timeoutMs: 60_000,
    });
    expect(r.code, r.stderr.slice(-3000)).toBe(0);
    expectAllBooked(report, n);
    const sent = r.stderr.split('\n').filter((l) => l.startsWith('debug: > '));
    expect(sent.filter((l) => l.startsWith('debug: > POST ') && l.endsWith('/orders/'))).toHaveLength(n);
    expect(sent.filter((l) => l.startsWith('debug: > PUT ') && l.endsWith('/accept/'))).toHaveLength(n);
    expect(sent.filter((l) => l.startsWith('debug: > GET '))).toEqual([]);
    // Every accept request names the run's one receiver (the token shortened in the debug lines).
    const callbacks = new Set(
      r.stderr
        .split('\n')
        .filter((l) => l.startsWith('debug: > {"request":{"order":{"id"'))
        .map((l) => /"callback":"(http:\/\/127\.0\.0\.1:\d+\/[^"]+)"/.exec(l)?.[1]),
    );
    expect(callbacks.size).toBe(1);
    expect([...callbacks][0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/.{4}…$/);

    // The ledger recorded each result from its callback as processed: the same batch again sends nothing.
    const again = await runCli(['--debug', 'book', file, '--payment', 'credit', '--journal', join(dir, 'j.ndjson')], { env, cwd: dir, timeoutMs: 60_000 });
    expect(again.code, again.stderr.slice(-3000)).toBe(0);
    expect(again.stderr.split('\n').filter((l) => l.startsWith('debug: > '))).toEqual([]);
    expect(
      again.stdout
        .trim()
        .split('\n')
        .filter((l) => l.split('\t')[2] === 'already_booked'),
    ).toHaveLength(n);
  });

  it('books 30 orders on `shipbook sandbox` with one create and one accept each and no read; --poll 200ms still polls', async () => {
    const sandboxUrl = await startSandboxProcess(['--api-key', KEY], running);
    const { url, counts } = await countingProxy(sandboxUrl);
    const n = 30;
    const { home, cleanup } = makeHome();
    try {
      const { dir, file } = ordersFile(n);
      const env = { SHIPBOOK_BASE_URL: url, SHIPBOOK_API_KEY: KEY, HOME: home };
      const report = join(dir, 'report.json');
      const r = await runCli(['book', file, '--concurrency', '8', '--payment', 'credit', '--report', report, '--journal', join(dir, 'j.ndjson')], {
        env,
        cwd: dir,
        timeoutMs: 60_000,
      });
      expect(r.code, r.stderr).toBe(0);
      expectAllBooked(report, n);
      expect(counts).toEqual({ create: n, accept: n, read: 0 });
      expect(r.stderr).not.toContain('MaxListenersExceededWarning');

      // The same orders again, other transient ids: --poll chooses polling.
      const again = ordersFile(n);
      const polled = join(again.dir, 'report.json');
      const before = { ...counts };
      const p = await runCli(
        ['book', again.file, '--concurrency', '8', '--poll', '200ms', '--payment', 'credit', '--report', polled, '--journal', join(again.dir, 'j.ndjson')],
        { env: { ...env }, cwd: again.dir, timeoutMs: 60_000 },
      );
      expect(p.code, p.stderr).toBe(0);
      expect(counts.accept - before.accept).toBe(n);
      expect(counts.read - before.read).toBeGreaterThanOrEqual(n);
    } finally {
      cleanup();
    }
  });

  it('finishes every order through the fallback poll when the callbacks never arrive', async () => {
    const sandboxUrl = await startSandboxProcess(['--api-key', KEY], running);
    const { url, counts } = await countingProxy(sandboxUrl);
    const n = 4;
    const { home, cleanup } = makeHome();
    try {
      const { dir, file } = ordersFile(n);
      const report = join(dir, 'report.json');
      // The service is told a public URL nobody listens on: every callback fails there.
      const nowhere = `http://127.0.0.1:${await deadPort()}/hooks`;
      const r = await runCli(
        ['book', file, '--payment', 'credit', '--public-url', nowhere, '--listen', '127.0.0.1:0', '--report', report, '--journal', join(dir, 'j.ndjson')],
        { env: { SHIPBOOK_BASE_URL: url, SHIPBOOK_API_KEY: KEY, HOME: home }, cwd: dir, timeoutMs: 90_000 },
      );
      expect(r.code, r.stderr).toBe(0);
      expectAllBooked(report, n);
      expect(counts.read).toBeGreaterThanOrEqual(n);
      expect(r.stderr).toContain('no callback arrived, but fetch-order-data shows order');
      expect(r.stderr).toContain('(shown for the first order only)');
    } finally {
      cleanup();
    }
  });
});
