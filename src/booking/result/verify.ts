/**
 * Callback verification: a callback is a hint, the service's answer (fetch-order-data) is the
 * result. Checks one callback against the service, and merges what both say.
 */
import { isTransientFailure } from '../../api/outcome.js';
import { fetchOrderWithMessage } from '../../api/orders.js';
import { BookingErrorReportedError, BookingFailedError, cmd, type Hint } from '../../errors.js';
import type { OrderResponse } from '../../schema/order.js';
import { trackingNumberOf, type ShipmentResponse } from '../../schema/shipment.js';
import { orderStatusWord } from '../../schema/status.js';
import type { CallbackClaim } from '../progress.js';
import type { ReceivedCallback } from '../receiver.js';
import { bookingEndedError } from '../wait.js';
import type { Deps } from './state.js';

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

/** What a callback claims, as data (`final`: it claims an end, processed or failed). */
function callbackClaim(cb: ReceivedCallback): CallbackClaim & { final: boolean } {
  const { code, message } = cb.body;
  const word = orderStatusWord(cb.body.result?.order?.status ?? undefined);
  const ok = code >= 200 && code < 300;
  if (!ok) return { final: true, success: false, word: 'failed', ...(message ? { detail: message } : {}) };
  if (word === 'processed') return { final: true, success: true, word: 'processed' };
  if (word === 'failed' || word === 'cancelled') return { final: true, success: false, word, ...(message && message !== 'OK' ? { detail: message } : {}) };
  return { final: false, success: false, word };
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
export function errorReported(orderId: string, cb: ReceivedCallback, seen: { status: string | undefined } | { unreadable: string }): BookingErrorReportedError {
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
    { suggestion: ['The order may still be booked: look at it with "', cmd('order', 'get', orderId), '" before booking it again.'] },
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
 * @throws the read's error once `signal` aborts
 */
export async function checkCallback(deps: Deps, orderId: string, cb: ReceivedCallback, signal?: AbortSignal): Promise<CallbackVerdict> {
  const { final, ...claim } = callbackClaim(cb);
  const reportsFailure = final && !claim.success;
  const fromCallback = cb.body.result?.order ?? undefined;
  const suggestion: Hint = ['See the order with "', cmd('order', 'get', orderId), '".'];
  let fetched: { order: OrderResponse; message?: string };
  try {
    fetched = await fetchOrderWithMessage(deps.api, orderId, deps.paths, signal === undefined ? {} : { signal });
  } catch (err) {
    // Interrupted: the caller ends the wait.
    if (signal?.aborted) throw err;
    const why = err instanceof Error ? err.message : String(err);
    if (isTransientFailure(err)) {
      deps.onEvent({ type: 'wait_notice', notice: { kind: 'callback_unconfirmed_yet', orderId, claim, reason: why } });
      return reportsFailure ? { kind: 'wait', reportedFailure: cb } : { kind: 'wait' };
    }
    if (!final) return { kind: 'wait' };
    if (reportsFailure) throw errorReported(orderId, cb, { unreadable: why });
    deps.onEvent({ type: 'wait_notice', notice: { kind: 'callback_unconfirmed', reason: why } });
    return { kind: 'done', order: mergeCallbackOrder(undefined, fromCallback!) };
  }
  const { order, message } = fetched;
  const word = orderStatusWord(order.status);
  if (word === 'processed') {
    if (reportsFailure) deps.onEvent({ type: 'wait_notice', notice: { kind: 'callback_overruled', orderId, claim, serviceWord: word } });
    const differing = trackingDisagreement(order, fromCallback);
    if (differing !== undefined) deps.onEvent({ type: 'wait_notice', notice: { kind: 'tracking_differs', ...differing } });
    return { kind: 'done', order: mergeCallbackOrder(order, fromCallback ?? { id: orderId, shipments: [] }, 'service') };
  }
  if (word === 'failed' || word === 'cancelled') {
    if (claim.success) deps.onEvent({ type: 'wait_notice', notice: { kind: 'callback_overruled', orderId, claim, serviceWord: word } });
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
  if (final) {
    deps.onEvent({ type: 'wait_notice', notice: { kind: 'callback_ahead', orderId, claim, serviceWord: word } });
  } else {
    deps.debugLog(`callback for order ${orderId} with status ${fromCallback?.status ?? '(none)'}: still booking`);
  }
  return { kind: 'wait' };
}

/** The tracking numbers of a callback and the service, when both have some and they differ. */
function trackingDisagreement(service: OrderResponse, fromCallback: OrderResponse | undefined): { callback: string[]; service: string[] } | undefined {
  const list = (o: OrderResponse | undefined) =>
    (o?.shipments ?? [])
      .map((s) => trackingNumberOf(s))
      .filter((t): t is string => t !== undefined)
      .sort();
  const a = list(fromCallback);
  const b = list(service);
  if (a.length === 0 || b.length === 0 || a.join(',') === b.join(',')) return undefined;
  return { callback: a, service: b };
}
