/**
 * Sandbox-only test hooks over HTTP, for people running `shipbook sandbox` who want to see the
 * failure paths (they are not part of the booking service). Tests that start the sandbox in their
 * own process call the state directly (`sandbox.state.failNextBooking(…)`) instead.
 *
 * `PUT /_sandbox/orders/{order_id}/fail-next-booking/` (credentials as for the other operations,
 * body optional: `{"request": {"message": "…"}}`): the next booking completion of that order
 * fails — the order ends `failed` and the callback, if any, is the error envelope
 * `{code: 500, message, result: {order: {id, status: "failed", …}}}`. 404 unknown order, 409
 * when the order is no longer pending or accepted.
 *
 * `GET /_sandbox/orders/` (credentials as for the other operations): every stored order, newest
 * first, as `{orders: [{id, status, created_at, accepted_at, shipments: [{id, transient_id, status,
 * tracking_number}]}]}`, so tests and demos can see what a run really created (one order per input
 * by `transient_id`, nothing after a dry run). Statuses are the wire ones; times ISO 8601 (or null).
 */
import { conflict, type Route } from '../http.js';

/** The sandbox's test-hook routes (prefix `/_sandbox/`). */
export const testHookRoutes: Route[] = [
  {
    method: 'GET',
    pattern: '/_sandbox/orders/',
    auth: true,
    handler: (_req, ctx) => ({
      result: {
        orders: ctx.state.allOrders().map((o) => ({
          id: o.id,
          status: o.status,
          created_at: new Date(o.createdAt).toISOString(),
          accepted_at: o.acceptedAt === undefined ? null : new Date(o.acceptedAt).toISOString(),
          shipments: ctx.state.shipmentsOf(o).map((s) => ({
            id: s.id,
            transient_id: s.request.transient_id ?? null,
            status: s.status,
            tracking_number: s.trackingNumber ?? 'N/A',
          })),
        })),
      },
    }),
  },
  {
    method: 'PUT',
    pattern: '/_sandbox/orders/:order_id/fail-next-booking/',
    auth: true,
    body: 'optional',
    handler: (req, ctx) => {
      const order = ctx.state.getOrder(req.params.order_id!);
      if (order.status !== 'new' && order.status !== 'ACC') {
        throw conflict(`order ${order.id} is ${order.status}: only a pending or accepted order has a booking still to come`);
      }
      const given = (req.body as { message?: unknown } | undefined)?.message;
      const message = typeof given === 'string' && given.trim() !== '' ? given.slice(0, 500) : undefined;
      ctx.state.failNextBooking(order.id, message);
      return { result: { order: { id: order.id, status: order.status }, fail_next_booking: true } };
    },
  },
];
