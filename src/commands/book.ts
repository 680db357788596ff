/**
 * `shipbook book <file>`: the whole regular flow in one command (PRODUCT.md, flow 3): create the
 * order, accept it with payment, wait for the booking result and print the tracking numbers.
 */
import { Command } from 'commander';
import { bookRegularOrder } from '../booking/book.js';
import { buildAcceptRequest, type PaymentFlags } from '../booking/payment.js';
import { prepareResultWaiter, type WaitSettings } from '../booking/result.js';
import type { Context } from '../context.js';
import { loadAndValidate } from '../input/load.js';
import { printJson } from '../output/json.js';
import { orderHeading, printPrice, printShipments } from '../output/order.js';
import { paint } from '../output/style.js';
import { createOrderRequest } from '../schema/order.js';
import { orderStatusWord } from '../schema/status.js';
import { addPaymentOptions } from './payment-options.js';
import { addWaitOptions, waitSettings, type WaitFlags } from './wait-options.js';

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

/** Runs `book`: validate, create, accept, wait; progress on stderr, results on stdout. */
export async function runBook(o: BookOptions, ctx: Context): Promise<void> {
  const { io } = ctx;
  const order = await loadAndValidate(o.file, createOrderRequest, io.stdin);
  const profile = await ctx.profile();
  // Check the payment before creating anything, so a bad payment file never leaves a pending order.
  await buildAcceptRequest('ORD-CHECK', o, profile.defaultPayment, { now: ctx.now, stdin: io.stdin });
  const api = await ctx.api();
  const waiter = await prepareResultWaiter(ctx, api, profile, o.wait);
  ctx.defer(() => waiter.close());
  const started = Date.now();

  const processed = await bookRegularOrder(
    api,
    order,
    (orderId) =>
      buildAcceptRequest(orderId, { ...o, callback: o.callback ?? waiter.callbackUrl }, profile.defaultPayment, { now: ctx.now, stdin: io.stdin }),
    (orderId) => waiter.wait(orderId),
    {
      created(created) {
        printStep(ctx, orderStatusWord(created.status), `order ${created.id} created, ${created.shipments.length} shipment(s)`);
        if (ctx.json) return;
        io.out(orderHeading(io, created));
        printPrice(io, created.price);
      },
      accepted(accepted) {
        printStep(ctx, orderStatusWord(accepted.status), `order ${accepted.id} accepted; booking runs asynchronously`);
      },
    },
  );
  printStep(ctx, orderStatusWord(processed.status), `order ${processed.id} booked in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (ctx.json) return printJson(ctx.io, { order: processed });
  printShipments(io, processed.shipments);
}

/** The `book` command. */
export function bookCommand(ctx: Context): Command {
  return addWaitOptions(
    addPaymentOptions(
      new Command('book')
        .summary('create, accept and wait for a booking in one go')
        .description(
          'Book an order file end to end: create the order, accept it with payment (the profile\'s default\n' +
            'payment unless a payment flag is given; the built-in sandbox uses credit), wait for the booking\n' +
            'result and print every shipment with its tracking number.',
        )
        .argument('<file>', 'order file (JSON or YAML, "-" for standard input)'),
    ),
  )
    .addHelpText('after', '\nExamples:\n  shipbook book fixtures/orders/domestic-syd-mel.yaml\n  shipbook book fixtures/orders/stored-card.yaml --payment stored_card --card card_visa_4242 --json\n')
    .action(async (file: string, flags: PaymentFlags & WaitFlags) => {
      await runBook({ ...flags, file, wait: waitSettings(flags) }, ctx);
    });
}
