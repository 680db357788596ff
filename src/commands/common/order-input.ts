/**
 * The order a sending command (`book`, `order create`) works on, from a file, from prompts, or
 * from a file completed by prompts: saved sender references resolved, the missing
 * parts asked on a terminal (or, without one, listed with what supplies them: exit 2), the
 * service chosen from a live quote by the prompt or by `--service`, the summary confirmed, the
 * payment asked in a guided booking, and `--save-as` written — all before anything is created.
 */
import { hintText } from '../../output/hints.js';
import { withSenders } from '../../input/pickup.js';
import { quoteServices } from '../../api/quote.js';
import { registerSecret } from '../../api/redact.js';
import type { Context } from '../../context.js';
import { ShipbookError, StoppedByChoice, ValidationError, type InputIssue, cmd } from '../../errors.js';
import { loadDocument } from '../../input/load.js';
import type { LoadedDocument } from '../../input/loaded.js';
import { resolveSenders } from '../../input/senders.js';
import { checkDocument, validateKind } from '../../input/validate.js';
import type { PromptIO } from '../../prompts/ask.js';
import { runCaps } from './caps.js';
import { completeShipment, missingInputError, missingParts, type MissingPart, type ShipmentPart } from '../../prompts/order.js';
import type { SavedSenders } from '../../prompts/collection.js';
import { draftPath, readDraft, removeDraft, writeDraft } from '../../prompts/draft.js';
import { PromptInterruptedError } from '../../prompter.js';
import type { HintStyle } from '../../shell.js';
import { askPayment } from '../../prompts/payment.js';
import { storedCardChoices } from './stored-card.js';
import { askSaveAs, saveDocument, savedDocumentText } from '../../prompts/save.js';
import { checkOutputFiles } from '../../output-paths.js';
import { parseInput } from '../../input/parse.js';
import { parseServiceFlag, quoteRequestFor, type ServiceChoice } from '../../prompts/service.js';
import { askAtSummary, renderSummary, summaryWarnings, type EditablePart } from '../../prompts/summary.js';
import type { CreateOrderRequest } from '../../schema/order.js';
import { paymentRequest, type PaymentRequest } from '../../schema/payment.js';
import type { QuoteServiceEntry } from '../../schema/quote.js';
import { formatPath } from '../../schema/issues.js';
import { promptIO, showWarnings } from './input.js';
import { isObject } from '../../schema/object.js';
import { decideOrder, decisionRecord, documentTags, ratedEntry, type RuleSet, type ServiceChoice as RulesChoice } from '../../booking/index.js';
import { runRules } from '../rules/apply.js';
import { byHandChoice } from './rules-by-hand.js';

/** The order-input flags of `book` and `order create`. */
export interface OrderInputFlags {
  /** `--service cheapest|<code>`: the service for shipments without `service.code`, from a live quote. */
  service?: string;
  /** `--max-total <AUD>`: refuse (cancel) an order whose exact total is above it (exit 9). */
  maxTotal?: string;
  /** `--save-as <file>`: write what was entered as an order file. */
  saveAs?: string;
  /** `--rules <file>`: service-selection rules choose the service the guided booking would ask. */
  rules?: string;
}

/** The order to send, and the payment asked for in a guided booking. */
interface OrderInput {
  order: CreateOrderRequest;
  /** The payment chosen at the prompt (only when the booking was guided and no payment flag was given). */
  payment?: PaymentRequest;
  /** The `--max-total` limit in cents. */
  maxTotalCents?: number;
  /**
   * When prompts completed the order: the document as a file of it reads back (the `--save-as`
   * file's content, also when nothing was saved), so the booking is recorded under the identity
   * that `shipbook book <saved file>` finds (src/ledger/identity.ts `contentHash`).
   */
  document?: unknown;
  /** The file the order was saved as (`--save-as`, or the answer to the last question). */
  savedAs?: string;
  /** What the rules chose for the shipments whose service the guided booking would have asked. */
  choice?: RulesChoice;
}

type Obj = Record<string, unknown>;

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
 *   ShipbookError `interrupted` (130) on Ctrl-C at a question and `declined` (130) when the summary
 *   is declined, each naming the draft the answers were kept in; UsageError (2) for bad flags
 */
