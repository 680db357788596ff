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
 */
import { conflict, type Route } from '../http.js';

/** The sandbox's test-hook routes (prefix `/_sandbox/`). */
export const testHookRoutes: Route[] = [
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
