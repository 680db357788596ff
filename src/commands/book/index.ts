/**
 * `shipbook book [file…]`: the whole flow in one command (docs/book.md): create the order, accept
 * it with payment, wait for the booking result and print the tracking numbers. One file (or the
 * prompts) is booked here, recorded in the target's ledger; several inputs, a directory, NDJSON,
 * a spreadsheet or a batch flag make a batch (`./batch.ts`, {@link isBatch}).
 */
import { addPickupOptions } from '../common/pickup-options.js';
import {
  type PickupFlags,
  bookOne,
  resumeFrom,
  type Resume,
  recordFailed,
  plannedAction,
  type BookingDocument,
  planBooking,
  BookingStoppedError,
  type PaymentFlags,
  type PriceCaps,
  earlierBooking,
} from '../../booking/index.js';
import { statSync } from 'node:fs';
import { Command, Option } from 'commander';
import { identityOf, type DocumentIdentity, DEFAULT_JOURNAL_PATTERN } from '../../ledger/index.js';
import type { RunClaim, LedgerStore } from '../../ledger/index.js';
import { claimRun, openLedgerFor } from '../common/record.js';
import { targetLabel } from '../../config/target.js';
import { plannedWords } from '../../output/ledger.js';
import { batchOptions, isBatch, runBatchBook, type BatchFlags } from './batch.js';
import { annotateInputs } from './annotate.js';
import { runPreview } from './preview.js';
import { ANNOTATION_FORMATS, type AnnotationFormat } from '../../output/annotations.js';
import { DryRunHalt, exitCodeOf, UsageError, ApiError, ShipbookError, cmd, placeholder } from '../../errors.js';
import { BookedElsewhereError } from '../../ledger/index.js';
import { fillCollectionFromService } from '../common/collection-from-service.js';
import { withChosenCard } from '../common/stored-card.js';
import type { OrderInputFlags } from '../common/order-input.js';
import { capsOfFlags, runCaps, type CapFlags } from '../common/caps.js';
import type { Context } from '../../context.js';
import { loadDocument } from '../../input/load.js';
import { parseInput } from '../../input/parse.js';
import { readInput } from '../../input/read.js';
import { isDocumentList } from '../../input/documents.js';
import { validateKind } from '../../input/validate.js';
import { promptIO, showWarnings } from '../common/input.js';
import { printParentOrder } from '../../output/consolidated.js';
import { printOrder } from '../../output/order.js';
import { paint } from '../../output/style.js';
import { earlierAbout, earlierNote, earlierRefusal } from '../../output/earlier.js';
import { hintText } from '../../output/hints.js';
import { isConsolidatedDocument } from '../../schema/consolidated.js';
import { prepareBooking, type BookOptions } from '../common/book-common.js';
import { addPaymentOptions } from '../common/payment-options.js';
import { addWaitOptions, batchWait, waitSettings, type WaitFlags } from '../common/wait-options.js';
import { withWarnings } from '../common/warnings.js';
import { cancelOrder, fetchOrder, type OrderPaths } from '../../api/orders.js';
import { registerSecret } from '../../api/redact.js';
import { askNewCard } from '../../prompts/payment.js';
import { paymentRequest, type AcceptRequest, type PaymentRequest } from '../../schema/payment.js';
import type { ApiClient } from '../../api/client.js';
import type { OrderResponse } from '../../schema/order.js';
import type { HintStyle } from '../../shell.js';
import { ruleDocument, type RulesFlags } from '../rules/apply.js';
import { csvBatchInput, csvSettings } from '../common/csv-book-flags.js';

/** Stops the progress display: its spinner settled, its line closed. */
function endProgress(progress: { settle(): void; close(): void }): void {
  progress.settle();
  progress.close();
}

/**
 * Rethrows a booking's error, naming in its progress the identity of consolidated mail chosen by
 * the rules: shipments it left uncombined are settled through the ledger, as the hint then says,
 * since their main shipment (or free pickup) comes from the profile, not from the file.
 */
