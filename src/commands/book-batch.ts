/**
 * `shipbook book <inputs…>` as a batch (issue 11): many files, directories, multi-document YAML,
 * JSON arrays and NDJSON; every input validated before the first request; booked at
 * `--concurrency` with a journal that makes a killed run resumable without booking anything
 * twice; `--report`, `--junit`, `--shard i/n`, `--skip-invalid`; exit 8 when some orders failed
 * or are unknown. The work is src/batch/; this file maps flags and prints.
 */
import { resolve } from 'node:path';
import { buildAcceptRequest, type PaymentFlags } from '../booking/payment.js';
import { checkBatch, runBatch, type BatchResult } from '../batch/runner.js';
import { DEFAULT_JOURNAL, Journal, JournalLockedError, JournalUnusableError } from '../batch/journal.js';
import { parseShard, type Shard } from '../batch/identity.js';
import { ReportWriter } from '../batch/report.js';
import { CsvReportWriter, isCsvReport } from '../batch/report-csv.js';
import { csvBatchInput, csvSettings, hasCsvFlags, type CsvFlags, type CsvSettings } from './csv/book-flags.js';
import type { Context } from '../context.js';
import { EXIT, ShipbookError, UsageError, ValidationError } from '../errors.js';
import { batchProgress, batchResultLine, printBatchSummary } from '../output/batch.js';
import { isMachineFormat } from '../output/writer.js';

/** The flags of a batch. */
export interface BatchFlags extends CsvFlags {
  concurrency?: string;
  journal?: string;
  report?: string;
  junit?: string;
  shard?: string;
  skipInvalid?: boolean;
}

/** True when `book` was given what only a batch takes: several inputs, a directory, NDJSON or a batch flag. */
export function isBatch(inputs: readonly string[], flags: BatchFlags, isDirectory: (p: string) => boolean): boolean {
  if (inputs.length > 1) return true;
  if (flags.concurrency !== undefined || flags.journal !== undefined || flags.report !== undefined || flags.junit !== undefined || flags.shard !== undefined || flags.skipInvalid) return true;
  if (hasCsvFlags(flags)) return true;
  const only = inputs[0];
  return only !== undefined && only !== '-' && (/\.(ndjson|jsonl|csv|tsv)$/i.test(only) || isDirectory(only));
}

/** Options of a batch, parsed. */
export interface BatchBookOptions extends PaymentFlags {
  inputs: string[];
  concurrency: number;
  journal: string;
  report?: string;
  junit?: string;
  shard?: Shard;
  skipInvalid: boolean;
  pollMs: number;
  timeoutMs: number;
  /** How CSV inputs are read. */
  csv: CsvSettings;
}

/** Parses the batch flags. @throws UsageError (exit 2) */
export function batchOptions(inputs: string[], flags: BatchFlags & PaymentFlags, wait: { pollMs: number; timeoutMs: number }): BatchBookOptions {
  const concurrency = flags.concurrency === undefined ? 4 : Number(flags.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 256) throw new UsageError(`--concurrency must be a whole number from 1 to 256 (got "${flags.concurrency}")`);
  let shard: Shard | undefined;
  if (flags.shard !== undefined) {
    shard = parseShard(flags.shard);
    if (shard === undefined) throw new UsageError(`--shard must be i/n with 1 ≤ i ≤ n (got "${flags.shard}")`, { suggestion: 'For example --shard 2/4 in the second job of a matrix of four.' });
  }
  const csv = csvSettings(flags);
  if (inputs.includes('-') && csv.format === undefined) {
    throw new UsageError('a batch reads standard input only as a spreadsheet (--input-format csv or tsv)', { suggestion: 'Give "-" with --input-format csv, or save the orders to a file (NDJSON: one per line) and give its name.' });
  }
  return {
    csv,
    ...flags,
    inputs,
    concurrency,
    journal: flags.journal ?? DEFAULT_JOURNAL,
    report: flags.report,
    junit: flags.junit,
    shard,
    skipInvalid: flags.skipInvalid === true,
    pollMs: wait.pollMs,
    timeoutMs: wait.timeoutMs,
  };
}

/**
 * Runs a batch: check everything, then (unless `--dry-run`) book with the journal.
 * @throws ValidationError (exit 2) when an input is invalid and `--skip-invalid` was not given; nothing is sent
 * @throws ShipbookError exit 8 when some orders failed or are unknown (after printing them)
 */
