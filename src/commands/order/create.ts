/**
 * `shipbook order create <file>`: validate an order file and create it (pending, exact price),
 * recorded in the target's ledger as `book` records a document: a document created before is not
 * created again without `--again`, and two runs creating it at once give one order.
 */
import { cmd } from '../../errors.js';
import { hintText } from '../../output/hints.js';
import { addPickupOptions } from '../common/pickup-options.js';
import {
  type PickupFlags,
  createEntry,
  type Resume,
  DEFAULT_WAIT_TIMEOUT_MS,
  claimDocument,
  claimFreshOccurrence,
  orderWarnings,
  type ServiceChoice,
  createdStage,
  earlierBooking,
} from '../../booking/index.js';
import { Command } from 'commander';
import { createOrder, fetchOrder, type OrderPaths } from '../../api/orders.js';
import type { ApiClient } from '../../api/client.js';
import type { RunClaim, LedgerStore } from '../../ledger/index.js';
import { targetLabel } from '../../config/target.js';

import { loadDocument } from '../../input/load.js';
import { earlierNote, earlierRefusal } from '../../output/earlier.js';
import type { OrderResponse } from '../../schema/order.js';
import { orderStatusWord } from '../../schema/status.js';
import type { Context } from '../../context.js';
import { readOrderInput, type OrderInputFlags } from '../common/order-input.js';
import { claimRun, openLedgerFor } from '../common/record.js';
import { BookedElsewhereError } from '../../ledger/index.js';
import { identityOf, type DocumentIdentity } from '../../ledger/index.js';
import { printOrder } from '../../output/order.js';
import { withWarnings } from '../common/warnings.js';
import { ruleDocument, type RulesFlags } from '../rules/apply.js';

/** Options of `order create`. */
interface OrderCreateOptions extends OrderInputFlags, RulesFlags {
  /** The order file; none on a terminal: asked step by step. */
  file?: string;
  /** `--again`: create the document once more (its next occurrence in the ledger). */
  again?: boolean;
}

/**
 * Validates the file (nothing is sent while a problem remains), claims the document in the ledger
 * (waiting for another run creating it right now), creates the order and prints it. A document
 * created before is printed, not created again (without `--again`).
 * @throws ValidationError (2), ApiError (3/4), LimitRefusedError (9); ShipbookError `booking_unknown`
 *   (5) when a create of this document was sent and never answered; `wait_timeout` (7) when another
 *   run still holds it after the wait
 */
async function runOrderCreate(o: OrderCreateOptions, ctx: Context): Promise<void> {
  const loaded = o.file !== undefined ? await loadDocument(o.file, ctx.io.stdin) : undefined;
  // Service-selection rules: each shipment's service chosen and said (the file as written stays its identity).
  const ruled = await ruleDocument(loaded, o, ctx);
  const read = await readOrderInput(o.file, o, ctx, { command: 'shipbook order create', withPayment: false, loaded: ruled?.loaded ?? loaded });
  const { order } = read;
  const rulesCap = ruled?.decision.max_total?.cents;
  const maxTotalCents = rulesCap !== undefined && (read.maxTotalCents === undefined || rulesCap < read.maxTotalCents) ? rulesCap : read.maxTotalCents;
  const api = await ctx.api();
  // --dry-run: the request is shown by the client; nothing is sent, nothing recorded.
  const created = ctx.globals.dryRun
    ? await createOrder(api, order)
    : await createRecorded(o, { data: loaded?.data ?? { order }, order, maxTotalCents, api, choice: ruled?.choice }, ctx);
  if (created === undefined) return;
  printCreated(ctx, created, true, ruled?.records);
}

/** Prints an order as `order create` does: the order on stdout, how to accept it (when `pending`) on stderr. */
function printCreated(ctx: Context, order: OrderResponse, pending = true, choice?: unknown[]): void {
  ctx.output.write(withWarnings(ctx, { order, ...(choice ? { service_choice: choice } : {}) }, orderWarnings(order)), () => {
    printOrder(ctx.io, ctx.output.format, order);
    if (pending) ctx.io.err(`Accept it with: ${hintText([cmd('order', 'accept', order.id)], ctx.settings.hints)}\n`);
  });
}

/**
 * The create under the ledger's claim (src/ledger/claims.ts): the document's identity as `book`
 * computes it, claimed before the create leaves, recorded by the engine (`createEntry`).
 * @returns the order created, or undefined when an earlier one was printed instead
 */
