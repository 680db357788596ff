/**
 * How a command learns the booking result after acceptance (interface document, "What the
 * service does", step 4, and "Events"): by a callback POSTed to a URL given at acceptance
 * (the default route), or by polling fetch-order-data (`--poll <interval>`). A
 * {@link ResultWaiter} is prepared BEFORE acceptance (so its callback URL, if any, can be sent
 * as `request.callback`) and then waits for one order.
 *
 * Callback route: a receiver ({@link startCallbackReceiver}) listens on this machine
 * (127.0.0.1, a random port, unless `--listen`) at an unguessable path; the URL sent is the
 * receiver's own, or the public `--callback-url` with `/<token>` appended (tunnel, ingress).
 * While waiting, a slow fallback poll (every {@link FALLBACK_POLL_MS}, and once more at the
 * deadline) catches a result whose callback cannot reach us; a fallback poll that the service
 * refuses (e.g. 404: the profile's fetch-order-data path is wrong) switches the fallback off.
 *
 * Polling is chosen instead of a receiver when `--poll` is given, when the user sends their own
 * callback URL (`--callback`, or `callback` in the payment file), or when the service is not on
 * this machine and no public `--callback-url` or non-loopback `--listen` is given (it could not
 * reach a receiver on 127.0.0.1).
 */
import { fetchOrder, type OrderPaths } from '../api/orders.js';
import { isLoopbackHost, type ApiClient } from '../api/client.js';
import { BookingFailedError, UsageError } from '../errors.js';
import type { OrderResponse } from '../schema/order.js';
import { trackingNumberOf, type ShipmentResponse } from '../schema/shipment.js';
import { orderStatusWord } from '../schema/status.js';
import { maskToken, publicCallbackUrl, startCallbackReceiver, urlHost, type CallbackReceiver, type ReceivedCallback } from './receiver.js';
import { shellCommand } from '../output/shell.js';
import type { BookingEventHandler } from './progress.js';
import { bookingEndedError, isTransient, pollForResult, realSleep, waitTimeoutError, type Sleep } from './wait.js';

/**
 * What a waiter uses, and nothing more: the client, the fetch-order-data paths, a clock, a sleep,
 * and where its progress goes (`waiting`, `polled`, `wait_ended`, `callback_ignored`, `warning`,
 * `note`, `interrupted` events; src/output/progress.ts draws them as a spinner and lines).
 */
export interface WaiterDeps {
  api: ApiClient;
  /** The profile's fetch-order-data paths (`ResolvedProfile.paths`). */
  paths?: OrderPaths;
  onEvent: BookingEventHandler;
  /** Milliseconds since the epoch; default `Date.now`. */
  now?: () => number;
  /** Waits `ms` milliseconds (rejects when `signal` aborts); default a real timer. */
  sleep?: Sleep;
  /** A `--debug` line (redacted by the caller's writer); default: dropped. */
  debugLog?: (line: string) => void;
}

/** The deps with their defaults filled in. */
interface Deps extends Required<Omit<WaiterDeps, 'paths'>> {
  paths?: OrderPaths;
}

function withDefaults(deps: WaiterDeps): Deps {
  return { now: Date.now, sleep: realSleep, debugLog: () => {}, ...deps };
}

/** Where the receiver listens: a host (name or address) and a port (0 = any free port). */
export interface ListenAddress {
  host: string;
  port: number;
}

/** How to wait, from the command's flags. Durations in milliseconds. */
export interface WaitSettings {
  /** `callback` (default): a receiver on this machine; `poll`: fetch-order-data every `pollMs` (`--poll`). */
  route: 'callback' | 'poll';
  /** Poll interval when polling (from `--poll`, else {@link DEFAULT_POLL_MS}). */
  pollMs: number;
  /** Give up after this long (exit 7, the order stays accepted). */
  timeoutMs: number;
  /** `--callback-url`: the public URL through which the service reaches the receiver; `/<token>` is appended. */
  callbackUrl?: string;
  /** `--listen`: where the receiver binds. Default 127.0.0.1 and a random port (8787 with `--callback-url`). */
  listen?: ListenAddress;
  /** Fallback poll interval while waiting by callback. Default {@link FALLBACK_POLL_MS}. */
  fallbackPollMs?: number;
}

/** Poll interval when polling was not asked for with `--poll` but is the only route. */
export const DEFAULT_POLL_MS = 2_000;
/** While waiting by callback, fetch-order-data is also asked this often (and once at the deadline). */
export const FALLBACK_POLL_MS = 30_000;
/** Port the receiver listens on with `--callback-url` and no `--listen` (what a tunnel forwards to). */
export const TUNNEL_DEFAULT_PORT = 8787;

