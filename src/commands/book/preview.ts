/**
 * `book --dry-run --quote`: the cost preview of the inputs (src/booking/preview.ts): every order
 * checked as a batch checks it, quoted shipment by shipment, nothing created. Prints a Markdown
 * report (table format), tab-separated lines (tsv) or the JSON document, and with `--summary <file>`
 * appends the Markdown report to that file (a GitHub job summary, `$GITHUB_STEP_SUMMARY`).
 */
import { appendFile } from 'node:fs/promises';
import type { Context } from '../../context.js';
import { UsageError, ValidationError } from '../../errors.js';
import { checkBatch, previewOrders } from '../../booking/index.js';
import { quoteServices } from '../../api/quote.js';
import { quoteRequestFor } from '../../prompts/service.js';
import { previewData, previewMarkdown, previewTsv } from '../../output/preview.js';
import { csvBatchInput, csvSettings, type CsvFlags } from '../common/csv-book-flags.js';
import { runCaps, type CapFlags } from '../common/caps.js';

/**
 * Quotes the inputs and prints the preview.
 * @throws UsageError (exit 2) without --dry-run or inputs; ValidationError (exit 2) when an input is
 *   invalid (every problem listed, nothing quoted); what the quote throws (ApiError 3/4, transport 5)
 */
export async function runPreview(inputs: readonly string[], flags: CsvFlags & CapFlags & { summary?: string }, ctx: Context): Promise<void> {
  if (!ctx.globals.dryRun) throw new UsageError('--quote previews the cost of a dry run: book --dry-run --quote', { suggestion: 'Add --dry-run.' });
  if (inputs.length === 0) throw new UsageError('--quote needs the order files to price');
  const caps = await runCaps(flags, ctx);
  const check = await checkBatch(inputs, { now: ctx.now, keep: true, input: await csvBatchInput(csvSettings(flags), ctx) });
  if (check.invalid.length > 0) {
    throw new ValidationError(
      check.invalid.flatMap((i) => i.issues),
      `${check.invalid.length} invalid order${check.invalid.length === 1 ? '' : 's'}; nothing was quoted`,
    );
  }
  if (check.items === undefined) throw new UsageError('too many orders to preview at once: give fewer inputs');
  // Quotes change nothing: they are sent in a dry run too (every other request stays unsent).
  const api = (await ctx.api()).withOptions({ dryRun: undefined });
  const preview = await previewOrders(check.items, {
    quoteOf: (shipment, where) => quoteRequestFor(shipment as Parameters<typeof quoteRequestFor>[0], where),
    quote: (request) => quoteServices(api, request),
    ...(caps.maxTotalCents !== undefined ? { maxTotalCents: caps.maxTotalCents } : {}),
    ...(caps.budget !== undefined ? { budgetCents: caps.budget.limitCents } : {}),
  });
  if (flags.summary !== undefined) await appendFile(flags.summary, previewMarkdown(preview));
  ctx.output.write(previewData(preview), () => ctx.io.out(ctx.output.format === 'tsv' ? previewTsv(preview) : previewMarkdown(preview)));
}
