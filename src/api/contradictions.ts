/**
 * Answers that contradict the request they answer: the envelope and the shape are right, but
 * what they say cannot be the answer to what was sent. Each is a {@link ProtocolError} (exit 5).
 * For a mutating call the request was sent (`sent: true`): what it did is unknown, so the message
 * says so and how to find out, and a batch or single `book` records the step as unknown (a create
 * is never sent again by itself).
 *
 * Checked (interface document, "Create order", "Accept order", "Create shipment", "Combine
 * shipments", "Events"):
 * - a create (order, shipment, combine) answered without the new id;
 * - a create order whose shipments do not correspond to those sent: another count, a
 *   `transient_id` that was not sent (or twice), another service code;
 * - a create shipment answered with another service code or `transient_id`, or with a status
 *   other than `NEW` (the state the interface gives a created shipment);
 * - an accept answered about another order, or with a status other than `ACC` or a later one
 *   (`processed`): such an answer does not say the order was accepted;
 * - a combine whose parent does not list every shipment sent;
 * - a processed order with a shipment without a tracking number: the interface sends the
 *   tracking number of each shipment once booking completes, and `N/A` only while none is
 *   assigned, so "processed" without one is no complete answer (the order may well be booked:
 *   the message says how to look at it).
 */
import { cmd, ProtocolError, type Hint } from '../errors.js';
import type { OrderResponse } from '../schema/order.js';
import { trackingNumberOf } from '../schema/shipment.js';
import { seeOrderHint } from '../next-steps.js';
import type { ShipmentRequest, ShipmentResponse } from '../schema/shipment.js';
import { orderStatusWord } from '../schema/status.js';
import { howToFindOut } from './client.js';
import { ENDPOINTS, type EndpointName } from './endpoints.js';

/**
 * The error for an answer of `name` at `path` (relative to the base URL) that says `what`;
 * `suggestion` replaces the endpoint's way to find out (e.g. when the answer gave an order id).
 */
function contradiction(name: EndpointName, path: string, what: string, suggestion?: Hint): ProtocolError {
  const e = ENDPOINTS[name];
  return new ProtocolError(
    `the service's answer to ${e.title} (${e.method} ${path}) contradicts the request: ${what}; ${e.effect ?? 'it may have taken effect'}, so its outcome is unknown`,
    {
      suggestion: suggestion ?? howToFindOut(e, path),
      fate: { sent: true, endpoint: { name: e.name, method: e.method, path: e.path, safe: e.safe } },
    },
  );
}

const blank = (id: string | undefined) => id === undefined || id.trim() === '';

/** A created order (or shipment) must have an id. @throws ProtocolError (exit 5, sent) */
function checkCreated(name: 'createOrder' | 'createShipment', created: { id?: string }): void {
  if (blank(created.id)) throw contradiction(name, ENDPOINTS[name].path, `it has no ${name === 'createOrder' ? 'order' : 'shipment'} id`);
}

/**
 * An accept's answer must be about the order accepted, and say it is accepted: status `ACC` (any
 * case) or a later one (`processed`). Any other status (`new`, `DECLINED`, none) does not say the
 * order was accepted, nor that it was not.
 * @throws ProtocolError (exit 5, sent)
 */
export function checkAccepted(orderId: string, order: OrderResponse): void {
  const path = `orders/${encodeURIComponent(orderId)}/accept/`;
  if (order.id !== orderId) throw contradiction('acceptOrder', path, `it is about order ${blank(order.id) ? '(no id)' : order.id}, not ${orderId}`);
  const word = orderStatusWord(order.status);
  if (word !== 'accepted' && word !== 'processed') {
    throw contradiction('acceptOrder', path, `it gives order ${orderId} the status ${shown(order.status)}, not ACC (accepted)`);
  }
}

/** A status as the answer gave it, for a message: quoted, or `(none)`. */
function shown(status: string | null | undefined): string {
  return status === undefined || status === null || status.trim() === '' ? '(none)' : JSON.stringify(status);
}

/** Two service codes are the same code: compared without surrounding spaces and case. */
const sameCode = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** `shipment SHP-1 (transient_id T1)`: a shipment of an answer as a message names it. */
function named(s: ShipmentResponse): string {
  const transient = s.transient_id === undefined || s.transient_id === null || s.transient_id === '' ? '' : ` (transient_id ${s.transient_id})`;
  return `shipment ${blank(s.id) ? '(no id)' : s.id}${transient}`;
}

/**
 * What is wrong in a shipment of an answer against the shipment sent it answers: another
 * `transient_id` (one was sent and another came back) or another service code; undefined when
 * nothing is. A member the answer leaves out is not held against it.
 */