function throwAsMail(identity: string): (err: unknown) => never {
  return (err) => {
    if (err instanceof BookingStoppedError) err.progress.mailIdentity = identity;
    throw err;
  };
}

/** What `book` reads of one input (the file, or the prompts): the booking document and what identifies it in the ledger. */
interface BookInput {
  /** What the service-selection rules chose, when the run has rules. */
  ruled: Awaited<ReturnType<typeof ruleDocument>>;
  /** The order read with the prompts' answers (undefined for consolidated mail). */
  input: Awaited<ReturnType<(typeof import('../common/order-input.js'))['readOrderInput']>> | undefined;
  /** The file the booking is recorded under (a guided booking saved as a file: that file). */
  recordedFile: string;
  /** The data whose identity the ledger keys the booking by. */
  identityData: unknown;
  doc: BookingDocument;
}

/**
 * Reads the input of `book` into its booking document: the file (or the bytes already read), the
 * collection of each shipment from the service data with `--collection-from-service`, the services
 * chosen by the rules, and for anything but consolidated mail the order completed by prompts on a
 * terminal (src/commands/common/order-input.ts).
 * @throws UsageError (exit 2) for --collection-from-service without consolidated mail; ValidationError (exit 2)
 */
async function readBookInput(
  o: OrderInputFlags & PaymentFlags & { file?: string; bytes?: Buffer; collectionFromService?: boolean; paymentFile?: string; card?: string } & RulesFlags,
  caps: PriceCaps,
  ctx: Context,
): Promise<BookInput> {
  const { io } = ctx;
  const loaded = o.file === undefined ? undefined : o.bytes !== undefined ? parseInput(o.file, o.bytes) : await loadDocument(o.file, io.stdin);
  if (o.collectionFromService) {
    // Consolidated mail only: every child shipment's collection from the service data.
    if (!loaded || !isConsolidatedDocument(loaded.data)) {
      throw new UsageError(
        "--collection-from-service is for consolidated mail: a file with shipments and a main_shipment (an order's collection is the sender's)",
        {
          suggestion: 'See fixtures/consolidated/collection-from-service.yaml, or leave out --collection-from-service.',
        },
      );
    }
    const shipments = (loaded.data as { shipments?: unknown }).shipments;
    await fillCollectionFromService(loaded, Array.isArray(shipments) ? shipments.map((_, i) => ['shipments', i]) : [], ctx);
  }
  // Service-selection rules: each shipment's service chosen and said; a rule's max_total caps the order.
  const ruled = await ruleDocument(loaded, o, ctx, caps, { mail: true });
  // A file listing shipments and a main_shipment is consolidated mail (or an order the rules send
  // by consolidated mail); anything else is an order, completed by prompts on a terminal (src/commands/common/order-input.ts).
  const source = ruled?.mail !== undefined ? ruled.loaded : loaded;
  const input =
    source && isConsolidatedDocument(source.data)
      ? undefined
      : await (
          await import('../common/order-input.js')
        ).readOrderInput(o.file, o, ctx, {
          command: 'shipbook book',
          loaded: ruled?.loaded ?? loaded,
          withPayment: o.payment === undefined && o.paymentFile === undefined && o.card === undefined,
        });
  // A guided booking saved as a file is recorded under that file's name and identity.
  const recordedFile = input?.savedAs ?? o.file ?? '(prompts)';
  const identityData = input?.document ?? loaded?.data ?? { order: input?.order };
  const doc: BookingDocument = input
    ? { kind: 'regular', order: input.order, file: recordedFile, ...((ruled?.choice ?? input.choice) ? { choice: (ruled?.choice ?? input.choice)! } : {}) }
    : {
        kind: 'consolidated',
        booking: showWarnings(ctx, validateKind(source!, 'consolidated', ctx)),
        file: o.file!,
        ...(ruled?.choice ? { choice: ruled.choice } : {}),
      };
  return { ruled, input, recordedFile, identityData, doc };
}

