/**
 * The regular booking flow (PRODUCT.md, flow 1): create order → accept with payment → wait for
 * the booking result. Every step is reported as it happens, so a booking that stops half-way
 * is never lost: the caller always learns the order id and how far it got.
 */
import { acceptOrder, createOrder } from '../api/orders.js';
import type { ApiClient } from '../api/client.js';
import { ShipbookError } from '../errors.js';
import type { CreateOrderRequest, OrderResponse } from '../schema/order.js';
import type { AcceptRequest } from '../schema/payment.js';

/** Progress of a booking, reported step by step. */
export interface BookingEvents {
  /** The order exists, pending, with its exact price. */
  created?(order: OrderResponse): void;
  /** The order is accepted (`ACC`); the booking runs asynchronously. */
  accepted?(order: OrderResponse): void;
}

/** How the booking result is awaited; returns the processed order. */
export type WaitForResult = (orderId: string, accepted: OrderResponse) => Promise<OrderResponse>;

/**
 * Books a regular order: create, accept (the accept body's `order.id` is filled in), wait.
 * When a later step fails the error gains a suggestion naming the order and the next command.
 * @returns the processed order, with tracking numbers
 */
export async function bookRegularOrder(
  api: ApiClient,
  order: CreateOrderRequest,
  accept: (orderId: string) => Promise<AcceptRequest>,
  waitForResult: WaitForResult,
  events: BookingEvents = {},
): Promise<OrderResponse> {
  const created = await createOrder(api, order);
  events.created?.(created);
  let accepted: OrderResponse;
  try {
    accepted = await acceptOrder(api, created.id, await accept(created.id));
  } catch (err) {
    throw withStep(err, `Order ${created.id} was created and is still pending: accept it with "shipbook order accept ${created.id}" or cancel it with "shipbook order cancel ${created.id}".`);
  }
  events.accepted?.(accepted);
  return waitForResult(created.id, accepted);
}

/** Adds a note on how far a booking got to an error (keeping its type and exit code). */
export function withStep(err: unknown, note: string): unknown {
  if (err instanceof ShipbookError) {
    const suggestion = err.suggestion ? `${note}\n${err.suggestion}` : note;
    Object.defineProperty(err, 'suggestion', { value: suggestion });
  }
  return err;
}
