/**
 * `shipbook book <inputs…>` as a batch: many files, directories, multi-document YAML,
 * JSON arrays and NDJSON; every input validated before the first request; booked at
 * `--concurrency` orders at once, with a journal that makes a killed run resumable without booking anything
 * twice; `--report`, `--junit`, `--shard i/n`, `--skip-invalid`; exit 8 when some orders failed
 * or are unknown. The work is src/booking/batch/; this file maps flags and prints.
 */
import { hintText } from '../../output/hints.js';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  buildAcceptRequest,
  NEW_ORDER,
  type PaymentFlags,
  type BatchInputOptions,
  runBatch,
  BatchStoppedError,
  emptySummary,
  type BatchResult,
  type BatchSummary,
  planBatch,
  checkBatch,
  type BatchCheck,
  ReportWriter,
  CsvReportWriter,
  isCsvReport,
  prepareRunWaiter,
  type WaitSettings,
  batchEnd,
  batchOutcome,
  openBatchLedger,
  BatchReports,
  batchConnections,
  type PriceCaps,
} from '../../booking/index.js';
import type { AcceptRequest } from '../../schema/payment.js';
import { defaultJournalPath, type LedgerStore } from '../../ledger/index.js';
import { openLedgerFor } from '../common/record.js';
import { nextStepHint, plannedLine, plannedWords } from '../../output/ledger.js';
import type { HintStyle } from '../../shell.js';
import type { ApiClient } from '../../api/client.js';
import type { OrderPaths } from '../../api/orders.js';
import { parseShard, type Shard } from '../../ledger/index.js';
import { csvBatchInput, csvSettings, hasCsvFlags, type CsvFlags, type CsvSettings } from '../common/csv-book-flags.js';
import type { Context } from '../../context.js';
import { runCaps, type CapFlags } from '../common/caps.js';
import { ShipbookError, UsageError, ValidationError, exitCodeOf, cmd } from '../../errors.js';
import { batchProgress, batchResultLine, batchSummaryLine, batchWaitNotices, batchWrites, heldLine, printBatchSummary } from '../../output/batch.js';
import { isMachineFormat } from '../../output/format.js';
import { printWarnings } from '../../output/report.js';
import { withWordedIssues, wordIssues } from '../../output/issues.js';
import { paint } from '../../output/style.js';
import { claimsLockNote, heldOrdersNote } from '../../output/other-run.js';
import { checkOutputFiles } from '../../output-paths.js';
import { formatCents } from '../../schema/money.js';
import { batchPapers } from '../documents/booking.js';
import { batchRules, type RulesFlags } from '../rules/apply.js';
import { rerunCommand } from './rerun.js';

/** The flags of a batch. */
export interface BatchFlags extends CsvFlags {
  concurrency?: string;
  journal?: string;
  report?: string;
  junit?: string;
  shard?: string;
  skipInvalid?: boolean;
  /** `--documents DIR`: the customs papers of each international order, made once it is processed. */
  documents?: string;
  documentsAgain?: boolean;
}

/** True when `book` was given what only a batch takes: several inputs, a directory, NDJSON or a batch flag. */
export function isBatch(inputs: readonly string[], flags: BatchFlags, isDirectory: (p: string) => boolean): boolean {
  if (inputs.length > 1) return true;
  if (
    flags.concurrency !== undefined ||
    flags.journal !== undefined ||
    flags.report !== undefined ||
    flags.junit !== undefined ||
    flags.shard !== undefined ||
    flags.skipInvalid ||
    flags.documents !== undefined
  )
    return true;
  if (hasCsvFlags(flags)) return true;
  const only = inputs[0];
  return only !== undefined && only !== '-' && (/\.(ndjson|jsonl|csv|tsv)$/i.test(only) || isDirectory(only));
}

