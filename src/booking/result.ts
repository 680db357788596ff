/**
 * How a command learns the booking result after acceptance (interface document, "What the
 * service does", step 4): by a callback POSTed to a URL given at acceptance, or by polling
 * fetch-order-data. A {@link ResultWaiter} is prepared BEFORE acceptance (so its callback URL,
 * if any, can be sent in the accept request) and then waits for one order.
 */
import type { ApiClient } from '../api/client.js';
import type { ResolvedProfile } from '../config/profile.js';
import type { Context } from '../context.js';
import type { OrderResponse } from '../schema/order.js';
import { pollForResult } from './wait.js';

/** How to wait, from the command's flags. Durations in milliseconds. */
export interface WaitSettings {
  /** Poll fetch-order-data every `pollMs` (the only route for now). */
  pollMs: number;
  /** Give up after this long (exit 7, the order stays accepted). */
  timeoutMs: number;
}

/** A prepared way of waiting for one accepted order's result. */
export interface ResultWaiter {
  /** The URL to send as `request.callback` in the accept request, when waiting by callback. */
  callbackUrl?: string;
  /** Waits for the order to be processed. @throws BookingFailedError (6), WaitTimeoutError (7) */
  wait(orderId: string): Promise<OrderResponse>;
  /** Releases what the waiter holds (a receiver, timers). Safe to call twice. */
  close(): Promise<void>;
}

/** Prepares the waiter the settings ask for. */
export async function prepareResultWaiter(
  ctx: Context,
  api: ApiClient,
  profile: ResolvedProfile,
  settings: WaitSettings,
): Promise<ResultWaiter> {
  return {
    wait(orderId) {
      ctx.io.err(`… waiting for the booking result (polling every ${settings.pollMs / 1000} s, up to ${Math.round(settings.timeoutMs / 1000)} s)\n`);
      return pollForResult(api, orderId, { intervalMs: settings.pollMs, timeoutMs: settings.timeoutMs, paths: profile.paths });
    },
    async close() {},
  };
}