/**
 * `book --dry-run`: every step's request, with placeholders for the ids the service would assign;
 * nothing is sent. What the ledger says decides what a real run would do with this document.
 * @throws DryRunHalt always (main prints the plan)
 */
async function dryRunBook(
  doc: BookingDocument,
  identityData: unknown,
  maxTotalCents: number | undefined,
  d: Parameters<typeof planBooking>[1],
  ctx: Context,
): Promise<never> {
  const { io } = ctx;
  const { api, accept } = d;
  // --dry-run: every step's request, with placeholders for the ids the service would assign; nothing is sent.
  ctx.planned.push(...(await planBooking(doc, { api, accept })));
  // What the ledger says decides what a real run would do with this document (the engine's table).
  const get = await ctx.ledger('peek');
  const known = get(identityOf({ get }, identityData).id);
  const plan = plannedAction(resumeFrom(known, { maxTotalCents }));
  if (plan.action !== 'book') io.err(`${paint(io, 'cyan', 'dry run:')} the ledger says a real run would not send these: ${plannedWords(plan)}\n`);
  throw new DryRunHalt('dry run: nothing was sent', ctx.planned[0]);
}

/** The accept request with the payment answered at the prompts, when there is one. */
function withPromptPayment(request: AcceptRequest, payment: PaymentRequest | undefined): AcceptRequest {
  return payment ? { ...request, order: { ...request.order, payment } } : request;
}

/**
 * Prints the booked order on stdout: a regular order, or the processed parent of consolidated mail
 * with its children (this run's, else those the ledger recorded). The service's numbers got a second look: what does not add up is said on
 * stderr, with both figures, and listed as `warnings` in a machine format, with what the wait warned
 * about (printed already); the booking stands.
 */
function printBooked(
  ctx: Context,
  doc: BookingDocument,
  booked: { order: OrderResponse; warnings: readonly string[]; childIds: readonly string[] },
  recordedChildren: readonly string[] | undefined,
  o: { choices: unknown[] | undefined; waitWarnings: readonly string[] },
): void {
  const { io } = ctx;
  const { order } = booked;
  // A consolidated booking continued from the ledger knows its children from there.
  const children = booked.childIds.length > 0 ? booked.childIds : (recordedChildren ?? []);
  ctx.output.write(withWarnings(ctx, { order, ...(o.choices ? { service_choice: o.choices } : {}) }, booked.warnings, o.waitWarnings), () => {
    if (doc.kind === 'consolidated') printParentOrder(io, ctx.output.format, order, children);
    else printOrder(io, ctx.output.format, order);
  });
}

/**
 * Runs `book`: validate (every problem, nothing sent), check the payment, then book through the
 * booking engine (src/booking/engine.ts `bookEntry`, resuming from what the ledger recorded) with
 * progress on stderr. Stdout gets only the final order:
 * a regular order's heading (`processed`), price and shipments with tracking numbers; for
 * consolidated mail (a file listing shipments and a main_shipment) the processed parent (children,
 * main shipment, tracking numbers, price with the children's sum).
 * In a machine format only `{order}`, the processed order, plus `warnings` (strings) when the
 * service's prices do not add up (also on stderr; the booking still succeeds).
 * @throws ValidationError (2), ApiError (3/4), BookingFailedError (6), WaitTimeoutError (7); after a
 *   partial booking a BookingStoppedError whose progress names what was created (main renders the hint)
 */
