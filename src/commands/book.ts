/**
 * `shipbook book <file>`: the whole regular flow in one command (PRODUCT.md, flow 3): create the
 * order, accept it with payment, wait for the booking result and print the tracking numbers.
 */
import { statSync } from 'node:fs';
import { Command } from 'commander';
import { DEFAULT_JOURNAL } from '../batch/journal.js';
import { batchOptions, isBatch, runBatchBook, type BatchFlags } from './book-batch.js';
import { bookDocument, type BookingDocument } from '../booking/book.js';
import { planBooking } from '../booking/plan.js';
import { DryRunHalt } from '../errors.js';
import { BookingStoppedError } from '../booking/progress.js';
import { LimitRefusedError, UsageError } from '../errors.js';
import { fillCollectionFromService } from './collection-from-service.js';
import { withChosenCard } from './stored-card.js';
import { checkMaxTotal, readOrderInput, type OrderInputFlags } from './order-input.js';
import type { PaymentFlags } from '../booking/payment.js';
import type { Context } from '../context.js';
import { loadDocument } from '../input/load.js';
import { validateKind } from '../input/validate.js';
import { showWarnings } from './input.js';
import { printParentOrder } from '../output/consolidated.js';
import { printOrder } from '../output/order.js';
import { paint } from '../output/style.js';
import { isConsolidatedDocument } from '../schema/consolidated.js';
import { prepareBooking, untilInterrupted, type BookOptions } from './book-common.js';
import { addPaymentOptions } from './payment-options.js';
import { addWaitOptions, waitSettings, type WaitFlags } from './wait-options.js';

/**
 * Runs `book`: validate (every problem, nothing sent), check the payment, then book through the
 * one entry point ({@link bookDocument}) with progress on stderr. Stdout gets only the final order:
 * a regular order's heading (`processed`), price and shipments with tracking numbers; for
 * consolidated mail (a file listing shipments and a main_shipment) the processed parent (children,
 * main shipment, tracking numbers, price with the children's sum).
 * With `--json` only `{order}`, the processed order, plus `warnings` (strings) when the service's
 * prices do not add up or the accepted id differs (also on stderr; the booking still succeeds).
 * @throws ValidationError (2), ApiError (3/4), BookingFailedError (6), WaitTimeoutError (7); after a
 *   partial booking a BookingStoppedError whose progress names what was created (main renders the hint)
 */
