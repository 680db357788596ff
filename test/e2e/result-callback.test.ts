/**
 * End-to-end: waiting for the booking result by callback (the default route) against a sandbox on
 * 127.0.0.1 — success, the tunnel form, error callbacks and the timeout; in-process, but for the
 * waits that are interrupted, which run bin/shipbook.js.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { runShipbook } from '../helpers/run.js';
import { waitFor } from '../sandbox/helpers.js';
import { BIN, ROOT, makeHome } from '../helpers/cli.js';
import { createOrder } from '../helpers/orders.js';

let sandbox: Sandbox;
let slow: Sandbox;
let env: Record<string, string>;
let slowEnv: Record<string, string>;
const home = makeHome();
const API_KEY = 'sk_test_e2e_0123456789';

beforeAll(async () => {
  sandbox = await startSandbox({ processingDelayMs: 100, callbackBackoffMs: 50 });
  slow = await startSandbox({ processingDelayMs: 60_000 });
  const base = { SHIPBOOK_API_KEY: API_KEY, HOME: home.home, XDG_CONFIG_HOME: home.home };
  env = { ...base, SHIPBOOK_BASE_URL: sandbox.url };
  slowEnv = { ...base, SHIPBOOK_BASE_URL: slow.url };
});
afterAll(async () => {
  await Promise.all([sandbox.close(), slow.close()]);
  home.cleanup();
});

/** The shipment lines (tab-separated) of a non-terminal run. */
function shipmentLines(stdout: string): string[][] {
  return stdout
    .split('\n')
    .filter((l) => l.startsWith('SHP-'))
    .map((l) => l.split('\t'));
}