/** Options of a batch, parsed. */
interface BatchBookOptions extends PaymentFlags, CapFlags, RulesFlags {
  inputs: string[];
  concurrency: number;
  /** `--journal`: the batch's journal copy; default the target's own (src/ledger/ledger.ts `defaultJournalPath`). */
  journal?: string;
  report?: string;
  junit?: string;
  shard?: Shard;
  skipInvalid: boolean;
  /** How results are awaited: by the run's callback receiver where that route works, else by polling. */
  wait: WaitSettings;
  /** How CSV inputs are read. */
  csv: CsvSettings;
  /** Standard input's bytes when they were read already (to tell a single order from a list). */
  stdin?: Buffer;
  /** `--documents DIR` and `--documents-again`. */
  documents?: string;
  documentsAgain?: boolean;
}

/** Parses the batch flags. @throws UsageError (exit 2) */
export function batchOptions(inputs: string[], flags: BatchFlags & PaymentFlags & CapFlags & RulesFlags, wait: WaitSettings): BatchBookOptions {
  const concurrency = flags.concurrency === undefined ? 4 : Number(flags.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 256)
    throw new UsageError(`--concurrency must be a whole number from 1 to 256 (got "${flags.concurrency}")`);
  let shard: Shard | undefined;
  if (flags.shard !== undefined) {
    shard = parseShard(flags.shard);
    if (shard === undefined)
      throw new UsageError(`--shard must be i/n with 1 ≤ i ≤ n (got "${flags.shard}")`, {
        suggestion: 'For example --shard 2/4 in the second job of a matrix of four.',
      });
  }
  const csv = csvSettings(flags);
  return {
    csv,
    ...flags,
    inputs,
    concurrency,
    ...(flags.journal !== undefined ? { journal: flags.journal } : {}),
    report: flags.report,
    junit: flags.junit,
    shard,
    skipInvalid: flags.skipInvalid === true,
    wait,
  };
}

/**
 * Prints the warnings of the checked orders on stderr (`file:line:col  path  warning: …`), at most
 * the first thousand with a count of the rest; the JSON and CSV reports carry every one, per order.
 */
function printCheckWarnings(ctx: Context, check: BatchCheck): void {
  if (check.warnings === undefined) return;
  printWarnings(ctx.io, check.warnings);
  const more = (check.warningCount ?? 0) - check.warnings.length;
  if (more > 0) ctx.io.err(`… and ${more} more warning${more === 1 ? '' : 's'} (--report lists them per order)\n`);
}

/**
 * The refusal of a batch with invalid inputs: every problem, and how many orders are concerned.
 * When standard input was read as documents and is invalid, the hint says how a spreadsheet is read.
 */
function invalidError(check: BatchCheck, o: Pick<BatchBookOptions, 'csv'>): ValidationError {
  const stdin = o.csv.format === undefined && check.invalid.some((x) => x.file === '-');
  return new ValidationError(
    check.invalid.flatMap((x) => x.issues),
    `${check.invalid.length} of ${check.invalid.length + check.valid} orders are not valid; nothing was sent`,
    {
      suggestion: `Fix them, or leave them out with --skip-invalid.${stdin ? ' Standard input is read as JSON, YAML or NDJSON; a spreadsheet on it needs --input-format csv (or tsv).' : ''}`,
    },
  );
}

/** Nothing will be sent: the CSV report says which rows are valid, and what is wrong with the others. */
async function writeInvalidRows(csvReport: CsvReportWriter, check: BatchCheck, o: BatchBookOptions): Promise<void> {
  for (const x of check.invalid) csvReport.add({ id: '', file: x.file, line: x.line, status: 'invalid', attempts: 0, issues: x.issues });
  await csvReport.finish({ dryRun: o.shard === undefined });
}

/**
 * A shard may hold none of the orders (a CI matrix of four jobs for two orders): that job has
 * nothing to book, which is no error; it still runs, so its summary and reports say so.
 */
function noteEmptyShard(o: BatchBookOptions, check: BatchCheck, ctx: Context): void {
  if (check.valid > 0 || check.invalid.length > 0 || o.shard === undefined) return;
  ctx.io.err(
    `note: shard ${o.shard.index}/${o.shard.count} holds none of the ${check.outsideShard} order${check.outsideShard === 1 ? '' : 's'} of the inputs (an order's shard is fixed by its content); nothing to book\n`,
  );
}