export async function runBatchBook(o: BatchBookOptions, ctx: Context): Promise<void> {
  const { io } = ctx;
  const input = await csvBatchInput(o.csv, ctx);
  const check = await checkBatch(o.inputs, { shard: o.shard, now: ctx.now, keep: !ctx.globals.dryRun, input });
  // `--report *.csv`: the input rows with the results beside them; any other name: the JSON report.
  const csvReport = o.report !== undefined && isCsvReport(o.report) ? new CsvReportWriter(o.report, o.inputs, input) : undefined;
  if (csvReport && (ctx.globals.dryRun || (check.invalid.length > 0 && !o.skipInvalid))) {
    // Nothing will be sent: the report says which rows are valid, and what is wrong with the others.
    for (const x of check.invalid) csvReport.add({ id: '', file: x.file, line: x.line, status: 'invalid', attempts: 0, issues: x.issues });
    await csvReport.finish({ dryRun: o.shard === undefined });
  }
  if (check.invalid.length > 0 && !o.skipInvalid) {
    const issues = check.invalid.flatMap((x) => x.issues);
    throw new ValidationError(issues, `${check.invalid.length} of ${check.invalid.length + check.valid} orders are not valid; nothing was sent`, {
      suggestion: 'Fix them, or leave them out with --skip-invalid.',
    });
  }
  if (ctx.globals.dryRun) {
    const data = { dry_run: true, sent: false, valid: check.valid, invalid: check.invalid.length, ...(o.shard ? { shard: `${o.shard.index}/${o.shard.count}` } : {}) };
    ctx.output.write(data, () => io.out(`valid\t${check.valid}\ninvalid\t${check.invalid.length}\n`));
    io.err(`dry run: ${check.valid} order(s) valid${check.invalid.length ? `, ${check.invalid.length} invalid` : ''}; nothing was sent\n`);
    return;
  }
  if (check.valid === 0 && check.invalid.length === 0) throw new UsageError('no orders in the inputs');

  const profile = await ctx.profile();
  // A bad payment sends nothing. The checked request is the template of every order's accept
  // (read and validated once, not once per order); a file that names its own order.id is built
  // per order, so that the mismatch is reported as before.
  const template = await buildAcceptRequest('ORD-CHECK', o, profile.defaultPayment, { now: ctx.now, stdin: io.stdin });
  const fromTemplate = template.order.id === 'ORD-CHECK';
  let journal: Journal;
  try {
    journal = await Journal.open(resolve(o.journal), { lock: true, command: `shipbook book ${o.inputs.join(' ')}` });
  } catch (err) {
    if (err instanceof JournalLockedError) {
      throw new ShipbookError('journal_locked', err.message, EXIT.INPUT, { suggestion: 'Wait for it to finish, or give this batch its own journal with --journal <file>.' });
    }
    if (err instanceof JournalUnusableError) {
      throw new ShipbookError('journal_unusable', `${err.message}; nothing was sent`, err.exitCode, {
        suggestion: 'Give the batch a journal it can write: --journal <file> in a directory you own (not a file, not read-only).',
        cause: err,
      });
    }
    throw err;
  }
  ctx.defer(() => journal.close());
  for (const note of journal.notes) io.err(`note: ${note}\n`);
  // A keep-alive pool sized to the concurrency: at most that many requests are in flight (src/batch/slots.ts).
  const api = (await ctx.api()).withOptions({ connections: o.concurrency });
  ctx.defer(() => api.close());
  const reports = new ReportWriter({ report: csvReport ? undefined : o.report, junit: o.junit, target: () => ctx.output.target });
  const progress = batchProgress(io, check.valid + (o.skipInvalid ? check.invalid.length : 0), { quiet: ctx.globals.quiet === true });
  const format = ctx.output.format;
  const collected: BatchResult[] = [];
  const failures: BatchResult[] = [];
  const summary = await runBatch(o.inputs, { shard: o.shard, skipInvalid: o.skipInvalid, input, ...(check.items ? { checked: check.items } : {}) }, {
    api,
    accept: async (orderId) =>
      fromTemplate ? { ...structuredClone(template), order: { ...structuredClone(template.order), id: orderId } } : buildAcceptRequest(orderId, o, profile.defaultPayment, { now: ctx.now, stdin: io.stdin }),
    paths: profile.paths,
    journal,
    concurrency: o.concurrency,
    pollMs: o.pollMs,
    timeoutMs: o.timeoutMs,
    signal: ctx.signal,
    now: ctx.now,
    onResult(r) {
      progress.done(r);
      reports.add(r);
      csvReport?.add(r);
      if (r.status === 'failed' || r.status === 'unknown' || r.status === 'invalid') failures.push(r);
      if (format === 'ndjson') ctx.output.data(r);
      else if (isMachineFormat(format)) collected.push(r);
      else if (ctx.globals.quiet) ctx.output.data(r);
      else io.out(`${batchResultLine(r)}\n`);
    },
  });
  progress.stop();
  reports.finish(summary);
  await csvReport?.finish();
  if (format === 'json' || format === 'yaml') {
    const { totalCents, ...rest } = summary;
    ctx.output.data({ summary: { ...rest, total: (totalCents / 100).toFixed(2) }, orders: collected });
  }
  printBatchSummary(io, summary, failures);
  if (summary.failed + summary.unknown > 0) {
    const waiting = failures.filter((r) => r.error?.code === 'interrupted').length;
    const [message, next] = summary.interrupted
      ? [
          `interrupted: ${summary.failed} order(s) not finished${waiting > 0 ? ` (${waiting} accepted and still booking at the service)` : ''} and ${summary.unknown} unknown`,
          'Run the same command again to continue: accepted orders are waited for, not accepted again, and nothing is booked twice.',
        ]
      : [
          `${summary.failed} order(s) failed and ${summary.unknown} are unknown`,
          'Run the same command again to retry the failed ones (nothing is booked twice); resolve unknown ones with "shipbook journal resolve".',
        ];
    throw new ShipbookError('batch_incomplete', message, EXIT.BATCH_INCOMPLETE, { reported: true, suggestion: `${next} Journal: ${o.journal}` });
  }
}
