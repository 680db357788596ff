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
import { fetchOrderWithMessage, type OrderPaths } from '../api/orders.js';
import type { ApiClient } from '../api/client.js';
import { isLoopbackHost } from '../api/base-url.js';
import { BookingErrorReportedError, BookingFailedError, ShipbookError, UsageError } from '../errors.js';
import { stillRunningNote } from '../next-steps.js';
import type { OrderResponse } from '../schema/order.js';
import { trackingNumberOf, type ShipmentResponse } from '../schema/shipment.js';
import { orderStatusWord } from '../schema/status.js';
import { maskToken, publicCallbackUrl, startCallbackReceiver, urlHost, type CallbackReceiver, type ReceivedCallback } from './receiver.js';
import { shellCommand } from '../shell.js';
import type { BookingEventHandler } from './progress.js';
import { bookingEndedError, isTransient, pollBudget, pollForResult, realSleep, waitTimeoutError, type Sleep } from './wait.js';
import { onAbort } from '../sleep.js';

/**
 * What a waiter uses, and nothing more: the client, the fetch-order-data paths, a clock, a sleep,
 * and where its progress goes (`waiting`, `polled`, `wait_ended`, `callback_ignored`, `warning`,
 * `note`, `interrupted` events; src/output/progress.ts draws them as a spinner and lines).
 */
