/**
 * Waiting for the booking result by polling fetch-order-data (assumed `GET /orders/{order_id}/`,
 * a setting of the profile; docs/assumptions.md) until the order is processed, fails, or the timeout
 * passes. Interface document, "States and transitions": an accepted order (`ACC`) moves to
 * `processed` when booking completes.
 *
 * Also the errors every waiting route shares: the timeout (exit 7) and a booking that ended failed
 * or cancelled (exit 6). The note on a wait that stopped while the booking goes on is
 * `stillRunningNote` of src/next-steps.ts.
 */
import { PLAIN_HINTS, type HintStyle } from '../shell.js';
import { fetchOrderWithMessage, type OrderPaths } from '../api/orders.js';
import type { ApiClient } from '../api/client.js';
import { isTransientFailure } from '../api/outcome.js';
import { ApiError, BookingFailedError, ProtocolError, ResultUnreadableError, ShipbookError, WaitTimeoutError, cmd, type Hint } from '../errors.js';
import type { OrderResponse } from '../schema/order.js';
import { orderStatusWord } from '../schema/status.js';
import { stillRunningNote } from '../next-steps.js';

export { realSleep, type Sleep } from '../sleep.js';
import { realSleep, type Sleep } from '../sleep.js';

/** How to poll: interval and overall timeout, in milliseconds. */
interface PollOptions {
  intervalMs: number;
  timeoutMs: number;
  paths?: OrderPaths;
  /** Called after each successful poll with the order and the time waited so far (ms). */
  onPoll?: (order: OrderResponse, elapsedMs: number) => void;
  /** Called when a poll fails in a way worth retrying (network, timeout, 5xx); polling goes on. */
  onTransientError?: (err: Error) => void;
  signal?: AbortSignal;
  /** How the command in a timeout's error is written: the run's hint style; default a POSIX shell, no `--profile`. */
  hints?: HintStyle;
  /** Milliseconds since the epoch; default `Date.now`. */
  now?: () => number;
  /** How to wait between polls; default {@link realSleep}. */
  sleep?: Sleep;
}

/** Default overall wait: 10 minutes. */
export const DEFAULT_WAIT_TIMEOUT_MS = 10 * 60_000;

/** The error of a wait that ran out of time (exit 7). */
export function waitTimeoutError(orderId: string, elapsedMs: number, hints: HintStyle): WaitTimeoutError {
  return new WaitTimeoutError(orderId, `gave up waiting after ${Math.round(elapsedMs / 1000)} s: ${stillRunningNote(orderId, hints)}`, {
    suggestion: 'To wait longer next time, give --wait-timeout, e.g. --wait-timeout 30m.',
  });
}

/** The error of a booking whose order ended failed or cancelled, seen by polling (exit 6). */
export function bookingEndedError(order: OrderResponse, detail?: string): BookingFailedError {
  const word = orderStatusWord(order.status);
  return new BookingFailedError(
    order.id,
    `booking of order ${order.id} ${word === 'failed' ? 'failed' : `ended ${word}`}: ${detail ?? 'no reason given'} (order status ${order.status ?? '?'})`,
    { suggestion: ['See the order with "', cmd('order', 'get', order.id), '".'] },
  );
}

/** Longest pause between two polls, as a multiple of the interval. */
const MAX_BACKOFF_FACTOR = 2;

/**
 * The pause before poll number `n` (n ≥ 1): the interval before the first (counted from
 * acceptance), then half as long again each time, up to twice the interval: 1, 1.5, 2, 2, …
 * intervals. A booking that completes within the interval costs one read; a slow one costs fewer
 * reads the longer it runs. Each poll also leaves only when the run's pace allows (the API
 * client's pacer), so polls never go faster than the service accepts.
 */
export function pollDelay(intervalMs: number, n: number): number {
  return Math.max(1, Math.round(intervalMs * Math.min(MAX_BACKOFF_FACTOR, 1.5 ** (Math.max(1, n) - 1))));
}

/** The least time a poll is given, ms: the poll made at the deadline still gets this long. */
const FINAL_POLL_GRACE_MS = 500;

/** The deadline of one poll request: what remains of the wait, at least {@link FINAL_POLL_GRACE_MS}. */
export function pollBudget(remainingMs: number): number {
  return Math.max(FINAL_POLL_GRACE_MS, remainingMs);
}

/**
 * How many bad answers in a row (a refusal such as 404, an answer that is not the envelope) a wait
 * tolerates. A 429 or 503 is not a bad answer: the service asks to wait, and the wait goes on.
 */