export async function readOrderInput(
  file: string | undefined,
  flags: OrderInputFlags,
  ctx: Context,
  o: { command: string; withPayment: boolean; loaded?: LoadedDocument },
): Promise<OrderInput> {
  const { io } = ctx;
  const { maxTotalCents } = await runCaps(flags, ctx);
  const service = flags.service !== undefined ? parseServiceFlag(flags.service) : undefined;
  // The file the answers are saved as is checked before the first question and the first request.
  if (flags.saveAs !== undefined) checkOutputFiles([{ flag: '--save-as', path: flags.saveAs }]);
  const draftFile = draftPath(ctx.stateDir(), o.command);
  // A guided booking left unfinished (No at the summary, Ctrl-C) is offered before anything is asked.
  const resumed = file === undefined && o.loaded === undefined && io.canPrompt ? await offerDraft(ctx, draftFile) : undefined;
  const loaded = o.loaded ?? resumed ?? (file !== undefined ? await loadDocument(file, io.stdin) : emptyOrder());
  const profile = await ctx.profile();
  const resolved = resolveSenders(loaded, profile.senders, profile.name);
  if (resolved.issues.length > 0) throw new ValidationError(resolved.issues);
  // A saved sender's own pickup days count for the collections that name it.
  if (ctx.pickup !== undefined) ctx.pickup = withSenders(ctx.pickup, resolved.pickups);
  const doc: LoadedDocument = { ...loaded, data: resolved.data };
  const shipments =
    isObject(doc.data) && isObject(doc.data.order) && Array.isArray(doc.data.order.shipments) ? (doc.data.order.shipments as unknown[]) : undefined;
  const missing = (shipments ?? []).flatMap((s, i) => (isObject(s) ? missingParts(s, ['order', 'shipments', i], { hints: ctx.settings.hints }) : []));
  const words = o.command.replace(/^shipbook\s+/, '').split(' ');
  const savedAs = (saveAs: string) =>
    // Said last, under the booked order, so the line to paste is the last thing on the screen.
    ctx.defer(() =>
      io.err(
        words[0] === 'book'
          ? // The booking is recorded under the saved file's identity: running the file shows this
            // booking (or continues it); a second, paid shipment needs --again.
            `Saved the order as ${saveAs} (no payment details). "${hintText([cmd(...words, saveAs)], ctx.settings.hints)}" shows or continues this booking; a new shipment of it is booked only with: ${hintText([cmd(...words, saveAs, '--again')], ctx.settings.hints)}\n`
          : `Saved the order as ${saveAs} (no payment details); use it again with: ${hintText([cmd(...words, saveAs)], ctx.settings.hints)}\n`,
      ),
    );
  if (missing.length === 0 && resumed === undefined) {
    const order = showWarnings(ctx, validateKind(doc, 'order', ctx));
    // --save-as with a complete file: saved as well (a copy with saved senders filled in), never ignored.
    if (flags.saveAs !== undefined) {
      await saveDocument(flags.saveAs, doc.data, `${o.command} ${flags.saveAs}`, ctx.now());
      savedAs(flags.saveAs);
    }
    return { order, ...(maxTotalCents !== undefined ? { maxTotalCents } : {}) };
  }
  // Whatever the file holds must be right before anything is asked.
  const early = checkDocument(doc, {
    kind: 'order',
    now: () => ctx.now(),
    addresses: ctx.settings.addresses,
    ...(ctx.pickup !== undefined ? { pickup: ctx.pickup } : {}),
  }).issues.filter((i) => i.severity === 'error' && !aboutMissing(i, missing));
  const asking = missing.filter((m) => m.part !== 'service' || service === undefined);
  if (!io.canPrompt && asking.length > 0) {
    const err = missingInputError(asking, file !== undefined ? { file, locate: (p) => doc.locate(p) } : {}, file ?? 'the order', early);
    if (file === undefined) {
      err.issues.unshift({
        path: '<file>',
        message: `no order file: give one, e.g. ${o.command} order.yaml (or run on a terminal to be asked)`,
        severity: 'error',
      });
    }
    throw err;
  }
  if (early.length > 0) throw new ValidationError(early);
  const prompts: PromptIO | undefined = io.canPrompt ? promptIO(ctx) : undefined;
  if (!prompts) {
    // No terminal, and only the service was missing: --service chooses it from a live quote.
    const chosen = new Map<number, QuoteServiceEntry>();
    for (const [i, s] of (shipments ?? []).entries()) {
      if (!isObject(s)) continue;
      const done = await completeShipment(
        s,
        'order',
        { senders: profile.senders ?? {}, service, quote: async (q) => quoteServices(await ctx.api(), q) },
        whereOf(i, shipments!.length),
      );
      if (done.chosen) chosen.set(i, done.chosen);
    }
    return finish(ctx, doc, flags, o, savedAs, undefined, maxTotalCents);
  }
  // The target (the sandbox notice) is named before the first question, not after thirty answers.
  await ctx.api();
  // Service-selection rules choose the service instead of asking it; the summary says why.
  const rules = await runRules(flags, ctx);
  const guided = new GuidedOrder(ctx, doc, (shipments ?? []) as Obj[], {
    service,
    fromScratch: file === undefined,
    senders: profile.senders ?? {},
    ...(rules ? { rules } : {}),
  });
  try {
    await guided.askMissing();
    await guided.summary(
      o.withPayment ? { question: 'Book this?', go: 'yes, book it' } : { question: 'Create this order?', go: 'yes, create it' },
      draftFile,
      o.command,
    );
    await removeDraft(draftFile);
    const input = await finish(ctx, doc, flags, o, savedAs, guided.asked > 0 || resumed !== undefined ? prompts : undefined, maxTotalCents, guided.shown);
    const choice = guided.rulesChoice();
    return choice === undefined ? input : { ...input, choice };
  } catch (err) {
    if (!(err instanceof PromptInterruptedError)) throw err;
    // Ctrl-C at a question: nothing has been sent; what was answered is kept for next time.
    const stillMissing = (shipments ?? []).flatMap((s, i) =>
      isObject(s) ? missingParts(s, ['order', 'shipments', i], { hints: ctx.settings.hints }) : [],
    ).length;
    const answered = stillMissing < missing.length || guided.asked > 0 || resumed !== undefined;
    const kept = answered ? await keepDraft(draftFile, doc.data, o.command, ctx.now()) : undefined;
    throw new ShipbookError('interrupted', `interrupted (Ctrl-C): nothing was sent${kept ? `; the answers so far are kept in ${kept}` : ''}`, 'interrupted', {
      ...(kept ? { suggestion: resumeHint(o.command, kept, ctx.settings.hints) } : {}),
    });
  }
}