async function createRecorded(
  o: OrderCreateOptions,
  d: {
    data: unknown;
    order: Parameters<typeof createOrder>[1];
    maxTotalCents: number | undefined;
    api: ApiClient;
    /** What the rules chose, recorded with the create. */
    choice?: ServiceChoice | undefined;
  },
  ctx: Context,
): Promise<OrderResponse | undefined> {
  const command = hintText([cmd('order', 'create', ...(o.file === undefined ? [] : [o.file]), ...(o.again ? ['--again'] : []))], ctx.settings.hints);
  const ledger = await openLedgerFor(ctx, { op: 'order create', command });
  const identity = identityOf(ledger, d.data, { again: o.again === true });
  if (o.again) {
    // Each run creating it again takes an occurrence of its own: none waits for another.
    await claimFreshOccurrence(ledger, identity, claimRun(ctx));
  } else {
    const claimed = await claimDocument(
      ledger,
      identity.id,
      { maxTotalCents: d.maxTotalCents, createOnly: true, timeoutMs: DEFAULT_WAIT_TIMEOUT_MS },
      claimRun(ctx),
    ).catch((err: unknown) => {
      // Created under another key of this service: the hint creates this very file anyway.
      const again = hintText([cmd('order', 'create', ...(o.file === undefined ? [] : [o.file]), '--again')], ctx.settings.hints);
      throw err instanceof BookedElsewhereError ? new BookedElsewhereError(err.identity, err.booked, again) : err;
    });
    if (claimed.kind !== 'go') {
      const profile = await ctx.profile();
      await printEarlier(
        ledger,
        identity,
        claimed.resume,
        { file: o.file, maxTotalCents: d.maxTotalCents, paths: profile.paths, byOther: claimed.byOther },
        d.api,
        ctx,
      );
      return undefined;
    }
  }
  return createEntry(
    { id: identity.id, ...(o.file !== undefined ? { file: o.file } : {}), order: d.order, choice: d.choice },
    {
      api: d.api,
      ledger,
      paths: (await ctx.profile()).paths,
      ...(d.maxTotalCents !== undefined ? { maxTotalCents: d.maxTotalCents } : {}),
    },
  );
}

/**
 * A document the ledger knows as created before (or further): what it means for this run is
 * decided by `earlierBooking` (src/booking/earlier.ts) and worded in src/output/earlier.ts. That
 * order is printed as this run's result, read again from the service, with a note on stderr; a
 * create sent and never answered ends as `booking_unknown`, as `book` does.
 * @throws ShipbookError `booking_unknown` (exit 5); `previous_booking_failed` (the recorded exit
 *   code); LimitRefusedError (exit 9) when this run's --max-total still refuses the recorded total
 */
async function printEarlier(
  ledger: LedgerStore,
  identity: DocumentIdentity,
  r: Resume,
  o: { file: string | undefined; maxTotalCents: number | undefined; paths: OrderPaths; byOther: RunClaim | undefined },
  api: ApiClient,
  ctx: Context,
): Promise<void> {
  const { io } = ctx;
  const e = earlierBooking(r, { command: 'order create', file: o.file, byOther: o.byOther, maxTotalCents: o.maxTotalCents, canAsk: false });
  const refusal = earlierRefusal(e, { identity: identity.id, label: targetLabel(ledger.target), location: ledger.location }, ctx.settings.hints);
  if (refusal !== undefined) throw refusal;
  // Created before (pending, accepted or processed): that order, as the service has it now.
  const orderId = e.orderId ?? '';
  let order: OrderResponse | undefined;
  try {
    order = await fetchOrder(api, orderId, o.paths);
  } catch (err) {
    ctx.debugLog(`fetch-order-data for ${orderId} failed: ${err instanceof Error ? err.message : String(err)}`);
  }
  const { stage, pending } = createdStage(e, order?.status === undefined ? undefined : orderStatusWord(order.status));
  io.err(earlierNote(io, e, ctx.settings.hints, stage) ?? '');
  printCreated(ctx, order ?? { id: orderId, shipments: [] }, pending);
}

/** The `order create` command. */
export function orderCreateCommand(ctx: Context): Command {
  return addPickupOptions(
    new Command('create')
      .summary('create a pending order from a file')
      .description(
        'Validate an order file (JSON or YAML, `request` wrapper optional) and create it with POST /orders/. ' +
          "The target's ledger records it as `book` does: a document created before is printed, not created again (--again creates another), " +
          'and a run creating it right now is waited for.',
      )
      .argument('[file]', 'order file ("-" for standard input); none on a terminal: asked step by step')
      .option('--service <cheapest|code>', 'for shipments without service.code: the cheapest service of a live quote, or this code')
      .option(
        '--rules <file>',
        "service-selection rules: choose each shipment's service and check the codes the order names (default: the profile's rules, SHIPBOOK_RULES)",
      )
      .option('--max-total <aud>', 'cancel the new order if its exact total is above this (AUD), exit 9')
      .option('--save-as <file>', 'write the order as a file that creates it again without prompts')
      .option('--again', 'create a document that was created before once more (a second order); without it the earlier order is printed'),
  )
    .addHelpText(
      'after',
      '\nExamples:\n  shipbook order create fixtures/orders/domestic-syd-mel.yaml\n  shipbook order create fixtures/orders/domestic-syd-mel.yaml --again   # created before: a second order\n  shipbook order create fixtures/wizard/no-service.yaml --service cheapest --max-total 50\n  shipbook order create fixtures/orders/domestic-syd-mel.yaml --pickup-date next   # the next collection day\n  shipbook order create fixtures/rules/orders/rural-broome.yaml --rules fixtures/rules/shipping.yaml\n',
    )
    .action(async (file: string | undefined, flags: OrderInputFlags & PickupFlags & RulesFlags & { again?: boolean }) => {
      await ctx.usePickupRule(flags);
      return runOrderCreate({ ...flags, file }, ctx);
    });
}
