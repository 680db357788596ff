/**
 * End-to-end (issue 20, item 2): a callback is a hint, the service's fetch-order-data is the
 * result. Forged callbacks are POSTed to the receiver of a running `order accept --wait` (its URL
 * read from the sandbox, as anyone who learnt it could), and the sandbox then finishes the order.
 */
import { spawn } from 'node:child_process';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { runShipbook as runCli } from '../helpers/run.js';
import { waitFor } from '../sandbox/helpers.js';
import { BIN, ROOT, makeHome } from './cli.js';

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

async function createOrder(): Promise<string> {
  const r = await runCli(['order', 'create', 'fixtures/orders/domestic-syd-mel.yaml', '--json'], { env });
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { order: { id: string } }).order.id;
}

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
    const id = await createOrder();
    const run = await acceptAndWait(id);
    expect(await post(run.url, { code: 200, message: 'OK', result: { order: { id, status: 'processed', shipments: [{ id: 'SHP-X', tracking_number: 'FAKE000001' }] } } })).toBe(200);
    await waitFor(() => (run.err().includes('but the service still shows it accepted: waiting for the service') ? true : undefined));
    slow.state.completeBooking(id, new Date());
    expect(await run.exited).toBe(0);
    const { order } = JSON.parse(run.out()) as { order: { status: string; shipments: Array<{ tracking_number: string }> } };
    expect(order.status).toBe('processed');
    expect(order.shipments[0]!.tracking_number).toMatch(/^SBX\d{10}$/);
    expect(run.out()).not.toContain('FAKE000001');
  });

  it('does not end in "booking failed" on an error callback for an order the service goes on to process', async () => {
    const id = await createOrder();
    const run = await acceptAndWait(id);
    expect(await post(run.url, { code: 500, message: 'no driver available', result: { order: { id, status: 'failed', shipments: [] } } })).toBe(200);
    await waitFor(() => (run.err().includes('failed (no driver available), but the service still shows it accepted') ? true : undefined));
    slow.state.completeBooking(id, new Date());
    expect(await run.exited).toBe(0);
    expect((JSON.parse(run.out()) as { order: { status: string } }).order.status).toBe('processed');
  });

  it('takes a code-200 callback with status ACC as progress, not as a failure', async () => {
    const id = await createOrder();
    const run = await acceptAndWait(id);
    expect(await post(run.url, { code: 200, message: 'OK', result: { order: { id, status: 'ACC', shipments: [] } } })).toBe(200);
    // The callback is taken in (debug off: no line); the service then processes the order.
    slow.state.completeBooking(id, new Date());
    expect(await run.exited).toBe(0);
    expect(run.err()).not.toMatch(/error:/);
  });

  it('refuses a callback that names no order (400) or another order (409) and keeps waiting', async () => {
    const id = await createOrder();
    const run = await acceptAndWait(id);
    expect(await post(run.url, { code: 500, message: 'boom', result: { order: { status: 'failed', shipments: [] } } })).toBe(400);
    expect(await post(run.url, { code: 500, message: 'boom', result: { order: { id: '', status: 'failed', shipments: [] } } })).toBe(409);
    expect(await post(run.url, { code: 500, message: 'boom', result: { order: { id: 'ORD-OTHER', status: 'failed', shipments: [] } } })).toBe(409);
    // The sandbox finishes the order; its real callback (delivered here by the test) ends the wait.
    const real = slow.state.completeBooking(id, new Date());
    expect(await post(run.url, real)).toBe(200);
    expect(await run.exited).toBe(0);
    expect(run.err()).toContain('the callback names no order');
    expect(run.err()).toContain(`waits for the result of order ${id}, not ORD-OTHER`);
  });

  it('reports a failure the service confirms with the service\'s reason (exit 6)', async () => {
    const id = await createOrder();
    const run = await acceptAndWait(id);
    slow.state.failNextBooking(id, 'parcel too heavy for the van (test)');
    slow.state.completeBooking(id, new Date());
    expect(await post(run.url, { code: 500, message: 'parcel too heavy for the van (test)', result: { order: { id, status: 'failed', shipments: [] } } })).toBe(200);
    expect(await run.exited).toBe(6);
    const { error } = JSON.parse(run.out()) as { error: { message: string; order_id?: string } };
    expect(error.message).toContain(`booking of order ${id} failed: parcel too heavy for the van (test)`);
  });
});
