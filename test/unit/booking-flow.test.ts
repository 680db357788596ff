/**
 * The one booking entry point (src/booking/book.ts) against a real sandbox on 127.0.0.1: progress
 * as typed events and a progress record, a stopped booking as a typed error carrying that record,
 * and the hints rendered from it (quoted for the shell).
 */
import { PLAIN_HINTS } from '../../src/shell.js';
import { settledDocument } from '../helpers/pickup-days.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { bookDocument } from '../../src/booking/book.js';
import { BookingStoppedError, type BookingEvent, type BookingProgress } from '../../src/booking/progress.js';
import { prepareResultWaiter } from '../../src/booking/result/route.js';
import { pollDelay } from '../../src/booking/wait.js';
import { ApiError } from '../../src/errors.js';
import { loadDocument } from '../../src/input/load.js';
import { validateKind } from '../../src/input/validate.js';
import { combineHint, interruptedHint, progressHint } from '../../src/output/hints.js';
import { progressPrinter } from '../../src/output/progress.js';
import { shellArg, shellCommand } from '../../src/shell.js';
import { startSandbox, SANDBOX_API_KEY, type Sandbox } from '../../src/sandbox/index.js';
import type { AcceptRequest } from '../../src/schema/payment.js';

let sandbox: Sandbox;
let api: ApiClient;
beforeAll(async () => {
  sandbox = await startSandbox({ processingDelayMs: 50 });
  api = new ApiClient({ baseUrl: sandbox.url, apiKey: SANDBOX_API_KEY });
});
afterAll(async () => {
  await api.close();
  await sandbox.close();
});

const credit = (id: string): Promise<AcceptRequest> => Promise.resolve({ order: { id, payment: { type: 'credit' } } } as AcceptRequest);
const declined = (id: string): Promise<AcceptRequest> =>
  Promise.resolve({
    order: { id, payment: { type: 'credit_card', credit_card: { number: '4000000000000002', cvv: '123', holder_name: 'Priya Raman', expire: '08/29' } } },
  } as AcceptRequest);

async function polling(events: BookingEvent[]) {
  return prepareResultWaiter({ api, onEvent: (e) => events.push(e) }, { route: 'poll', pollMs: 20, timeoutMs: 10_000 });
}

