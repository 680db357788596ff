/**
 * The shipment `shipment create` sends (consolidated mail), from a file, from prompts, or from a
 * file completed by prompts, as `../common/order-input.ts` does for orders: saved senders
 * resolved, only the missing parts asked on a terminal (the service from the consolidated-mail
 * services of a live quote), or, without one, listed with what supplies them (exit 2).
 */
import { hintText } from '../../output/hints.js';
import { withSenders } from '../../input/pickup.js';
import { quoteServices } from '../../api/quote.js';
import type { Context } from '../../context.js';
import { ShipbookError, ValidationError, cmd } from '../../errors.js';
import { loadDocument } from '../../input/load.js';
import type { LoadedDocument } from '../../input/loaded.js';
import { resolveSenders } from '../../input/senders.js';
import { checkDocument, validateKind } from '../../input/validate.js';
import { KINDS, detectKind, type DocumentKind, type KindValue } from '../../input/kinds.js';
import { shellArg, type HintStyle } from '../../shell.js';
import type { PromptIO } from '../../prompts/ask.js';
import { completeShipment, missingInputError, missingParts } from '../../prompts/order.js';
import { askSaveAs, saveDocument } from '../../prompts/save.js';
import { parseServiceFlag } from '../../prompts/service.js';
import { confirmSummary, renderSummary, summaryWarnings } from '../../prompts/summary.js';
import { formatPath } from '../../schema/issues.js';
import { fillCollectionFromService } from '../common/collection-from-service.js';
import { promptIO, showWarnings } from '../common/input.js';
import { isObject } from '../../schema/object.js';

type Obj = Record<string, unknown>;

/**
 * A file of another kind given to `shipment create` (an order, a quote request …) is said to be
 * that, with the command it goes with, instead of a list of the shipment fields it lacks.
 * @throws ValidationError (exit 2) when the file is plainly of another kind
 */
function refuseOtherKind(doc: LoadedDocument, hints: HintStyle): void {
  const kind = detectKind(doc.data);
  if (kind === undefined || kind === 'shipment') return;
  const def = KINDS[kind] as DocumentKind;
  const name = doc.file === '-' ? 'standard input' : doc.file;
  const command =
    kind === 'order'
      ? doc.file === '-'
        ? hintText([cmd('book', '-')], hints)
        : hintText([cmd('book', doc.file)], hints)
      : def.usedBy.replaceAll('<file>', shellArg(doc.file, hints.shell));
  throw new ValidationError(
    [{ file: doc.file, line: 1, column: 1, path: '', message: `is ${def.summary}, not a consolidated-mail shipment`, severity: 'error' }],
    `${name} is ${kind === 'order' ? 'an order' : def.summary}, not a consolidated-mail shipment; nothing was sent`,
    { suggestion: kind === 'order' ? `Book an order with:\n  ${command}` : `It goes with: ${command}` },
  );
}

/**
 * Reads the shipment for `shipment create`. With `flags.collectionFromService` the collection is
 * first filled in from the service data (`../common/collection-from-service.ts`).
 * @throws ValidationError (2) for a bad file or, without a terminal, the missing parts;
 *   PromptInterruptedError (130) on Ctrl-C; ShipbookError `declined` (130) for a declined summary
 */
export async function readShipmentInput(
  file: string | undefined,
  flags: { service?: string; saveAs?: string; collectionFromService?: boolean },
  ctx: Context,
): Promise<KindValue<'shipment'>> {
  const { io } = ctx;
  const service = flags.service !== undefined ? parseServiceFlag(flags.service) : undefined;
  const loaded: LoadedDocument =
    file !== undefined
      ? await loadDocument(file, io.stdin)
      : ({ file: '(prompts)', data: { shipment: {} }, wrapper: [], locate: () => undefined } as unknown as LoadedDocument);
  refuseOtherKind(loaded, ctx.settings.hints);
  const profile = await ctx.profile();
  const resolved = resolveSenders(loaded, profile.senders, profile.name);
  if (resolved.issues.length > 0) throw new ValidationError(resolved.issues);
  // A saved sender's own pickup days count for the collections that name it.
  if (ctx.pickup !== undefined) ctx.pickup = withSenders(ctx.pickup, resolved.pickups);
  const doc: LoadedDocument = { ...loaded, data: resolved.data };
  if (!isObject(doc.data)) return showWarnings(ctx, validateKind(doc, 'shipment', ctx));
  // `{shipment: …}` or the bare shipment (the kind's short form).
  const wrapped = isObject(doc.data.shipment);
  const shipment = wrapped ? (doc.data.shipment as Obj) : doc.data;
  const at = wrapped ? ['shipment'] : [];
  if (flags.collectionFromService) {
    const code = flags.service !== undefined && flags.service.toLowerCase() !== 'cheapest' ? flags.service : undefined;
    await fillCollectionFromService(doc, [at], ctx, code);
  }
  const missing = missingParts(shipment, at, { hints: ctx.settings.hints });
  if (missing.length === 0) return showWarnings(ctx, validateKind(doc, 'shipment', ctx));
  const covered = missing.map((m) => formatPath(m.part === 'service' ? m.path.slice(0, -1) : m.path));
  const early = checkDocument(doc, {
    kind: 'shipment',
    now: () => ctx.now(),
    addresses: ctx.settings.addresses,
    ...(ctx.pickup !== undefined ? { pickup: ctx.pickup } : {}),
  }).issues.filter((i) => i.severity === 'error' && !covered.some((p) => i.path === p || i.path.startsWith(`${p}.`) || i.path.startsWith(`${p}[`)));
  const asking = missing.filter((m) => m.part !== 'service' || service === undefined);
  if (!io.canPrompt && asking.length > 0) {
    throw missingInputError(asking, file !== undefined ? { file, locate: (p) => doc.locate(p) } : {}, file ?? 'the shipment', early);
  }
  if (early.length > 0) throw new ValidationError(early);
  const prompts: PromptIO | undefined = io.canPrompt ? promptIO(ctx) : undefined;
  const done = await completeShipment(shipment, 'shipment', {
    io: prompts,
    senders: profile.senders ?? {},
    service,
    quote: async (q) => quoteServices(await ctx.api(), q),
  });
  const shown = new Set<string>();
  if (prompts && done.asked.length > 0) {
    const chosen = done.chosen ? new Map([[0, done.chosen]]) : new Map();
    // The warnings are shown beside their parts before the question, and not said again after it.
    const warnings = summaryWarnings(shipment, ctx.pickup);
    if (!(await confirmSummary(prompts, renderSummary([shipment], chosen, undefined, [warnings]), 'Create this shipment?'))) {
      throw new ShipbookError('declined', 'not created: declined at the summary; nothing was sent', 'interrupted');
    }
    for (const w of warnings) shown.add(w.message);
  }
  const validated = validateKind(doc, 'shipment', ctx);
  const value = showWarnings(ctx, { ...validated, warnings: validated.warnings.filter((w) => !shown.has(w.message)) });
  const saveAs = flags.saveAs ?? (prompts && done.asked.length > 0 ? await askSaveAs(prompts, 'shipment.yaml') : undefined);
  if (saveAs !== undefined) {
    await saveDocument(saveAs, doc.data, `shipbook shipment create ${saveAs}`, ctx.now());
    io.err(`Saved the shipment as ${saveAs}; create it again with: shipbook shipment create ${saveAs}\n`);
  }
  return value;
}
