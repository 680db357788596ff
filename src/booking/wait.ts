/**
 * Waiting for the booking result by polling fetch-order-data (assumed `GET /orders/{order_id}/`,
 * PRODUCT.md) until the order is processed, fails, or the timeout passes. Interface document,
 * "States and transitions": an accepted order (`ACC`) moves to `processed` when booking completes.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { fetchOrder, type OrderPaths } from '../api/orders.js';
import type { ApiClient } from '../api/client.js';
import { BookingFailedError, WaitTimeoutError } from '../errors.js';
import type { OrderResponse } from '../schema/order.js';
import { orderStatusWord } from '../schema/status.js';

/** How to wait: poll interval and overall timeout, in milliseconds. */
export interface PollOptions {
  intervalMs: number;
  timeoutMs: number;
  paths?: OrderPaths;
  /** Called after each poll with the order and the time waited so far (ms). */
  onPoll?: (order: OrderResponse, elapsedMs: number) => void;
  signal?: AbortSignal;
}

/** Default overall wait: 10 minutes. */
export const DEFAULT_WAIT_TIMEOUT_MS = 10 * 60_000;

/** The command that shows an order later, for messages. */
export function laterHint(orderId: string): string {
  return `Run "shipbook order get ${orderId}" later to see the result.`;
}

/**
 * Polls until the order is `processed`.
 * @throws BookingFailedError (exit 6) when the order ends failed or cancelled
 * @throws WaitTimeoutError (exit 7) when `timeoutMs` passes first: the order is accepted, the booking still running
 * @throws ApiError / NetworkError from the polls themselves
 */
export async function pollForResult(api: ApiClient, orderId: string, options: PollOptions): Promise<OrderResponse> {
  const started = Date.now();
  for (;;) {
    const order = await fetchOrder(api, orderId, options.paths);
    const elapsed = Date.now() - started;
    options.onPoll?.(order, elapsed);
    const word = orderStatusWord(order.status);
    if (word === 'processed') return order;
    if (word === 'failed' || word === 'cancelled') {
      throw new BookingFailedError(orderId, `booking of order ${orderId} ended ${word} (status ${order.status ?? '?'})`);
    }
    if (elapsed + options.intervalMs > options.timeoutMs) {
      throw new WaitTimeoutError(
        orderId,
        `gave up waiting after ${Math.round(elapsed / 1000)} s: order ${orderId} is accepted and the booking is still running`,
        { suggestion: laterHint(orderId) },
      );
    }
    await sleep(options.intervalMs, undefined, { signal: options.signal });
  }
}
