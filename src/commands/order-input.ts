/**
 * The order a sending command (`book`, `order create`) works on, from a file, from prompts, or
 * from a file completed by prompts (issue 12): saved sender references resolved, the missing
 * parts asked on a terminal (or, without one, listed with what supplies them: exit 2), the
 * service chosen from a live quote by the prompt or by `--service`, the summary confirmed, the
 * payment asked in a guided booking, and `--save-as` written — all before anything is created.
 */
import { cancelOrder } from '../api/orders.js';
import { quoteServices } from '../api/quote.js';
import { registerSecret } from '../api/redact.js';
import type { Context } from '../context.js';
import { EXIT, ShipbookError, ValidationError, type InputIssue } from '../errors.js';
import { loadDocument, type LoadedDocument } from '../input/load.js';
import { resolveSenders } from '../input/senders.js';
import { checkDocument, validateKind } from '../input/validate.js';
import type { PromptIO } from '../prompts/ask.js';
import { enforceMaxTotal, parseMaxTotal } from '../prompts/limit.js';
import { completeShipment, missingInputError, missingParts, type MissingPart } from '../prompts/order.js';
import { askPayment } from '../prompts/payment.js';
import { storedCardChoices } from './stored-card.js';
import { askSaveAs, saveDocument } from '../prompts/save.js';
import { parseServiceFlag } from '../prompts/service.js';
import { confirmSummary, renderSummary } from '../prompts/summary.js';
import type { CreateOrderRequest } from '../schema/order.js';
import { paymentRequest, type PaymentRequest } from '../schema/payment.js';
import type { QuoteServiceEntry } from '../schema/quote.js';
import { formatPath } from '../schema/issues.js';
import { showWarnings } from './input.js';

/** The flags of issue 12 on `book` and `order create`. */
export interface OrderInputFlags {
  /** `--service cheapest|<code>`: the service for shipments without `service.code`, from a live quote. */
  service?: string;
  /** `--max-total <AUD>`: refuse (cancel) an order whose exact total is above it (exit 9). */
  maxTotal?: string;
  /** `--save-as <file>`: write what was entered as an order file. */
  saveAs?: string;
}

/** The order to send, and the payment asked for in a guided booking. */
export interface OrderInput {
  order: CreateOrderRequest;
  /** The payment chosen at the prompt (only when the booking was guided and no payment flag was given). */
  payment?: PaymentRequest;
  /** The `--max-total` limit in cents. */
  maxTotalCents?: number;
}

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A document with no file behind it: every field is asked. */
function emptyOrder(): LoadedDocument {
  return { file: '(prompts)', data: { order: { shipments: [{}] } }, wrapper: [], locate: () => undefined } as unknown as LoadedDocument;
}

/** True when an issue is about a part that is missing and will be supplied. */
function aboutMissing(issue: InputIssue, missing: ReadonlyArray<MissingPart>): boolean {
  return missing.some((m) => {
    const p = formatPath(m.part === 'service' ? m.path.slice(0, -1) : m.path);
    return issue.path === p || issue.path.startsWith(`${p}.`) || issue.path.startsWith(`${p}[`);
  });
}

/**
 * Reads the order for `book` or `order create`.
 * @param o.command the command that books the saved file again, e.g. `shipbook book order.yaml`
 * @param o.loaded the file, when the command has read it already (standard input is read once)
 * @param o.withPayment ask for the payment in a guided booking (`book`), unless a payment flag is given
 * @throws ValidationError (2) for a bad file or, without a terminal, the missing parts;
 *   PromptInterruptedError (130) on Ctrl-C or when the summary is declined; UsageError (2) for bad flags
 */