async function runBook(
  given: Omit<BookOptions, 'file'> &
    OrderInputFlags &
    CapFlags &
    RulesFlags & { file?: string; bytes?: Buffer; again?: boolean; collectionFromService?: boolean },
  ctx: Context,
): Promise<void> {
  // The price caps first (flags, else the profile's settings): a bad one sends nothing.
  const caps = await runCaps(given, ctx);
  // --payment stored_card without --card: the stored cards offered on a terminal.
  const o = await withChosenCard(given, ctx);
  const { ruled, input, recordedFile, identityData, doc } = await readBookInput(o, caps, ctx);
  const prepared = await prepareBooking({ ...o, file: o.file ?? '(prompts)' }, ctx);
  const { api, waiter, progress } = prepared;
  let payment: string | undefined;
  // A payment answered at the prompts replaces the profile's; the type sent is recorded.
  const accept = async (orderId: string) => {
    const sent = withPromptPayment(await prepared.accept(orderId), input?.payment);
    payment = sent.order.payment.type;
    return sent;
  };
  if (ctx.globals.dryRun) return dryRunBook(doc, identityData, caps.maxTotalCents, { api, accept }, ctx);
  // The ledger of the target: a document booked before (by a single book, a batch or a shard) is
  // not booked again without a word.
  const ledger = await openLedgerFor(ctx, {
    op: 'book',
    command: hintText([cmd('book', ...(o.file === undefined ? [] : [o.file]))], ctx.settings.hints),
    payment: () => payment,
  });
  const identity = identityOf(ledger, identityData, { again: o.again === true });
  const profile = await ctx.profile();
  // For the note after an interruption: the file that holds the main shipment.
  Object.assign(progress.progress, { file: o.file, withMain: doc.kind === 'consolidated' && doc.booking.main_shipment !== undefined });
  // The claim first (another run booking it right now is waited for, its outcome decides), what an
  // earlier booking means, then the engine; the first Ctrl-C or SIGTERM is the run's stopping (the
  // engine lets a request already sent finish); a second one exits the process at once (src/main.ts).
  const outcome = await bookOne(
    { id: identity.id, file: recordedFile, doc },
    {
      api,
      ledger,
      paths: profile.paths,
      accept,
      caps,
      // An order an earlier run accepted sent its callback to that run's receiver: wait by polling.
      waitForResult: async (orderId, resumed, signal) => (resumed ? await prepared.pollingWaiter() : waiter).wait(orderId, signal),
      now: () => ctx.now().getTime(),
      stop: { stopping: ctx.signal },
      onEvent: (e) => progress.onEvent(e),
    },
    {
      ledger,
      claim: claimRun(ctx),
      maxTotalCents: caps.maxTotalCents,
      again: o.again === true,
      timeoutMs: o.wait.timeoutMs,
      flag: '--wait-timeout',
      // Booked under another key of this service: the hint books this very file anyway.
      bookedElsewhere: (err) => new BookedElsewhereError(err.identity, err.booked, againCommand(o.file, ctx.settings.hints)),
      settle: (r, byOther) =>
        settleEarlier(ledger, identity, r, doc, { file: o.file, maxTotalCents: caps.maxTotalCents, paths: profile.paths, byOther }, api, ctx),
      // A card declined in a guided booking: another card, the credit account or cancel, in this run.
      retry: async (err) => input?.payment !== undefined && (await afterDecline(err, input, ledger, identity.id, ctx)) !== undefined,
    },
  )
    .catch(ruled?.mail !== undefined ? throwAsMail(identity.id) : undefined)
    // Stop the spinner before main prints an error (Ctrl-C while waiting leaves no spinner on the line).
    .finally(() => endProgress(progress));
  if (outcome === undefined || outcome.status !== 'booked') return;
  // A consolidated booking continued from the ledger knows its children from there.
  printBooked(ctx, doc, outcome, ledger.get(identity.id)?.shipmentIds, { choices: ruled?.records, waitWarnings: progress.warnings });
  // A guided booking of an order that leaves Australia: its customs papers offered.
  if (input !== undefined && o.file === undefined) await (await import('../documents/booking.js')).offerPapers(ctx, ledger, outcome.order.id);
}

