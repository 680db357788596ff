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
 * - an accept answered about another order;
 * - a combine whose parent does not list every shipment sent;
 * - a processed order with a shipment without a tracking number: the interface sends the
 *   tracking number of each shipment once booking completes, and `N/A` only while none is
 *   assigned, so "processed" without one is no complete answer (the order may well be booked:
 *   the message says how to look at it).
 */
import { ProtocolError } from '../errors.js';
import type { OrderResponse } from '../schema/order.js';
import { trackingNumberOf } from '../schema/shipment.js';
import { seeOrderHint } from '../next-steps.js';
import { howToFindOut } from './client.js';
import { ENDPOINTS, type EndpointName } from './endpoints.js';

/** The error for an answer of `name` at `path` (relative to the base URL) that says `what`. */
function contradiction(name: EndpointName, path: string, what: string): ProtocolError {
  const e = ENDPOINTS[name];
  return new ProtocolError(
    `the service's answer to ${e.title} (${e.method} ${path}) contradicts the request: ${what}; ${e.effect ?? 'it may have taken effect'}, so its outcome is unknown`,
    {
      suggestion: howToFindOut(e, path),
      fate: { sent: true, endpoint: { name: e.name, method: e.method, path: e.path, safe: e.safe } },
    },
  );
}

const blank = (id: string | undefined) => id === undefined || id.trim() === '';

/** A created order (or shipment) must have an id. @throws ProtocolError (exit 5, sent) */
export function checkCreated(name: 'createOrder' | 'createShipment', created: { id?: string }): void {
  if (blank(created.id)) throw contradiction(name, ENDPOINTS[name].path, `it has no ${name === 'createOrder' ? 'order' : 'shipment'} id`);
}

/** An accept's answer must be about the order accepted. @throws ProtocolError (exit 5, sent) */
export function checkAccepted(orderId: string, order: OrderResponse): void {
  if (order.id !== orderId) {
    throw contradiction(
      'acceptOrder',
      `orders/${encodeURIComponent(orderId)}/accept/`,
      `it is about order ${blank(order.id) ? '(no id)' : order.id}, not ${orderId}`,
    );
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
