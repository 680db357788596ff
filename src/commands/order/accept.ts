/**
 * `shipbook order accept <order-id>`: pay for a pending order (interface document, "Accept order:
 * PUT /orders/{order_id}/accept/"); booking then runs asynchronously. With `--wait` it also waits
 * for the booking result, by callback or by polling (`src/booking/result/`), and prints every
 * tracking number.
 */
import { hintText } from '../../output/hints.js';
import { idArgument } from '../common/input.js';
import { Command } from 'commander';
import type { OrderResponse } from '../../schema/order.js';
import { orderStatusWord } from '../../schema/status.js';
import {
  acceptedBeforeText,
  acceptByHand,
  identityOfOrder,
  type PriceCaps,
  bookEntry,
  claimDocument,
  buildAcceptRequest,
  type PaymentFlags,
  type WaitSettings,
} from '../../booking/index.js';
import { paint } from '../../output/style.js';
import { capsOfFlags, runCaps, type CapFlags } from '../common/caps.js';
import { claimRun, openLedgerFor } from '../common/record.js';
import type { Context } from '../../context.js';
import { ShipbookError, UsageError, cmd } from '../../errors.js';
import { printOrder } from '../../output/order.js';
import { prepareBooking } from '../common/book-common.js';
import { withChosenCard } from '../common/stored-card.js';
import { addPaymentOptions } from '../common/payment-options.js';
import { addWaitOptions, hasWaitFlags, waitSettings, type WaitFlags } from '../common/wait-options.js';
import { withWarnings } from '../common/warnings.js';

/** Options of `order accept`. */
interface OrderAcceptOptions extends PaymentFlags, CapFlags {
  orderId: string;
  /** `--wait`: how to wait for the booking result; absent: print the acknowledgement and return. */
  wait?: WaitSettings;
}

/**
 * Builds the accept request (validated before sending), accepts, and either prints the
 * acknowledgement or (with `wait`) waits for the result and prints the processed order.
 * @throws ApiError (3) when the service refuses (404 unknown, 409 not pending …); with `wait`,
 *   BookingFailedError (6) and WaitTimeoutError (7) as described in `src/booking/result/state.ts`
 */
async function runOrderAccept(given: OrderAcceptOptions, ctx: Context): Promise<void> {
  // --payment stored_card without --card: the stored cards offered on a terminal.
  const o = await withChosenCard(given, ctx);
  // The price caps (flags, else the profile's): an order the user names is refused without being
  // cancelled, it stays pending.
  const caps: PriceCaps = { ...(await runCaps(o, ctx)), keepPending: true };
  if (o.wait === undefined) return runAcceptNow(o, caps, ctx);
  return runAcceptWait({ ...o, wait: o.wait }, caps, ctx);
}

/**
 * `order accept` without `--wait`: the accept sent (claimed, held to the caps, recorded) and its
 * acknowledgement printed, or the order shown as accepted before.
 * @throws as src/booking/accept.ts `acceptByHand`; ShipbookError `already_accepted` (exit 7)
 */
async function runAcceptNow(o: Omit<OrderAcceptOptions, 'wait'>, caps: PriceCaps, ctx: Context): Promise<void> {
  const { io } = ctx;
  const profile = await ctx.profile();
  const accept = await buildAcceptRequest(o.orderId, o, profile.defaultPayment, { now: ctx.now, stdin: io.stdin });
  // The claim first (a run booking this order right now is waited for), then the caps, then the recorded accept.
  const ledger = await openLedgerFor(ctx, { op: 'order accept', command: hintText([cmd('order', 'accept', o.orderId)], ctx.settings.hints) });
  const done = await acceptByHand({ api: await ctx.api(), ledger, paths: profile.paths, caps, claim: claimRun(ctx) }, o.orderId, accept);
  if (done.status === 'accepted_before') return showAcceptedBefore(ctx, done.order);
  const accepted = done.order;
  ctx.output.write(withWarnings(ctx, { order: accepted }, []), () => {
    printOrder(io, ctx.output.format, accepted);
    io.err(`Booking runs asynchronously. See the result with: ${hintText([cmd('order', 'get', accepted.id)], ctx.settings.hints)}\n`);
  });
  if (accept.callback !== undefined) await deliverBuiltinCallback(ctx, accepted.id);
}

