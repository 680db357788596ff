/**
 * What the booking commands (`book`, `order accept --wait`) share: their options and the
 * preparation done before anything is created (payment check, client, result waiter, progress lines).
 */
import { Readable } from 'node:stream';
import type { ApiClient } from '../../api/client.js';
import { buildAcceptRequest, NEW_ORDER, type PaymentFlags, prepareResultWaiter, type ResultWaiter, type WaitSettings } from '../../booking/index.js';
import type { Context } from '../../context.js';
import { progressPrinter, type ProgressPrinter } from '../../output/progress.js';
import type { AcceptRequest } from '../../schema/payment.js';
import { readAll } from '../../stream.js';

/** Options of `book`. */
export interface BookOptions extends PaymentFlags {
  file: string;
  wait: WaitSettings;
}

/** What both booking flows (regular and consolidated) need once the input is valid. */
interface PreparedBooking {
  api: ApiClient;
  /** Prepared before acceptance, so its callback URL can go into the accept request. */
  waiter: ResultWaiter;
  /** Builds the validated accept request for an order id (payment flags, file or profile default). */
  accept(orderId: string): Promise<AcceptRequest>;
  /** Draws the booking's events on stderr (step lines, the wait's spinner, warnings). */
  progress: ProgressPrinter;
  /**
   * A waiter that polls fetch-order-data (at `--poll`, else every 2 s): for an order accepted by an
   * earlier run, whose callback went to that run's receiver.
   */
  pollingWaiter(): Promise<ResultWaiter>;
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
  // The payment is read twice (checked now, built once the order id is known): standard input only once.
  const stdin = o.paymentFile === '-' ? replayable(await readAll(io.stdin)) : () => io.stdin;
  const check = await buildAcceptRequest(NEW_ORDER, o, profile.defaultPayment, { now: ctx.now, stdin: stdin() });
  const api = await ctx.api();
  const progress = progressPrinter(io, ctx.settings.hints);
  const waiterDeps = {
    api,
    paths: profile.paths,
    onEvent: progress.onEvent,
    now: () => ctx.now().getTime(),
    sleep: ctx.sleep,
    debugLog: (line: string) => ctx.debugLog(line),
    hints: ctx.settings.hints,
  };
  const waiter = await prepareResultWaiter(waiterDeps, o.wait, { ownCallback: check.callback !== undefined });
  ctx.defer(async () => {
    await waiter.close();
    if (ctx.signal.aborted) progress.interrupted();
    progress.close();
  });
  return {
    api,
    waiter,
    progress,
    async pollingWaiter() {
      const polling = await prepareResultWaiter(waiterDeps, { ...o.wait, route: 'poll' });
      ctx.defer(() => polling.close());
      return polling;
    },
    accept: (orderId) =>
      buildAcceptRequest(orderId, { ...o, callback: o.callback ?? waiter.callbackUrl }, profile.defaultPayment, { now: ctx.now, stdin: stdin() }),
  };
}

/** A fresh stream of `bytes` on every call. */
function replayable(bytes: Buffer): () => Readable {
  return () => Readable.from(bytes.length === 0 ? [] : [bytes]);
}