interface WaiterDeps {
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
const FALLBACK_POLL_MS = 30_000;
/** After a callback the service does not bear out yet, fetch-order-data is asked this often. */
const HINTED_POLL_MS = 2_000;
/** Port the receiver listens on with `--callback-url` and no `--listen` (what a tunnel forwards to). */
const TUNNEL_DEFAULT_PORT = 8787;

/** The wait was interrupted (Ctrl-C, SIGTERM): the order is accepted and its booking goes on (exit 130). */
function waitInterrupted(orderId: string): ShipbookError {
  return new ShipbookError('interrupted', `stopped waiting: ${stillRunningNote(orderId)}`, 'interrupted');
}

/** A prepared way of waiting for one accepted order's result. */
export interface ResultWaiter {
  /** How it waits. */
  route: 'callback' | 'poll';
  /** The URL to send as `request.callback` in the accept request, when waiting by callback. */
  callbackUrl?: string;
  /**
   * Waits for the order to be processed and returns it, with every tracking number.
   * @throws BookingFailedError (6) for an order that ended failed/cancelled (an error callback the service confirms)
   * @throws BookingErrorReportedError (12) for an error callback while the service shows the order in another state
   * @throws WaitTimeoutError (7) when the timeout passes first
   * @throws ApiError / NetworkError when polling is the route and the service refuses or cannot be reached
   * @throws ShipbookError `interrupted` (exit 130) once `signal` aborts (Ctrl-C, SIGTERM): the order
   *   is accepted and its booking goes on at the service
   */
  wait(orderId: string, signal?: AbortSignal): Promise<OrderResponse>;
  /**
   * Releases what the waiter holds (a receiver, timers). Safe to call twice. When called while a
   * wait is running (Ctrl-C, SIGTERM), it reports an `interrupted` event (the order is accepted and
   * still booking), and the running wait never settles (the process is about to exit).
   */
  close(): Promise<void>;
}

/** What else shapes the choice of route. */
interface PrepareOptions {
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
      throw new UsageError(
        "--callback-url and --listen are for shipbook's own receiver; they cannot go with your own callback URL (--callback, or callback in the payment file)",
        {
          suggestion: 'Drop --callback to let shipbook receive the result, or drop --callback-url/--listen to wait by polling.',
        },
      );
    }
    deps.onEvent({
      type: 'note',
      message: `The booking result goes to your callback URL; shipbook waits by polling fetch-order-data every ${DEFAULT_POLL_MS / 1000} s.`,
    });
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
    deps.onEvent({
      type: 'note',
      message: 'To wait by callback, expose a receiver (e.g. through a tunnel) and give --callback-url https://… --listen 127.0.0.1:8787.',
    });
    return pollingWaiter(deps, DEFAULT_POLL_MS, settings.timeoutMs);
  }
  if (!isLoopbackHost(listen.host)) {
    deps.onEvent({
      type: 'warning',
      message: `the callback receiver listens on ${listen.host}, reachable from the network; only its unguessable path is accepted`,
    });
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
    async wait(orderId, signal) {
      if (signal?.aborted) throw waitInterrupted(orderId);
      state.begin(orderId, 'poll', `waiting for the booking result of ${orderId} by polling every ${seconds(pollMs)} (up to ${minutes(timeoutMs)})`);
      let warned = false;
      try {
        const order = await pollForResult(deps.api, orderId, {
          intervalMs: pollMs,
          timeoutMs,
          paths: deps.paths,
          now: deps.now,
          sleep: deps.sleep,
          ...(signal ? { signal } : {}),
          onPoll(o) {
            deps.onEvent({ type: 'polled', orderId, order: o, text: `waiting for the booking result of ${orderId} by polling (${orderStatusWord(o.status)})` });
          },
          onTransientError(err) {
            if (!warned) deps.onEvent({ type: 'warning', message: `a poll failed (${err.message}); still polling` });
            warned = true;
          },
        }).catch((err: unknown) =>
          signal?.aborted ? Promise.reject(waitInterrupted(orderId)) : state.closed ? new Promise<never>(() => {}) : Promise.reject(err),
        );
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
 * The order to show after a successful callback: with `trust` `'service'` (the callback was
 * confirmed by fetch-order-data) the fetched order as it is; otherwise the fetched order with the
 * callback's status and tracking numbers laid over it, or, when nothing was fetched, the
 * callback's order alone. A shipment without a status takes the order's.
 */
export function mergeCallbackOrder(fetched: OrderResponse | undefined, fromCallback: OrderResponse, trust: 'callback' | 'service' = 'callback'): OrderResponse {
  const base: OrderResponse = fetched ?? { ...fromCallback, shipments: [] };
  if (trust === 'service' && fetched !== undefined) return fetched;
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

/** What a callback claims, in words: `processed`, `failed (no driver available)`, `accepted` … */
function callbackClaim(cb: ReceivedCallback): { final: boolean; success: boolean; text: string } {
  const { code, message } = cb.body;
  const word = orderStatusWord(cb.body.result?.order?.status ?? undefined);
  const ok = code >= 200 && code < 300;
  if (!ok) return { final: true, success: false, text: `failed${message ? ` (${message})` : ''}` };
  if (word === 'processed') return { final: true, success: true, text: 'processed' };
  if (word === 'failed' || word === 'cancelled') return { final: true, success: false, text: `${word}${message && message !== 'OK' ? ` (${message})` : ''}` };
  return { final: false, success: false, text: word };
}

/**
 * The outcome of checking a callback with fetch-order-data: a result, or keep waiting (with the
 * error callback still to be confirmed when fetch-order-data could not be reached for now).
 */
type CallbackVerdict = { kind: 'done'; order: OrderResponse } | { kind: 'wait'; reportedFailure?: ReceivedCallback };

/**
 * The end of a wait on an error callback the service does not bear out: the service said the
 * booking failed (the callback's code and message) while fetch-order-data shows the order with
 * `seen.status`, or could not be read (`seen.unreadable` says why).
 */
function errorReported(orderId: string, cb: ReceivedCallback, seen: { status: string | undefined } | { unreadable: string }): BookingErrorReportedError {
  const { code, message } = cb.body;
  let shown: string;
  let orderStatus: string | undefined;
  if ('unreadable' in seen) {
    shown = `fetch-order-data could not be read (${seen.unreadable})`;
  } else {
    orderStatus = seen.status;
    const word = orderStatusWord(seen.status);
    shown =
      seen.status === undefined
        ? 'fetch-order-data shows the order without a status'
        : `fetch-order-data shows it ${seen.status} (${word === 'unknown' ? 'a status shipbook does not know' : word})`;
  }
  return new BookingErrorReportedError(
    {
      orderId,
      callbackCode: code,
      callbackMessage: message,
      orderStatus,
      message: `the service's callback says booking of order ${orderId} failed: ${message || 'no message'} (callback code ${code}), while ${shown}; not booked as far as shipbook can tell`,
    },
    { suggestion: `The order may still be booked: look at it with "${shellCommand('order', 'get', orderId)}" before booking it again.` },
  );
}

/**
 * Checks what a callback for `orderId` says against fetch-order-data: the
 * callback is a hint, the service's answer is the result. Anyone who learns the receiver's URL can
 * POST to it, and a service may send a callback early or wrongly; so:
 * - the service shows the order processed: success, with the service's tracking numbers (a
 *   callback that said otherwise, or carried other tracking numbers, is reported as a disagreement);
 * - the service shows it failed or cancelled: the failure, with the service's reason (else the
 *   callback's message);
 * - an error callback (a code other than 2xx, or a status that says failed) while the service
 *   shows another state (`ACC`, a status shipbook does not know): the service said the booking
 *   failed and nothing says it was booked, so the wait ends with {@link BookingErrorReportedError};
 * - a success callback while the service shows it still accepted: keep waiting (reported as a
 *   disagreement; a code-200 callback with status `ACC` is only progress);
 * - fetch-order-data cannot be reached for now: keep waiting, the next poll checks again (and
 *   decides an error callback);
 * - fetch-order-data is refused (a 404 from a wrong `paths.fetch-order`, say): an error callback
 *   ends the wait as above, unconfirmed; a success callback's word is taken, with a warning that
 *   it could not be confirmed.
 * @throws BookingFailedError (exit 6) for a failure the service confirms
 * @throws BookingErrorReportedError (exit 12) for an error callback the service does not confirm
 */
async function checkCallback(deps: Deps, orderId: string, cb: ReceivedCallback): Promise<CallbackVerdict> {
  const claim = callbackClaim(cb);
  const reportsFailure = claim.final && !claim.success;
  const fromCallback = cb.body.result?.order ?? undefined;
  const suggestion = `See the order with "${shellCommand('order', 'get', orderId)}".`;
  let fetched: { order: OrderResponse; message?: string };
  try {
    fetched = await fetchOrderWithMessage(deps.api, orderId, deps.paths);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    if (isTransient(err)) {
      deps.onEvent({
        type: 'warning',
        message: `a callback says order ${orderId} is ${claim.text}, but fetch-order-data could not confirm it yet (${why}); checking again`,
      });
      return reportsFailure ? { kind: 'wait', reportedFailure: cb } : { kind: 'wait' };
    }
    if (!claim.final) return { kind: 'wait' };
    if (reportsFailure) throw errorReported(orderId, cb, { unreadable: why });
    deps.onEvent({ type: 'warning', message: `could not confirm the callback with fetch-order-data (${why}); going by the callback alone` });
    return { kind: 'done', order: mergeCallbackOrder(undefined, fromCallback!) };
  }
  const { order, message } = fetched;
  const word = orderStatusWord(order.status);
  if (word === 'processed') {
    if (reportsFailure) {
      deps.onEvent({ type: 'warning', message: `the callback said order ${orderId} ${claim.text}, but the service shows it processed: going by the service` });
    }
    const differing = trackingDisagreement(order, fromCallback);
    if (differing !== undefined)
      deps.onEvent({
        type: 'warning',
        message: `the callback's tracking numbers (${differing.callback}) differ from the service's (${differing.service}): showing the service's`,
      });
    return { kind: 'done', order: mergeCallbackOrder(order, fromCallback ?? { id: orderId, shipments: [] }, 'service') };
  }
  if (word === 'failed' || word === 'cancelled') {
    if (claim.success)
      deps.onEvent({ type: 'warning', message: `the callback said order ${orderId} is processed, but the service shows it ${word}: going by the service` });
    const { code, message: cbMessage } = cb.body;
    const reason = message ?? (claim.success ? undefined : cbMessage || undefined);
    if (reportsFailure) {
      throw new BookingFailedError(
        orderId,
        `booking of order ${orderId} ${word === 'failed' ? 'failed' : `ended ${word}`}: ${reason ?? 'no message'} (callback code ${code}, order status ${order.status ?? 'not given'})`,
        { suggestion },
      );
    }
    throw bookingEndedError(order, reason);
  }
  if (reportsFailure) throw errorReported(orderId, cb, { status: order.status });
  if (claim.final) {
    deps.onEvent({
      type: 'warning',
      message: `a callback says order ${orderId} is ${claim.text}, but the service still shows it ${word}: waiting for the service`,
    });
  } else {
    deps.debugLog(`callback for order ${orderId} with status ${fromCallback?.status ?? '(none)'}: still booking`);
  }
  return { kind: 'wait' };
}

/** The tracking numbers of a callback and the service, when both have some and they differ. */
function trackingDisagreement(service: OrderResponse, fromCallback: OrderResponse | undefined): { callback: string; service: string } | undefined {
  const list = (o: OrderResponse | undefined) =>
    (o?.shipments ?? [])
      .map((s) => trackingNumberOf(s))
      .filter((t): t is string => t !== undefined)
      .sort();
  const a = list(fromCallback);
  const b = list(service);
  if (a.length === 0 || b.length === 0 || a.join(',') === b.join(',')) return undefined;
  return { callback: a.join(', '), service: b.join(', ') };
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
        const unnamed = cb.orderId === undefined || cb.orderId === '';
        // This receiver's token was made for one order: an error callback that names none is its.
        if (unnamed && cb.body.code >= 200 && cb.body.code < 300) {
          return { accepted: false, status: 409, message: 'the callback names no order (result.order.id)' };
        }
        if (!unnamed && expected !== undefined && cb.orderId !== expected) {
          return { accepted: false, status: 409, message: `this receiver waits for the result of order ${expected}, not ${cb.orderId}` };
        }
        deps.debugLog(`callback received for order ${cb.orderId ?? '(none)'}: code ${cb.body.code}, status ${cb.body.result?.order?.status ?? '(none)'}`);
        inbox.push(cb);
        wake?.();
        return { accepted: true };
      },
      onProblem(p) {
        const line =
          p.summary !== undefined ? `callback receiver: ${p.summary}` : `callback receiver answered ${p.status} to a ${p.method} from ${p.remote}: ${p.reason}`;
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
    deps.onEvent({
      type: 'note',
      message: `callback receiver on ${masked(receiver.localUrl)}${settings.callbackUrl !== undefined ? `, reached through ${masked(callbackUrl)}` : ''}`,
    });
  } else {
    deps.debugLog(`callback receiver on ${masked(receiver.localUrl)}`);
  }
  const fallbackMs = settings.fallbackPollMs ?? FALLBACK_POLL_MS;

  /**
   * The first callback for the awaited order (an error callback that names no order is the
   * awaited order's); callbacks for other orders (arrived before it was known) are dropped.
   */
  const take = (orderId: string): ReceivedCallback | undefined => {
    while (inbox.length > 0) {
      const cb = inbox.shift()!;
      if (cb.orderId === orderId || cb.orderId === undefined || cb.orderId === '') return cb;
      deps.onEvent({ type: 'callback_ignored', orderId, otherOrderId: cb.orderId ?? '(none)' });
    }
    return undefined;
  };

  return {
    route: 'callback',
    callbackUrl,
    async wait(orderId, signal) {
      if (signal?.aborted) throw waitInterrupted(orderId);
      expected = orderId;
      const started = deps.now();
      const deadline = started + settings.timeoutMs;
      let polling = true;
      let nextPoll = started + fallbackMs;
      // Set once a callback for this order arrived that the service did not (yet) bear out: from
      // then on fetch-order-data is asked every HINTED_POLL_MS.
      let hinted = false;
      // An error callback that fetch-order-data could not be asked about yet: the next poll decides it.
      let reported: ReceivedCallback | undefined;
      state.begin(orderId, 'callback', `waiting for the booking result of ${orderId} by callback (up to ${minutes(settings.timeoutMs)})`);
      try {
        for (;;) {
          if (signal?.aborted) throw waitInterrupted(orderId);
          const cb = take(orderId);
          if (cb !== undefined) {
            // A callback is a hint: the service's own answer decides (see checkCallback).
            const verdict = await checkCallback(deps, orderId, cb);
            await state.guard(undefined);
            if (verdict.kind === 'done') return verdict.order;
            reported = verdict.reportedFailure ?? reported;
            hinted = true;
            nextPoll = Math.min(nextPoll, deps.now() + HINTED_POLL_MS);
            continue;
          }
          const now = deps.now();
          if (polling && (now >= nextPoll || now >= deadline)) {
            try {
              const { order, message } = await fetchOrderWithMessage(deps.api, orderId, deps.paths, {
                retry: 'never',
                timeoutMs: pollBudget(deadline - deps.now()),
              });
              await state.guard(undefined);
              const word = orderStatusWord(order.status);
              if (word === 'processed' && inbox.length === 0) {
                if (!hinted)
                  deps.onEvent({ type: 'note', label: 'note', message: `no callback arrived, but fetch-order-data shows order ${orderId} processed` });
                return order;
              }
              if ((word === 'failed' || word === 'cancelled') && inbox.length === 0) throw bookingEndedError(order, message);
              if (reported !== undefined && word !== 'processed' && inbox.length === 0) throw errorReported(orderId, reported, { status: order.status });
            } catch (err) {
              await state.guard(undefined);
              if (err instanceof BookingFailedError || err instanceof BookingErrorReportedError) throw err;
              const why = err instanceof Error ? err.message : String(err);
              if (!isTransient(err)) {
                if (reported !== undefined) throw errorReported(orderId, reported, { unreadable: why });
                polling = false;
                deps.debugLog(`fallback poll switched off: ${why}`);
              } else if (reported !== undefined && deps.now() >= deadline) {
                throw errorReported(orderId, reported, { unreadable: why });
              }
            }
            nextPoll = deps.now() + (hinted ? HINTED_POLL_MS : fallbackMs);
            if (inbox.length > 0) continue;
          }
          if (deps.now() >= deadline) {
            if (inbox.length > 0) continue;
            if (reported !== undefined) throw errorReported(orderId, reported, { unreadable: 'no answer before the deadline' });
            throw waitTimeoutError(orderId, deps.now() - started);
          }
          const until = polling ? Math.min(nextPoll, deadline) : deadline;
          // Sleeps until the next poll or the deadline; a callback arriving aborts the sleep.
          const woken = new AbortController();
          wake = () => woken.abort();
          const unlisten = signal === undefined ? undefined : onAbort(signal, () => woken.abort());
          await deps.sleep(Math.max(0, until - deps.now()), woken.signal).catch(() => {});
          unlisten?.();
          wake = undefined;
          await state.guard(undefined);
          if (signal?.aborted) throw waitInterrupted(orderId);
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
