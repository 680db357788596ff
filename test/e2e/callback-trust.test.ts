/**
 * End-to-end: a callback is a hint, the service's fetch-order-data is the result; an error
 * callback the service does not bear out ends the wait with its own outcome (exit 12). Forged callbacks are POSTed to the receiver of a running `order accept --wait` (its URL
 * read from the sandbox, as anyone who learnt it could), and the sandbox then finishes the order.
 */
import { spawn } from 'node:child_process';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { startFaultServer, type FaultMode } from '../helpers/fault-server.js';
import { waitFor } from '../sandbox/helpers.js';
import { BIN, ROOT, makeHome } from '../helpers/cli.js';
import { createOrder } from '../helpers/orders.js';

let slow: Sandbox;
let env: Record<string, string>;
const home = makeHome();
const children: Array<ReturnType<typeof spawn>> = [];

beforeAll(async () => {
  // Bookings that take a minute: the test decides when an order is processed or failed.
  slow = await startSandbox({ processingDelayMs: 60_000 });
  env = { SHIPBOOK_API_KEY: 'sk_test_e2e_0123456789', HOME: home.home, XDG_CONFIG_HOME: home.home, SHIPBOOK_BASE_URL: slow.url };
});
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});
afterAll(async () => {
  await slow.close();
  home.cleanup();
});