export async function runBook(given: Omit<BookOptions, 'file'> & OrderInputFlags & { file?: string; collectionFromService?: boolean }, ctx: Context): Promise<void> {
  const { io } = ctx;
  // --payment stored_card without --card: the stored cards offered on a terminal (issue 16).
  const o = await withChosenCard(given, ctx);
  const loaded = o.file !== undefined ? await loadDocument(o.file, io.stdin) : undefined;
  if (o.collectionFromService) {
    // Consolidated mail only: every child shipment's collection from the service data (issue 16).
    if (!loaded || !isConsolidatedDocument(loaded.data)) {
      throw new UsageError('--collection-from-service is for consolidated mail: a file with shipments and a main_shipment (an order\'s collection is the sender\'s)', {
        suggestion: 'See fixtures/consolidated/collection-from-service.yaml, or leave out --collection-from-service.',
      });
    }
    const shipments = (loaded.data as { shipments?: unknown }).shipments;
    await fillCollectionFromService(loaded, Array.isArray(shipments) ? shipments.map((_, i) => ['shipments', i]) : [], ctx);
  }
  // A file listing shipments and a main_shipment is consolidated mail; anything else is an order,
  // completed by prompts on a terminal (src/commands/order-input.ts).
  const input =
    loaded && isConsolidatedDocument(loaded.data)
      ? undefined
      : await readOrderInput(o.file, o, ctx, { command: 'shipbook book', loaded, withPayment: o.payment === undefined && o.paymentFile === undefined && o.card === undefined });
  const doc: BookingDocument = input
    ? { kind: 'regular', order: input.order, file: o.file ?? '(prompts)' }
    : { kind: 'consolidated', booking: showWarnings(ctx, validateKind(loaded!, 'consolidated', ctx)), file: o.file! };
  const prepared = await prepareBooking({ ...o, file: o.file ?? '(prompts)' }, ctx);
  const { api, waiter, progress } = prepared;
  let created: { id: string; price?: { total: { cents: number } } } | undefined;
  const accept = async (orderId: string) => {
    if (created?.id === orderId) await checkMaxTotal(ctx, created, input?.maxTotalCents);
    const request = await prepared.accept(orderId);
    return input?.payment ? { ...request, order: { ...request.order, payment: input.payment } } : request;
  };
  if (ctx.globals.dryRun) {
    // --dry-run: every step's request, with placeholders for the ids the service would assign; nothing is sent.
    ctx.planned.push(...(await planBooking(doc, { api, accept })));
    throw new DryRunHalt('dry run: nothing was sent', ctx.planned[0]);
  }
  // For the note after an interruption: the file that holds the main shipment.
  Object.assign(progress.progress, { file: o.file, withMain: doc.kind === 'consolidated' && doc.booking.main_shipment !== undefined });
  const { order, childIds, warnings } = await bookDocument(doc, {
    api,
    accept,
    waitForResult: (orderId) => untilInterrupted(waiter.wait(orderId), orderId, ctx.signal),
    now: () => ctx.now().getTime(),
    signal: ctx.signal,
    onEvent(e) {
      // Progress goes to stderr only: stdout gets one order, the final one (issue 18, item 3), so a
      // script reading the `order` line sees `processed`, for a regular order and consolidated mail alike.
      if (e.type === 'order_created') created = e.order;
      else if (e.type === 'combined') created = e.parent;
      progress.onEvent(e);
    },
  })
    // Refused by --max-total: the order is cancelled, so there is nothing to continue (no hint).
    .catch((err: unknown) => {
      throw err instanceof BookingStoppedError && err.cause instanceof LimitRefusedError ? err.cause : err;
    })
    .finally(() => {
      // Stop the spinner before main prints an error (Ctrl-C while waiting leaves no spinner on the line).
      progress.settle();
      progress.close();
    });
  // The service's numbers got a second look: what does not add up is said on stderr, with both
  // figures, and listed as `warnings` in a machine format; the booking stands (issue 15, item 5).
  for (const w of warnings) io.err(`${paint(io, 'yellow', 'warning:')} ${w}\n`);
  ctx.output.write({ order, ...(warnings.length > 0 ? { warnings } : {}) }, () => {
    if (doc.kind === 'consolidated') printParentOrder(io, order, childIds);
    else printOrder(io, order);
  });
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
        .argument('[inputs...]', 'order file (JSON or YAML, "-" for standard input); several files, directories or NDJSON make a batch; none on a terminal: asked step by step')
        .option('--service <cheapest|code>', 'for shipments without service.code: the cheapest service of a live quote, or this code')
        .option('--max-total <aud>', 'refuse the order if its exact total is above this (AUD): it is cancelled, exit 9')
        .option('--save-as <file>', 'write the order (without payment) as a file that books again without prompts')
        .option('--collection-from-service', 'consolidated mail: fill each shipment\'s collection_type and collection from the service data (refused when a shipment has a different one)'),
    ),
  )
    .option('--concurrency <n>', 'batch: orders booked at once (default 4)')
    .option('--journal <file>', `batch: the journal that makes a run resumable (default ${DEFAULT_JOURNAL})`)
    .option('--report <file>', 'batch: write a JSON report of every order')
    .option('--junit <file>', 'batch: write a JUnit XML report (one test case per order)')
    .option('--shard <i/n>', 'batch: book only this job\'s share of the inputs (a CI matrix of n jobs)')
    .option('--skip-invalid', 'batch: leave invalid orders out (reported) instead of stopping before the first request')
    .addHelpText(
      'after',
      '\nExamples:\n  shipbook book fixtures/orders/domestic-syd-mel.yaml\n  shipbook book fixtures/orders/stored-card.yaml --payment stored_card --card card_visa_4242 --json\n  shipbook book fixtures/orders/domestic-syd-mel.yaml --poll 5s --timeout 30m\n  shipbook book fixtures/orders/domestic-syd-mel.yaml --callback-url https://hooks.example.com/sb --listen 127.0.0.1:8787\n' +
        '  shipbook book                      # on a terminal: a guided booking, live prices to choose from\n  shipbook book partial.yaml --service cheapest --max-total 60 --save-as order.yaml\n' +
        '  shipbook book orders/ --concurrency 8 --report report.json --junit junit.xml\n  shipbook book orders.ndjson --shard 2/4\n  shipbook book orders.ndjson --dry-run\n  shipbook book fixtures/consolidated/collection-from-service.yaml --collection-from-service\n',
    )
    .action(async (inputs: string[], flags: PaymentFlags & WaitFlags & OrderInputFlags & BatchFlags & { collectionFromService?: boolean }) => {
      const isDirectory = (p: string) => {
        try {
          return statSync(p).isDirectory();
        } catch {
          return false;
        }
      };
      if (isBatch(inputs, flags, isDirectory)) {
        if (flags.collectionFromService) throw new UsageError('--collection-from-service takes one consolidated-mail file, not a batch');
        const wait = waitSettings({ ...flags, poll: flags.poll ?? '1s' });
        return runBatchBook(batchOptions(inputs, flags, { pollMs: wait.pollMs, timeoutMs: wait.timeoutMs }), ctx);
      }
      await runBook({ ...flags, file: inputs[0], wait: waitSettings(flags) }, ctx);
    });
}