/** `the shipment`, or `shipment 2` of several. */
function whereOf(i: number, count: number): string {
  return count > 1 ? `shipment ${i + 1}` : 'the shipment';
}

/** How to go on with a kept draft, as a hint. */
function resumeHint(command: string, draft: string, hints: HintStyle): string {
  return `"${command}" with no file offers to resume them; or complete that file with: ${hintText([cmd(...command.replace(/^shipbook\s+/, '').split(' '), draft)], hints)}`;
}

/** Writes the draft; a draft that cannot be written is said, never fatal. @returns the file, or undefined */
async function keepDraft(file: string, data: unknown, command: string, now: Date): Promise<string | undefined> {
  try {
    await writeDraft(file, data, command, now);
    return file;
  } catch {
    return undefined;
  }
}

/**
 * Offers the draft left by an earlier guided booking, if there is one: Yes loads it as the
 * document (its missing parts are then asked, its summary shown); No starts afresh.
 */
async function offerDraft(ctx: Context, draftFile: string): Promise<LoadedDocument | undefined> {
  const draft = await readDraft(draftFile);
  if (!draft) return undefined;
  await ctx.api();
  const when = `${draft.savedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const yes = await ctx.prompter().confirm({ message: `Resume the answers kept on ${when} (${draftFile})?`, default: true });
  return yes ? loadDocument(draftFile, ctx.io.stdin) : undefined;
}

/** What the summary offers to change for each part the wizard asks. */
const EDITABLE_OF: Readonly<Record<ShipmentPart, EditablePart>> = {
  collection: 'sender',
  delivery: 'recipient',
  collection_type: 'pickup',
  pickup: 'pickup',
  packages: 'packages',
  customs_information: 'customs',
  description: 'description',
  service: 'service',
};

/**
 * A guided booking's shipments: asks their missing parts, shows the summary and lets any part the
 * person answered (every part, when the booking started with no file) be changed before going on.
 */
class GuidedOrder {
  /** How many parts were asked in all. */
  asked = 0;
  private readonly editable: Array<Set<EditablePart>>;
  private readonly chosen = new Map<number, QuoteServiceEntry>();
  /** What the rules decided for each shipment whose service they chose (with the order's cap). */
  private readonly decided = new Map<number, { record: RulesChoice['records'][number]; maxTotal?: { cents: number; rule: string } }>();
  /** Shipments whose service the person chooses by hand over the rules' choice (a change of the service at the summary). */
  private readonly byHand = new Set<number>();
  /** The warnings shown in the summary the person went on from (their messages). */
  readonly shown = new Set<string>();

  constructor(
    private readonly ctx: Context,
    private readonly doc: LoadedDocument,
    private readonly shipments: Obj[],
    private readonly o: { service?: ServiceChoice; fromScratch: boolean; senders: SavedSenders; rules?: RuleSet },
  ) {
    const all = new Set<EditablePart>([...Object.values(EDITABLE_OF), 'reference']);
    this.editable = shipments.map(() => (o.fromScratch ? new Set(all) : new Set()));
  }

  private get io(): PromptIO {
    return promptIO(this.ctx);
  }

  /** Asks what shipment `i` lacks, with `previous` (the shipment before a change) as the defaults. */
  private async complete(i: number, previous?: Obj): Promise<void> {
    const s = this.shipments[i]!;
    const rules = this.o.rules;
    // Chosen by hand over the rules: asked among the services the rules allow, recorded as such.
    let byHand: ReturnType<typeof byHandChoice> | undefined;
    const quote = async (q: Parameters<typeof quoteServices>[1]) => {
      const services = await quoteServices(await this.ctx.api(), q);
      if (rules === undefined || !this.byHand.has(i)) return services;
      byHand = byHandChoice(rules, {
        tags: documentTags(this.doc.data),
        shipment: s,
        services,
        file: this.doc.file,
        path: formatPath(['order', 'shipments', i]),
      });
      return byHand.allowed;
    };
    const done = await completeShipment(
      s,
      'order',
      {
        io: this.io,
        senders: this.o.senders,
        ...(this.o.service ? { service: this.o.service } : {}),
        ...(rules && !this.byHand.has(i) ? { choose: this.chooseByRules(rules, i) } : {}),
        quote,
        askReference: this.o.fromScratch,
        ...(previous ? { previous } : {}),
      },
      whereOf(i, this.shipments.length),
    );
    this.asked += done.asked.length + (done.askedReference ? 1 : 0);
    for (const part of done.asked) this.editable[i]!.add(EDITABLE_OF[part]);
    if (done.askedReference) this.editable[i]!.add('reference');
    if (done.chosen) this.chosen.set(i, done.chosen);
    if (done.chosen && byHand !== undefined) this.decided.set(i, byHand.decided(done.chosen));
    // Under rules the service can be changed at the summary: chosen by hand over them.
    if (this.decided.has(i)) this.editable[i]!.add('service');
  }

  /**
   * The service of a shipment whose code came with its answers (a resumed draft, a file) is quoted
   * again, so that the summary names it and its price as it does for one chosen at the prompt. A
   * quote that fails, or no longer offers the code, leaves the code alone in the summary.
   */
  private async quoteKeptServices(): Promise<void> {
    for (const [i, s] of this.shipments.entries()) {
      const code = isObject(s.service) ? s.service.code : undefined;
      if (typeof code !== 'string' || this.chosen.get(i)?.code === code) continue;
      try {
        const services = await quoteServices(await this.ctx.api(), quoteRequestFor(s, whereOf(i, this.shipments.length)));
        const entry = services.find((e) => e.code === code);
        if (entry) this.chosen.set(i, entry);
      } catch (err) {
        // An interrupted run stops here as anywhere; a quote that failed otherwise leaves the
        // summary with the code alone (the order's exact price comes when it is created).
        if (err instanceof PromptInterruptedError || this.ctx.signal.aborted) throw err;
      }
    }
  }

  /**
   * The service of shipment `i` chosen by `rules` from its quote, as `book` chooses it for a file:
   * the decision kept for the summary and the ledger, an option a rule sets written in.
   * @throws ValidationError (exit 2) when the rules leave the shipment no service; nothing is sent
   */
  private chooseByRules(rules: RuleSet, i: number): (services: QuoteServiceEntry[], shipment: Obj, where: string) => QuoteServiceEntry {
    return (services, shipment, where) => {
      const tags = documentTags(this.doc.data);
      const decision = decideOrder(rules, { tags, order: { shipments: [shipment] } }, { quotes: [services.map(ratedEntry)] });
      const d = decision.shipments[0]!;
      if (!d.ok) {
        const path = formatPath(['order', 'shipments', i]);
        throw new ValidationError(
          [{ file: this.doc.file, path, message: d.reason, severity: 'error' }],
          `not sent: ${where}: the rules of ${rules.file} leave it no service`,
        );
      }
      this.decided.set(i, { record: { ...decisionRecord(d), facts: decision.facts[0]! }, ...(d.max_total ? { maxTotal: d.max_total } : {}) });
      if (d.set.insurance !== undefined) {
        const service = isObject(shipment.service) ? shipment.service : {};
        const options = Array.isArray(service.options) ? (service.options as unknown[]).filter((x) => x !== 'insurance') : [];
        shipment.service = { ...service, options: d.set.insurance.value ? [...options, 'insurance'] : options };
      }
      return services.find((e) => e.code === d.chosen.code)!;
    };
  }

  /** What the rules chose in this booking, for the ledger; undefined when they chose nothing. */
  rulesChoice(): RulesChoice | undefined {
    if (this.decided.size === 0) return undefined;
    const all = [...this.decided.entries()].sort(([a], [b]) => a - b).map(([, d]) => d);
    let maxTotal: { cents: number; rule: string } | undefined;
    for (const d of all) if (d.maxTotal && (maxTotal === undefined || d.maxTotal.cents < maxTotal.cents)) maxTotal = d.maxTotal;
    return { records: all.map((d) => d.record), ...(maxTotal ? { maxTotal } : {}) };
  }

  /** The lines under the summary that say why the rules chose each service: `service: <reason>`. */
  private reasonLines(): string {
    const several = this.shipments.length > 1;
    return [...this.decided.entries()]
      .sort(([a], [b]) => a - b)
      .map(([i, d]) => `\n${several ? `shipment ${i + 1} ` : ''}service: ${d.record.reason}`)
      .join('');
  }

  /** Asks every missing part of every shipment. */
  async askMissing(): Promise<void> {
    for (const i of this.shipments.keys()) await this.complete(i);
  }

  /**
   * Shows the summary until the person goes on: a change takes the part out and asks it again
   * (the earlier answers as defaults); a change of route, packages or goods asks the service
   * again, since the price depends on them. Stopping keeps the answers as the draft.
   * @throws StoppedByChoice (exit 0) when the person stops; the draft is named in it
   */
  async summary(words: { question: string; go: string }, draftFile: string, command: string): Promise<void> {
    if (this.asked === 0 && this.editable.every((e) => e.size === 0)) return;
    for (;;) {
      await this.quoteKeptServices();
      const columns = (this.ctx.io.stderr as { columns?: number }).columns;
      const warnings = this.shipments.map((s) => summaryWarnings(s, this.ctx.pickup));
      const choice = await askAtSummary(
        this.io,
        renderSummary(this.shipments, this.chosen, this.ctx.io.stderrIsTTY ? columns : undefined, warnings) + this.reasonLines(),
        this.shipments.map((s, i) => ({ parts: this.editable[i]!, warnings: warnings[i]!, dropoff: s.collection_type === 'dropoff' })),
        words,
      );
      if (choice.action === 'go') {
        // Shown in the summary, before the question: not said again once it is answered.
        for (const list of warnings) for (const w of list) this.shown.add(w.message);
        return;
      }
      if (choice.action === 'stop') {
        const kept = await keepDraft(draftFile, this.doc.data, command, this.ctx.now());
        throw new StoppedByChoice(`not booked: stopped at the summary; nothing was sent${kept ? `. The answers are kept in ${kept}` : ''}`, {
          draft: kept,
          ...(kept ? { suggestion: resumeHint(command, kept, this.ctx.settings.hints) } : {}),
        });
      }
      const s = this.shipments[choice.shipment]!;
      const previous = structuredClone(s);
      const editable = this.editable[choice.shipment]!;
      const collection = isObject(s.collection) ? s.collection : undefined;
      switch (choice.part) {
        case 'sender':
          delete s.collection;
          break;
        case 'recipient':
          delete s.delivery;
          break;
        case 'pickup':
          delete s.collection_type;
          if (collection) delete collection.pickup;
          break;
        case 'packages':
          delete s.packages;
          break;
        case 'customs':
          delete s.customs_information;
          break;
        case 'description':
          delete s.description;
          break;
        case 'reference':
          delete s.transient_id;
          break;
        case 'service':
          if (isObject(s.service)) delete s.service.code;
          if (this.decided.has(choice.shipment)) this.byHand.add(choice.shipment);
          this.decided.delete(choice.shipment);
          break;
      }
      // Drop-off is for shipments leaving Australia: a new route asks how the parcel goes again.
      if ((choice.part === 'sender' || choice.part === 'recipient') && editable.has('pickup')) delete s.collection_type;
      if (['sender', 'recipient', 'packages', 'customs'].includes(choice.part) && editable.has('service') && isObject(s.service)) {
        delete s.service.code;
        this.chosen.delete(choice.shipment);
        this.decided.delete(choice.shipment);
        // A new route, packages or goods: the rules choose again.
        this.byHand.delete(choice.shipment);
        this.io.say('The price depends on the route, packages and goods: the service is asked again.');
      }
      const chosenBefore = this.chosen.get(choice.shipment);
      try {
        await this.complete(choice.shipment, previous);
      } catch (err) {
        // A change abandoned half-way (Ctrl-C) leaves the shipment as it was: the draft keeps the old part.
        if (err instanceof PromptInterruptedError) {
          for (const key of Object.keys(s)) delete s[key];
          Object.assign(s, previous);
          if (chosenBefore) this.chosen.set(choice.shipment, chosenBefore);
        }
        throw err;
      }
    }
  }
}

/** Validates the completed order, writes `--save-as` (or asks to save), and asks the payment of a guided booking. */
async function finish(
  ctx: Context,
  doc: LoadedDocument,
  flags: OrderInputFlags,
  o: { command: string; withPayment: boolean },
  savedAs: (file: string) => void,
  prompts: PromptIO | undefined,
  maxTotalCents: number | undefined,
  shown: ReadonlySet<string> = new Set(),
): Promise<OrderInput> {
  const validated = validateKind(doc, 'order', ctx);
  // The warnings the summary showed beside their parts are not said again after "Book this?".
  const order = showWarnings(ctx, { ...validated, warnings: validated.warnings.filter((w) => !shown.has(w.message)) });
  const saveAs = flags.saveAs ?? (prompts ? await askSaveAs(prompts, 'order.yaml') : undefined);
  if (saveAs !== undefined) {
    await saveDocument(saveAs, doc.data, `${o.command} ${saveAs}`, ctx.now());
    savedAs(saveAs);
  }
  // The document as the saved file reads back: the identity the booking is recorded under.
  const document = parseInput(saveAs ?? '(prompts)', Buffer.from(savedDocumentText(doc.data, o.command, ctx.now()))).data;
  let payment: PaymentRequest | undefined;
  if (prompts && o.withPayment) {
    const profile = await ctx.profile();
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
  return {
    order,
    document,
    ...(saveAs !== undefined ? { savedAs: saveAs } : {}),
    ...(payment ? { payment } : {}),
    ...(maxTotalCents !== undefined ? { maxTotalCents } : {}),
  };
}
