/**
 * End-to-end: waiting for the booking result by polling fetch-order-data (`--poll`), and the
 * cases where shipbook polls because the callback goes elsewhere (`--callback`). Against a
 * sandbox of its own, so that `state.callbacks` shows exactly the callbacks these runs caused.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { useSandbox } from '../helpers/sandbox.js';
import { runShipbook } from '../helpers/run.js';

// The shared sandbox start (test/helpers/sandbox.ts): private home, key, base URL.
const fixture = useSandbox({ processingDelayMs: 100, callbackRetries: 0, callbackTimeoutMs: 500 });
let sandbox: Sandbox;
let env: Record<string, string>;
beforeAll(() => {
  ({ sandbox, env } = fixture);
});

describe('--poll', () => {
  it('books by polling: the same tracking-number output, and no callback URL is sent', async () => {
    const r = await runShipbook(['book', 'fixtures/orders/domestic-syd-mel.yaml', '--poll', '200ms'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/waiting for the booking result of ORD-\w+ by polling every 200 ms/);
    const lines = r.stdout
      .split('\n')
      .filter((l) => l.startsWith('SHP-'))
      .map((l) => l.split('\t'));
    expect(lines).toHaveLength(1);
    expect(lines[0]![4]).toBe('processed');
    expect(lines[0]![5]).toMatch(/^SBX\d{10}$/);
    const orderId = /order (ORD-\w+) booked/.exec(r.stderr)![1]!;
    expect(sandbox.state.getOrder(orderId).callback).toBeUndefined();
    expect(sandbox.state.callbacks).toEqual([]);
  });

  it('accepts with --wait --poll and prints JSON with every tracking number', async () => {
    const created = await runShipbook(['order', 'create', 'fixtures/orders/insured-bne-per.yaml', '--json'], { env });
    const id = (JSON.parse(created.stdout) as { order: { id: string } }).order.id;
    const r = await runShipbook(['order', 'accept', id, '--payment', 'credit', '--wait', '--poll', '200ms', '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    const { order } = JSON.parse(r.stdout) as { order: { id: string; status: string; shipments: Array<{ tracking_number: string }> } };
    expect(order).toMatchObject({ id, status: 'processed' });
    for (const s of order.shipments) expect(s.tracking_number).toMatch(/^SBX\d{10}$/);
    expect(sandbox.state.callbacks).toEqual([]);
  });

  it('reports a booking that ended failed, seen by polling, with exit 6', async () => {
    const created = await runShipbook(['order', 'create', 'fixtures/orders/domestic-syd-mel.yaml', '--json'], { env });
    const id = (JSON.parse(created.stdout) as { order: { id: string } }).order.id;
    sandbox.state.failNextBooking(id, 'no driver available (test)');
    const r = await runShipbook(['order', 'accept', id, '--payment', 'credit', '--wait', '--poll', '100ms'], { env });
    expect(r.code).toBe(6);
    // The service's reason, as a callback would carry it.
    expect(r.stderr).toContain(`booking of order ${id} failed: no driver available (test) (order status failed)`);
  });
});

describe('waiting with your own --callback URL', () => {
  it('sends your URL unchanged and waits by polling', async () => {
    const mine = 'http://127.0.0.1:9/my-hooks';
    const r = await runShipbook(['book', 'fixtures/orders/domestic-syd-mel.yaml', '--callback', mine, '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('The booking result goes to your callback URL; shipbook waits by polling');
    const { order } = JSON.parse(r.stdout) as { order: { id: string; status: string } };
    expect(order.status).toBe('processed');
    expect(sandbox.state.getOrder(order.id).callback).toBe(mine);
  });

  it('refuses --public-url together with --callback, before creating anything', async () => {
    const before = sandbox.state.orders.size;
    const r = await runShipbook(['book', 'fixtures/orders/domestic-syd-mel.yaml', '--callback', 'https://a.example/x', '--public-url', 'https://b.example/y'], {
      env,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--public-url and --listen are for shipbook's own receiver");
    expect(sandbox.state.orders.size).toBe(before);
  });

  it('refuses wait flags on order accept without --wait, and --poll with --listen', async () => {
    const a = await runShipbook(['order', 'accept', 'ORD-X', '--payment', 'credit', '--poll', '1s'], { env });
    expect(a.code).toBe(2);
    expect(a.stderr).toContain('go with --wait');
    const b = await runShipbook(['book', 'fixtures/orders/domestic-syd-mel.yaml', '--poll', '1s', '--listen', '0'], { env });
    expect(b.code).toBe(2);
    expect(b.stderr).toContain('--poll and --listen');
  });
});

describe('order accept --wait with the payment on standard input', () => {
  it('reads standard input once, though the payment is checked before and built after', async () => {
    const created = await runShipbook(['order', 'create', 'fixtures/orders/domestic-syd-mel.yaml', '--json'], { env });
    const id = JSON.parse(created.stdout).order.id as string;
    const r = await runShipbook(['order', 'accept', id, '--payment-file', '-', '--wait', '--poll', '100ms'], {
      env,
      input: readFileSync('fixtures/payments/credit.yaml', 'utf8'),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`order ${id} booked in`);
  });
});
