/**
 * End-to-end: `shipbook callback listen` as a long-running child process receiving callbacks from
 * a sandbox, printing them, forwarding them to a test server, refusing forged requests, and
 * ending on Ctrl-C (SIGINT) with exit code 130.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { runShipbook } from '../helpers/run.js';
import { BIN, ROOT, makeHome } from '../helpers/cli.js';
import { waitFor } from '../sandbox/helpers.js';
import { createOrder } from '../helpers/orders.js';

let sandbox: Sandbox;
let env: Record<string, string>;
let app: Server;
let appUrl: string;
const forwarded: Array<{ path: string; contentType: string | undefined; body: string }> = [];
const home = makeHome();

beforeAll(async () => {
  sandbox = await startSandbox({ processingDelayMs: 50, callbackBackoffMs: 50 });
  // One state directory for the listener and the commands: the ledger that records what the callbacks say.
  env = {
    SHIPBOOK_BASE_URL: sandbox.url,
    SHIPBOOK_API_KEY: 'sk_test_e2e_0123456789',
    HOME: home.home,
    XDG_CONFIG_HOME: home.home,
    SHIPBOOK_STATE_DIR: join(home.home, 'state'),
  };
  // The "application" that callbacks are forwarded to.
  app = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d: string) => (body += d));
    req.on('end', () => {
      forwarded.push({ path: req.url ?? '', contentType: req.headers['content-type'], body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}/hooks`;
});
afterAll(async () => {
  await sandbox.close();
  await new Promise<void>((resolve) => app.close(() => resolve()));
  home.cleanup();
});

/** A running `shipbook` child process whose output can be awaited. */
interface Running {
  child: ChildProcessWithoutNullStreams;
  stdout: string;
  stderr: string;
  /** Resolves with the first match of `re` in the stream (waiting for more output as needed). */
  waitFor(stream: 'stdout' | 'stderr', re: RegExp): Promise<RegExpMatchArray>;
  exited: Promise<number | null>;
}

const running: Running[] = [];
afterEach(() => {
  for (const r of running.splice(0)) if (r.child.exitCode === null) r.child.kill('SIGKILL');
});

function spawnCli(args: string[]): Running {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, NO_COLOR: '1', CI: '1', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const r: Running = {
    child,
    stdout: '',
    stderr: '',
    waitFor(stream, re) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const m = r[stream].match(re);
          if (m) {
            child[stream].off('data', check);
            clearTimeout(timer);
            resolve(m);
          }
        };
        const timer = setTimeout(() => {
          child[stream].off('data', check);
          reject(new Error(`no ${re} on ${stream}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`));
        }, 15_000);
        child[stream].on('data', check);
        check();
      });
    },
    exited: new Promise((resolve) => child.on('close', (code) => resolve(code))),
  };
  child.stdout.setEncoding('utf8').on('data', (d: string) => (r.stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (r.stderr += d));
  child.stdin.end();
  running.push(r);
  return r;
}