/** Every file a batch will write (`--report`, `--junit`, `--journal`), checked before anything is read, asked or sent. @throws UsageError (exit 2) */
function checkBatchFiles(o: Pick<BatchBookOptions, 'report' | 'junit' | 'journal'>): void {
  checkOutputFiles([
    ...(o.report !== undefined ? [{ flag: '--report', path: o.report }] : []),
    ...(o.junit !== undefined ? [{ flag: '--junit', path: o.junit }] : []),
    ...(o.journal !== undefined ? [{ flag: '--journal', path: o.journal, makesDirectory: true }] : []),
  ]);
}

/**
 * What a batch runs with, each closed when the run ends: the ledger of the target with the batch's
 * journal copy (its notes said, a wait for its claims lock said once per wait and bounded by
 * --wait-timeout), a keep-alive pool sized to the concurrency (at most that many requests in flight,
 * src/booking/batch/slots.ts), and one callback receiver where the callback route works (else every
 * order polls).
 */
async function openBatchRun(
  o: BatchBookOptions,
  ctx: Context,
  x: { journalPath: string; command: string; template: AcceptRequest; paths: OrderPaths },
): Promise<{ ledger: Awaited<ReturnType<typeof openBatchLedger>>; api: ApiClient; callbacks: Awaited<ReturnType<typeof prepareRunWaiter>> }> {
  const { io } = ctx;
  const { journalPath, command, template } = x;
  const ledger = await openBatchLedger(() =>
    openLedgerFor(ctx, { op: 'book', command, copy: { path: journalPath, lock: true }, payment: () => template.order.payment.type }),
  );
  ctx.defer(() => ledger.close());
  for (const note of ledger.notes) io.err(`note: ${note}\n`);
  // A run paused while it holds the ledger's claims lock holds up every claim: said once per wait,
  // with who holds it; after --wait-timeout the batch stops, every input reported for a rerun.
  ledger.lockWaitMs = o.wait.timeoutMs;
  ledger.onLockWait = (h) =>
    io.err(
      claimsLockNote(io, h, { timeoutMs: o.wait.timeoutMs, flag: '--wait-timeout', then: 'the batch stops and reports every order where it stands (exit 8)' }),
    );
  // The run's keep-alive pool, which bounds its requests in flight: one connection per order slot.
  // The first Ctrl-C or SIGTERM is the run's stopping: no new order starts, and the booking engine
  // lets requests already sent finish within their deadline; a second one ends the process at once.
  const api = (await ctx.api()).withOptions({ connections: batchConnections(o.concurrency) });
  ctx.defer(() => api.close());
  // One callback receiver for the run where the callback route works (else every order polls).
  const callbacks = await prepareRunWaiter(
    {
      api,
      paths: x.paths,
      onEvent: batchWaitNotices(io),
      now: () => ctx.now().getTime(),
      sleep: ctx.sleep,
      debugLog: (line: string) => ctx.debugLog(line),
      hints: ctx.settings.hints,
    },
    o.wait,
    { ownCallback: template.callback !== undefined },
  );
  if (callbacks !== undefined) ctx.defer(() => callbacks.close());
  return { ledger, api, callbacks };
}

/**
 * The accept request of one order of a batch: a copy of the checked template with the order's id
 * (an accept request is plain JSON data: a JSON copy is exact), or built anew for a payment file
 * that names its own order.id (so the mismatch is reported as before).
 */
async function acceptRequestOf(
  orderId: string,
  template: AcceptRequest,
  o: BatchBookOptions,
  ctx: Context,
  defaultPayment: Parameters<typeof buildAcceptRequest>[2],
): Promise<AcceptRequest> {
  if (template.order.id !== NEW_ORDER) return buildAcceptRequest(orderId, o, defaultPayment, { now: ctx.now, stdin: ctx.io.stdin });
  const copy = JSON.parse(JSON.stringify(template)) as AcceptRequest;
  return { ...copy, order: { ...copy.order, id: orderId } };
}

/**
 * A second Ctrl-C ends the process at once: every input reported where it stands, and the summary
 * line said (with the budget spent) while stderr is still there.
 */