/** A TCP port that was free a moment ago. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('book and order accept --wait by callback', () => {
  it('books the domestic order and prints the tracking number that the callback delivered', async () => {
    const r = await runShipbook(['book', 'fixtures/orders/domestic-syd-mel.yaml'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/waiting for the booking result of ORD-\w+ by callback/);
    const orderId = /order (ORD-\w+) booked/.exec(r.stderr)?.[1];
    expect(orderId).toBeDefined();
    await waitFor(() => (sandbox.state.callbacks.find((c) => c.orderId === orderId!)?.state === 'pending' ? undefined : true)).catch(() => {});
    const record = sandbox.state.callbacks.find((c) => c.orderId === orderId);
    expect(record).toMatchObject({ state: 'delivered', lastOutcome: 200, attempts: 1 });
    const lines = shipmentLines(r.stdout);
    expect(lines).toHaveLength(1);
    expect(lines[0]![4]).toBe('processed');
    expect(lines[0]![5]).toMatch(/^SBX\d{10}$/);
    expect(lines[0]![5]).toBe(sandbox.state.shipments.get(lines[0]![0]!)!.trackingNumber);
  });

  it('accepts a pending order with --wait and prints the processed order with its tracking numbers', async () => {
    const id = await createOrder(env);
    const r = await runShipbook(['order', 'accept', id, '--payment', 'credit', '--wait'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`order\t${id}\tprocessed`);
    const lines = shipmentLines(r.stdout);
    expect(lines.map((l) => l[5])).toEqual(sandbox.state.shipmentsOf(sandbox.state.getOrder(id)).map((s) => s.trackingNumber));
    expect(lines[0]![5]).toMatch(/^SBX/);
    await waitFor(() => (sandbox.state.callbacks.find((c) => c.orderId === id)?.state === 'pending' ? undefined : true)).catch(() => {});
    expect(sandbox.state.callbacks.filter((c) => c.orderId === id)).toEqual([expect.objectContaining({ state: 'delivered', lastOutcome: 200 })]);
    expect(sandbox.state.getOrder(id).callback).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]{32}$/);
  });

  it('sends the public --public-url with a token appended and receives on --listen (the tunnel form)', async () => {
    const port = await freePort();
    const id = await createOrder(env);
    const r = await runShipbook(
      ['order', 'accept', id, '--payment', 'credit', '--wait', '--json', '--public-url', `http://127.0.0.1:${port}/sb`, '--listen', `127.0.0.1:${port}`],
      { env },
    );
    expect(r.code, r.stderr).toBe(0);
    const sent = sandbox.state.getOrder(id).callback!;
    expect(sent).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/sb/[A-Za-z0-9_-]{32}$`));
    // The token is shown shortened in messages, never in full.
    expect(r.stderr).toContain(`callback receiver on http://127.0.0.1:${port}/sb/`);
    expect(r.stderr).not.toContain(sent.split('/').at(-1)!);
    const { order } = JSON.parse(r.stdout) as { order: { status: string; shipments: Array<{ tracking_number: string }> } };
    expect(order.status).toBe('processed');
    expect(order.shipments[0]!.tracking_number).toMatch(/^SBX/);
    await waitFor(() => (sandbox.state.callbacks.find((c) => c.orderId === id)?.state === 'pending' ? undefined : true)).catch(() => {});
    expect(sandbox.state.callbacks.find((c) => c.orderId === id)?.state).toBe('delivered');
  });
});

describe('when the callback cannot reach the receiver', () => {
  it('finds the result with the fallback poll made at the deadline', async () => {
    const port = await freePort();
    const id = await createOrder(env);
    // The public URL leads nowhere (nothing listens on port 1), so the callback never arrives.
    const r = await runShipbook(
      ['order', 'accept', id, '--payment', 'credit', '--wait', '--timeout', '1s', '--public-url', 'http://127.0.0.1:1/sb', '--listen', `127.0.0.1:${port}`],
      { env },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`no callback arrived, but fetch-order-data shows order ${id} processed`);
    expect(shipmentLines(r.stdout)[0]![5]).toMatch(/^SBX/);
  });
});

describe('error callbacks', () => {
  it('prints an error callback as a failure with its message, the order id and status, exit 6', async () => {
    const id = await createOrder(env);
    sandbox.state.failNextBooking(id, 'carrier refused the parcel (test)');
    const r = await runShipbook(['order', 'accept', id, '--payment', 'credit', '--wait'], { env });
    expect(r.code).toBe(6);
    expect(r.stderr).toContain(`error: booking of order ${id} failed: carrier refused the parcel (test) (callback code 500, order status failed)`);
    expect(r.stderr).toContain(`shipbook order get ${id}`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout).not.toMatch(/SBX/);
    // The sandbox records the delivery when the receiver's answer reaches it: wait for that event.
    await waitFor(() => (sandbox.state.callbacks.find((c) => c.orderId === id)?.state === 'pending' ? undefined : true)).catch(() => {});
    expect(sandbox.state.callbacks.find((c) => c.orderId === id)?.state).toBe('delivered');
  });

  it('fails a booking through the sandbox HTTP test hook, reported as JSON with --json', async () => {
    const id = await createOrder(env);
    const hook = await request(`${sandbox.url}_sandbox/orders/${id}/fail-next-booking/`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ request: { message: 'no pickup slot (hook)' } }),
    });
    expect(hook.statusCode).toBe(200);
    await hook.body.dump();
    const r = await runShipbook(['order', 'accept', id, '--payment', 'credit', '--wait', '--json'], { env });
    expect(r.code).toBe(6);
    const { error } = JSON.parse(r.stdout) as { error: { code: string; message: string; exit_code: number } };
    expect(error).toMatchObject({ code: 'booking_failed', exit_code: 6 });
    expect(error.message).toContain('no pickup slot (hook)');
    expect(error.message).toContain(id);
  });
});

describe('timeout', () => {
  it('gives up after --timeout with exit 7, saying the order is accepted and which command shows it', async () => {
    const id = await createOrder(slowEnv);
    const r = await runShipbook(['order', 'accept', id, '--payment', 'credit', '--wait', '--timeout', '1s'], { env: slowEnv });
    expect(r.code).toBe(7);
    expect(r.stderr).toContain(`order ${id} is accepted and the booking is still running; run "shipbook order get ${id}"`);
    expect(r.stdout).toBe('');
    const later = await runShipbook(['order', 'get', id], { env: slowEnv });
    expect(later.code).toBe(0);
    expect(later.stdout).toContain(`order\t${id}\taccepted`);
  });

  it('on Ctrl-C exits 130 and says that the order is accepted and how to see it later', async () => {
    const id = await createOrder(slowEnv);
    const child = spawn(process.execPath, [BIN, 'order', 'accept', id, '--payment', 'credit', '--wait'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, NO_COLOR: '1', CI: '1', ...slowEnv },
    });
    let stderr = '';
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    await new Promise<void>((resolve) => {
      child.stderr.setEncoding('utf8').on('data', (d: string) => {
        stderr += d;
        if (stderr.includes('waiting for the booking result')) resolve();
      });
    });
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).toContain(`order ${id} is accepted and the booking is still running; run "shipbook order get ${id}"`);
    expect(stderr).not.toContain('internal error');
  });

  it('on SIGTERM (timeout, a cancelled CI job) exits 143 with the same note as Ctrl-C', async () => {
    const id = await createOrder(slowEnv);
    const child = spawn(process.execPath, [BIN, 'order', 'accept', id, '--payment', 'credit', '--wait'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, NO_COLOR: '1', CI: '1', ...slowEnv },
    });
    let stderr = '';
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    await new Promise<void>((resolve) => {
      child.stderr.setEncoding('utf8').on('data', (d: string) => {
        stderr += d;
        if (stderr.includes('waiting for the booking result')) resolve();
      });
    });
    child.kill('SIGTERM');
    expect(await exited).toBe(143);
    expect(stderr).toContain(`order ${id} is accepted and the booking is still running; run "shipbook order get ${id}"`);
    expect(stderr).not.toContain('internal error');
  });

  it('ends a poll that outlasts --timeout the same way', async () => {
    const id = await createOrder(slowEnv);
    const r = await runShipbook(['order', 'accept', id, '--payment', 'credit', '--wait', '--poll', '200ms', '--timeout', '500ms'], { env: slowEnv });
    expect(r.code).toBe(7);
    expect(r.stderr).toContain(`order ${id} is accepted and the booking is still running; run "shipbook order get ${id}"`);
    expect(slow.state.getOrder(id).callback).toBeUndefined();
  });
});