/**
 * After a card was declined at acceptance in a guided booking (the payment was asked at the
 * prompt), asks what to do with the order that was created and not paid, as a checkout does: try
 * another card, pay by the credit account (both accept the same order again, never create
 * another), or cancel the order (cancelled at the service and recorded in the ledger, so the next
 * book of the same answers books anew).
 * @returns how to go on (accept the order again), or undefined when `err` is not a decline or there is no terminal
 * @throws ShipbookError `cancelled` (exit 3) when the person cancels the order
 */
async function afterDecline(err: unknown, input: { payment?: PaymentRequest }, ledger: LedgerStore, id: string, ctx: Context): Promise<Resume | undefined> {
  const { io } = ctx;
  const detail = err instanceof BookingStoppedError ? err.cause : err;
  if (!io.canPrompt || !(detail instanceof ApiError) || detail.status !== 402) return undefined;
  // The order the ledger knows as created and not accepted (the decline was recorded before this).
  const state = ledger.get(id);
  const orderId = state?.orderId;
  if (orderId === undefined || resumeFrom(state).action !== 'accept') return undefined;
  io.err(`${paint(io, 'yellow', 'declined:')} ${detail.message}. Order ${orderId} is created and not accepted: nothing was paid.\n`);
  const prompts = promptIO(ctx);
  const choice = await ctx.prompter().select<'card' | 'credit' | 'cancel'>({
    message: 'The card was declined. What now?',
    choices: [
      { name: 'try another card', value: 'card' },
      { name: 'the credit account (ship now, pay later)', value: 'credit' },
      { name: `cancel the order (${orderId})`, value: 'cancel' },
    ],
    default: 'card',
  });
  if (choice === 'cancel') {
    const profile = await ctx.profile();
    await cancelOrder(await ctx.api(), orderId, profile.paths);
    recordFailed(
      ledger,
      { id },
      {
        created: true,
        error: { code: 'cancelled', message: `order ${orderId} was cancelled after its card was declined`, exit_code: exitCodeOf('api') },
      },
    );
    await ledger.written();
    throw new ShipbookError('cancelled', `not booked: the card was declined and order ${orderId} was cancelled; nothing was paid`, 'api', {
      suggestion: 'Book the same order again when you have a card that is accepted, or pay by the credit account.',
    });
  }
  const typed = choice === 'credit' ? { type: 'credit' as const } : await askNewCard(prompts);
  const card = (typed as { credit_card?: unknown }).credit_card;
  if (card !== null && typeof card === 'object') {
    registerSecret((card as { number?: string }).number);
    registerSecret((card as { cvv?: string }).cvv);
  }
  input.payment = paymentRequest(() => ctx.now()).parse(typed);
  return resumeFrom(ledger.get(id));
}

/** What `--again` pastes as: the same command for the same file (or the prompts) with `--again`. */
function againCommand(file: string | undefined, hints: HintStyle): string {
  return hintText([cmd('book', ...(file === undefined ? [] : [file]), '--again')], hints);
}

/**
 * Acts on what the ledger's record of the same document means for this run (the decision of
 * `earlierBooking`, src/booking/earlier.ts; its words in src/output/earlier.ts): book it, continue
 * that order, ask on a terminal (book again?), print the order booked before as the result (exit 0,
 * `already_booked` in a machine format), or end with the refusal's error.
 * @returns what this run does, or undefined when nothing is to be booked
 * @throws ShipbookError `booking_unknown` (exit 5) for an unresolved create; `previous_booking_failed`
 *   (the recorded exit code, 6 by default); LimitRefusedError (exit 9) when the limit still refuses it
 */
