/**
 * Accepting an order named by hand (`order accept <id>` without waiting): held to the price caps,
 * claimed in the ledger of the target (a run booking it right now is waited for), the intent
 * recorded before the accept leaves (interface document, "Accept order: PUT
 * /orders/{order_id}/accept/") and the acknowledgement as it comes. An accept the service refuses
 * with 409 because the order was accepted before is told apart from a refusal.
 */
import { acceptOrder, fetchOrder, type OrderPaths } from '../api/orders.js';
import type { ApiClient } from '../api/client.js';
import { ApiError, ShipbookError } from '../errors.js';
import type { LedgerStore } from '../ledger/index.js';
import type { AcceptRequest } from '../schema/payment.js';
import type { OrderResponse } from '../schema/order.js';
import { orderStatusWord } from '../schema/status.js';
import { claimDocument, type ClaimRun } from './claim.js';
import { judgeCaps, type BudgetReservation, type PriceCaps } from './limits.js';
import { identityOfOrder, recordedRequest, recordLearned } from './record.js';
import { DEFAULT_WAIT_TIMEOUT_MS } from './wait.js';

/** What became of an accept by hand: accepted now (the acknowledgement), or accepted before this one (the order as read). */
type HandAccept = { status: 'accepted'; order: OrderResponse } | { status: 'accepted_before'; order: OrderResponse };

/**
 * Accepts `orderId` with `request` (built and checked by the caller), recorded in `ledger`.
 * @throws LimitRefusedError (exit 9) when the order is over a cap (it stays pending); ShipbookError
 *   `price_unknown` when a cap is set and the order shows no total; ApiError (3) for a refusal that
 *   is not an earlier accept; what the claim throws (another run holds it past the wait)
 */
export async function acceptByHand(
  d: { api: ApiClient; ledger: LedgerStore; paths: OrderPaths; caps: PriceCaps; claim: ClaimRun },
  orderId: string,
  request: AcceptRequest,
): Promise<HandAccept> {
  const { api, ledger, paths } = d;
  const id = identityOfOrder(ledger, orderId);
  await claimDocument(ledger, id, { again: true, timeoutMs: DEFAULT_WAIT_TIMEOUT_MS, what: `order ${orderId}` }, d.claim);
  const reservation = await holdToCapsByHand(api, orderId, d.caps, paths);
  try {
    const order = await recordedRequest(
      ledger,
      { id },
      { step: 'accept', orderId, payment: request.order.payment.type },
      () => acceptOrder(api, orderId, request),
      (o) => ({ kind: 'accepted', orderId: o.id }),
    );
    return { status: 'accepted', order };
  } catch (err) {
    reservation?.release();
    // Refused because the order was accepted or processed before: said so, never as accepted now.
    const before = err instanceof ApiError && err.status === 409 ? await acceptedBefore(api, orderId, paths) : undefined;
    if (before === undefined) throw err;
    await recordLearned(ledger, before, undefined);
    return { status: 'accepted_before', order: before };
  }
}

/**
 * Holds an order named by hand to the caps before its accept leaves (none set: nothing is read): its
 * exact total read with fetch-order-data. An order over a cap stays pending.
 * @throws LimitRefusedError (exit 9) when it is above `--max-total` or passes the budget
 */
async function holdToCapsByHand(api: ApiClient, orderId: string, caps: PriceCaps, paths: OrderPaths): Promise<BudgetReservation | undefined> {
  if (caps.maxTotalCents === undefined && caps.budget === undefined) return undefined;
  const total = (await fetchOrder(api, orderId, paths)).price?.total.cents;
  if (total === undefined)
    throw new ShipbookError('price_unknown', `order ${orderId} shows no total, so it cannot be held to --max-total or --budget: not accepted`, 'api');
  const judged = judgeCaps(orderId, total, caps);
  if ('refusal' in judged) throw judged.refusal({ kept: true });
  return judged.reservation;
}

/**
 * The order after an accept the service refused with 409, when it reads as accepted or processed:
 * it was accepted before this command. Undefined when it cannot be read or stands otherwise
 * (pending, cancelled, failed): the 409 is then the answer.
 */
async function acceptedBefore(api: ApiClient, orderId: string, paths: OrderPaths): Promise<OrderResponse | undefined> {
  const order = await fetchOrder(api, orderId, paths).catch(() => undefined);
  const word = order === undefined ? undefined : orderStatusWord(order.status);
  return word === 'processed' || word === 'accepted' ? order : undefined;
}