function reportStoppedAtOnce(io: Context['io'], tally: BatchReports, caps: Pick<PriceCaps, 'budget'>): void {
  const soFar = tally.finishNow();
  try {
    const budget = caps.budget === undefined ? {} : { budget: { limit: formatCents(caps.budget.limitCents), spent: formatCents(caps.budget.spentCents) } };
    io.err(`${batchSummaryLine(io, { ...soFar, ...budget, interrupted: true })}\n`);
  } catch {
    // stderr is gone too
  }
}

/** The batch's handlers of each finished order (`onResult`), and of orders held up by other runs (said on stderr). */
function resultHandlers(
  io: Context['io'],
  onResult: (r: BatchResult) => void,
): Pick<Parameters<typeof runBatch>[2], 'onResult' | 'onHeld' | 'onWaitingForOthers'> {
  return {
    onResult,
    onHeld(item, by) {
      io.err(heldLine(io, item, by));
    },
    onWaitingForOthers(e) {
      io.err(heldOrdersNote(io, e, { timeoutMs: e.timeoutMs, flag: '--wait-timeout', then: 'they are reported failed, for a rerun' }));
    },
  };
}

/**
 * Ends a batch that ran (or stopped): the papers, the JSON/JUnit and CSV reports finished (a stopped
 * batch's own error comes first; a report it could not write is said too), the orders' document
 * closed with the summary, the summary and the hints of the orders printed.
 * @throws the stopped batch's cause; the batch's end (exit 8, the signal's code …) from src/booking/batch/outcome.ts `batchEnd`
 */
async function endBatchRun(
  ctx: Context,
  summary: BatchSummary,
  stopped: BatchStoppedError | undefined,
  x: {
    papers: { settle(): Promise<void> } | undefined;
    reports: ReportWriter;
    csvReport: CsvReportWriter | undefined;
    orders: ReturnType<Context['output']['stream']>;
    failures: BatchResult[];
    command: string;
    journal: string;
    ledger: string;
    unregisterStoppedAtOnce: () => void;
  },
): Promise<void> {
  const { io } = ctx;
  const reason = ctx.signal.aborted ? String(ctx.signal.reason) : undefined;
  const outcome = stopped !== undefined ? (stopped.cause instanceof ShipbookError ? stopped.cause.kind : 'internal') : batchOutcome(summary, reason);
  const exitCode = exitCodeOf(outcome);
  await x.papers?.settle();
  try {
    await x.reports.finish(summary);
    // A second Ctrl-C while the CSV report is written still writes it as the process exits.
    await x.csvReport?.finish();
  } catch (err) {
    // A stopped batch's own error says what matters most; a report it could not write is said too.
    if (stopped === undefined) throw err;
    io.err(`${paint(io, 'red', 'error:')} ${err instanceof Error ? err.message : String(err)}\n`);
  } finally {
    x.unregisterStoppedAtOnce();
  }
  x.orders.end((collected) => {
    const { totalCents, ...rest } = summary;
    return { summary: { ...rest, total: formatCents(totalCents), exit_code: exitCode }, orders: collected };
  });
  // The hints of the orders, one per distinct action: "run the same command again" is said once, below.
  await printBatchSummary(io, summary, x.failures, ctx.settings.hints);
  if (stopped !== undefined) throw stopped.cause;
  const end = batchEnd(outcome, summary, { reason, command: x.command, journal: x.journal, ledger: x.ledger, failures: x.failures });
  if (end !== undefined) throw end;
}

/**
 * The inputs of a batch read and checked before anything is asked or sent: every output file
 * checked, the rules applied as each order is checked, the CSV report's invalid rows written.
 * Undefined after a dry run (which lists the inputs and ends).
 * @throws UsageError (exit 2) for inputs with no orders; ValidationError (exit 2) for an invalid input without --skip-invalid
 */
