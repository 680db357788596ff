/**
 * The callback waiter: a receiver on this machine (src/booking/receiver.ts) takes the service's
 * callback, which is checked against fetch-order-data (./verify.ts). While waiting, a slow
 * fallback poll (every {@link FALLBACK_POLL_MS}, and once more at the deadline) catches a result
 * whose callback cannot reach us; a fallback poll that the service refuses (e.g. 404: the
 * profile's fetch-order-data path is wrong) switches the fallback off.
 */
import { isTransientFailure } from '../../api/outcome.js';
import { fetchOrderWithMessage } from '../../api/orders.js';
import { BookingErrorReportedError, BookingFailedError, UsageError } from '../../errors.js';
import { orderStatusWord } from '../../schema/status.js';
import { onAbort } from '../../sleep.js';
import { maskToken, publicCallbackUrl, startCallbackReceiver, type CallbackReceiver, type ReceivedCallback } from '../receiver.js';
import { urlHost } from '../../http/server.js';
import { bookingEndedError, pollBudget, waitTimeoutError } from '../wait.js';
import type { OrderResponse } from '../../schema/order.js';
import { WaitState, waitInterrupted, type Deps, type ResultWaiter } from './state.js';
import { checkCallback, errorReported } from './verify.js';

/** Where the receiver listens: a host (name or address) and a port (0 = any free port). */
export interface ListenAddress {
  host: string;
  port: number;
}

/** What the callback waiter takes from the command's flags (src/booking/result/route.ts `WaitSettings`). */
interface CallbackSettings {
  timeoutMs: number;
  callbackUrl?: string;
  listen?: ListenAddress;
  fallbackPollMs?: number;
}

/** While waiting by callback, fetch-order-data is also asked this often (and once at the deadline). */
const FALLBACK_POLL_MS = 30_000;
/** After a callback the service does not bear out yet, fetch-order-data is asked this often. */
const HINTED_POLL_MS = 2_000;

/** How a waiter's receiver takes callbacks and says what goes wrong (see {@link openReceiver}). */
interface ReceiverUse {
  /** `callback` or `callbacks`, for the message of a receiver that cannot listen. */
  what: string;
  /** Whether a problem on the token path is told to people now (else it goes to the debug log only). */
  reportProblems: () => boolean;
  onCallback: (cb: ReceivedCallback) => { accepted: true } | { accepted: false; status: number; message: string };
}

/**
 * Starts a callback receiver on `listen` for a waiter (one order's, or a batch's for the whole
 * run): problems on its token path become `receiver_problem` notices, its address a
 * `receiver_address` notice when the user chose it (else a debug line, token masked).
 * @returns the receiver and the callback URL to give the service
 * @throws UsageError (exit 2) when the receiver cannot listen there
 */
export async function openReceiver(
  deps: Deps,
  settings: { callbackUrl?: string; listen?: ListenAddress },
  listen: ListenAddress,
  use: ReceiverUse,
): Promise<{ receiver: CallbackReceiver; callbackUrl: string }> {
  let receiver: CallbackReceiver;
  try {
    receiver = await startCallbackReceiver({
      host: listen.host,
      port: listen.port,
      basePath: settings.callbackUrl === undefined ? '' : new URL(settings.callbackUrl).pathname,
      onCallback: use.onCallback,
      onProblem(p) {
        if (p.onTokenPath && use.reportProblems()) {
          const notice =
            p.summary !== undefined
              ? { kind: 'receiver_problem' as const, summary: p.summary }
              : { kind: 'receiver_problem' as const, status: p.status, method: p.method, remote: p.remote, reason: p.reason };
          return deps.onEvent({ type: 'wait_notice', notice });
        }
        deps.debugLog(
          p.summary !== undefined ? `callback receiver: ${p.summary}` : `callback receiver answered ${p.status} to a ${p.method} from ${p.remote}: ${p.reason}`,
        );
      },
    });
  } catch (err) {
    const code = (err as { code?: string }).code ?? (err instanceof Error ? err.message : String(err));
    throw new UsageError(`cannot listen on ${urlHost(listen.host)}:${listen.port} for the booking ${use.what} (${code})`, {
      suggestion: 'Choose another address with --listen host:port, or wait by polling with --poll 5s.',
      cause: err,
    });
  }
  const callbackUrl = publicCallbackUrl(receiver, settings.callbackUrl);
  const masked = (url: string) => maskToken(url, receiver.token);
  if (settings.callbackUrl !== undefined || settings.listen !== undefined) {
    deps.onEvent({
      type: 'wait_notice',
      notice: {
        kind: 'receiver_address',
        localUrl: masked(receiver.localUrl),
        ...(settings.callbackUrl !== undefined ? { publicUrl: masked(callbackUrl) } : {}),
      },
    });
  } else {
    deps.debugLog(`callback receiver on ${masked(receiver.localUrl)}`);
  }
  return { receiver, callbackUrl };
}

