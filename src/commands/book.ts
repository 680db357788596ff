/**
 * `shipbook book <file>`: the whole regular flow in one command (PRODUCT.md, flow 3): create the
 * order, accept it with payment, wait for the booking result and print the tracking numbers.
 */
import { Command } from 'commander';
import { bookRegularOrder } from '../booking/book.js';
import type { PaymentFlags } from '../booking/payment.js';
import type { Context } from '../context.js';
import { loadDocument } from '../input/load.js';
import { validateKind } from '../input/validate.js';
import { printJson } from '../output/json.js';
import { orderHeading, printPrice, printShipments } from '../output/order.js';
import { isConsolidatedDocument } from '../schema/consolidated.js';
import { orderStatusWord } from '../schema/status.js';
import { runBookConsolidated } from './book-consolidated.js';
import { prepareBooking, printStep, type BookOptions } from './book-common.js';
import { addPaymentOptions } from './payment-options.js';
import { addWaitOptions, waitSettings, type WaitFlags } from './wait-options.js';

/** Runs `book`: validate, create, accept, wait; progress on stderr, results on stdout. */
export async function runBook(o: BookOptions, ctx: Context): Promise<void> {
  const { io } = ctx;
  const doc = await loadDocument(o.file, io.stdin);
  // A file listing shipments and a main_shipment is consolidated mail (commands/book-consolidated.ts).
  if (isConsolidatedDocument(doc.data)) return runBookConsolidated(o, ctx, doc);
  const order = validateKind(doc, 'order', ctx);
  const { api, waiter, accept } = await prepareBooking(o, ctx);
  const started = Date.now();

  const processed = await bookRegularOrder(
    api,
    order,
    accept,
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
          'Book an order file end to end: create the order, accept it with payment (the profile\'s default ' +
            'payment unless a payment flag is given; the built-in sandbox uses credit), wait for the booking ' +
            'result and print every shipment with its tracking number. A consolidated-mail file (shipments and ' +
            'a main_shipment) is booked as create shipment × N, combine, accept the parent, wait.',
        )
        .argument('<file>', 'order file (JSON or YAML, "-" for standard input)'),
    ),
  )
    .addHelpText('after', '\nExamples:\n  shipbook book fixtures/orders/domestic-syd-mel.yaml\n  shipbook book fixtures/orders/stored-card.yaml --payment stored_card --card card_visa_4242 --json\n  shipbook book fixtures/orders/domestic-syd-mel.yaml --poll 5s --timeout 30m\n  shipbook book fixtures/orders/domestic-syd-mel.yaml --callback-url https://hooks.example.com/sb --listen 127.0.0.1:8787\n')
    .action(async (file: string, flags: PaymentFlags & WaitFlags) => {
      await runBook({ ...flags, file, wait: waitSettings(flags) }, ctx);
    });
}
