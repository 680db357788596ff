/**
 * What the regular (`book.ts`) and consolidated (`book-consolidated.ts`) booking commands share:
 * their options, the step lines on stderr, and the preparation done before anything is created.
 */
import type { ApiClient } from '../api/client.js';
import { buildAcceptRequest, type PaymentFlags } from '../booking/payment.js';
import { prepareResultWaiter, type ResultWaiter, type WaitSettings } from '../booking/result.js';
import type { Context } from '../context.js';
import { paint } from '../output/style.js';
import type { AcceptRequest } from '../schema/payment.js';

/** Options of `book`. */
export interface BookOptions extends PaymentFlags {
  file: string;
  wait: WaitSettings;
}

/** Prints one step of a booking on stderr: `✔ accepted  order ORD-… accepted`. */
export function printStep(ctx: Context, word: string, text: string): void {
  const { io } = ctx;
  io.err(`${paint(io, 'green', '✔')} ${paint(io, 'bold', word.padEnd(9))} ${text}\n`);
}

/** What both booking flows (regular and consolidated) need once the input is valid. */
export interface PreparedBooking {
  api: ApiClient;
  /** Prepared before acceptance, so its callback URL can go into the accept request. */
  waiter: ResultWaiter;
  /** Builds the validated accept request for an order id (payment flags, file or profile default). */
  accept(orderId: string): Promise<AcceptRequest>;
}

/**
 * Checks the payment BEFORE anything is created (so a bad payment file never leaves a pending
 * order or stray shipments), then opens the API client and the result waiter. With the user's
 * own callback URL (`--callback` or in the payment file) the waiter polls instead.
 * @throws UsageError / ValidationError (exit 2) for bad payment flags or file; ConfigError (exit 4)
 */
export async function prepareBooking(o: BookOptions, ctx: Context): Promise<PreparedBooking> {
  const { io } = ctx;
  const profile = await ctx.profile();
  const check = await buildAcceptRequest('ORD-CHECK', o, profile.defaultPayment, { now: ctx.now, stdin: io.stdin });
  const api = await ctx.api();
  const waiter = await prepareResultWaiter(ctx, api, profile, o.wait, { ownCallback: check.callback !== undefined });
  ctx.defer(() => waiter.close());
  return {
    api,
    waiter,
    accept: (orderId) =>
      buildAcceptRequest(orderId, { ...o, callback: o.callback ?? waiter.callbackUrl }, profile.defaultPayment, { now: ctx.now, stdin: io.stdin }),
  };
}