/**
 * Waits for the callback on a receiver listening on `listen`, with the fallback poll described in
 * the module documentation; a wait ends when its signal aborts.
 * @throws UsageError (exit 2) when the receiver cannot listen there
 */
export async function callbackWaiter(deps: Deps, settings: CallbackSettings, listen: ListenAddress): Promise<ResultWaiter> {
  const state = new WaitState(deps);
  const queue: ReceivedCallback[] = [];
  let expected: string | undefined;
  let wake: (() => void) | undefined;
  const { receiver, callbackUrl } = await openReceiver(deps, settings, listen, {
    what: 'callback',
    reportProblems: () => state.waitingFor !== undefined,
    onCallback: (cb: ReceivedCallback) => {
      const unnamed = cb.orderId === undefined || cb.orderId === '';
      // This receiver's token was made for one order: an error callback that names none is its.
      if (unnamed && cb.body.code >= 200 && cb.body.code < 300) {
        return { accepted: false, status: 409, message: 'the callback names no order (result.order.id)' };
      }
      if (!unnamed && expected !== undefined && cb.orderId !== expected) {
        return { accepted: false, status: 409, message: `this receiver waits for the result of order ${expected}, not ${cb.orderId}` };
      }
      deps.debugLog(`callback received for order ${cb.orderId ?? '(none)'}: code ${cb.body.code}, status ${cb.body.result?.order?.status ?? '(none)'}`);
      queue.push(cb);
      wake?.();
      return { accepted: true };
    },
  });
  const fallbackMs = settings.fallbackPollMs ?? FALLBACK_POLL_MS;

  /**
   * The first callback for the awaited order (an error callback that names no order is the
   * awaited order's); callbacks for other orders (arrived before it was known) are dropped.
   */
  const take = (orderId: string): ReceivedCallback | undefined => {
    while (queue.length > 0) {
      const cb = queue.shift()!;
      if (cb.orderId === orderId || cb.orderId === undefined || cb.orderId === '') return cb;
      deps.onEvent({ type: 'callback_ignored', orderId, otherOrderId: cb.orderId ?? '(none)' });
    }
    return undefined;
  };

  const inbox: Inbox = {
    take,
    pending: () => queue.length > 0,
    onArrival(fn) {
      wake = fn;
    },
  };

  return {
    route: 'callback',
    callbackUrl,
    async wait(orderId, callerSignal) {
      if (callerSignal?.aborted) throw waitInterrupted(orderId, deps.hints);
      expected = orderId;
      return waitForCallback(deps, state, orderId, inbox, { timeoutMs: settings.timeoutMs, fallbackMs }, callerSignal);
    },
    async close() {
      state.close();
      await receiver.close();
    },
  };
}

/**
 * Where one wait takes its callbacks from: the single waiter's receiver, or one order's share of a
 * run's receiver (./run-callbacks.ts).
 */
export interface Inbox {
  /** The next callback for `orderId`, if one arrived (callbacks for other orders are dropped). */
  take(orderId: string): ReceivedCallback | undefined;
  /** True while callbacks are waiting to be taken. */
  pending(): boolean;
  /** Sets (or clears) what a new callback wakes. */
  onArrival(wake: (() => void) | undefined): void;
}