async function checkedBatch(
  o: BatchBookOptions,
  ctx: Context,
): Promise<{ input: BatchInputOptions; csvReport: CsvReportWriter | undefined; check: BatchCheck; ruled: Awaited<ReturnType<typeof batchRules>> } | undefined> {
  // Every file the run will write, checked before anything is read, asked or sent.
  checkBatchFiles(o);
  const read = await csvBatchInput(o.csv, ctx);
  const given = o.stdin;
  // Service-selection rules choose each order's service as it is checked (a dry run sends no quote).
  const ruled = ctx.globals.dryRun ? undefined : await batchRules(o, ctx);
  const input: BatchInputOptions = { ...read, ...(given === undefined ? {} : { stdin: async () => given }), ...(ruled ? { prepare: ruled.prepare } : {}) };
  // `--report *.csv`: the input rows with the results beside them; any other name: the JSON report.
  const csvReport = o.report !== undefined && isCsvReport(o.report) ? new CsvReportWriter(o.report, o.inputs, input) : undefined;
  // A dry run reads and checks the inputs once, as it lists them.
  if (ctx.globals.dryRun) {
    await dryRunBatch(o, ctx, { input, csvReport });
    return undefined;
  }
  const checked = await checkBatch(o.inputs, { shard: o.shard, now: ctx.now, keep: true, input });
  // Each problem's next step in words, for the run's shell and profile, before it is printed or reported.
  const check = {
    ...checked,
    invalid: checked.invalid.map((x) => withWordedIssues(x, ctx.settings.hints)),
    warnings: wordIssues(checked.warnings, ctx.settings.hints),
  };
  printCheckWarnings(ctx, check);
  if (csvReport && check.invalid.length > 0 && !o.skipInvalid) await writeInvalidRows(csvReport, check, o);
  if (check.valid === 0 && check.invalid.length === 0 && check.outsideShard === 0) throw new UsageError('no orders in the inputs');
  noteEmptyShard(o, check, ctx);
  if (check.invalid.length > 0 && !o.skipInvalid) throw invalidError(check, o);
  return { input, csvReport, check, ruled };
}

/**
 * A result as the reports and the terminal show it: its problems' next steps and its own next step
 * (`next`, as `hint`) in words, for the run's shell and profile.
 */
function resultInWords(result: BatchResult, run: { rerun: string; journal: string | undefined }, hints: HintStyle): BatchResult {
  const r = withWordedIssues(result, hints);
  return r.next === undefined ? r : { ...r, hint: nextStepHint(r.next, { ...run, file: r.file }, hints) };
}

/**
 * What the batch runner (src/booking/batch/runner.ts) uses of this run: the client, the ledger, the
 * caps, the pace of polls, the callback receiver, each order's accept request (from `x.template`),
 * and where each order's result goes (`onResult`, after the progress events the terminal shows).
 */
function runnerDeps(
  o: BatchBookOptions,
  ctx: Context,
  x: {
    api: ApiClient;
    ledger: LedgerStore;
    caps: PriceCaps;
    callbacks: Awaited<ReturnType<typeof prepareRunWaiter>>;
    template: AcceptRequest;
    profile: Awaited<ReturnType<Context['profile']>>;
  },
  onResult: (r: BatchResult) => void,
): Parameters<typeof runBatch>[2] {
  return {
    api: x.api,
    accept: (orderId) => acceptRequestOf(orderId, x.template, o, ctx, x.profile.defaultPayment),
    paths: x.profile.paths,
    ledger: x.ledger,
    caps: x.caps,
    concurrency: o.concurrency,
    pollMs: o.wait.pollMs,
    hints: ctx.settings.hints,
    timeoutMs: o.wait.timeoutMs,
    ...(x.callbacks !== undefined ? { callbacks: x.callbacks } : {}),
    signal: ctx.signal,
    now: ctx.now,
    ...resultHandlers(ctx.io, onResult),
  };
}

/**
 * Runs a batch: check everything, then (unless `--dry-run`) book through the booking engine with
 * the ledger of the target and the batch's journal copy. A dry run lists every input of the shard
 * with its identity and what this run would do with it.
 * @throws ValidationError (exit 2) when an input is invalid and `--skip-invalid` was not given; nothing is sent
 * @throws JournalTargetError (exit 2) when the journal was written against another target
 * @throws ShipbookError exit 8 when some orders failed or are unknown (after printing them); when
 *   interrupted, the signal's exit code (130, 143) or 141 for a closed stdout (8 when an order failed);
 *   the error of a ledger that took no more records (exit 10, 11), after the reports list every input
 */
/**
 * Where a batch's whole result goes (with --documents: once its papers are written): the
 * reports, the progress, the failures for the summary's hints, and the orders' output.
 */
