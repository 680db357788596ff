/**
 * `shipbook book <inputs…> --preview`: what a batch would cost, before it is booked. Every order
 * document is read and checked as a batch reads it, its services chosen by the rules (when the run
 * has rules), and each shipment quoted at the service (through the client, at its pace) for the
 * service it would be booked on; nothing is created. Prints each order's service and exact quoted
 * price, totals per carrier and overall, and, with `--max-total` and `--budget`, which orders would
 * be refused. Text, markdown (`--markdown`, for a CI job summary) or JSON. The pricing and totals
 * are src/booking/preview.ts `previewRuled`; the words src/output/preview.ts.
 */
import type { Context } from '../../context.js';
import type { InputIssue } from '../../errors.js';
import { quoteServices } from '../../api/quote.js';
import { batchItems, orderShipments, previewRuled, priceShipments, type BatchInputOptions, type PricedShipment } from '../../booking/index.js';
import { resolveSenders } from '../../input/senders.js';
import { quoteRequestFor } from '../../prompts/service.js';
import { isObject } from '../../schema/object.js';
import { ruledPreviewData, ruledPreviewNote, ruledPreviewText } from '../../output/preview.js';
import { withWordedIssues } from '../../output/issues.js';
import { runCaps, type CapFlags } from '../common/caps.js';
import { decideDocument, runRules, type RulesFlags } from './apply.js';
import { runMail } from './mail.js';

/** Options of a preview. */
interface PreviewOptions extends RulesFlags, CapFlags {
  inputs: string[];
  /** `--markdown`: a markdown report (tables) instead of lines. */
  markdown?: boolean;
  /** How the inputs are read (CSV settings, standard input). */
  input: BatchInputOptions;
}

/** The transient ids of an order document's shipments. */
function referencesOf(data: unknown): string[] {
  return orderShipments(data).flatMap((s) => (isObject(s) && typeof s.transient_id === 'string' ? [s.transient_id] : []));
}

/** The inputs with their problems' next steps in words, for the run's shell and profile (a problem is shown as a preview row's text). */
async function* inWords<T extends { issues?: InputIssue[] | undefined }>(items: AsyncIterable<T>, ctx: Context): AsyncIterable<T> {
  for await (const item of items) yield withWordedIssues(item, ctx.settings.hints);
}

/**
 * Runs the preview (see the module's description). Orders are read in input order, so the budget
 * refuses the same orders a batch at concurrency 1 would.
 * @throws ValidationError (exit 2) for a rules file with problems; UsageError (exit 2) when a
 *   shipment's service is not in its quote
 */
export async function runPreview(o: PreviewOptions, ctx: Context): Promise<void> {
  const caps = await runCaps(o, ctx);
  const rules = await runRules(o, ctx);
  const mail = rules ? await runMail(ctx) : undefined;
  const profile = await ctx.profile();
  const priced = new Map<string, { shipments: PricedShipment[]; references: string[]; reasons: string[] }>();
  // Each shipment quoted for its own code, insured when its options ask for insurance.
  const quote = async (shipment: unknown, where: string, insured: boolean) => {
    const request = quoteRequestFor(shipment as object, where);
    return quoteServices(await ctx.api(), insured ? { ...request, insurance: 'true' } : request);
  };
  const input: BatchInputOptions = {
    ...o.input,
    prepare: async (doc, id) => {
      const ruled = rules ? await decideDocument(doc, rules, ctx, { mail: mail! }) : undefined;
      const decided = ruled?.loaded ?? doc;
      const resolved = resolveSenders(decided, profile.senders, profile.name);
      // An order the rules send by consolidated mail is priced as its shipments are created (the main shipment is the parent's).
      const list = ruled?.mail !== undefined ? (decided.data as { shipments: unknown[] }).shipments : orderShipments(resolved.data);
      const shipments = await priceShipments(list, decided.file, ruled?.decision.shipments, quote);
      priced.set(id, { shipments, references: referencesOf({ order: { shipments: list } }), reasons: ruled?.records.map((c) => c.reason) ?? [] });
      return ruled?.mail !== undefined ? { ...decided, mail: ruled.mail } : decided;
    },
  };
  const started = Date.now();
  const preview = await previewRuled(inWords(batchItems(o.inputs, undefined, ctx.now, input), ctx), (id) => priced.get(id), {
    maxTotalCents: caps.maxTotalCents,
    budgetCents: caps.budget?.limitCents,
  });
  const seconds = (Date.now() - started) / 1000;
  ctx.output.write(ruledPreviewData(preview), () => ctx.io.out(ruledPreviewText(preview, o.markdown === true)));
  ctx.io.err(ruledPreviewNote(preview, seconds));
}