/** A prepared way of waiting for one accepted order's result. */
export interface ResultWaiter {
  /** How it waits. */
  route: 'callback' | 'poll';
  /** The URL to send as `request.callback` in the accept request, when waiting by callback. */
  callbackUrl?: string;
  /**
   * Waits for the order to be processed and returns it, with every tracking number.
   * @throws BookingFailedError (6) for an error callback or an order that ended failed/cancelled
   * @throws WaitTimeoutError (7) when the timeout passes first
   * @throws ApiError / NetworkError when polling is the route and the service refuses or cannot be reached
   */
  wait(orderId: string): Promise<OrderResponse>;
  /**
   * Releases what the waiter holds (a receiver, timers). Safe to call twice. When called while a
   * wait is running (Ctrl-C, SIGTERM), it reports an `interrupted` event (the order is accepted and
   * still booking), and the running wait never settles (the process is about to exit).
   */
  close(): Promise<void>;
}

/** What else shapes the choice of route. */
export interface PrepareOptions {
  /** The accept request already carries the user's own callback URL (`--callback` or the payment file). */
  ownCallback?: boolean;
}

/** True for addresses that mean "every interface". */
function isWildcard(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '';
}

/**
 * Prepares the waiter the settings ask for (see the module documentation for the choice of route).
 * @throws UsageError (exit 2) for `--callback-url`/`--listen` together with the user's own callback,
 *   a wildcard `--listen` without `--callback-url`, or an address the receiver cannot bind
 */
export async function prepareResultWaiter(waiterDeps: WaiterDeps, settings: WaitSettings, options: PrepareOptions = {}): Promise<ResultWaiter> {
  const deps = withDefaults(waiterDeps);
  const { api } = deps;
  if (settings.route === 'poll') return pollingWaiter(deps, settings.pollMs, settings.timeoutMs);
  const tunnel = settings.callbackUrl !== undefined || settings.listen !== undefined;
  if (options.ownCallback) {
    if (tunnel) {
      throw new UsageError('--callback-url and --listen are for shipbook\'s own receiver; they cannot go with your own callback URL (--callback, or callback in the payment file)', {
        suggestion: 'Drop --callback to let shipbook receive the result, or drop --callback-url/--listen to wait by polling.',
      });
    }
    deps.onEvent({ type: 'note', message: `The booking result goes to your callback URL; shipbook waits by polling fetch-order-data every ${DEFAULT_POLL_MS / 1000} s.` });
    return pollingWaiter(deps, settings.pollMs, settings.timeoutMs);
  }
  const listen = settings.listen ?? { host: '127.0.0.1', port: settings.callbackUrl !== undefined ? TUNNEL_DEFAULT_PORT : 0 };
  if (settings.callbackUrl === undefined && isWildcard(listen.host)) {
    throw new UsageError(`--listen ${listen.host}:${listen.port} binds every interface, so shipbook cannot tell the service which URL to call`, {
      suggestion: 'Give the public URL with --callback-url https://…, or listen on one address.',
    });
  }
  const serviceHost = new URL(api.baseUrl).hostname;
  if (settings.callbackUrl === undefined && isLoopbackHost(listen.host) && !isLoopbackHost(serviceHost)) {
    deps.onEvent({
      type: 'note',
      message: `The service at ${new URL(api.baseUrl).origin} cannot reach a receiver on this machine's loopback, so shipbook waits by polling fetch-order-data every ${DEFAULT_POLL_MS / 1000} s.`,
    });
    deps.onEvent({ type: 'note', message: 'To wait by callback, expose a receiver (e.g. through a tunnel) and give --callback-url https://… --listen 127.0.0.1:8787.' });
    return pollingWaiter(deps, DEFAULT_POLL_MS, settings.timeoutMs);
  }
  if (!isLoopbackHost(listen.host)) {
    deps.onEvent({ type: 'warning', message: `the callback receiver listens on ${listen.host}, reachable from the network; only its unguessable path is accepted` });
  }
  return callbackWaiter(deps, settings, listen);
}

/** The parts shared by both routes: the running wait and the Ctrl-C event. */
class WaitState {
  waitingFor: string | undefined;
  closed = false;

  constructor(private readonly deps: Deps) {}

  begin(orderId: string, route: 'callback' | 'poll', text: string): void {
    this.waitingFor = orderId;
    this.deps.onEvent({ type: 'waiting', orderId, route, text });
  }

  end(): void {
    const orderId = this.waitingFor;
    this.waitingFor = undefined;
    if (orderId !== undefined) this.deps.onEvent({ type: 'wait_ended', orderId });
  }