function intoReports(x: {
  tally: BatchReports;
  progress: ReturnType<typeof batchProgress>;
  failures: BatchResult[];
  orders: ReturnType<Context['output']['stream']>;
  io: Context['io'];
}): (r: BatchResult) => void {
  return (r) => {
    x.tally.add(r);
    x.progress.done(r);
    if (r.status !== 'booked' && r.status !== 'already_booked' && r.status !== 'booked_by_other_run' && r.status !== 'not_started') x.failures.push(r);
    x.orders.add(r, () => x.io.out(`${batchResultLine(r)}\n`));
  };
}

export async function runBatchBook(o: BatchBookOptions, ctx: Context): Promise<void> {
  const { io } = ctx;
  const checked = await checkedBatch(o, ctx);
  if (checked === undefined) return;
  const { input, csvReport, check, ruled } = checked;
  const journalPath = resolve(o.journal ?? defaultJournalPath(await ctx.targetId()));
  const profile = await ctx.profile();
  // The price caps (flags, else the profile's settings), held by every order of the batch.
  const caps = await runCaps(o, ctx);
  // A bad payment sends nothing. The checked request is the template of every order's accept
  // (read and validated once, not once per order); a file that names its own order.id is built
  // per order, so that the mismatch is reported as before.
  const template = await buildAcceptRequest(NEW_ORDER, o, profile.defaultPayment, { now: ctx.now, stdin: io.stdin });
  const command = rerunCommand(o, ctx.settings.hints);
  const { ledger, api, callbacks } = await openBatchRun(o, ctx, { journalPath, command, template, paths: profile.paths });
  const reports = new ReportWriter({ report: csvReport ? undefined : o.report, junit: o.junit, target: () => ctx.output.target });
  const withHint = (r: BatchResult): BatchResult => resultInWords(r, { rerun: command, journal: explicitJournal }, ctx.settings.hints);
  // The inputs reported so far, and their counts: a process that ends at once (a second Ctrl-C)
  // reports every other input at the stage the ledger last knew, and says the summary line.
  const tally = new BatchReports({ reports, csvReport, entries: check.entries, ledger, withHint, maxTotalCents: caps.maxTotalCents });
  // A second Ctrl-C ends the process at once: the reports are finished as it exits (the journal's
  // pending records are written and its lock given back by the journal's own exit hook). The CSV
  // report reads where each input row belongs while the batch runs, so it can be written then too.
  void csvReport?.prepare();
  const stoppedAtOnce = () => reportStoppedAtOnce(io, tally, caps);
  const unregisterStoppedAtOnce = ctx.onExit(stoppedAtOnce);
  const papers =
    o.documents === undefined ? undefined : await batchPapers({ dir: o.documents, again: o.documentsAgain === true, ledger, settings: profile.papers, io });
  const progress = batchProgress(io, ctx.output.choice, check.valid + (o.skipInvalid ? check.invalid.length : 0));
  // Without a progress line on stderr, the lines of the orders are written once per turn.
  const writes = io.stderrIsTTY ? undefined : batchWrites(io, ctx.onExit);
  // Each order as it finishes, through the writer: a line (tsv, or the ids with --quiet), an ndjson record, or kept for the json/yaml document.
  const orders = ctx.output.stream<BatchResult>();
  const failures: BatchResult[] = [];
  const explicitJournal = o.journal === undefined ? undefined : journalPath;
  // The progress line says when the run waits for the service's rate limit (the API client's pacer).
  const unsubscribe = api.onPace((e) => progress.paused(e.kind === 'paused' ? e.until : undefined));
  const report = intoReports({ tally, progress, failures, orders, io });
  let summary: BatchSummary;
  let stopped: BatchStoppedError | undefined;
  try {
    summary = await runBatch(
      o.inputs,
      { shard: o.shard, skipInvalid: o.skipInvalid, input, ...(check.items ? { checked: check.items } : { places: check.entries }) },
      {
        ...runnerDeps(o, ctx, { api, ledger, caps, callbacks, template, profile }, (result) => {
          const r = ruled ? ruled.withChoice(withHint(result)) : withHint(result);
          if (papers) papers.add(r, report);
          else report(r);
        }),
        ...(ruled ? { mail: ruled.mail } : {}),
      },
    );
  } catch (err) {
    // The ledger took no more records (a full disk, a lost database, the journal's lock taken):
    // every input was still reported, so the reports and the summary are written whole, then the
    // batch ends with that error.
    if (!(err instanceof BatchStoppedError)) {
      unregisterStoppedAtOnce();
      // An error the runner did not turn into a stop still leaves reports naming every input.
      tally.finishNow();
      throw err;
    }
    stopped = err;
    summary = err.summary;
  } finally {
    unsubscribe();
    writes?.stop();
  }
  progress.stop();
  const run = { papers, reports, csvReport, orders, failures, command, journal: journalPath, ledger: ledger.location, unregisterStoppedAtOnce };
  await endBatchRun(ctx, summary, stopped, run);
}

