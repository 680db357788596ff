/**
 * The endpoints of the booking service that shipbook calls, as one declarative table: for each,
 * its method and path, whether it is safe (reads, may be repeated freely) or mutating (changes
 * something at the service; repeating it may book or charge twice), its default retry policy, the
 * type of its request body and the schema of its answer's `result`. The client's generic call
 * (`ApiClient.call` in `client.ts`) takes an endpoint's name and reads everything else here; the
 * typed wrappers (`quote.ts`, `orders.ts`, `shipments.ts`, `cards.ts`, `services.ts`) only shape
 * arguments and results. What a failure of a safe or a mutating call means is decided in
 * `outcome.ts`.
 *
 * Paths are relative to the base URL; `{order_id}` and `{service_code}` are replaced (encoded).
 * The fetch-order and cancel-order paths are docs/assumptions.md's assumed defaults (a profile may
 * override them).
 *
 * Request bodies are typed here but not checked again on the way out: every body is built from a
 * document that src/schema/ already validated (or from the client's own code).
 */
import * as z from 'zod';
import { storedCardsResult } from '../schema/card.js';
import { lazySchema } from '../schema/lazy.js';
import type { CombineRequest, CreateShipmentRequest } from '../schema/combine.js';
import { orderResult, type CreateOrderRequest } from '../schema/order.js';
import type { AcceptRequest } from '../schema/payment.js';
import { quoteServiceEntry, type QuoteRequest } from '../schema/quote.js';
import { serviceDataResult } from '../schema/service-data.js';
import { shipmentResponse } from '../schema/shipment.js';

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

/** HTTP method of an endpoint (DELETE and PATCH only for a request typed by hand: `shipbook api`). */
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/** One row of the endpoint table, as the errors and the dry-run records name it. */
export interface Endpoint {
  /** Stable name, used in errors (`endpoint.name`) and by the batch journal. */
  readonly name: EndpointName;
  readonly method: Method;
  /** Path template relative to the base URL. */
  readonly path: string;
  /** `true` when the call changes nothing at the service (so it may be retried). */
  readonly safe: boolean;
  /** The operation in the interface document's words, e.g. `create order`. */
  readonly title: string;
  /** For a mutating call: what may have happened when its answer is unknown. */
  readonly effect?: string;
  /** Retry policy of a call that does not choose one (see {@link RetryPolicy}). */
  readonly retry: RetryPolicy;
  /** Schema of the answer's `result`; an answer that does not fit is a ProtocolError. */
  readonly result: z.ZodType;
}

/**
 * `result` of get quote as the client reads it: `services` is required (an empty list is a real
 * answer: no service offered); a 200 without it, or with something else, is a protocol error
 * (exit 5), never "no service offered".
 */
const quoteAnswer = lazySchema(() => z.looseObject({ services: z.array(quoteServiceEntry) }));

/** `result` of create shipment: `{shipment: …}` (response form, price as numbers). */
const shipmentResult = lazySchema(() => z.looseObject({ shipment: shipmentResponse }));

/**
 * `result` of a sandbox's list of orders (`GET /_sandbox/orders/`, a test hook of every shipbook
 * sandbox, not part of the interface): each order's id and status, and its shipments' transient ids.
 */
const sandboxOrdersResult = lazySchema(() =>
  z.looseObject({
    orders: z.array(
      z.looseObject({
        id: z.string(),
        status: z.string(),
        created_at: z.string().nullable().optional(),
        shipments: z.array(
          z.looseObject({ id: z.string(), transient_id: z.string().nullable().optional(), tracking_number: z.string().nullable().optional() }),
        ),
      }),
    ),
  }),
);

/** `result` of a request typed by hand: any JSON (what `shipbook api` prints as it came). */
const anyResult = lazySchema(() => z.unknown());

/**
 * The endpoint table (interface document: "Get quote", "Create order", "Accept order",
 * "Create shipment", "Combine shipments"; docs/assumptions.md: fetch-order-data and cancel-order; the referenced reads:
 * fetch-credit-card and fetch-service-data; a sandbox's test hook: its list of orders).
 * `POST /quote/` only prices a route, so it is safe although it is a POST.
 */