/** How one wait by callback goes: its timeout, its fallback poll, and which callbacks it takes without a read. */
interface CallbackWaitOptions {
  timeoutMs: number;
  /** Fallback poll: the first this long after the wait begins, then as often (and once at the deadline). */
  fallbackMs: number;
  /**
   * A callback taken as the result without asking fetch-order-data (a batch's complete success
   * callbacks, ./run-callbacks.ts); undefined: checked as every callback is (./verify.ts).
   */
  taken?: (cb: ReceivedCallback) => OrderResponse | undefined;
}

/**
 * Waits for the result of `orderId` from `inbox`: each callback is checked with fetch-order-data
 * (./verify.ts) unless `options.taken` takes it as it is, with the fallback poll described in the
 * module documentation. Ends when `callerSignal` aborts or the waiter closes (`state`).
 * @throws as {@link ResultWaiter.wait}
 */
export async function waitForCallback(
  deps: Deps,
  state: WaitState,
  orderId: string,
  inbox: Inbox,
  options: CallbackWaitOptions,
  callerSignal: AbortSignal | undefined,
): Promise<OrderResponse> {
  const { fallbackMs } = options;
  const started = deps.now();
  const deadline = started + options.timeoutMs;
  let polling = true;
  let nextPoll = started + fallbackMs;
  // Set once a callback for this order arrived that the service did not (yet) bear out: from
  // then on fetch-order-data is asked every HINTED_POLL_MS.
  let hinted = false;
  // An error callback that fetch-order-data could not be asked about yet: the next poll decides it.
  let reported: ReceivedCallback | undefined;
  const running = state.begin(orderId, { route: 'callback', timeoutMs: options.timeoutMs }, callerSignal);
  const { signal } = running;
  try {
    for (;;) {
      if (signal.aborted) throw waitInterrupted(orderId, deps.hints);
      const cb = inbox.take(orderId);
      if (cb !== undefined) {
        const result = options.taken?.(cb);
        if (result !== undefined) return result;
        // A callback is a hint: the service's own answer decides (see checkCallback).
        const verdict = await checkCallback(deps, orderId, cb, signal).catch((err: unknown) => {
          throw signal.aborted ? waitInterrupted(orderId, deps.hints) : err;
        });
        if (signal.aborted) throw waitInterrupted(orderId, deps.hints);
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
            signal,
          });
          const word = orderStatusWord(order.status);
          if (word === 'processed' && !inbox.pending()) {
            if (!hinted) deps.onEvent({ type: 'wait_notice', notice: { kind: 'processed_without_callback', orderId } });
            return order;
          }
          if ((word === 'failed' || word === 'cancelled') && !inbox.pending()) throw bookingEndedError(order, message);
          if (reported !== undefined && word !== 'processed' && !inbox.pending()) throw errorReported(orderId, reported, { status: order.status });
        } catch (err) {
          if (signal.aborted) throw waitInterrupted(orderId, deps.hints);
          if (err instanceof BookingFailedError || err instanceof BookingErrorReportedError) throw err;
          const why = err instanceof Error ? err.message : String(err);
          if (!isTransientFailure(err)) {
            if (reported !== undefined) throw errorReported(orderId, reported, { unreadable: why });
            polling = false;
            deps.debugLog(`fallback poll switched off: ${why}`);
          } else if (reported !== undefined && deps.now() >= deadline) {
            throw errorReported(orderId, reported, { unreadable: why });
          }
        }
        nextPoll = deps.now() + (hinted ? HINTED_POLL_MS : fallbackMs);
        if (inbox.pending()) continue;
      }
      if (deps.now() >= deadline) {
        if (inbox.pending()) continue;
        if (reported !== undefined) throw errorReported(orderId, reported, { unreadable: 'no answer before the deadline' });
        throw waitTimeoutError(orderId, deps.now() - started, deps.hints);
      }
      const until = polling ? Math.min(nextPoll, deadline) : deadline;
      // Sleeps until the next poll or the deadline; a callback arriving, or the signal, ends the sleep.
      const woken = new AbortController();
      inbox.onArrival(() => woken.abort());
      const unlisten = onAbort(signal, () => woken.abort());
      await deps.sleep(Math.max(0, until - deps.now()), woken.signal).catch(() => {});
      unlisten();
      inbox.onArrival(undefined);
    }
  } finally {
    running.end();
  }
}