/**
 * `--dry-run` of a batch: every input of the shard, its identity and what this run would do, from
 * one pass over the inputs (which is also their check).
 * @throws ValidationError (exit 2) after the list, when an input is invalid and `--skip-invalid` was not given
 */
async function dryRunBatch(
  o: BatchBookOptions,
  ctx: Context,
  x: { input: BatchInputOptions | undefined; csvReport: CsvReportWriter | undefined },
): Promise<void> {
  const { io } = ctx;
  const target = await ctx.targetId();
  const journalPath = resolve(o.journal ?? defaultJournalPath(target));
  const get = await ctx.ledger('peek', { copy: { path: journalPath } });
  const format = ctx.output.format;
  const inputs: BatchResult[] = [];
  const counts: Record<string, number> = {};
  const check: BatchCheck = { valid: 0, invalid: [], outsideShard: 0, entries: [] };
  // The reports of a dry run list the plan: one entry (a JUnit test case, skipped; a CSV row) per order.
  const reports = new ReportWriter({ report: x.csvReport ? undefined : o.report, junit: o.junit, target: () => ctx.output.target });
  const { maxTotalCents } = await runCaps(o, ctx);
  await planBatch(
    o.inputs,
    { shard: o.shard, now: ctx.now, input: x.input, ...(maxTotalCents !== undefined ? { maxTotalCents } : {}) },
    get,
    (planned) => {
      const r = withWordedIssues(planned, ctx.settings.hints);
      if (r.status === 'invalid') check.invalid.push({ file: r.file, line: r.line, issues: r.issues ?? [] });
      else {
        check.valid++;
        x.csvReport?.add(r);
      }
      if (r.warnings) {
        check.warningCount = (check.warningCount ?? 0) + r.warnings.length;
        check.warnings ??= [];
        if (check.warnings.length < 1_000) check.warnings.push(...r.warnings);
      }
      reports.add({ ...r, plan_words: plannedWords(r.plan) });
      const action = r.plan?.action ?? 'book';
      counts[action] = (counts[action] ?? 0) + 1;
      if (format === 'ndjson') ctx.output.data(r);
      else if (isMachineFormat(format)) inputs.push(r);
      else io.out(`${plannedLine(r, ctx.settings.hints)}\n`);
    },
    check,
  );
  printCheckWarnings(ctx, check);
  if (x.csvReport) await writeInvalidRows(x.csvReport, check, o);
  await reports.finish({ ...emptySummary(), invalid: check.invalid.length }, new Date(), { dryRun: true });
  noteEmptyShard(o, check, ctx);
  const t = await ctx.target();
  const shard = o.shard ? { shard: `${o.shard.index}/${o.shard.count}` } : {};
  if (format === 'json' || format === 'yaml') {
    ctx.output.data({ dry_run: true, sent: false, valid: check.valid, invalid: check.invalid.length, ...shard, target: t, would: counts, inputs });
  }
  const words = Object.entries(counts)
    .map(([k, n]) => `${n} ${k.replace('_', ' ')}`)
    .join(', ');
  io.err(
    `dry run: ${check.valid} order(s) valid${check.invalid.length ? `, ${check.invalid.length} invalid` : ''}${words ? ` (${words})` : ''}; nothing was sent\n`,
  );
  if (check.invalid.length > 0 && !o.skipInvalid) throw invalidError(check, o);
}