async function settleEarlier(
  ledger: LedgerStore,
  identity: DocumentIdentity,
  r: Resume,
  doc: BookingDocument,
  o: { file: string | undefined; maxTotalCents: number | undefined; paths: OrderPaths; byOther: RunClaim | undefined },
  api: ApiClient,
  ctx: Context,
): Promise<Resume | undefined> {
  const { io } = ctx;
  const hints = ctx.settings.hints;
  const e = earlierBooking(r, { command: 'book', file: o.file, byOther: o.byOther, maxTotalCents: o.maxTotalCents, canAsk: io.canPrompt });
  if (e.action === 'book') return r;
  if (e.action === 'resume') {
    io.err(earlierNote(io, e, hints) ?? '');
    return r;
  }
  if (e.ask) {
    io.err(`${paint(io, 'yellow', 'note:')} ${earlierAbout(e)}\n`);
    const yes = await ctx.prompter().confirm({ message: 'Book it again? (a second order, paid again)', default: false });
    if (yes) {
      identity.again();
      return { action: 'book' };
    }
  }
  const refusal = earlierRefusal(e, { identity: identity.id, label: targetLabel(ledger.target), location: ledger.location }, hints);
  if (refusal !== undefined) throw refusal;
  // Processed: the result of this run is that order, read again from the service (its status now).
  const orderId = e.orderId ?? '';
  let order: OrderResponse | undefined;
  try {
    order = await fetchOrder(api, orderId, o.paths);
  } catch (err) {
    ctx.debugLog(`fetch-order-data for ${orderId} failed: ${err instanceof Error ? err.message : String(err)}`);
  }
  io.err(earlierNote(io, e, hints) ?? '');
  const shown: OrderResponse = order ?? { id: orderId, status: 'processed', shipments: [] };
  const already = { identity: identity.id, ledger: ledger.location, tracking_numbers: [...e.trackingNumbers] };
  ctx.output.write({ order: shown, already_booked: already }, () => {
    if (doc.kind === 'consolidated') printParentOrder(io, ctx.output.format, shown, [...e.shipmentIds]);
    else printOrder(io, ctx.output.format, shown);
  });
  return undefined;
}