  /** Marks the waiter closed; reports `interrupted` when a wait was running. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    const interrupted = this.waitingFor;
    this.end();
    if (interrupted !== undefined) this.deps.onEvent({ type: 'interrupted', orderId: interrupted });
  }

  /** Passes a value through, or never settles once the waiter is closed (the process is exiting). */
  guard<T>(value: T): Promise<T> {
    return this.closed ? new Promise<T>(() => {}) : Promise.resolve(value);
  }
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

function minutes(ms: number): string {
  return ms >= 60_000 && ms % 60_000 === 0 ? `${ms / 60_000} min` : seconds(ms);
}

/** Waits by polling fetch-order-data every `pollMs`. */
function pollingWaiter(deps: Deps, pollMs: number, timeoutMs: number): ResultWaiter {
  const state = new WaitState(deps);
  return {
    route: 'poll',
    async wait(orderId) {
      state.begin(orderId, 'poll', `waiting for the booking result of ${orderId} by polling every ${seconds(pollMs)} (up to ${minutes(timeoutMs)})`);
      let warned = false;
      try {
        const order = await pollForResult(deps.api, orderId, {
          intervalMs: pollMs,
          timeoutMs,
          paths: deps.paths,
          now: deps.now,
          sleep: deps.sleep,
          onPoll(o) {
            deps.onEvent({ type: 'polled', orderId, order: o, text: `waiting for the booking result of ${orderId} by polling (${orderStatusWord(o.status)})` });
          },
          onTransientError(err) {
            if (!warned) deps.onEvent({ type: 'warning', message: `a poll failed (${err.message}); still polling` });
            warned = true;
          },
        }).catch((err: unknown) => (state.closed ? new Promise<never>(() => {}) : Promise.reject(err)));
        return await state.guard(order);
      } finally {
        if (!state.closed) state.end();
      }
    },
    async close() {
      state.close();
    },
  };
}

/**
 * The order to show after a successful callback: the fetched order (full details) with the
 * callback's status and tracking numbers laid over it; or, when fetch-order-data is unavailable,
 * the callback's order alone. A shipment without a status takes the order's.
 */
export function mergeCallbackOrder(fetched: OrderResponse | undefined, fromCallback: OrderResponse): OrderResponse {
  const base: OrderResponse = fetched ?? { ...fromCallback, shipments: [] };
  const status = fromCallback.status ?? base.status;
  const byId = new Map(fromCallback.shipments.map((s) => [s.id, s]));
  const shipments: ShipmentResponse[] = base.shipments.map((s) => {
    const c = byId.get(s.id);
    byId.delete(s.id);
    const tracking = (c && trackingNumberOf(c)) ?? s.tracking_number;
    return { ...s, tracking_number: tracking, status: s.status ?? c?.status ?? status };
  });
  for (const c of byId.values()) shipments.push({ ...c, status: c.status ?? status });
  return { ...base, id: fromCallback.id || base.id, status, shipments };
}

/** Turns a received callback into the processed order, or the failure it reports. */
async function resultOfCallback(deps: Deps, orderId: string, cb: ReceivedCallback): Promise<OrderResponse> {
  const { code, message } = cb.body;
  const order = cb.body.result?.order ?? undefined;
  const success = code >= 200 && code < 300;
  const word = orderStatusWord(order?.status);
  const suggestion = `See the order with "${shellCommand('order', 'get', orderId)}".`;
  if (!success) {
    throw new BookingFailedError(orderId, `booking of order ${orderId} failed: ${message || 'no message'} (callback code ${code}, order status ${order?.status ?? 'not given'})`, { suggestion });
  }
  if (order === undefined || word !== 'processed') {
    throw new BookingFailedError(orderId, `booking of order ${orderId} ended ${word} (status ${order?.status ?? 'not given'}) according to the callback${message && message !== 'OK' ? `: ${message}` : ''}`, {
      suggestion,
    });
  }
  let fetched: OrderResponse | undefined;
  try {
    fetched = await fetchOrder(deps.api, orderId, deps.paths);
  } catch (err) {
    deps.debugLog(`fetch-order-data after the callback failed (${err instanceof Error ? err.message : String(err)}); showing the callback's order`);
  }
  return mergeCallbackOrder(fetched, order);
}

/** Waits for the callback on a receiver, with the fallback poll described in the module documentation. */
async function callbackWaiter(deps: Deps, settings: WaitSettings, listen: ListenAddress): Promise<ResultWaiter> {
  const state = new WaitState(deps);
  const inbox: ReceivedCallback[] = [];
  let expected: string | undefined;
  let wake: (() => void) | undefined;
  let receiver: CallbackReceiver;
  const basePath = settings.callbackUrl === undefined ? '' : new URL(settings.callbackUrl).pathname;
  try {
    receiver = await startCallbackReceiver({
      host: listen.host,
      port: listen.port,
      basePath,
      onCallback(cb) {
        if (expected !== undefined && cb.orderId !== undefined && cb.orderId !== expected) {
          return { accepted: false, status: 409, message: `this receiver waits for the result of order ${expected}, not ${cb.orderId}` };
        }
        deps.debugLog(`callback received for order ${cb.orderId ?? '(none)'}: code ${cb.body.code}, status ${cb.body.result?.order?.status ?? '(none)'}`);
        inbox.push(cb);
        wake?.();
        return { accepted: true };
      },
      onProblem(p) {
        const line = `callback receiver answered ${p.status} to a ${p.method} from ${p.remote}: ${p.reason}`;
        if (!p.onTokenPath) return deps.debugLog(line);
        if (state.waitingFor !== undefined) deps.onEvent({ type: 'warning', message: `${line}; still waiting` });
        else deps.debugLog(line);
      },
    });
  } catch (err) {
    const code = (err as { code?: string }).code ?? (err instanceof Error ? err.message : String(err));
    throw new UsageError(`cannot listen on ${urlHost(listen.host)}:${listen.port} for the booking callback (${code})`, {
      suggestion: 'Choose another address with --listen host:port, or wait by polling with --poll 5s.',
      cause: err,
    });
  }
  const callbackUrl = publicCallbackUrl(receiver, settings.callbackUrl);
  const masked = (url: string) => maskToken(url, receiver.token);
  if (settings.callbackUrl !== undefined || settings.listen !== undefined) {
    deps.onEvent({ type: 'note', message: `callback receiver on ${masked(receiver.localUrl)}${settings.callbackUrl !== undefined ? `, reached through ${masked(callbackUrl)}` : ''}` });
  } else {
    deps.debugLog(`callback receiver on ${masked(receiver.localUrl)}`);
  }
  const fallbackMs = settings.fallbackPollMs ?? FALLBACK_POLL_MS;

  /** The first callback for the awaited order; callbacks for other orders (arrived before it was known) are dropped. */
  const take = (orderId: string): ReceivedCallback | undefined => {
    while (inbox.length > 0) {
      const cb = inbox.shift()!;
      if (cb.orderId === undefined || cb.orderId === orderId) return cb;
      deps.onEvent({ type: 'callback_ignored', orderId, otherOrderId: cb.orderId });
    }
    return undefined;
  };

  return {
    route: 'callback',
    callbackUrl,
    async wait(orderId) {
      expected = orderId;
      const started = deps.now();
      const deadline = started + settings.timeoutMs;
      let polling = true;
      let nextPoll = started + fallbackMs;
      state.begin(orderId, 'callback', `waiting for the booking result of ${orderId} by callback (up to ${minutes(settings.timeoutMs)})`);
      try {
        for (;;) {
          const cb = take(orderId);
          if (cb !== undefined) return await state.guard(await resultOfCallback(deps, orderId, cb));
          const now = deps.now();
          if (polling && (now >= nextPoll || now >= deadline)) {
            try {
              const order = await fetchOrder(deps.api, orderId, deps.paths);
              await state.guard(undefined);
              const word = orderStatusWord(order.status);
              if (word === 'processed' && inbox.length === 0) {
                deps.onEvent({ type: 'note', label: 'note', message: `no callback arrived, but fetch-order-data shows order ${orderId} processed` });
                return order;
              }
              if ((word === 'failed' || word === 'cancelled') && inbox.length === 0) throw bookingEndedError(order);
            } catch (err) {
              await state.guard(undefined);
              if (err instanceof BookingFailedError) throw err;
              if (!isTransient(err)) {
                polling = false;
                deps.debugLog(`fallback poll switched off: ${err instanceof Error ? err.message : String(err)}`);
              }
            }
            nextPoll = deps.now() + fallbackMs;
            if (inbox.length > 0) continue;
          }
          if (deps.now() >= deadline) {
            if (inbox.length > 0) continue;
            throw waitTimeoutError(orderId, deps.now() - started);
          }
          const until = polling ? Math.min(nextPoll, deadline) : deadline;
          // Sleeps until the next poll or the deadline; a callback arriving aborts the sleep.
          const woken = new AbortController();
          wake = () => woken.abort();
          await deps.sleep(Math.max(0, until - deps.now()), woken.signal).catch(() => {});
          wake = undefined;
          await state.guard(undefined);
        }
      } finally {
        if (!state.closed) state.end();
      }
    },
    async close() {
      state.close();
      await receiver.close();
    },
  };
}