/** Starts `order accept ID --wait --json` and resolves once the sandbox knows its callback URL. */
async function acceptAndWait(id: string) {
  const child = spawn(process.execPath, [BIN, 'order', 'accept', id, '--payment', 'credit', '--wait', '--json'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, NO_COLOR: '1', CI: '1', ...env },
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const url = await waitFor(() => slow.state.getOrder(id).callback);
  await waitFor(() => (stderr.includes('waiting for the booking result') ? true : undefined));
  return { url, exited, out: () => stdout, err: () => stderr };
}

async function post(url: string, body: unknown): Promise<number> {
  const res = await request(url, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  await res.body.dump();
  return res.statusCode;
}

describe('a callback is confirmed with fetch-order-data before it is believed', () => {
  it('does not print an invented tracking number: the service still shows the order accepted, so it waits, then shows the real one', async () => {
    const id = await createOrder(env);
    const run = await acceptAndWait(id);
    expect(
      await post(run.url, {
        code: 200,
        message: 'OK',
        result: { order: { id, status: 'processed', shipments: [{ id: 'SHP-X', tracking_number: 'FAKE000001' }] } },
      }),
    ).toBe(200);
    await waitFor(() => (run.err().includes('but the service still shows it accepted: waiting for the service') ? true : undefined));
    slow.state.completeBooking(id, new Date());
    expect(await run.exited).toBe(0);
    const { order } = JSON.parse(run.out()) as { order: { status: string; shipments: Array<{ tracking_number: string }> } };
    expect(order.status).toBe('processed');
    expect(order.shipments[0]!.tracking_number).toMatch(/^SBX\d{10}$/);
    expect(run.out()).not.toContain('FAKE000001');
  });

  it('ends on an error callback while the service shows the order ACC: not booked, not "failed", exit 12 with the order get hint', async () => {
    const id = await createOrder(env);
    const run = await acceptAndWait(id);
    expect(await post(run.url, { code: 500, message: 'no driver available', result: { order: { id, status: 'failed', shipments: [] } } })).toBe(200);
    expect(await run.exited).toBe(12);
    const { error } = JSON.parse(run.out()) as { error: Record<string, unknown> };
    expect(error).toMatchObject({
      code: 'booking_error_reported',
      exit_code: 12,
      order_id: id,
      callback_code: 500,
      callback_message: 'no driver available',
      order_status: 'ACC',
    });
    expect(error.message).toBe(
      `the service's callback says booking of order ${id} failed: no driver available (callback code 500), while fetch-order-data shows it ACC (accepted); not booked as far as shipbook can tell`,
    );
    expect(error.suggestion).toContain(`look at it with "shipbook order get ${id}" before booking it again`);
    expect(run.out()).not.toMatch(/processed|SBX/);
    expect(run.err()).not.toMatch(/gave up waiting/);
  });

  it("takes an error callback in the plain error envelope (no order in result) as this order's, answered 200", async () => {
    const id = await createOrder(env);
    const run = await acceptAndWait(id);
    expect(await post(run.url, { code: 400, message: 'booking failed: no van today', result: {} })).toBe(200);
    expect(await run.exited).toBe(12);
    const { error } = JSON.parse(run.out()) as { error: Record<string, unknown> };
    expect(error).toMatchObject({ code: 'booking_error_reported', order_id: id, callback_code: 400, order_status: 'ACC' });
    expect(error.message).toContain('booking failed: no van today (callback code 400)');
  });

  it('takes a code-200 callback with status ACC as progress, not as a failure', async () => {
    const id = await createOrder(env);
    const run = await acceptAndWait(id);
    expect(await post(run.url, { code: 200, message: 'OK', result: { order: { id, status: 'ACC', shipments: [] } } })).toBe(200);
    // The callback is taken in (debug off: no line); the service then processes the order.
    slow.state.completeBooking(id, new Date());
    expect(await run.exited).toBe(0);
    expect(run.err()).not.toMatch(/error:/);
  });

  it('refuses a success callback that names no order (400, 409) and an error callback for another order (409), and keeps waiting', async () => {
    const id = await createOrder(env);
    const run = await acceptAndWait(id);
    expect(await post(run.url, { code: 200, message: 'OK', result: { order: { status: 'processed', shipments: [] } } })).toBe(400);
    expect(await post(run.url, { code: 200, message: 'OK', result: { order: { id: '', status: 'processed', shipments: [] } } })).toBe(409);
    expect(await post(run.url, { code: 500, message: 'boom', result: { order: { id: 'ORD-OTHER', status: 'failed', shipments: [] } } })).toBe(409);
    // The sandbox finishes the order; its real callback (delivered here by the test) ends the wait.
    const real = slow.state.completeBooking(id, new Date());
    expect(await post(run.url, real)).toBe(200);
    expect(await run.exited).toBe(0);
    expect(run.err()).toContain('the callback names no order');
    expect(run.err()).toContain(`waits for the result of order ${id}, not ORD-OTHER`);
  });

  it("reports a failure the service confirms with the service's reason (exit 6)", async () => {
    const id = await createOrder(env);
    const run = await acceptAndWait(id);
    slow.state.failNextBooking(id, 'parcel too heavy for the van (test)');
    slow.state.completeBooking(id, new Date());
    expect(await post(run.url, { code: 500, message: 'parcel too heavy for the van (test)', result: { order: { id, status: 'failed', shipments: [] } } })).toBe(
      200,
    );
    expect(await run.exited).toBe(6);
    const { error } = JSON.parse(run.out()) as { error: { message: string; order_id?: string } };
    expect(error.message).toContain(`booking of order ${id} failed: parcel too heavy for the van (test)`);
  });
});

describe('error callbacks from a service whose fetch-order-data shows what the sandbox never does', () => {
  /**
   * Runs `order accept ID --wait --json` against a fake service whose fetch-order-data answers
   * `fetch` (one entry per request), POSTs `callback` to the receiver once the accept carried its
   * URL, and returns the exit code, the error as JSON and what the service received.
   */
  async function errorCallback(id: string, fetch: FaultMode[], callback: unknown) {
    const service = await startFaultServer();
    try {
      service.set(`PUT /orders/${id}/accept/`, { mode: 'ok', status: 201, result: { order: { id, status: 'ACC', shipments: [] } } });
      service.set(`GET /orders/${id}/`, fetch);
      const child = spawn(process.execPath, [BIN, 'order', 'accept', id, '--payment', 'credit', '--wait', '--json'], {
        cwd: ROOT,
        env: {
          PATH: process.env.PATH,
          NO_COLOR: '1',
          CI: '1',
          HOME: home.home,
          XDG_CONFIG_HOME: home.home,
          SHIPBOOK_API_KEY: 'sk_test_e2e_0123456789',
          SHIPBOOK_BASE_URL: service.url,
        },
      });
      children.push(child);
      let stdout = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.stderr.resume();
      const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
      const accept = await waitFor(() => service.requests.find((r) => r.method === 'PUT'));
      const url = (JSON.parse(accept.body) as { request: { callback: string } }).request.callback;
      const answered = await post(url, callback);
      const code = await exited;
      return {
        code,
        answered,
        error: (JSON.parse(stdout) as { error: Record<string, unknown> }).error,
        fetches: service.requests.filter((r) => r.method === 'GET').length,
      };
    } finally {
      await service.close();
    }
  }

  it('reports an error callback while the service shows a status shipbook does not know (REJ): exit 12, never booked', async () => {
    const r = await errorCallback('ORD-REJ1', [{ mode: 'ok', result: { order: { id: 'ORD-REJ1', status: 'REJ', shipments: [] } } }], {
      code: 400,
      message: 'booking failed: address not served',
      result: {},
    });
    expect(r.answered).toBe(200);
    expect(r.code).toBe(12);
    expect(r.error).toMatchObject({ code: 'booking_error_reported', order_id: 'ORD-REJ1', callback_code: 400, order_status: 'REJ' });
    expect(r.error.message).toContain('while fetch-order-data shows it REJ (a status shipbook does not know)');
    expect(r.error.suggestion).toContain('shipbook order get ORD-REJ1');
  });

  it('asks again when fetch-order-data cannot be reached for now, then reports what it shows', async () => {
    const busy: FaultMode = { mode: 'status', status: 503 };
    const r = await errorCallback('ORD-BUSY1', [busy, busy, busy, { mode: 'ok', result: { order: { id: 'ORD-BUSY1', status: 'ACC', shipments: [] } } }], {
      code: 500,
      message: 'carrier down',
      result: { order: { id: 'ORD-BUSY1', status: 'failed', shipments: [] } },
    });
    expect(r.code).toBe(12);
    expect(r.error).toMatchObject({ order_status: 'ACC', callback_code: 500 });
    expect(r.fetches).toBe(4);
  });

  it('says fetch-order-data could not be read when the service refuses it (a wrong path)', async () => {
    const r = await errorCallback('ORD-404', [{ mode: 'status', status: 404, message: 'no such route' }], { code: 500, message: 'carrier down', result: null });
    expect(r.code).toBe(12);
    expect(r.error).toMatchObject({ order_status: null });
    expect(r.error.message).toMatch(/while fetch-order-data could not be read \(no such route/);
  });
});