const TABLE = Object.freeze({
  quote: { name: 'quote', method: 'POST', path: 'quote/', safe: true, title: 'get quote', retry: 'safe', result: quoteAnswer },
  quoteSinglePackage: { name: 'quoteSinglePackage', method: 'GET', path: 'quote/', safe: true, title: 'get quote', retry: 'safe', result: quoteAnswer },
  createOrder: {
    name: 'createOrder',
    method: 'POST',
    path: 'orders/',
    safe: false,
    title: 'create order',
    effect: 'the order may have been created',
    retry: 'safe',
    result: orderResult,
  },
  acceptOrder: {
    name: 'acceptOrder',
    method: 'PUT',
    path: 'orders/{order_id}/accept/',
    safe: false,
    title: 'accept order',
    effect: 'the order may have been accepted (and paid for)',
    retry: 'safe',
    result: orderResult,
  },
  fetchOrder: { name: 'fetchOrder', method: 'GET', path: 'orders/{order_id}/', safe: true, title: 'fetch order data', retry: 'safe', result: orderResult },
  cancelOrder: {
    name: 'cancelOrder',
    method: 'PUT',
    path: 'orders/{order_id}/cancel/',
    safe: false,
    title: 'cancel order',
    effect: 'the order may have been cancelled',
    retry: 'safe',
    result: orderResult,
  },
  fetchCreditCards: {
    name: 'fetchCreditCards',
    method: 'GET',
    path: 'credit-cards/',
    safe: true,
    title: 'fetch credit card',
    retry: 'safe',
    result: storedCardsResult,
  },
  fetchServiceData: {
    name: 'fetchServiceData',
    method: 'GET',
    path: 'services/{service_code}/',
    safe: true,
    title: 'fetch service data',
    retry: 'safe',
    result: serviceDataResult,
  },
  createShipment: {
    name: 'createShipment',
    method: 'POST',
    path: 'shipments/',
    safe: false,
    title: 'create shipment',
    effect: 'the shipment may have been created',
    retry: 'safe',
    result: shipmentResult,
  },
  combineShipments: {
    name: 'combineShipments',
    method: 'PUT',
    path: 'shipments/',
    safe: false,
    title: 'combine shipments',
    effect: 'the shipments may have been combined into a parent order',
    retry: 'safe',
    result: orderResult,
  },
  // A request typed by hand (`shipbook api`) to a path the table does not know: a read (GET) or a
  // change; the method is the request's own, the answer's `result` any JSON.
  byHandRead: { name: 'byHandRead', method: 'GET', path: '', safe: true, title: 'request typed by hand', retry: 'safe', result: anyResult },
  byHandChange: {
    name: 'byHandChange',
    method: 'POST',
    path: '',
    safe: false,
    title: 'request typed by hand',
    effect: 'the request may have changed something at the service',
    retry: 'safe',
    result: anyResult,
  },
  sandboxOrders: {
    name: 'sandboxOrders',
    method: 'GET',
    path: '_sandbox/orders/',
    safe: true,
    title: "list the sandbox's orders",
    retry: 'safe',
    result: sandboxOrdersResult,
  },
} as const satisfies { readonly [N in EndpointName]: Endpoint & { readonly name: N } });

/** {@link TABLE} row by row, each as an {@link Endpoint}. */
export const ENDPOINTS: Readonly<Record<EndpointName, Endpoint>> = TABLE;

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
  | 'combineShipments'
  | 'byHandRead'
  | 'byHandChange'
  | 'sandboxOrders';

/**
 * The request body of each endpoint, in request form (amounts as `Money`, converted to JSON
 * numbers on the way out); `undefined` for the reads, which send none (`GET /quote/` sends its
 * quote as query parameters).
 */
export interface EndpointBodies {
  quote: QuoteRequest;
  quoteSinglePackage: undefined;
  createOrder: CreateOrderRequest;
  acceptOrder: AcceptRequest;
  fetchOrder: undefined;
  /** Cancel sends an empty object. */
  cancelOrder: Record<string, never>;
  fetchCreditCards: undefined;
  fetchServiceData: undefined;
  createShipment: CreateShipmentRequest;
  combineShipments: CombineRequest;
  /** Sent as typed (wrapped in `request`); a read by hand sends none. */
  byHandRead: undefined;
  byHandChange: unknown;
  sandboxOrders: undefined;
}

/** The checked `result` of an answer of endpoint `N`. */
export type ResultOf<N extends EndpointName> = z.output<(typeof TABLE)[N]['result']>;

/**
 * `template` with each `{name}` replaced by `params[name]`, URI-encoded (a placeholder such as
 * `<order id>` is encoded too; a dry-run record shows it decoded). A name without a value stays.
 */
export function fillPath(template: string, params: Readonly<Record<string, string>> | undefined): string {
  if (params === undefined || !template.includes('{')) return template;
  return template.replace(PLACEHOLDER, (whole, name: string) => {
    const value = Object.hasOwn(params, name) ? params[name] : undefined;
    return value === undefined ? whole : encodeURIComponent(value);
  });
}

/** A `{name}` of a path template. */
const PLACEHOLDER = /\{([a-z_]+)\}/g;