export async function readOrderInput(
  file: string | undefined,
  flags: OrderInputFlags,
  ctx: Context,
  o: { command: string; withPayment: boolean; loaded?: LoadedDocument },
): Promise<OrderInput> {
  const { io } = ctx;
  const maxTotalCents = flags.maxTotal !== undefined ? parseMaxTotal(flags.maxTotal) : undefined;
  const service = flags.service !== undefined ? parseServiceFlag(flags.service) : undefined;
  const loaded = o.loaded ?? (file !== undefined ? await loadDocument(file, io.stdin) : emptyOrder());
  const profile = await ctx.profile();
  const resolved = resolveSenders(loaded, profile.senders, profile.name);
  if (resolved.issues.length > 0) throw new ValidationError(resolved.issues);
  const doc: LoadedDocument = { ...loaded, data: resolved.data };
  const shipments = isObject(doc.data) && isObject(doc.data.order) && Array.isArray(doc.data.order.shipments) ? (doc.data.order.shipments as unknown[]) : undefined;
  const missing = (shipments ?? []).flatMap((s, i) => (isObject(s) ? missingParts(s, ['order', 'shipments', i]) : []));
  if (missing.length === 0) {
    const order = showWarnings(ctx, validateKind(doc, 'order', ctx));
    // --save-as with a complete file: saved as well (a copy with saved senders filled in), never ignored.
    if (flags.saveAs !== undefined) {
      await saveDocument(flags.saveAs, doc.data, `${o.command} ${flags.saveAs}`, ctx.now());
      io.err(`Saved the order as ${flags.saveAs} (no payment details); book it again with: ${o.command} ${flags.saveAs}\n`);
    }
    return { order, ...(maxTotalCents !== undefined ? { maxTotalCents } : {}) };
  }
  // Whatever the file holds must be right before anything is asked.
  const early = checkDocument(doc, { kind: 'order', now: () => ctx.now() }).issues.filter((i) => i.severity === 'error' && !aboutMissing(i, missing));
  const asking = missing.filter((m) => m.part !== 'service' || service === undefined);
  if (!io.canPrompt && asking.length > 0) {
    const err = missingInputError(asking, file !== undefined ? { file, locate: (p) => doc.locate(p) } : {}, file ?? 'the order', early);
    if (file === undefined) {
      err.issues.unshift({ path: '<file>', message: `no order file: give one, e.g. ${o.command} order.yaml (or run on a terminal to be asked)`, severity: 'error' });
    }
    throw err;
  }
  if (early.length > 0) throw new ValidationError(early);
  const prompts: PromptIO | undefined = io.canPrompt ? { prompter: ctx.prompter(), say: (t) => io.err(`${t}\n`), now: () => ctx.now() } : undefined;
  const chosen = new Map<number, QuoteServiceEntry>();
  let asked = 0;
  for (const [i, s] of (shipments ?? []).entries()) {
    if (!isObject(s)) continue;
    const where = shipments!.length > 1 ? `shipment ${i + 1}` : 'the shipment';
    const done = await completeShipment(s, 'order', { io: prompts, senders: profile.senders ?? {}, service, quote: async (q) => quoteServices(await ctx.api(), q) }, where);
    asked += done.asked.length;
    if (done.chosen) chosen.set(i, done.chosen);
  }
  if (prompts && asked > 0) {
    const yes = await confirmSummary(prompts, renderSummary(shipments as Obj[], chosen), o.withPayment ? 'Book this?' : 'Create this order?');
    if (!yes) throw new ShipbookError('declined', 'not booked: declined at the summary; nothing was sent', EXIT.INTERRUPTED);
  }
  const order = showWarnings(ctx, validateKind(doc, 'order', ctx));
  const saveAs = flags.saveAs ?? (prompts && asked > 0 ? await askSaveAs(prompts, 'order.yaml') : undefined);
  if (saveAs !== undefined) {
    await saveDocument(saveAs, doc.data, `${o.command} ${saveAs}`, ctx.now());
    io.err(`Saved the order as ${saveAs} (no payment details); book it again with: ${o.command} ${saveAs}\n`);
  }
  let payment: PaymentRequest | undefined;
  if (prompts && asked > 0 && o.withPayment) {
    const def = profile.defaultPayment;
    // The list is a help, not a requirement: when fetch-credit-card fails, the id is typed as before.
    const storedCards = async () => {
      if (ctx.globals.dryRun) return [];
      try {
        return await storedCardChoices(ctx);
      } catch (err) {
        prompts.say(`note: the stored cards could not be listed (${err instanceof Error ? err.message : String(err)}); type the stored card id`);
        return [];
      }
    };
    const typed = await askPayment(prompts, { defaultType: def.type, ...(def.storedCard ? { defaultCard: def.storedCard } : {}), storedCards });
    const card = (typed as { credit_card?: unknown }).credit_card;
    if (isObject(card)) {
      registerSecret(card.number as string | undefined);
      registerSecret(card.cvv as string | undefined);
    }
    payment = paymentRequest(() => ctx.now()).parse(typed);
  }
  return { order, ...(payment ? { payment } : {}), ...(maxTotalCents !== undefined ? { maxTotalCents } : {}) };
}

/** Refuses (cancels) a created order above `--max-total`: exit 9 with the price and the limit. */
export async function checkMaxTotal(ctx: Context, order: { id: string; price?: { total: { cents: number } } }, limitCents: number | undefined): Promise<void> {
  if (limitCents === undefined || !order.price) return;
  const profile = await ctx.profile();
  const api = await ctx.api();
  await enforceMaxTotal({ id: order.id, totalCents: order.price.total.cents }, limitCents, (id) => cancelOrder(api, id, profile.paths));
}
