/**
 * Orders: interface document, "Create order: POST /orders/", "Accept order: PUT
 * /orders/{order_id}/accept/", and the assumed fetch-order-data and cancel-order paths of
 * docs/assumptions.md (`GET /orders/{order_id}/`, `PUT /orders/{order_id}/cancel/`, settings of a profile).
 * Each wrapper names its endpoint in the table of `endpoints.ts` and takes optional
 * {@link RequestOptions} (retry policy, AbortSignal) as its last parameter.
 */
import { ApiError } from '../errors.js';
import type { CreateOrderRequest, OrderResponse } from '../schema/order.js';
import type { AcceptRequest } from '../schema/payment.js';
import type { ApiClient, RequestOptions } from './client.js';
import { checkAccepted, checkCreatedOrder } from './contradictions.js';
import { ENDPOINTS } from './endpoints.js';

/**
 * Paths of the four operations the interface document references but does not show (settings
 * `paths.*` of a profile): `{order_id}` and `{service_code}` are replaced.
 */
export interface OrderPaths {
  /** fetch-order-data, default `orders/{order_id}/` (GET). */
  fetchOrder: string;
  /** cancel-order, default `orders/{order_id}/cancel/` (PUT). */
  cancelOrder: string;
  /** fetch-credit-card, default `credit-cards/` (GET). */
  fetchCreditCards: string;
  /** fetch-service-data, default `services/{service_code}/` (GET). */
  fetchServiceData: string;
}

/** The assumed paths of docs/assumptions.md (with the stored-card and service-data reads): the endpoint table's. */
export const DEFAULT_ORDER_PATHS: OrderPaths = {
  fetchOrder: ENDPOINTS.fetchOrder.path,
  cancelOrder: ENDPOINTS.cancelOrder.path,
  fetchCreditCards: ENDPOINTS.fetchCreditCards.path,
  fetchServiceData: ENDPOINTS.fetchServiceData.path,
};

/**
 * `POST /orders/` (endpoint `createOrder`, mutating): stores the order as pending; returns it with
 * the exact price (numbers). Retried only when the request provably never left; a lost answer is
 * AnswerLostError (the order may exist), never repeated; an answer without an order id, or whose
 * shipments are not those sent (count, `transient_id`, service code), is a ProtocolError whose
 * outcome is unknown (src/api/contradictions.ts).
 */
export async function createOrder(api: ApiClient, order: CreateOrderRequest, options: RequestOptions = {}): Promise<OrderResponse> {
  const created = (await api.call('createOrder', { body: order }, options)).order;
  checkCreatedOrder(order.order.shipments, created);
  return created;
}

/** Order statuses that mean "accepted": an accept that met 409 on a retry had already succeeded. */
const ACCEPTED_STATUSES = new Set(['acc', 'accepted', 'processed', 'processing', 'booked']);

/**
 * `PUT /orders/{order_id}/accept/` (endpoint `acceptOrder`, mutating): payment and callback;
 * answers 201 with status `ACC` (acknowledgement only).
 *
 * With `options.retry: 'idempotent-accept'` (accepting again is safe: a repeat is refused with 409) the
 * accept is retried on transient failures, and a 409 is resolved by reading the order: an order
 * already accepted (or processed) counts as accepted and is returned; otherwise the 409 is thrown.
 * `options.paths` gives the profile's fetch-order path for that read, and `options.acceptedBefore`
 * is told of such an order when the 409 answered the call's first attempt: it was accepted before
 * this call, not by it (a 409 after a retry may answer this call's own earlier attempt).
 * @throws ApiError (409 when the order is not pending), and as {@link ApiClient.call}; ProtocolError
 *   (exit 5, outcome unknown) when the answer is about another order or gives a status other than
 *   `ACC` or a later one (`processed`)
 */
export async function acceptOrder(
  api: ApiClient,
  orderId: string,
  accept: AcceptRequest,
  options: RequestOptions & { paths?: OrderPaths; acceptedBefore?: (order: OrderResponse) => void } = {},
): Promise<OrderResponse> {
  let accepted: OrderResponse;
  try {
    accepted = (await api.call('acceptOrder', { params: { order_id: orderId }, body: accept }, { retry: options.retry, signal: options.signal })).order;
  } catch (err) {
    if (options.retry === 'idempotent-accept' && err instanceof ApiError && err.status === 409) {
      const order = await fetchOrder(api, orderId, options.paths ?? DEFAULT_ORDER_PATHS, { signal: options.signal });
      if (ACCEPTED_STATUSES.has(String(order.status ?? '').toLowerCase())) {
        checkAccepted(orderId, order);
        if (err.attempts === 1) options.acceptedBefore?.(order);
        return order;
      }
    }
    throw err;
  }
  // An answer about another order says nothing of this one: whether it was accepted is unknown.
  checkAccepted(orderId, accepted);
  return accepted;
}

/** fetch-order-data (assumed `GET /orders/{order_id}/`, endpoint `fetchOrder`, safe): the order's current status and tracking numbers. */
export async function fetchOrder(
  api: ApiClient,
  orderId: string,
  paths: OrderPaths = DEFAULT_ORDER_PATHS,
  options: RequestOptions = {},
): Promise<OrderResponse> {
  return (await api.call('fetchOrder', { path: paths.fetchOrder, params: { order_id: orderId } }, options)).order;
}

/**
 * fetch-order-data, with the envelope's `message` as well: for an order that ended `failed`, the
 * service's reason (docs/assumptions.md assumes the usual envelope; the sandbox puts the reason there, as
 * its callback does). `message` is undefined when it says nothing (`OK`, empty).
 * @throws as {@link fetchOrder}
 */
export async function fetchOrderWithMessage(
  api: ApiClient,
  orderId: string,
  paths: OrderPaths = DEFAULT_ORDER_PATHS,
  options: RequestOptions = {},
): Promise<{ order: OrderResponse; message?: string }> {
  let message: string | undefined;
  const { order } = await api.call(
    'fetchOrder',
    { path: paths.fetchOrder, params: { order_id: orderId } },
    {
      ...options,
      onMessage: (m) => {
        if (m.trim() !== '' && m.trim().toUpperCase() !== 'OK') message = m;
      },
    },
  );
  return message === undefined ? { order } : { order, message };
}

/** cancel-order (assumed `PUT /orders/{order_id}/cancel/`, endpoint `cancelOrder`, mutating): cancels a pending order. */
export async function cancelOrder(
  api: ApiClient,
  orderId: string,
  paths: OrderPaths = DEFAULT_ORDER_PATHS,
  options: RequestOptions = {},
): Promise<OrderResponse> {
  return (await api.call('cancelOrder', { path: paths.cancelOrder, params: { order_id: orderId }, body: {} }, options)).order;
}

/**
 * One order of a sandbox's list: its id, wire status, when it was created (ISO 8601, when the
 * sandbox says) and its shipments' transient ids (null when none) and tracking numbers (`N/A` before booking).
 */
export interface SandboxOrderSummary {
  id: string;
  status: string;
  created_at?: string | null;
  shipments: Array<{ id: string; transient_id?: string | null; tracking_number?: string | null }>;
}

/**
 * Every order a shipbook sandbox holds (`GET /_sandbox/orders/`, endpoint `sandboxOrders`, safe):
 * the lookup by reference that the interface does not have. A real service has no such route.
 * @throws ApiError (404 from a service that is not a sandbox), and as {@link ApiClient.call}
 */
export async function listSandboxOrders(api: ApiClient, options: RequestOptions = {}): Promise<SandboxOrderSummary[]> {
  return (await api.call('sandboxOrders', {}, options)).orders;
}