function shipmentMismatch(sent: Pick<ShipmentRequest, 'transient_id' | 'service'>, got: ShipmentResponse): string | undefined {
  const sentTransient = sent.transient_id ?? undefined;
  const gotTransient = got.transient_id ?? undefined;
  if (gotTransient !== undefined && gotTransient !== '' && gotTransient !== sentTransient) {
    return `${named(got)} has a transient_id that was not sent${sentTransient === undefined ? '' : ` (sent ${sentTransient})`}`;
  }
  const code = got.service?.code;
  if (code !== undefined && code !== null && String(code).trim() !== '' && !sameCode(String(code), sent.service.code)) {
    return `${named(got)} has the service code ${String(code)}, not ${sent.service.code} as sent`;
  }
  return undefined;
}

/**
 * A created order's shipments must be those sent: as many, each `transient_id` one that was sent
 * (and at most once), each service code the one sent for it (shipments are paired by
 * `transient_id` where the answer gives one, else by their place). The order may exist, but not
 * as it was asked for: its outcome is unknown, and the hint names the order to look at.
 * @throws ProtocolError (exit 5, sent)
 */
export function checkCreatedOrder(sent: ReadonlyArray<Pick<ShipmentRequest, 'transient_id' | 'service'>>, created: OrderResponse): void {
  checkCreated('createOrder', created);
  const hint: Hint = ['Do not create it again yet; see what the service made of it with: ', cmd('order', 'get', created.id)];
  const fail = (what: string) => contradiction('createOrder', ENDPOINTS.createOrder.path, `order ${created.id} ${what}`, hint);
  const got = created.shipments;
  if (got.length !== sent.length) {
    throw fail(`lists ${got.length} shipment${got.length === 1 ? '' : 's'} for the ${sent.length} sent`);
  }
  // A transient_id sent for several shipments pairs with each of them in turn: listing it as often
  // as it was sent is what was asked for; once more is not.
  const byTransient = new Map<string, number[]>();
  sent.forEach((s, i) => {
    if (s.transient_id) byTransient.set(s.transient_id, [...(byTransient.get(s.transient_id) ?? []), i]);
  });
  const answered = new Set<number>();
  got.forEach((s, i) => {
    const t = s.transient_id ?? undefined;
    const candidates = t !== undefined && t !== '' ? byTransient.get(t) : undefined;
    const match = candidates !== undefined ? (candidates.find((c) => !answered.has(c)) ?? candidates[0]!) : i;
    if (answered.has(match) && t !== undefined && t !== '')
      throw fail(`lists the transient_id ${t} ${candidates!.length === 1 ? 'twice' : 'more often than it was sent'}`);
    answered.add(match);
    const wrong = shipmentMismatch(sent[match]!, s);
    if (wrong !== undefined) throw fail(`is not what was sent: ${wrong}`);
  });
}

/**
 * A created shipment must be the one sent (its `transient_id` and service code, where the answer
 * gives them) and be `NEW`, the state the interface gives a created shipment.
 * @throws ProtocolError (exit 5, sent)
 */
export function checkCreatedShipment(sent: Pick<ShipmentRequest, 'transient_id' | 'service'>, created: ShipmentResponse): void {
  checkCreated('createShipment', created);
  const wrong = shipmentMismatch(sent, created);
  if (wrong !== undefined) throw contradiction('createShipment', ENDPOINTS.createShipment.path, `${wrong}`);
  if (created.status !== undefined && created.status.trim().toUpperCase() !== 'NEW') {
    throw contradiction('createShipment', ENDPOINTS.createShipment.path, `${named(created)} has the status ${shown(created.status)}, not NEW`);
  }
}

/** A combine's parent must have an id and list every shipment sent. @throws ProtocolError (exit 5, sent) */
export function checkCombined(childIds: readonly string[], parent: OrderResponse): void {
  if (blank(parent.id)) throw contradiction('combineShipments', 'shipments/', 'it has no parent order id');
  const listed = new Set(parent.shipments.map((s) => s.id));
  const missing = childIds.filter((id) => !listed.has(id));
  if (missing.length > 0) {
    throw contradiction(
      'combineShipments',
      'shipments/',
      `parent order ${parent.id} does not list shipment${missing.length === 1 ? '' : 's'} ${missing.join(', ')} that ${missing.length === 1 ? 'was' : 'were'} sent`,
    );
  }
}

/**
 * A processed order must carry a tracking number for each shipment.
 * @throws ProtocolError (exit 5) naming the shipments without one and how to look at the order
 */
export function checkProcessed(order: OrderResponse): void {
  const without = order.shipments.filter((s) => trackingNumberOf(s) === undefined).map((s) => s.id);
  if (order.shipments.length > 0 && without.length === 0) return;
  const what = order.shipments.length === 0 ? 'no shipments' : `no tracking number for shipment${without.length === 1 ? '' : 's'} ${without.join(', ')}`;
  throw new ProtocolError(
    `the service says order ${order.id} is processed but gives ${what}; the booking may be complete at the service, without the tracking numbers shipbook would print`,
    {
      suggestion: seeOrderHint(order.id),
    },
  );
}