describe('callback listen', () => {
  it('prints a callback from the sandbox as a JSON line, forwards it, refuses forged POSTs, and stops on Ctrl-C', async () => {
    const listen = spawnCli(['callback', 'listen', '--port', '0', '--path', '/hooks', '--json', '--forward-to', appUrl]);
    const url = (await listen.waitFor('stderr', /Callback URL: (\S+)/))[1]!;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/hooks\/[A-Za-z0-9_-]{32}$/);

    const id = await createOrder(env);
    const accepted = await runShipbook(['order', 'accept', id, '--payment', 'credit', '--callback', url], { env });
    expect(accepted.code, accepted.stderr).toBe(0);

    const line = (await listen.waitFor('stdout', /^\{.*\}$/m))[0];
    const summary = JSON.parse(line) as { order_id: string; code: number; status: string; tracking_numbers: string[]; body: unknown };
    const tracking = sandbox.state.shipmentsOf(sandbox.state.getOrder(id)).map((s) => s.trackingNumber);
    expect(summary).toMatchObject({ order_id: id, code: 200, status: 'processed', tracking_numbers: tracking });
    expect(summary.tracking_numbers[0]).toMatch(/^SBX\d{10}$/);

    await listen.waitFor('stderr', /forwarded ORD-\w+ to .*: 204/);
    expect(forwarded).toHaveLength(1);
    expect(forwarded[0]!.path).toBe('/hooks');
    expect(forwarded[0]!.contentType).toBe('application/json');
    expect(JSON.parse(forwarded[0]!.body)).toEqual(summary.body);
    await waitFor(() => (sandbox.state.callbacks.find((c) => c.orderId === id)?.state === 'pending' ? undefined : true)).catch(() => {});
    expect(sandbox.state.callbacks.find((c) => c.orderId === id)).toMatchObject({ state: 'delivered', lastOutcome: 200 });
    // The ledger learned the order's later state from the callback: processed, with its tracking numbers.
    const history = await runShipbook(['history', '--order', id, '--json'], { env });
    expect(history.code, history.stderr).toBe(0);
    const records = (JSON.parse(history.stdout) as { history: Array<Record<string, unknown>> }).history;
    expect(records.map((r) => r.operation)).toEqual(['order create', 'order accept', 'callback']);
    expect(records[2]).toMatchObject({ status: 'processed', order_id: id, tracking_numbers: tracking });

    // A forged POST (wrong token) and a malformed body: refused, reported on stderr, nothing printed on stdout.
    const base = url.slice(0, url.lastIndexOf('/'));
    const forged = await request(`${base}/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`, { method: 'POST', body: line });
    expect(forged.statusCode).toBe(404);
    await forged.body.dump();
    const malformed = await request(url, { method: 'POST', body: '{not json' });
    expect(malformed.statusCode).toBe(400);
    await malformed.body.dump();
    await listen.waitFor('stderr', /refused: POST .* answered 400: malformed JSON/);
    expect(listen.stdout.trim().split('\n')).toHaveLength(1);
    expect(forwarded).toHaveLength(1);

    listen.child.kill('SIGINT');
    expect(await listen.exited).toBe(130);
  });

  it('prints an error callback as a tab-separated line with its code, status and message', async () => {
    const listen = spawnCli(['callback', 'listen', '--port', '0']);
    const url = (await listen.waitFor('stderr', /Callback URL: (\S+)/))[1]!;
    const id = await createOrder(env);
    sandbox.state.failNextBooking(id, 'label printer jammed (test)');
    const accepted = await runShipbook(['order', 'accept', id, '--payment', 'credit', '--callback', url], { env });
    expect(accepted.code, accepted.stderr).toBe(0);
    const line = (await listen.waitFor('stdout', /^.*\n/))[0];
    const cells = line.trimEnd().split('\t');
    expect(cells[0]).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(cells.slice(1)).toEqual([id, '500', 'failed', '', 'label printer jammed (test)']);
    listen.child.kill('SIGINT');
    expect(await listen.exited).toBe(130);
  });

  it('shows control characters from a callback instead of obeying them, and marks a repeated callback', async () => {
    const listen = spawnCli(['callback', 'listen', '--port', '0']);
    const url = (await listen.waitFor('stderr', /Callback URL: (\S+)/))[1]!;
    const body = JSON.stringify({
      code: 500,
      message: 'boom\u001b[2J\u001b]0;owned\u0007 \u009b31m \u202eevil',
      result: { order: { id: 'ORD-\u001b[31mX', status: 'failed', shipments: [] } },
    });
    for (let i = 0; i < 2; i++) {
      const res = await request(url, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
      expect(res.statusCode).toBe(200);
      await res.body.dump();
    }
    await listen.waitFor('stdout', /repeat 2/);
    const [first, second] = listen.stdout.trimEnd().split('\n');
    expect(listen.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
    expect(first!.split('\t').slice(1)).toEqual(['ORD-\\x1b[31mX', '500', 'failed', '', 'boom\\x1b[2J\\x1b]0;owned\\x07 \\x9b31m \\u{202e}evil', '']);
    expect(second!.split('\t').at(-1)).toBe('repeat 2');
    listen.child.kill('SIGINT');
    expect(await listen.exited).toBe(130);
  });

  it('summarises a flood of refused requests instead of printing a line for each', async () => {
    const listen = spawnCli(['callback', 'listen', '--port', '0']);
    const url = (await listen.waitFor('stderr', /Callback URL: (\S+)/))[1]!;
    const base = url.slice(0, url.lastIndexOf('/'));
    for (let i = 0; i < 60; i++) {
      const res = await request(`${base}/probe-${i}\u001b`, { method: 'GET' });
      expect(res.statusCode).toBe(404);
      await res.body.dump();
    }
    const bad = await request(url, { method: 'POST', body: '{' });
    expect(bad.statusCode).toBe(400);
    await bad.body.dump();
    await listen.waitFor('stderr', /answered 400/);
    listen.child.kill('SIGINT');
    expect(await listen.exited).toBe(130);
    const refused = listen.stderr.split('\n').filter((l) => l.startsWith('refused'));
    expect(refused).toEqual([
      expect.stringMatching(/^refused: GET from \S+ answered 404: not the callback path$/),
      expect.stringMatching(/^refused: POST from \S+ answered 400: malformed JSON/),
      'refused: 59 more requests in the last 10 s: 404 ×59',
    ]);
  });

  it('bound to 0.0.0.0, says so and gives a URL other machines can use (or says one is needed)', async () => {
    const listen = spawnCli(['callback', 'listen', '--port', '0', '--host', '0.0.0.0']);
    const line = (await listen.waitFor('stderr', /Listening for booking callbacks on (\S+)/))[1]!;
    expect(line).toMatch(/^0\.0\.0\.0:\d+$/);
    await listen.waitFor('stderr', /Callback URL from other machines: (http:\/\/\S+|none found)/);
    expect(listen.stderr).toContain('reachable from the network');
    const local = (await listen.waitFor('stderr', /Callback URL: (\S+)/))[1]!;
    const res = await request(local, { method: 'POST', body: '{' });
    expect(res.statusCode).toBe(400);
    await res.body.dump();
    listen.child.kill('SIGINT');
    expect(await listen.exited).toBe(130);
  });

  it('refuses a malformed --token or --forward-to with exit 2', async () => {
    const a = await runShipbook(['callback', 'listen', '--port', '0', '--token', 'short'], { env });
    expect(a.code).toBe(2);
    expect(a.stderr).toContain('--token must be 16-128');
    const b = await runShipbook(['callback', 'listen', '--port', '0', '--forward-to', 'localhost:3000'], { env });
    expect(b.code).toBe(2);
    expect(b.stderr).toContain('--forward-to "localhost:3000" is not an http(s) URL');
  });

  it('takes --listen host:port as book and order accept spell it; --host and --port stay, and both at once are refused', async () => {
    const listen = spawnCli(['callback', 'listen', '--listen', '127.0.0.1:0']);
    const url = (await listen.waitFor('stderr', /Callback URL: (\S+)/))[1]!;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    const id = await createOrder(env);
    const accepted = await runShipbook(['order', 'accept', id, '--payment', 'credit', '--callback', url], { env });
    expect(accepted.code, accepted.stderr).toBe(0);
    expect((await listen.waitFor('stdout', /^.*\n/))[0]).toContain(id);
    listen.child.kill('SIGINT');
    expect(await listen.exited).toBe(130);
    const both = await runShipbook(['callback', 'listen', '--listen', ':0', '--port', '5'], { env });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('give --listen, or --host and --port, not both');
    const bad = await runShipbook(['callback', 'listen', '--listen', 'nohost:port'], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--listen "nohost:port" is not host:port');
  });
});
