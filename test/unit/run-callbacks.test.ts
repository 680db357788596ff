/**
 * The run's one callback receiver (a batch waiting by callback), against a real sandbox on
 * 127.0.0.1 whose requests are logged: each callback goes to the order it names, a complete success
 * callback is the result with no fetch-order-data sent, a callback for an order the run did not
 * accept (or one on another path) is refused, an incomplete one is checked with fetch-order-data,
 * and an order whose callback never comes is read by the fallback poll.
 */
import { settledDocument } from '../helpers/pickup-days.js';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { acceptOrder, createOrder } from '../../src/api/orders.js';
import { loadDocument } from '../../src/input/load.js';
import { validateKind } from '../../src/input/validate.js';
import { prepareRunWaiter, type RunWaiter } from '../../src/booking/result/route.js';
import { orderFromCallback } from '../../src/booking/result/run-callbacks.js';
import type { ReceivedCallback } from '../../src/booking/receiver.js';
import { startSandbox, SANDBOX_API_KEY, type Sandbox } from '../../src/sandbox/index.js';

let sandbox: Sandbox;
let api: ApiClient;
const log: string[] = [];
beforeAll(async () => {
  sandbox = await startSandbox({ processingDelayMs: 50, log: (line) => log.push(line) });
  api = new ApiClient({ baseUrl: sandbox.url, apiKey: SANDBOX_API_KEY });
});
afterAll(async () => {
  await api.close();
  await sandbox.close();
});

/** The fetch-order-data requests the sandbox has answered for `orderId`. */
const reads = (orderId: string) => log.filter((l) => l.startsWith(`GET /orders/${orderId}/`)).length;

async function runWaiter(fallbackPollMs = 60_000, callbackUrl?: string): Promise<RunWaiter> {
  const waiter = await prepareRunWaiter(
    { api, onEvent: () => {} },
    { route: 'callback', pollMs: 1000, timeoutMs: 30_000, fallbackPollMs, ...(callbackUrl ? { callbackUrl, listen: { host: '127.0.0.1', port: 0 } } : {}) },
  );
  expect(waiter).toBeDefined();
  return waiter!;
}

/** Creates an order and accepts it with the run's callback URL, as the batch does. */
async function acceptWith(waiter: RunWaiter) {
  const { value } = validateKind(settledDocument(await loadDocument('fixtures/orders/domestic-syd-mel.yaml')), 'order', { now: () => new Date() });
  const { id } = await createOrder(api, value);
  waiter.expect(id);
  const accepted = await acceptOrder(api, id, { order: { id, payment: { type: 'credit' } }, callback: waiter.callbackUrl } as never, {});
  return { id, accepted };
}

describe('a run waiting by callback', () => {
  it('books several orders through one receiver with no fetch-order-data', async () => {
    const waiter = await runWaiter();
    try {
      const orders = await Promise.all([acceptWith(waiter), acceptWith(waiter), acceptWith(waiter)]);
      const results = await Promise.all(orders.map((o) => waiter.wait(o.id, o.accepted)));
      for (const [i, r] of results.entries()) {
        expect(r.id).toBe(orders[i]!.id);
        expect(r.status).toBe('processed');
        expect(r.shipments[0]!.tracking_number).toMatch(/^SBX\d+/);
        // The price comes from the accept answer: the callback carries none.
        expect(r.price?.total).toBeDefined();
        expect(reads(r.id)).toBe(0);
      }
    } finally {
      await waiter.close();
    }
  });

  it('refuses a callback for an order the run did not accept (409) and one off the token path (404)', async () => {
    const waiter = await runWaiter();
    try {
      const body = JSON.stringify({
        code: 200,
        message: 'OK',
        result: { order: { id: 'ORD-NOTOURS', status: 'processed', shipments: [{ id: 'S', tracking_number: 'X1' }] } },
      });
      const other = await request(waiter.callbackUrl, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
      expect(other.statusCode).toBe(409);
      expect(await other.body.text()).toContain('not an order this run accepted');
      const wrong = await request(new URL('/not-the-token', waiter.callbackUrl), { method: 'POST', body, headers: { 'content-type': 'application/json' } });
      expect(wrong.statusCode).toBe(404);
      await wrong.body.dump();
    } finally {
      await waiter.close();
    }
  });

  it('reads an order whose callback never comes with the fallback poll', async () => {
    // The service is told a URL nobody listens on: its callbacks fail.
    const waiter = await runWaiter(200, 'http://127.0.0.1:9/nowhere');
    try {
      const { id, accepted } = await acceptWith(waiter);
      const order = await waiter.wait(id, accepted);
      expect(order.status).toBe('processed');
      expect(reads(id)).toBeGreaterThan(0);
    } finally {
      await waiter.close();
    }
  });
});

describe('orderFromCallback', () => {
  const cb = (code: number, order: unknown): ReceivedCallback =>
    ({
      body: { code, message: 'OK', result: { order } },
      raw: {},
      text: '',
      receivedAt: new Date(),
      remote: '127.0.0.1',
      orderId: 'ORD-1',
    }) as ReceivedCallback;
  const accepted = { id: 'ORD-1', status: 'ACC', price: { total: '47.30' }, shipments: [{ id: 'S1', tracking_number: 'N/A', status: 'NEW' }] } as never;

  it('takes a complete success callback, laid over the accept answer', () => {
    const r = orderFromCallback(cb(200, { id: 'ORD-1', status: 'processed', shipments: [{ id: 'S1', tracking_number: 'SBX1' }] }), accepted);
    expect(r).toMatchObject({ id: 'ORD-1', status: 'processed', price: { total: '47.30' }, shipments: [{ id: 'S1', tracking_number: 'SBX1' }] });
  });

  it('leaves to fetch-order-data an error callback, a status not processed, a missing tracking number or shipment', () => {
    expect(orderFromCallback(cb(500, { id: 'ORD-1', status: 'failed', shipments: [] }), accepted)).toBeUndefined();
    expect(orderFromCallback(cb(200, { id: 'ORD-1', status: 'ACC', shipments: [{ id: 'S1', tracking_number: 'SBX1' }] }), accepted)).toBeUndefined();
    expect(orderFromCallback(cb(200, { id: 'ORD-1', status: 'processed', shipments: [{ id: 'S1', tracking_number: 'N/A' }] }), accepted)).toBeUndefined();
    expect(orderFromCallback(cb(200, { id: 'ORD-1', status: 'processed', shipments: [{ id: 'S2', tracking_number: 'SBX2' }] }), accepted)).toBeUndefined();
  });
});