const MAX_BAD_POLLS = 3;

/**
 * True for a poll answer that is wrong but may be a passing fault: a refusal other than the
 * credentials' (401/403), or an answer that is not the envelope or has the wrong shape.
 */
function isBadAnswer(err: unknown): err is ShipbookError {
  if (err instanceof ProtocolError) return true;
  return err instanceof ApiError && err.status < 500 && err.status !== 429 && err.kind !== 'auth';
}

/**
 * The error that ends a wait whose polls kept failing: names the order and its last known state,
 * says the booking may still be running and how to look.
 */
function resultUnreadableError(orderId: string, lastState: string, cause: ShipbookError, paths?: OrderPaths): ResultUnreadableError {
  const pathHint: Hint =
    cause instanceof ApiError && cause.status === 404
      ? [
          ' If the service reads orders at another path, set it with "',
          cmd('config', 'set', 'paths.fetch-order', paths?.fetchOrder ?? 'orders/{order_id}/'),
          '".',
        ]
      : [];
  return new ResultUnreadableError(orderId, lastState, cause, {
    suggestion: [
      `The order is ${lastState === 'pending' ? 'pending' : `${lastState}; its booking may still be running`}: do not book it again. Run "`,
      cmd('order', 'get', orderId),
      '" to see it later.',
      ...pathHint,
    ],
  });
}

/**
 * Polls (on the schedule of {@link pollDelay}) until the order is `processed`; the last poll is made at the deadline.
 * Transient failures (src/api/outcome.ts `isTransientFailure`: no answer, 5xx, a 429 whose `Retry-After` the
 * client's pacer waits out) are reported through `onTransientError` and retried until the
 * deadline, never a final outcome; bad answers (a refusal such as 404, an answer that is not the envelope) are
 * retried up to {@link MAX_BAD_POLLS} in a row.
 * @throws BookingFailedError (exit 6) when the order ends failed or cancelled
 * @throws WaitTimeoutError (exit 7) when `timeoutMs` passes first: the order is accepted, the booking still running
 * @throws ResultUnreadableError (exit 7: the order is accepted) after {@link MAX_BAD_POLLS} bad answers in a row, naming the order and its last state
 * @throws ApiError 401/403 (exit 4) at once: credentials that retrying cannot fix
 */
export async function pollForResult(api: ApiClient, orderId: string, options: PollOptions): Promise<OrderResponse> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? realSleep;
  const started = now();
  const deadline = started + options.timeoutMs;
  let lastState = 'accepted';
  let badInARow = 0;
  // The first read waits the interval: right after acceptance the order is still accepted.
  let polls = 1;
  await sleep(Math.min(pollDelay(options.intervalMs, polls), Math.max(0, deadline - now())), options.signal);
  for (;;) {
    let order: OrderResponse | undefined;
    let message: string | undefined;
    try {
      // Bounded by what remains of the wait (the poll at the deadline gets a short grace), and not
      // retried inside the client: this loop retries, so a hung poll cannot outlast --timeout.
      // A 429/503 with Retry-After holds this poll (and every other request) in the client's pacer.
      // A read: Ctrl-C may stop it at once, also while it waits for its turn in the pacer.
      const poll = () =>
        fetchOrderWithMessage(api, orderId, options.paths, {
          retry: 'never',
          timeoutMs: pollBudget(deadline - now()),
          ...(options.signal ? { signal: options.signal } : {}),
        });
      ({ order, message } = await poll());
      badInARow = 0;
      lastState = orderStatusWord(order.status);
    } catch (err) {
      if (!(isTransientFailure(err) || isBadAnswer(err))) throw err;
      if (isBadAnswer(err) && ++badInARow >= MAX_BAD_POLLS) throw resultUnreadableError(orderId, lastState, err, options.paths);
      options.onTransientError?.(err);
    }
    const elapsed = now() - started;
    if (order !== undefined) {
      options.onPoll?.(order, elapsed);
      const word = orderStatusWord(order.status);
      if (word === 'processed') return order;
      // The service's reason (the envelope's message) goes with it, as a callback's would.
      if (word === 'failed' || word === 'cancelled') throw bookingEndedError(order, message);
    }
    const remaining = deadline - now();
    if (remaining <= 0) throw waitTimeoutError(orderId, elapsed, options.hints ?? PLAIN_HINTS);
    await sleep(Math.min(pollDelay(options.intervalMs, ++polls), remaining), options.signal);
  }
}