/**
 * `order accept --wait`: accepted and waited for through the booking engine, the processed order printed.
 * @throws BookingFailedError (6), WaitTimeoutError (7) as described in `src/booking/result/state.ts`
 */
async function runAcceptWait(o: OrderAcceptOptions & { wait: WaitSettings }, caps: PriceCaps, ctx: Context): Promise<void> {
  const { io } = ctx;
  // With --wait: the booking engine, as for `book`, for an order that already exists (recorded in
  // the ledger of the target under the order's id).
  const prepared = await prepareBooking({ ...o, file: '-', wait: o.wait }, ctx);
  const { api, waiter, accept, progress } = prepared;
  let payment: string | undefined;
  const ledger = await openLedgerFor(ctx, {
    op: 'order accept',
    command: hintText([cmd('order', 'accept', o.orderId, '--wait')], ctx.settings.hints),
    payment: () => payment,
  });
  const profile = await ctx.profile();
  const id = identityOfOrder(ledger, o.orderId);
  const claimed = await claimDocument(
    ledger,
    id,
    { again: true, timeoutMs: o.wait.timeoutMs, flag: '--wait-timeout', what: `order ${o.orderId}` },
    claimRun(ctx),
  );
  if (claimed.kind !== 'go') return;
  const outcome = await bookEntry(
    { id, doc: { kind: 'pending', orderId: o.orderId } },
    { action: 'book' },
    {
      api,
      ledger,
      paths: profile.paths,
      accept: async (orderId) => {
        const request = await accept(orderId);
        payment = request.order.payment.type;
        return request;
      },
      // An order accepted before this command sent its callback elsewhere: its result is polled.
      waitForResult: async (orderId, resumed, signal) => (resumed ? await prepared.pollingWaiter() : waiter).wait(orderId, signal),
      reportAcceptedBefore: true,
      caps,
      onEvent: progress.onEvent,
      now: () => ctx.now().getTime(),
      stop: { stopping: ctx.signal },
    },
  ).finally(() => {
    // Stop the spinner before main prints an error (Ctrl-C while waiting leaves no spinner on the line).
    progress.settle();
    progress.close();
  });
  if (outcome.status !== 'booked') return;
  const { order, warnings } = outcome;
  // Accepted before this command: the progress line said so; the order is shown, marked as such.
  const already = outcome.acceptedBefore === undefined ? {} : { already: outcome.acceptedBefore, accepted_now: false };
  ctx.output.write(withWarnings(ctx, { order, ...already }, warnings, progress.warnings), () => printOrder(io, ctx.output.format, order));
}

/**
 * Says that nothing was accepted now and shows the order: exit 0 when it is processed (its result is
 * in); exit 7 (done, results pending) when it is accepted and its result not read yet.
 * @throws ShipbookError `already_accepted` (exit 7) for an order accepted and not processed
 */
function showAcceptedBefore(ctx: Context, order: OrderResponse): void {
  const word = orderStatusWord(order.status) === 'processed' ? 'processed' : 'accepted';
  ctx.io.err(`${paint(ctx.io, 'yellow', 'note:')} ${acceptedBeforeText(order)} (nothing was paid now)\n`);
  ctx.output.write({ order, already: word, accepted_now: false }, () => printOrder(ctx.io, ctx.output.format, order));
  if (word === 'accepted')
    throw new ShipbookError('already_accepted', `order ${order.id} was accepted before and its booking result is not read yet`, 'pending', {
      reported: true,
      suggestion: ['See its result later with "', cmd('order', 'get', order.id), '", or wait for it with "', cmd('order', 'accept', order.id, '--wait'), '".'],
    });
}

/** How long, beyond the processing delay, a command waits for the built-in sandbox to deliver a callback (its retries included). */
const CALLBACK_GRACE_MS = 15_000;

/**
 * `order accept --callback <url>` without `--wait` on the built-in sandbox: the sandbox runs inside
 * this command and stops with it, so the command stays until the sandbox has sent the callback
 * (bounded), and says what became of it. On any other target it returns at once.
 */
