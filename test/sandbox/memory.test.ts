/**
 * What the in-memory sandbox keeps per stored order: finished orders are kept as text, read back
 * as they were, and the heap a finished order holds stays small (a sandbox serving a long run holds
 * every order it was given).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BookingRunner } from '../../src/sandbox/booking.js';
import { CallbackSender } from '../../src/sandbox/callbacks.js';
import type { SandboxContext } from '../../src/sandbox/http.js';
import { SANDBOX_API_KEY, SandboxState, startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { resolveOptions } from '../../src/sandbox/options.js';
import { orderRoutes } from '../../src/sandbox/routes/orders.js';
import { memoryStore } from '../../src/sandbox/store/index.js';
import { call, orderRequest, sydneyToMelbourneShipment } from './helpers.js';

const NOW = new Date('2025-06-01T00:00:00Z');
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: SANDBOX_API_KEY, processingDelayMs: 1, now: () => NOW, seed: 11 });
});
afterAll(async () => {
  await sandbox.close();
});

/** Creates and accepts `count` orders, `parallel` at a time, and waits until every booking completed. */
async function book(count: number, parallel = 8): Promise<string[]> {
  const ids: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      for (let n = next++; n < count; n = next++) {
        const created = await call(sandbox.url, 'POST', '/orders/', { body: orderRequest(sydneyToMelbourneShipment({ transient_id: `MEM-${n}` })) });
        const id = created.json.result.order.id as string;
        const accepted = await call(sandbox.url, 'PUT', `/orders/${id}/accept/`, { body: { order: { id, payment: { type: 'credit' } } } });
        expect(accepted.status).toBe(201);
        ids.push(id);
      }
    }),
  );
  expect(await sandbox.whenIdle(10_000)).toBe(true);
  return ids;
}

describe('the in-memory sandbox with many finished orders', () => {
  it('answers fetch-order-data, the orders list and the records the same before and after an order is kept as text', async () => {
    const created = await call(sandbox.url, 'POST', '/orders/', {
      body: orderRequest(sydneyToMelbourneShipment({ transient_id: 'KEEP-1', service: { code: 'SB-DOM-ROAD', options: ['insurance'] } })),
    });
    const id = created.json.result.order.id as string;
    await call(sandbox.url, 'PUT', `/orders/${id}/accept/`, { body: { order: { id, payment: { type: 'credit' } } } });
    // Completed inside a transaction, as the booking runner does: the record is still an object here.
    const live = await sandbox.state.store.transaction(() => {
      sandbox.state.completeBooking(id, NOW);
      const order = sandbox.state.getOrder(id);
      return structuredClone({ order, shipments: sandbox.state.shipmentsOf(order) });
    });
    const fetched = await call(sandbox.url, 'GET', `/orders/${id}/`);
    expect(fetched.json.result.order.status).toBe('processed');
    const again = await call(sandbox.url, 'GET', `/orders/${id}/`);
    expect(again.json).toEqual(fetched.json);
    // Read back from text: the same record, Money, dates and the catalogue's service entry included.
    const order = sandbox.state.orders.get(id)!;
    expect(order).toEqual(live.order);
    expect(order.createdAt).toBeInstanceOf(Date);
    const shipments = sandbox.state.shipmentsOf(order);
    expect(shipments).toEqual(live.shipments);
    expect(shipments[0]!.request.customs_information.items[0]!.value.cents).toBe(8995);
    const listed = await call(sandbox.url, 'GET', '/_sandbox/orders/');
    expect(listed.json.result.orders.find((o: { id: string }) => o.id === id)).toMatchObject({
      status: 'processed',
      shipments: [{ transient_id: 'KEEP-1', status: 'TODO', tracking_number: shipments[0]!.trackingNumber }],
    });
  });

  it('keeps a changed finished order changed (a callback claimed after the order was read from text)', async () => {
    const [id] = await book(1);
    await call(sandbox.url, 'GET', `/orders/${id}/`);
    await sandbox.state.store.transaction(() => {
      sandbox.state.getOrder(id!).failure = 'marked';
    });
    await call(sandbox.url, 'GET', `/orders/${id}/`);
    expect(sandbox.state.orders.get(id!)?.failure).toBe('marked');
  });

  it('holds under 2 KB per finished order, where its objects held about 3 KB (5,000 orders booked through the routes)', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    // The heap's live objects and the buffers outside it (where finished records are kept as text).
    const heldAfterGc = () => {
      gc();
      gc();
      const { heapUsed, arrayBuffers } = process.memoryUsage();
      return heapUsed + arrayBuffers;
    };
    // The routes as the server runs them (each in the store's transaction), without HTTP: the
    // client's own garbage would blur the figure.
    const options = resolveOptions({ processingDelayMs: 0, now: () => NOW });
    const state = new SandboxState(5, { store: memoryStore(), now: options.now, processingDelayMs: 0 });
    const callbacks = new CallbackSender({ retries: 0, backoffMs: 1, timeoutMs: 1000, log: () => {} });
    const ctx: SandboxContext = { state, options, now: options.now, bookings: new BookingRunner(state, callbacks, 0, options.now) };
    const route = (method: string, pattern: string) => orderRoutes.find((r) => r.method === method && r.pattern === pattern)!;
    const create = route('POST', '/orders/');
    const accept = route('PUT', '/orders/:order_id/accept/');
    const request = (method: 'POST' | 'PUT', path: string, params: Record<string, string>, body: unknown) => ({
      method,
      path,
      params,
      query: new URLSearchParams(),
      body,
      authenticated: true,
    });
    let n = 0;
    const bookOrders = async (count: number) => {
      for (const end = n + count; n < end; n++) {
        const body = orderRequest(sydneyToMelbourneShipment({ transient_id: `MEM-${n}` }));
        const created = (await state.store.transaction(() => create.handler(request('POST', '/orders/', {}, body), ctx))) as {
          result: { order: { id: string } };
        };
        const id = created.result.order.id;
        await state.store.transaction(() =>
          accept.handler(request('PUT', `/orders/${id}/accept/`, { order_id: id }, { order: { id, payment: { type: 'credit' } } }), ctx),
        );
      }
      while (ctx.bookings.busy) await new Promise((resolve) => setTimeout(resolve, 1));
    };
    await bookOrders(1000); // code, caches and tables warmed up
    const before = heldAfterGc();
    const count = 5000;
    await bookOrders(count);
    const perOrder = (heldAfterGc() - before) / count;
    // Every record read back from its block, each shipment with its tracking number.
    const all = state.allOrders();
    expect(all.filter((o) => o.status === 'processed')).toHaveLength(1000 + count);
    expect(new Set(all.flatMap((o) => state.shipmentsOf(o).map((s) => s.trackingNumber))).size).toBe(1000 + count);
    // Today about 1.2 KB (the ids in the store's tables, the text compressed); kept as objects, about 2.9 KB.
    expect(perOrder).toBeLessThan(2048);
    await callbacks.close();
  });
});
