/**
 * The endpoints of the booking service that shipbook calls, and what each does: safe (reads,
 * may be repeated freely) or mutating (changes something at the service; repeating it may book
 * or charge twice). The typed wrappers (`quote.ts`, `orders.ts`, `shipments.ts`) name their
 * endpoint; the client (`client.ts`) reads this table to decide retries and to word the errors
 * of a request whose answer was lost. Also here: the test of what is transient.
 *
 * Paths are relative to the base URL; `{order_id}` is replaced. The fetch-order and cancel-order
 * paths are docs/assumptions.md's assumed defaults (a profile may override them).
 */
import { AnswerLostError, ApiError, NetworkError, TimeoutError } from '../errors.js';

/** One row of the endpoint table. */
export interface Endpoint {
  /** Stable name, used in errors (`endpoint.name`) and by the batch journal. */
  readonly name: EndpointName;
  readonly method: 'GET' | 'POST' | 'PUT';
  /** Path template relative to the base URL. */
  readonly path: string;
  /** `true` when the call changes nothing at the service (so it may be retried). */
  readonly safe: boolean;
  /** The operation in the interface document's words, e.g. `create order`. */
  readonly title: string;
  /** For a mutating call: what may have happened when its answer is unknown. */
  readonly effect?: string;
}

/** Names of the endpoints in {@link ENDPOINTS}. */
export type EndpointName =
  | 'quote'
  | 'quoteSinglePackage'
  | 'createOrder'
  | 'acceptOrder'
  | 'fetchOrder'
  | 'cancelOrder'
  | 'fetchCreditCards'
  | 'fetchServiceData'
  | 'createShipment'
  | 'combineShipments';

/**
 * The endpoint table (interface document: "Get quote", "Create order", "Accept order",
 * "Create shipment", "Combine shipments"; docs/assumptions.md: fetch-order-data and cancel-order; the referenced reads:
 * fetch-credit-card and fetch-service-data).
 * `POST /quote/` only prices a route, so it is safe although it is a POST.
 */
export const ENDPOINTS: Readonly<Record<EndpointName, Endpoint>> = Object.freeze({
  quote: { name: 'quote', method: 'POST', path: 'quote/', safe: true, title: 'get quote' },
  quoteSinglePackage: { name: 'quoteSinglePackage', method: 'GET', path: 'quote/', safe: true, title: 'get quote' },
  createOrder: {
    name: 'createOrder', method: 'POST', path: 'orders/', safe: false, title: 'create order',
    effect: 'the order may have been created',
  },
  acceptOrder: {
    name: 'acceptOrder', method: 'PUT', path: 'orders/{order_id}/accept/', safe: false, title: 'accept order',
    effect: 'the order may have been accepted (and paid for)',
  },
  fetchOrder: { name: 'fetchOrder', method: 'GET', path: 'orders/{order_id}/', safe: true, title: 'fetch order data' },
  cancelOrder: {
    name: 'cancelOrder', method: 'PUT', path: 'orders/{order_id}/cancel/', safe: false, title: 'cancel order',
    effect: 'the order may have been cancelled',
  },
  fetchCreditCards: { name: 'fetchCreditCards', method: 'GET', path: 'credit-cards/', safe: true, title: 'fetch credit card' },
  fetchServiceData: { name: 'fetchServiceData', method: 'GET', path: 'services/{service_code}/', safe: true, title: 'fetch service data' },
  createShipment: {
    name: 'createShipment', method: 'POST', path: 'shipments/', safe: false, title: 'create shipment',
    effect: 'the shipment may have been created',
  },
  combineShipments: {
    name: 'combineShipments', method: 'PUT', path: 'shipments/', safe: false, title: 'combine shipments',
    effect: 'the shipments may have been combined into a parent order',
  },
});

/** The endpoint of a call that names none: GET is safe, anything else is treated as mutating. */
export function endpointOf(name: EndpointName | undefined, method: 'GET' | 'POST' | 'PUT', path: string): Endpoint {
  if (name) return ENDPOINTS[name];
  return { name: 'custom' as EndpointName, method, path, safe: method === 'GET', title: `${method} ${path}`, effect: method === 'GET' ? undefined : 'it may have taken effect' };
}

/** HTTP 507: the service cannot store what the request needs (its disk is full). */
export const INSUFFICIENT_STORAGE = 507;

/**
 * Retry policy of one call:
 * - `safe` (default): retry only safe endpoints; a mutating one only when its request provably
 *   never left this machine (connection refused, DNS, TLS, connect timeout).
 * - `idempotent-accept`: also retry this mutating call on every transient failure: for accept,
 *   which the service refuses with 409 when it is repeated, so a repeat cannot pay twice;
 *   `acceptOrder` then resolves a 409 by reading the order.
 * - `answered-create`: also retry this mutating call when the service ANSWERED 429 or 5xx: an
 *   answer came saying the request was not processed, so nothing was created. A lost answer is
 *   still never repeated (the order may exist). Every booking sends its creates with it.
 * - `never`: one attempt.
 */
export type RetryPolicy = 'safe' | 'idempotent-accept' | 'answered-create' | 'never';

/**
 * True for failures that may pass on their own: the service could not be reached, its answer
 * was lost or late, HTTP 5xx (500, 502, 503, 504) or 429. Not: 4xx refusals, 507 (the service
 * cannot store anything: a full disk does not pass in seconds), protocol errors, answers too
 * large, interrupts.
 */
export function isTransientFailure(err: unknown): boolean {
  if (err instanceof NetworkError || err instanceof TimeoutError) return true;
  if (err instanceof ApiError) return err.status === 429 || (err.status >= 500 && err.status <= 599 && err.status !== INSUFFICIENT_STORAGE);
  return false;
}

/**
 * Whether a failed attempt of `endpoint` may be repeated under `policy`: a transient failure of
 * a safe call; of a mutating call only when its request provably never left (`sent` false) or
 * the caller chose `idempotent-accept`.
 */
export function mayRetry(err: unknown, endpoint: Endpoint, policy: RetryPolicy): boolean {
  if (policy === 'never' || !isTransientFailure(err)) return false;
  if (endpoint.safe || policy === 'idempotent-accept') return true;
  if (policy === 'answered-create' && err instanceof ApiError) return true;
  // A mutating call: only what provably never reached the service.
  return (err instanceof NetworkError && !(err instanceof AnswerLostError) && !err.sent) || (err instanceof TimeoutError && !err.sent);
}
