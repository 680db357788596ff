/**
 * The callback route for a whole run (a batch): ONE receiver (one port, one unguessable token path)
 * for every order the run accepts. Each accept request carries the same URL; the service's callback
 * names its order (`result.order.id`), and the receiver hands it to that order's wait.
 *
 * - An order is the run's once {@link RunWaiter.expect} registered it, just before its accept is
 *   sent: a callback that names an order the run did not accept (another run's, a made-up one), or
 *   names none, is refused with 409 (the token path itself is checked by the receiver,
 *   src/booking/receiver.ts: any other path 404).
 * - A complete success callback (code 2xx, status processed, a tracking number for every shipment
 *   the accept answer listed) is the result: no fetch-order-data is sent for it. Anything else (an
 *   error callback, a callback without tracking numbers, a status that is not final) is checked with
 *   fetch-order-data, as a single `book` checks every callback (./verify.ts).
 * - A callback that never comes does not hang its order: the order is read with a fallback poll
 *   `fallbackPollMs` after its wait began, then as often, and once at the deadline (./callback.ts
 *   `waitForCallback`).
 */
import type { OrderResponse } from '../../schema/order.js';
import { trackingNumberOf } from '../../schema/shipment.js';
import { orderStatusWord } from '../../schema/status.js';
import type { ReceivedCallback } from '../receiver.js';
import { openReceiver, waitForCallback, type Inbox, type ListenAddress } from './callback.js';
import { WaitState, waitInterrupted, type Deps } from './state.js';

/** What the run's waiter takes from the command's flags (./route.ts `WaitSettings`). */
interface RunCallbackSettings {
  timeoutMs: number;
  callbackUrl?: string;
  listen?: ListenAddress;
  /** The fallback poll of an order whose callback has not come, ms. */
  fallbackPollMs: number;
}

/** The waiter of a run that waits by callback for many orders at once. */
export interface RunWaiter {
  route: 'callback';
  /** The URL every accept request of the run sends as `request.callback`. */
  callbackUrl: string;
  /** Registers an order the run is about to accept: its callbacks are taken from now on (also those that come before its wait begins). */
  expect(orderId: string): void;
  /**
   * Waits for the result of an order registered with {@link expect}; `accepted` is the accept
   * answer (its shipments are what a complete callback must give tracking numbers for).
   * @throws as src/booking/result/state.ts `ResultWaiter.wait`
   */
  wait(orderId: string, accepted: OrderResponse | undefined, signal?: AbortSignal): Promise<OrderResponse>;
  /** Ends every wait still running (each throws `interrupted`) and stops the receiver. Safe to call twice. */
  close(): Promise<void>;
}

/** One order's share of the receiver: callbacks not taken yet, and what a new one wakes. */
interface OrderBox {
  queue: ReceivedCallback[];
  wake?: () => void;
}

/**
 * The order a complete success callback gives, laid over the accept answer (which holds the price and
 * the shipments' details); undefined when the callback is not complete: not 2xx, not processed, a
 * shipment without a tracking number, or a shipment of the accept answer it does not name.
 */
export function orderFromCallback(cb: ReceivedCallback, accepted: OrderResponse | undefined): OrderResponse | undefined {
  const from = cb.body.result?.order ?? undefined;
  if (cb.body.code < 200 || cb.body.code >= 300 || from === undefined) return undefined;
  if (orderStatusWord(from.status) !== 'processed' || from.shipments.length === 0) return undefined;
  const byId = new Map(from.shipments.map((s) => [s.id, s]));
  if (from.shipments.some((s) => trackingNumberOf(s) === undefined)) return undefined;
  const known = accepted?.shipments ?? [];
  if (known.some((s) => !byId.has(s.id))) return undefined;
  if (known.length === 0) return { ...from, shipments: from.shipments.map((s) => ({ ...s, status: s.status ?? from.status })) };
  return {
    ...accepted!,
    id: from.id,
    status: from.status,
    shipments: known.map((s) => {
      const c = byId.get(s.id)!;
      return { ...s, tracking_number: trackingNumberOf(c), status: c.status ?? from.status };
    }),
  };
}

/**
 * Starts the run's receiver on `listen` (see the module documentation).
 * @throws UsageError (exit 2) when the receiver cannot listen there
 */
export async function runCallbackWaiter(deps: Deps, settings: RunCallbackSettings, listen: ListenAddress): Promise<RunWaiter> {
  const boxes = new Map<string, OrderBox>();
  const waits = new Set<WaitState>();
  // Orders whose wait is over: a callback repeated for one (a service retrying) is answered 200 and ignored.
  const finished = new Set<string>();
  let closed = false;
  const { receiver, callbackUrl } = await openReceiver(deps, settings, listen, {
    what: 'callbacks',
    reportProblems: () => true,
    onCallback: (cb: ReceivedCallback) => {
      if (cb.orderId === undefined || cb.orderId === '') {
        return { accepted: false, status: 409, message: 'the callback names no order (result.order.id); this receiver waits for many' };
      }
      const box = boxes.get(cb.orderId);
      if (box === undefined && finished.has(cb.orderId)) return { accepted: true };
      if (box === undefined) return { accepted: false, status: 409, message: `order ${cb.orderId} is not an order this run accepted` };
      deps.debugLog(`callback received for order ${cb.orderId}: code ${cb.body.code}, status ${cb.body.result?.order?.status ?? '(none)'}`);
      box.queue.push(cb);
      box.wake?.();
      return { accepted: true };
    },
  });

  return {
    route: 'callback',
    callbackUrl,
    expect(orderId) {
      if (!boxes.has(orderId)) boxes.set(orderId, { queue: [] });
    },
    async wait(orderId, accepted, callerSignal) {
      if (callerSignal?.aborted || closed) throw waitInterrupted(orderId, deps.hints);
      let box = boxes.get(orderId);
      if (box === undefined) boxes.set(orderId, (box = { queue: [] }));
      const mine = box;
      const inbox: Inbox = {
        take: () => mine.queue.shift(),
        pending: () => mine.queue.length > 0,
        onArrival(wake) {
          mine.wake = wake;
        },
      };
      const state = new WaitState(deps);
      waits.add(state);
      try {
        return await waitForCallback(
          deps,
          state,
          orderId,
          inbox,
          { timeoutMs: settings.timeoutMs, fallbackMs: settings.fallbackPollMs, taken: (cb) => orderFromCallback(cb, accepted) },
          callerSignal,
        );
      } finally {
        waits.delete(state);
        // The wait is over: a later callback for the order (the service retrying) is ignored.
        boxes.delete(orderId);
        finished.add(orderId);
      }
    },
    async close() {
      closed = true;
      for (const w of waits) w.close();
      waits.clear();
      await receiver.close();
    },
  };
}