async function deliverBuiltinCallback(ctx: Context, orderId: string): Promise<void> {
  const { io } = ctx;
  const outcome = await ctx.settleBuiltinSandbox(orderId, CALLBACK_GRACE_MS, (maxMs) =>
    io.err(
      `${paint(io, 'yellow', 'note:')} the built-in sandbox runs inside this command and stops with it: waiting up to ${Math.ceil(maxMs / 1000)} s for it to send the booking callback of ${orderId} (Ctrl-C stops waiting)\n`,
    ),
  );
  if (outcome === undefined) return;
  if (outcome.state === 'delivered') {
    io.err(`callback of ${orderId} delivered (HTTP ${String(outcome.lastOutcome)})\n`);
    return;
  }
  const why =
    outcome.attempts === 0
      ? 'it was not sent before the wait ended'
      : `${outcome.attempts} attempt(s), the last answered ${String(outcome.lastOutcome ?? 'nothing')}`;
  io.err(
    `${paint(io, 'yellow', 'warning:')} the callback of ${orderId} was not delivered (${why}); the built-in sandbox stops with this command, so none will follow.\n` +
      `  The result: ${hintText([cmd('order', 'get', orderId)], ctx.settings.hints)}\n` +
      `  Next time, add --wait to order accept: shipbook then waits for the result with a receiver of its own.\n` +
      `  For a service that stays up and calls back at any time: ${hintText([cmd('sandbox')], ctx.settings.hints)} (in another terminal; set the SHIPBOOK_BASE_URL and SHIPBOOK_API_KEY it prints)\n`,
  );
}

/** The `order accept` command. */
export function orderAcceptCommand(ctx: Context): Command {
  return addWaitOptions(
    addPaymentOptions(
      new Command('accept')
        .summary('accept a pending order with payment')
        .description(
          'Accept a pending order (PUT /orders/{order_id}/accept/). The answer only acknowledges receipt; booking runs ' +
            'asynchronously. With --wait, shipbook waits for the booking result (by callback, or by polling with --poll) ' +
            'and prints every shipment with its tracking number. An order accepted or processed before is not accepted again: ' +
            'the command says nothing was accepted and shows the order (exit 0 when processed; exit 7 when accepted and not processed ' +
            'yet, unless --wait, which then waits for its result).',
        )
        .argument('<order-id>', 'id of the pending order', idArgument),
    )
      .option('--wait', 'wait for the booking result and print the tracking numbers')
      .option(
        '--max-total <aud>',
        "refuse to accept the order if its exact total is above this (AUD): it stays pending, exit 9 (default: the profile's max-total)",
      )
      .option('--budget <aud>', "refuse to accept the order if its exact total is above this (AUD), exit 9 (default: the profile's budget)"),
    ctx.io,
  )
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  shipbook order accept ORD-1A2B3C4D --payment credit\n' +
        '  shipbook order accept ORD-1A2B3C4D --payment credit --wait\n' +
        '  shipbook order accept ORD-1A2B3C4D --payment credit --wait --poll 5s\n' +
        '  shipbook order accept ORD-1A2B3C4D --payment credit --wait --public-url https://hooks.example.com/sb --listen 127.0.0.1:8787\n' +
        '  shipbook order accept ORD-1A2B3C4D --payment stored_card --card card_visa_4242\n' +
        '  shipbook order accept ORD-1A2B3C4D --payment credit_card --payment-file fixtures/payments/credit-card.yaml\n',
    )
    .action(async (orderId: string, flags: PaymentFlags & WaitFlags & CapFlags & { wait?: boolean }) => {
      capsOfFlags(flags);
      if (!flags.wait && hasWaitFlags(flags)) {
        throw new UsageError('--poll, --public-url, --listen and --wait-timeout go with --wait', {
          suggestion: [cmd('order', 'accept', orderId), ' --wait …'],
        });
      }
      const { wait, ...rest } = flags;
      await runOrderAccept({ ...rest, orderId, ...(wait ? { wait: waitSettings(flags) } : {}) }, ctx);
    });
}
