/**
 * The sandbox: a local, stateful simulation of the Shipment Booking Service over real HTTP
 * (docs/sandbox.md). It follows the interface document — envelope, fields, limits,
 * statuses, asynchronous booking and callbacks — with the decisions of docs/assumptions.md where the
 * document says "not shown".
 *
 * Operations: `POST /quote/`, `GET /quote/`, `POST /orders/`, `PUT /orders/{order_id}/accept/`,
 * `GET /orders/{order_id}/`, `PUT /orders/{order_id}/cancel/`, `POST /shipments/` (create
 * shipment) and `PUT /shipments/` (combine into a parent order, then accepted like any order),
 * `GET /credit-cards/` and `GET /services/{service_code}/` (the assumed paths of fetch-credit-card
 * and fetch-service-data), and the test hooks under `/_sandbox/` (the list of orders, a booking made
 * to fail); see `routes/`.
 *
 * @example
 *   const sandbox = await startSandbox({ processingDelayMs: 50 });
 *   // POST `${sandbox.url}orders/` with `Authorization: Bearer ${SANDBOX_API_KEY}` …
 *   await sandbox.close();
 */
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { BookingRunner } from './booking.js';
import { CallbackSender } from './callbacks.js';
import type { SandboxContext } from './http.js';
import { resolveOptions, type ResolvedSandboxOptions, type SandboxOptions } from './options.js';
import { createSandboxServer } from './server.js';
import { urlHost } from '../http/server.js';
import { FaultInjector } from './faults.js';
export { parseFaultRate, parseRateLimit, type SandboxFaults } from './faults.js';
import { SandboxState } from './state.js';
import { memoryStore, openDiskStore } from './store/index.js';

export type { SandboxOptions, ResolvedSandboxOptions } from './options.js';
export { SandboxState } from './state.js';
export type { CallbackBody, CallbackRecord, OrderStatus, ShipmentStatus, StoredOrder, StoredShipment } from './state.js';
export type { Route, RouteReply, RouteRequest, SandboxContext, FieldError } from './http.js';
export { SandboxHttpError } from './http.js';
export { StoreCorruptError, openDiskStore, MAX_STORED_ORDERS, STATE_FILE } from './store/index.js';

/** The API key the built-in sandbox profile sends (`Authorization: Bearer sk_sandbox_builtin`). */
export const SANDBOX_API_KEY = 'sk_sandbox_builtin';

/** A running sandbox. */
export interface Sandbox {
  /** Base URL with a trailing slash, e.g. `http://127.0.0.1:43123/`. */
  url: string;
  /** The TCP port it listens on. */
  port: number;
  /** Its orders and shipments, and test hooks such as {@link SandboxState.failNextBooking}. */
  state: SandboxState;
  /** The options in force, defaults filled in (e.g. `freePickup`). */
  options: ResolvedSandboxOptions;
  /**
   * Waits until every booking accepted through this sandbox has completed and every callback has
   * been delivered or given up, at most `timeoutMs` (or until `signal` aborts).
   * @returns true when idle, false when the time ran out or the signal aborted first
   */
  whenIdle(timeoutMs: number, signal?: AbortSignal): Promise<boolean>;
  /** Stops the server, cancels pending booking completions, and waits for in-flight callbacks to stop. Idempotent. */
  close(): Promise<void>;
}

/**
 * A sandbox with its state in memory serves long runs: every request leaves garbage, little of
 * the heap stays live (finished orders are kept outside it, see `store/memory.ts`), and V8 lets the
 * old generation grow to up to four times what was live before it collects again: 418 MiB at
 * 100,000 stored orders. Collecting once the heap has grown by 20 % keeps it near what is live;
 * the collections are short, as little is live. A V8 setting of the whole process: the in-memory
 * sandbox runs as a process of its own (`shipbook sandbox`, whose launcher asks for the same
 * percent before the program is loaded, so its code cache stays valid), or in tests.
 */
function leanHeap(): void {
  setFlagsFromString('--heap-growing-percent=20');
}

/**
 * Starts the sandbox on `options.host`:`options.port` (default 127.0.0.1, a random free port).
 * Resolves once it listens; rejects if it cannot (e.g. the port is taken).
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const resolved = resolveOptions(options);
  // Opening the store checks it first: a state that cannot be read is reported before anything listens.
  const store = resolved.stateDir === undefined ? memoryStore() : openDiskStore(resolved.stateDir, { onWait: resolved.onStateWait });
  if (resolved.stateDir === undefined) leanHeap();
  const state = new SandboxState(resolved.seed, { store, now: resolved.now, processingDelayMs: resolved.processingDelayMs });
  const callbacks = new CallbackSender({
    retries: resolved.callbackRetries,
    backoffMs: resolved.callbackBackoffMs,
    timeoutMs: resolved.callbackTimeoutMs,
    log: resolved.log,
  });
  const bookings = new BookingRunner(state, callbacks, resolved.processingDelayMs, resolved.now);
  const faults = new FaultInjector(resolved.faults);
  const ctx: SandboxContext = { state, options: resolved, now: resolved.now, bookings, ...(faults.active ? { faults } : {}) };
  const server = createSandboxServer(ctx);

  await new Promise<void>((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    server.once('error', onError);
    server.listen(resolved.port, resolved.host, () => {
      server.off('error', onError);
      resolve();
    });
  }).catch(async (err: unknown) => {
    bookings.close();
    await callbacks.close();
    throw err;
  });

  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost(resolved.host)}:${port}/`,
    port,
    state,
    options: resolved,
    async whenIdle(timeoutMs, signal) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        if (!bookings.busy && !callbacks.busy) return true;
        if (Date.now() >= until || signal?.aborted) return false;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    close() {
      closing ??= (async () => {
        bookings.close();
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await Promise.all([stopped, callbacks.close()]);
        await store.close();
      })();
      return closing;
    },
  };
}