/** The `book` command. */
export function bookCommand(ctx: Context): Command {
  return addPickupOptions(
    addWaitOptions(
      addPaymentOptions(
        new Command('book')
          .summary('create, accept and wait for a booking in one go')
          .description(
            "Book an order file end to end: create the order, accept it with payment (the profile's default " +
              'payment unless a payment flag is given; the built-in sandbox uses credit), wait for the booking ' +
              'result and print every shipment with its tracking number. A consolidated-mail file (shipments and ' +
              'a main_shipment) is booked as create shipment × N, combine, accept the parent, wait.',
          )
          .argument(
            '[inputs...]',
            'order file (JSON or YAML, "-" for standard input); several files, a directory or a file of several orders (---, a JSON array, NDJSON) make a batch; none on a terminal: asked step by step',
          )
          .option('--service <cheapest|code>', 'for shipments without service.code: the cheapest service of a live quote, or this code')
          .option(
            '--rules <file>',
            "service-selection rules: choose each order's service and check the codes orders name (default: the profile's rules, SHIPBOOK_RULES)",
          )
          .option(
            '--max-total <aud>',
            "refuse any order whose exact total is above this (AUD; every order of a batch): it is cancelled before acceptance, exit 9 (default: the profile's max-total)",
          )
          .option(
            '--budget <aud>',
            "the most this run may spend (AUD): no accept leaves that would pass it; the orders left are cancelled and reported, exit 9 (default: the profile's budget)",
          )
          .option('--save-as <file>', 'write the order (without payment) as a file, recorded as this booking: booking the file again needs --again')
          .option(
            '--again',
            'book a document that was booked before once more (a second order, paid again); without it a second book of the same document books nothing',
          )
          .option(
            '--collection-from-service',
            "consolidated mail: fill each shipment's collection_type and collection from the service data (refused when a shipment has a different one)",
          ),
      ),
      ctx.io,
    ),
  )
    .option(
      '--preview',
      'the cost preview: quote every order (services chosen by the rules, else its own, else the cheapest), print each price, the totals per carrier and what booking would spend (orders over a cap left out), and create nothing',
    )
    .option('--markdown', 'with --preview: a markdown report (for a CI job summary)')
    .option('--concurrency <n>', 'batch: orders being created and accepted at once (default 4); an order waiting for its booking result takes no place')
    .option('--journal <file>', `batch: a copy of what the run records, kept between CI attempts (default ${DEFAULT_JOURNAL_PATTERN}, one per target)`)
    .option(
      '--report <file>',
      'batch: write a JSON report of every order (a .csv name: the CSV input rows with status, order_id, shipment_id, tracking_number, total_aud, error and warnings beside each)',
    )
    .option('--junit <file>', 'batch: write a JUnit XML report (one test case per order)')
    .option('--shard <i/n>', "batch: book only this job's share of the inputs (a CI matrix of n jobs)")
    .option('--skip-invalid', 'batch: leave invalid orders out (reported) instead of stopping before the first request')
    .option('--documents <dir>', 'batch: write the customs papers (invoice, packing slip) of each international order into this directory once it is processed')
    .option('--documents-again', 'with --documents: make the papers again of orders whose papers were made before')
    .option('--map <mapping.yaml>', "CSV: map your own headers (a shop export) onto shipbook's columns, with constants and joins")
    .option('--input-format <csv|tsv>', 'read the inputs as CSV or TSV whatever their names (standard input "-" is read as CSV only with it)')
    .option('--delimiter <,|;|tab>', 'CSV: the cell delimiter (default: told from the header row)')
    .option('--decimal-comma', 'CSV delimited by ";": numbers are written with a decimal comma (2,5)')
    .addOption(
      new Option(
        '--format <github|gitlab>',
        'with --dry-run: every problem of the inputs as a CI annotation on stdout (as shipbook validate --format)',
      ).choices(ANNOTATION_FORMATS),
    )
    .option('--quote', 'with --dry-run: the same as --preview (the same output)')
    .option('--summary <file>', 'with --preview: also append the preview as Markdown to this file (e.g. "$GITHUB_STEP_SUMMARY")')
    .addHelpText(
      'after',
      '\nExamples:\n  shipbook book fixtures/orders/domestic-syd-mel.yaml\n  shipbook book fixtures/orders/stored-card.yaml --payment stored_card --card card_visa_4242 --json\n  shipbook book fixtures/orders/domestic-syd-mel.yaml --poll 5s --wait-timeout 30m\n  shipbook book fixtures/orders/domestic-syd-mel.yaml --public-url https://hooks.example.com/sb --listen 127.0.0.1:8787\n' +
        '  shipbook book                      # on a terminal: a guided booking, live prices to choose from\n  shipbook book partial.yaml --service cheapest --max-total 60 --save-as order.yaml\n  shipbook book fixtures/orders/domestic-syd-mel.yaml --again   # booked before: book it a second time\n  shipbook book fixtures/rules/orders/heavy-perth.yaml --rules fixtures/rules/shipping.yaml   # the rules choose the service\n' +
        '  shipbook book orders/ --concurrency 8 --report report.json --junit junit.xml\n  shipbook book orders.ndjson --shard 2/4\n  shipbook book orders.ndjson --dry-run\n  shipbook book fixtures/batch/orders.ndjson --max-total 90 --budget 200   # no order above 90 AUD, at most 200 AUD in all\n  shipbook book fixtures/consolidated/collection-from-service.yaml --collection-from-service\n' +
        '  shipbook book fixtures/csv/orders.csv --report results.csv   # a spreadsheet: results beside each row\n  shipbook book fixtures/orders/domestic-syd-mel.yaml --pickup-date next   # the next collection day\n  shipbook book fixtures/csv/orders.csv --roll-pickup-dates   # an export of yesterday: dates moved to the next collection day\n  shipbook book fixtures/csv/shopify-orders.csv --map fixtures/csv/shopify.map.yaml\n  shipbook book fixtures/papers/us-three-items.yaml --documents papers/   # customs papers of each international order\n  shipbook book - --input-format csv < fixtures/csv/orders.csv\n  shipbook book fixtures/orders/ --dry-run --format github   # problems as GitHub annotations, then the requests\n  shipbook book fixtures/batch/orders.ndjson --preview --max-total 90   # what the orders would cost, nothing created\n  shipbook book fixtures/batch/orders.ndjson --preview --rules fixtures/rules/shipping.yaml --budget 200 --markdown   # the cost under the rules first\n  shipbook book fixtures/batch/orders.ndjson --dry-run --quote --summary preview.md   # the same preview, also appended to a job summary\n',
    )
    .action(
      async (
        inputs: string[],
        flags: PaymentFlags &
          WaitFlags &
          OrderInputFlags &
          CapFlags &
          BatchFlags &
          PickupFlags &
          RulesFlags & {
            again?: boolean;
            collectionFromService?: boolean;
            format?: AnnotationFormat;
            quote?: boolean;
            summary?: string;
            preview?: boolean;
            markdown?: boolean;
          },
      ) => {
        if (flags.format !== undefined) await annotateInputs(inputs, flags.format, flags, ctx);
        // Caps that are not amounts above 0 (abc, -5, 0) are refused before anything is read or sent.
        capsOfFlags(flags);
        // Pickup words and dates are settled while the inputs are read, before anything is sent.
        await ctx.usePickupRule(flags);
        if (flags.quote && !ctx.globals.dryRun)
          throw new UsageError('--quote previews the cost of a dry run: book --dry-run --quote', { suggestion: 'Add --dry-run, or write --preview.' });
        // --preview (alias --dry-run --quote): what the inputs would cost, under the rules when there are some; nothing is created.
        if (flags.preview || flags.quote) return runPreview({ ...flags, inputs, input: await csvBatchInput(csvSettings(flags), ctx) }, ctx);
        const isDirectory = (p: string) => {
          try {
            return statSync(p).isDirectory();
          } catch {
            return false;
          }
        };
        if (isBatch(inputs, flags, isDirectory)) {
          if (flags.again)
            throw new UsageError('--again is for a single booking; a batch books each document once per target service', {
              suggestion: ['Book a document a second time alone: ', cmd('book', placeholder('file'), '--again'), '.'],
            });
          if (flags.collectionFromService) throw new UsageError('--collection-from-service takes one consolidated-mail file, not a batch');
          return runBatchBook(batchOptions(inputs, flags, batchWait(flags)), ctx);
        }
        // One file (or standard input) that holds a list of orders (YAML documents separated by
        // `---`, a JSON array, NDJSON) is booked as a batch, as validate checks it: one rule for
        // every command. Its bytes are read once and kept for the booking that follows.
        const only = inputs[0];
        const bytes = only === undefined ? undefined : await readInput(only, ctx.io.stdin);
        if (only !== undefined && bytes !== undefined && isDocumentList(only, bytes.toString('utf8'))) {
          if (flags.again)
            throw new UsageError(
              `--again is for a single booking; ${only === '-' ? 'standard input' : only} holds several orders, booked as a batch once per target service`,
              {
                suggestion: ['Book a document a second time from a file of its own: ', cmd('book', placeholder('file'), '--again'), '.'],
              },
            );
          if (flags.collectionFromService) throw new UsageError('--collection-from-service takes one consolidated-mail document, not a file of several');
          return runBatchBook({ ...batchOptions(inputs, flags, batchWait(flags)), ...(only === '-' ? { stdin: bytes } : {}) }, ctx);
        }
        await runBook({ ...flags, file: only, ...(bytes !== undefined ? { bytes } : {}), wait: waitSettings(flags) }, ctx);
      },
    );
}