describe('bookDocument', () => {
  it('books a regular order and reports every step as an event, in order', async () => {
    const events: BookingEvent[] = [];
    const waiter = await polling(events);
    const { value } = validateKind(settledDocument(await loadDocument('fixtures/orders/domestic-syd-mel.yaml')), 'order', { now: () => new Date() });
    const outcome = await bookDocument(
      { kind: 'regular', order: value, file: 'x.yaml' },
      { api, accept: credit, waitForResult: (id) => waiter.wait(id), onEvent: (e) => events.push(e) },
    );
    const types = events.map((e) => e.type).filter((t, i, all) => t !== 'polled' || all[i - 1] !== 'polled');
    expect(types.filter((t) => t !== 'polled')).toEqual(['order_created', 'accepted', 'waiting', 'wait_ended', 'processed']);
    expect(outcome.progress).toMatchObject({ kind: 'regular', stage: 'processed', orderId: outcome.order.id });
    expect(outcome.order.shipments.every((s) => typeof s.tracking_number === 'string' && s.tracking_number !== 'N/A')).toBe(true);
    await waiter.close();
  });

  it('books consolidated mail: one event per shipment, then combined, and the children ids', async () => {
    const events: BookingEvent[] = [];
    const waiter = await polling(events);
    const { value } = validateKind(settledDocument(await loadDocument('fixtures/consolidated/three-parcels.yaml')), 'consolidated', { now: () => new Date() });
    const outcome = await bookDocument(
      { kind: 'consolidated', booking: value, file: 'c.yaml' },
      { api, accept: credit, waitForResult: (id) => waiter.wait(id), onEvent: (e) => events.push(e) },
    );
    expect(events.filter((e) => e.type === 'shipment_created')).toHaveLength(3);
    expect(outcome.childIds).toHaveLength(3);
    expect(outcome.progress).toMatchObject({ kind: 'consolidated', stage: 'processed', parentId: outcome.order.id, shipmentIds: outcome.childIds });
    await waiter.close();
  });

  it('stops with the progress record when the payment is declined, keeping the API error', async () => {
    const { value } = validateKind(settledDocument(await loadDocument('fixtures/orders/domestic-syd-mel.yaml')), 'order', { now: () => new Date() });
    const err = await bookDocument(
      { kind: 'regular', order: value },
      { api, accept: declined, waitForResult: () => Promise.reject(new Error('not reached')) },
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BookingStoppedError);
    const stopped = err as BookingStoppedError;
    expect(stopped.cause).toBeInstanceOf(ApiError);
    expect(stopped.exitCode).toBe(3);
    expect(stopped.progress.stage).toBe('order_created');
    expect(sandbox.state.findOrder(stopped.progress.orderId!)!.status).toBe('new');
    expect(progressHint(stopped.progress, PLAIN_HINTS)).toBe(
      `Order ${stopped.progress.orderId} was created and is still pending: accept it with "shipbook order accept ${stopped.progress.orderId}" or cancel it with "shipbook order cancel ${stopped.progress.orderId}".`,
    );
  });

  it('stops before the next step once its signal aborts, saying how far it got (exit 130)', async () => {
    const { value } = validateKind(settledDocument(await loadDocument('fixtures/orders/domestic-syd-mel.yaml')), 'order', { now: () => new Date() });
    const stop = new AbortController();
    const err = await bookDocument(
      { kind: 'regular', order: value },
      {
        api,
        accept: credit,
        waitForResult: () => Promise.reject(new Error('not reached')),
        signal: stop.signal,
        onEvent: (e) => e.type === 'order_created' && stop.abort(),
      },
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BookingStoppedError);
    expect((err as BookingStoppedError).exitCode).toBe(130);
    expect((err as BookingStoppedError).progress.stage).toBe('order_created');
    expect(sandbox.state.findOrder((err as BookingStoppedError).progress.orderId!)!.status).toBe('new');
  });

  it('throws the plain error when nothing was created yet', async () => {
    const err = await bookDocument(
      { kind: 'pending', orderId: 'ORD-NOSUCH' },
      { api, accept: credit, waitForResult: () => Promise.reject(new Error('not reached')) },
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
  });
});

describe('hints quote for the shell', () => {
  it('leaves plain words alone and single-quotes the rest', () => {
    expect(shellArg('ORD-1A2B3C4D', 'posix')).toBe('ORD-1A2B3C4D');
    expect(shellArg('fixtures/orders/a_b.yaml', 'posix')).toBe('fixtures/orders/a_b.yaml');
    expect(shellArg('ORD 1', 'posix')).toBe("'ORD 1'");
    expect(shellArg("it's $HOME.yaml", 'posix')).toBe("'it'\\''s $HOME.yaml'");
    expect(shellArg('', 'posix')).toBe("''");
    expect(shellCommand(PLAIN_HINTS, 'order', 'get', 'ORD;rm -rf')).toBe("shipbook order get 'ORD;rm -rf'");
  });

  it('renders the accept and combine hints from the progress record, pasteable', () => {
    const pending: BookingProgress = { kind: 'regular', stage: 'order_created', orderId: 'ORD 1', shipmentIds: [] };
    expect(progressHint(pending, PLAIN_HINTS)).toContain(`accept it with "shipbook order accept 'ORD 1'"`);
    const partial: BookingProgress = {
      kind: 'consolidated',
      stage: 'shipments_created',
      shipmentIds: ['SHP-A'],
      shipmentCount: 3,
      withMain: true,
      file: 'my orders/c.yaml',
    };
    expect(progressHint(partial, PLAIN_HINTS)).toContain('(shipments[1] failed)');
    expect(progressHint(partial, PLAIN_HINTS)).toContain("shipbook shipment combine SHP-A <ids of the other shipments> --main 'my orders/c.yaml'");
    expect(combineHint(PLAIN_HINTS, ['SHP-A', 'SHP-B'], 'c.yaml', true)).toBe('shipbook shipment combine SHP-A SHP-B --main c.yaml');
    expect(progressHint({ kind: 'regular', stage: 'accepted', orderId: 'ORD-1', shipmentIds: [] }, PLAIN_HINTS)).toBeUndefined();
  });
});

describe('the note after an interruption before the wait', () => {
  const io = () => {
    let err = '';
    return { io: { err: (t: string) => void (err += t), color: false, stderrIsTTY: false }, err: () => err };
  };

  it('names the pending order and the commands that continue it', async () => {
    const { value } = validateKind(settledDocument(await loadDocument('fixtures/orders/domestic-syd-mel.yaml')), 'order', { now: () => new Date() });
    const out = io();
    const printer = progressPrinter(out.io, PLAIN_HINTS);
    // Interrupted while accepting: the accept request never comes back.
    await new Promise<void>((created) => {
      void bookDocument(
        { kind: 'regular', order: value },
        {
          api,
          accept: () => new Promise<AcceptRequest>(() => {}),
          waitForResult: () => Promise.reject(new Error('not reached')),
          onEvent(e) {
            printer.onEvent(e);
            if (e.type === 'order_created') created();
          },
        },
      );
    });
    printer.interrupted();
    const id = printer.progress.orderId!;
    expect(out.err()).toContain(`Order ${id} was created and is still pending: accept it with "shipbook order accept ${id}"`);
  });

  it('names the shipments created and says nothing when nothing exists', () => {
    const out = io();
    const printer = progressPrinter(out.io, PLAIN_HINTS);
    printer.interrupted();
    expect(out.err()).not.toContain('created');
    expect(
      interruptedHint(
        { kind: 'consolidated', stage: 'shipments_created', shipmentIds: ['SHP-A'], shipmentCount: 2, withMain: true, file: 'c.yaml' },
        PLAIN_HINTS,
      ),
    ).toBe(
      'Shipment SHP-A was created and is not combined: combine them with the rest with shipbook shipment combine SHP-A <ids of the other shipments> --main c.yaml',
    );
  });
});

describe('the polling schedule', () => {
  it('polls first after the interval, then backs off by half again each time, up to twice the interval', () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => pollDelay(2000, n))).toEqual([2000, 3000, 4000, 4000, 4000, 4000]);
    expect(pollDelay(0, 1)).toBe(1); // never a busy loop
  });
});
