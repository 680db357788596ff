/**
 * `shipbook book <inputs…> --preview` (alias: `book --dry-run --quote`): what a batch would cost,
 * before it is booked. Every order document is read and checked as a batch reads it, its services
 * chosen by the rules (when the run has rules), and each shipment quoted at the service it would be
 * booked on (its own code, else the quote's cheapest); nothing is created. The pricing and totals
 * are src/booking/preview.ts `previewBatch`; the words src/output/preview.ts: a Markdown report
 * (`--markdown`, or the table format), tab-separated lines, or the JSON document; `--summary <file>`
 * also appends the Markdown report to that file (a GitHub job summary, `$GITHUB_STEP_SUMMARY`).
 */
import { appendFile } from 'node:fs/promises';
import type { Context } from '../../context.js';
import { withWordedIssues } from '../../output/issues.js';
import { UsageError, ValidationError, cmd, placeholder, type InputIssue } from '../../errors.js';
import { quoteServices } from '../../api/quote.js';
import {
  batchItems,
  chooseCheapest,
  previewBatch,
  ratedEntry,
  type BatchInputOptions,
  type Preview,
  type PreparedOrder,
  orderShipments,
} from '../../booking/index.js';
import { quoteRequestFor } from '../../prompts/service.js';
import { previewData, previewMarkdown, previewNote, previewTsv } from '../../output/preview.js';
import { runCaps, type CapFlags } from '../common/caps.js';
import { decideDocument, runRules, type RulesFlags } from '../rules/apply.js';
import { runMail } from '../rules/mail.js';
import { resolveSenders } from '../../input/senders.js';
import { isObject } from '../../schema/object.js';
import type { LoadedDocument } from '../../input/loaded.js';

/** The document without the `tags` given beside `order:` (they are for the rules: without rules they are left out, as a batch leaves them). */
function withoutTags(doc: LoadedDocument): LoadedDocument {
  if (!isObject(doc.data) || !('tags' in doc.data)) return doc;
  const { tags: _tags, ...data } = doc.data;
  return { ...doc, data };
}

/** Options of a preview. */
interface PreviewOptions extends RulesFlags, CapFlags {
  inputs: string[];
  /** `--markdown`: the Markdown report instead of tab-separated lines. */
  markdown?: boolean;
  /** `--summary <file>`: also append the Markdown report to this file. */
  summary?: string;
  /** How the inputs are read (CSV settings, standard input). */
  input: BatchInputOptions;
}

/** The inputs with their problems' next steps in words, for the run's shell and profile (a problem is shown as a preview row's text). */
async function* inWords<T extends { issues?: InputIssue[] | undefined }>(items: AsyncIterable<T>, ctx: Context): AsyncIterable<T> {
  for await (const item of items) yield withWordedIssues(item, ctx.settings.hints);
}

/** How the preview ends: exit 2 when an order was invalid or could not be priced (each said on its row), else 0. */
function previewEnd(p: Preview): ValidationError | UsageError | undefined {
  const invalid = p.rows.filter((r) => r.unpriced === 'invalid').length;
  const unpriceable = p.rows.filter((r) => r.unpriced === 'unpriceable').length;
  const words = [invalid > 0 ? `${invalid} not valid` : '', unpriceable > 0 ? `${unpriceable} could not be priced` : ''].filter(Boolean).join(', ');
  const message = `${words} (of ${p.rows.length} orders); nothing was created`;
  // The preview printed every problem on its row: in a machine format no error document follows it.
  if (invalid > 0) return new ValidationError(p.issues, message, { reported: true });
  return unpriceable > 0
    ? new UsageError(message, { reported: true, suggestion: 'Each order says why on its row: check its addresses, packages and service code.' })
    : undefined;
}

/**
 * Runs the preview (see the module's description). Orders are read in input order, so the budget
 * refuses the same orders a batch at concurrency 1 would.
 * @throws UsageError (exit 2) without inputs, or when an order could not be priced; ValidationError
 *   (exit 2) for a rules file with problems, or after the preview when an order is invalid; what
 *   the quote throws for the run (transport 5, authorization 4)
 */
export async function runPreview(o: PreviewOptions, ctx: Context): Promise<void> {
  if (o.inputs.length === 0)
    throw new UsageError('--preview needs the order files to price', {
      suggestion: ['Name them: ', cmd('book', placeholder('file'), '--preview'), ' (files, directories, NDJSON or CSV).'],
    });
  const caps = await runCaps(o, ctx);
  const rules = await runRules(o, ctx);
  // Quotes and service data change nothing: they are sent in a dry run too (every other request stays unsent).
  const api = (await ctx.api()).withOptions({ dryRun: undefined });
  const mail = rules ? await runMail(ctx, api) : undefined;
  // Each shipment quoted for its own code, insured when its options ask for insurance.
  const quote = async (shipment: unknown, where: string, insured: boolean) => {
    const request = quoteRequestFor(shipment as object, where);
    return quoteServices(api, insured ? { ...request, insurance: 'true' } : request);
  };
  const prepared = new Map<string, PreparedOrder>();
  const input: BatchInputOptions = {
    ...o.input,
    // Each order kept as read for its pricing (amounts as written), its services chosen by the rules first when there are rules.
    prepare: async (doc, id) => {
      const ruled = rules
        ? await decideDocument(doc, rules, ctx, { mail: mail!, quote: async (s, where) => (await quote(s, where, false)).map(ratedEntry) })
        : undefined;
      const decided = ruled?.loaded ?? withoutTags({ ...doc, data: structuredClone(doc.data) });
      const profile = await ctx.profile();
      const resolved = orderShipments(resolveSenders(decided, profile.senders, profile.name).data);
      // No rules: a shipment that names no service is priced (and checked) at the quote's cheapest.
      const cheapest = ruled === undefined ? await chooseCheapest(orderShipments(decided.data), resolved, doc.file, quote) : undefined;
      // An order the rules send by consolidated mail is priced as its shipments are created (the main shipment is the parent's).
      const shipments = ruled?.mail !== undefined ? (decided.data as { shipments: unknown[] }).shipments : resolved;
      const decisions = ruled?.decision.shipments ?? cheapest;
      prepared.set(id, { shipments, ...(decisions ? { decisions } : {}), reasons: ruled?.records.map((c) => c.reason) ?? [] });
      return ruled === undefined ? decided : { ...decided, choice: ruled.choice, ...(ruled.mail !== undefined ? { mail: ruled.mail } : {}) };
    },
  };
  const started = Date.now();
  const preview = await previewBatch(inWords(batchItems(o.inputs, undefined, ctx.now, input), ctx), {
    // Each order's prepared form is read once: the map holds only the orders between their check and their pricing.
    prepared: (id) => {
      const p = prepared.get(id);
      prepared.delete(id);
      return p;
    },
    quote,
    maxTotalCents: caps.maxTotalCents,
    budgetCents: caps.budget?.limitCents,
  });
  if (o.summary !== undefined) await appendFile(o.summary, previewMarkdown(preview));
  const markdown = o.markdown === true || ctx.output.format === 'table';
  ctx.output.write(previewData(preview), () => ctx.io.out(markdown ? previewMarkdown(preview) : previewTsv(preview)));
  ctx.io.err(previewNote(preview, (Date.now() - started) / 1000));
  const end = previewEnd(preview);
  if (end !== undefined) throw end;
}
