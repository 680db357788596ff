/**
 * The batch's reports for CI: `--report report.json` (every order: input file and line, identity,
 * order id, status, price, tracking numbers, attempts, error), rewritten atomically as results
 * arrive so a killed job still leaves a readable report, and `--junit junit.xml` (one test case per
 * order, failures with the service's message) for CI dashboards, written with xmlbuilder2. A
 * process stopped at once (a second Ctrl-C) writes both with every result so far as it exits
 * ({@link ReportWriter.finishNow}).
 */
import writeFileAtomic from 'write-file-atomic';
import { scrubKnownValue } from '../../api/redact.js';
import { ShipbookError } from '../../errors.js';
import { emptySummary, type BatchResult, type BatchSummary } from './results.js';
import type { Target } from '../../config/target.js';
import { formatCents, readCents } from '../../schema/money.js';

/** The JSON report's content. */
interface BatchReport {
  started_at: string;
  /** The service the batch booked on (`kind`, `base_url`, `profile`), so a rehearsal is never read as the real run. */
  target?: Target;
  finished_at?: string;
  summary?: Omit<BatchSummary, 'totalCents'> & { total: string };
  /** A dry run: nothing was sent; each order's `plan` says what a real run would do. */
  dry_run?: true;
  orders: ReportedResult[];
}

/** A result as the reports keep it: a dry run's carries its plan in words too. */
type ReportedResult = BatchResult & { plan_words?: string };

/** Keeps the results and writes the report files (at most every `intervalMs` while running, and at the end). */
export class ReportWriter {
  private report: BatchReport;
  private lastWrite = 0;
  /** True once the files were finished (by {@link finish} or {@link finishNow}). */
  private finished = false;
  /** xmlbuilder2, loaded as soon as a JUnit file is asked for, so {@link finishNow} can write it at once. */
  private xml: typeof import('xmlbuilder2') | undefined;

  /**
   * `paths.target` gives the run's target when the reports are written (it may change once: a
   * service that announces itself as a sandbox in its first answer).
   */
  constructor(
    private readonly paths: { report?: string; junit?: string; target?: () => Target | undefined },
    private readonly intervalMs = 1000,
    now: Date = new Date(),
  ) {
    this.report = { started_at: now.toISOString(), orders: [] };
    if (paths.junit !== undefined) {
      import('xmlbuilder2').then(
        (m) => (this.xml = m),
        () => {},
      );
    }
  }

  #stampTarget(): void {
    const target = this.paths.target?.();
    if (target === undefined) return;
    // `target` right after `started_at`, where a reader looks first.
    const { started_at, ...rest } = this.report;
    const ordered: BatchReport = { started_at, target, orders: [] };
    this.report = Object.assign(ordered, rest, { target });
  }

  /** True when a report file was asked for. */
  get enabled(): boolean {
    return this.paths.report !== undefined || this.paths.junit !== undefined;
  }

  /**
   * Adds a result; writes the JSON report if the interval has passed. Never throws: a disk that
   * refuses this copy is met again, and reported, by {@link finish}.
   */
  add(result: ReportedResult): void {
    if (!this.enabled) return;
    this.report.orders.push(result);
    this.#stampTarget();
    const now = Date.now();
    if (this.paths.report !== undefined && now - this.lastWrite >= this.intervalMs) {
      this.lastWrite = now;
      try {
        writeReport(this.paths.report, `${JSON.stringify(scrubKnownValue(this.report), null, 2)}\n`);
      } catch {
        // the final write says it
      }
    }
  }

  /**
   * Writes both files at once (synchronously) with what is known: every result so far and a
   * summary counted from them, marked `interrupted` and `stopped_at_once`. For a process that ends
   * before the batch could finish (a second Ctrl-C or SIGTERM): the reports are complete as far as
   * the results go, never left a second behind or without their summary. `rest` are the inputs
   * that had no result yet, each at the stage the ledger last knew, so that every input is listed.
   * Nothing when the files were finished already.
   */
  finishNow(now: Date = new Date(), rest: readonly ReportedResult[] = []): void {
    if (!this.enabled || this.finished) return;
    this.finished = true;
    this.report.orders.push(...rest);
    const { totalCents, ...summary } = emptySummary();
    const counts = summary as unknown as Record<string, number>;
    let cents = totalCents;
    for (const o of this.report.orders) {
      counts[o.status] = (counts[o.status] ?? 0) + 1;
      const total = readCents((o as { total?: unknown }).total);
      if ((o.status === 'booked' || o.status === 'already_booked') && total !== undefined) cents += total;
    }
    this.#stampTarget();
    this.report.finished_at = now.toISOString();
    this.report.summary = { ...summary, interrupted: true, total: formatCents(cents) };
    Object.assign(this.report.summary, { stopped_at_once: true });
    if (this.paths.report !== undefined) writeReport(this.paths.report, `${JSON.stringify(scrubKnownValue(this.report), null, 2)}\n`);
    if (this.paths.junit !== undefined && this.xml !== undefined)
      writeReport(this.paths.junit, junitXml(this.xml.create, scrubKnownValue(this.report) as typeof this.report));
  }

  /** Writes both files with the summary (`dryRun`: of a dry run, nothing sent); resolves once they are written. */
  async finish(summary: BatchSummary, now: Date = new Date(), options: { dryRun?: boolean } = {}): Promise<void> {
    if (!this.enabled || this.finished) return;
    // xmlbuilder2 is loaded only for a JUnit file (a batch without one does not pay for it), from
    // the constructor on. It is awaited before the files count as finished, and nothing after is
    // asynchronous: a process that exits meanwhile (a second Ctrl-C) still finishes them at once.
    const xml = this.paths.junit === undefined ? undefined : (this.xml ?? (await import('xmlbuilder2')));
    if (this.finished) return;
    this.finished = true;
    const { totalCents, ...rest } = summary;
    this.#stampTarget();
    if (options.dryRun) this.report.dry_run = true;
    this.report.finished_at = now.toISOString();
    this.report.summary = { ...rest, total: formatCents(totalCents) };
    if (this.paths.report !== undefined) writeReport(this.paths.report, `${JSON.stringify(scrubKnownValue(this.report), null, 2)}\n`);
    if (this.paths.junit !== undefined && xml !== undefined)
      writeReport(this.paths.junit, junitXml(xml.create, scrubKnownValue(this.report) as typeof this.report));
  }
}

/** Refusals of a disk that cannot take writes: exit 10 with the file named, not an internal error. */
const STORAGE_CODES: ReadonlySet<string> = new Set(['ENOSPC', 'EDQUOT', 'EIO', 'EROFS']);

/**
 * Writes a report file atomically.
 * @throws ShipbookError (exit 10) naming the file when the disk refuses it (full, quota, I/O error, read-only)
 */
function writeReport(path: string, text: string): void {
  try {
    writeFileAtomic.sync(path, text);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    // A path the user gave is never an internal error: its directory removed during the run, a
    // permission taken away, a directory in its place.
    if (!STORAGE_CODES.has(code))
      throw new ShipbookError(
        'report_write_failed',
        `cannot write the report ${path} [${code || 'error'}]: ${(err as Error).message}; the journal still says where every order stands`,
        'storage',
        {
          suggestion: 'Give a report path in a directory you can write, then run the same command again: nothing is booked twice.',
          cause: err,
        },
      );
    throw new ShipbookError(
      'report_write_failed',
      `cannot write the report ${path} [${code}]: ${(err as Error).message}; the journal still says where every order stands`,
      'storage',
      {
        suggestion: 'Free space on that disk (or write the report elsewhere), then run the same command again: nothing is booked twice.',
        cause: err,
      },
    );
  }
}

/**
 * Statuses that are neither booked nor failed: JUnit `skipped`. An accepted order whose result is
 * pending (paid, never failed), and the orders an interruption left.
 */
const LEFT = new Set(['accepted', 'still_booking', 'pending', 'not_started']);

/** Statuses that are JUnit failures: failed, unknown, and orders a cap left unaccepted (`over_limit`, `over_budget`). */
const FAILURES = new Set(['failed', 'unknown', 'over_limit', 'over_budget']);

/**
 * JUnit XML: one test suite, one test case per input; failed and unknown orders, and those a cap
 * left unaccepted, are failures,
 * invalid ones errors; accepted orders whose result is pending, and the orders an interruption left
 * (accepted and still booking, created and pending, not started) skipped, each saying what it is
 * and what reads its result.
 */
function junitXml(create: typeof import('xmlbuilder2').create, report: BatchReport): string {
  const orders = report.orders;
  const failures = orders.filter((o) => FAILURES.has(o.status)).length;
  const errors = orders.filter((o) => o.status === 'invalid').length;
  const skipped = orders.filter((o) => LEFT.has(o.status) || o.status === 'valid').length;
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele('testsuites', { name: 'shipbook book', tests: orders.length, failures, errors, skipped });
  const time = orders.reduce((sum, o) => sum + (o.seconds ?? 0), 0).toFixed(3);
  const suite = root.ele('testsuite', { name: 'shipbook book', tests: orders.length, failures, errors, skipped, time, timestamp: report.started_at });
  // The target as JUnit properties, so a dashboard tells a rehearsal on a sandbox from the real run.
  if (report.target !== undefined) {
    const properties = suite.ele('properties');
    properties.ele('property', { name: 'target.kind', value: report.target.kind });
    properties.ele('property', { name: 'target.base_url', value: report.target.base_url ?? '' });
    properties.ele('property', { name: 'target.profile', value: report.target.profile ?? '' });
  }
  for (const o of orders) {
    // The name is the input's place only (no order id, which changes with every run), so a CI's
    // history of a test case follows the same input from run to run.
    const tc = suite.ele('testcase', { classname: o.file, name: `${o.file}:${o.line}`, time: (o.seconds ?? 0).toFixed(3) });
    if (FAILURES.has(o.status)) {
      tc.ele('failure', { message: o.error?.message ?? o.status, type: o.status }).txt(`${o.error?.message ?? o.status}${o.hint ? `\n${o.hint}` : ''}`);
    } else if (o.status === 'invalid') {
      tc.ele('error', { message: 'invalid input', type: 'invalid' }).txt(
        (o.issues ?? []).map((i) => `${i.file ?? o.file}:${i.line ?? '?'}:${i.column_name ?? i.column ?? '?'} ${i.path} ${i.message}`).join('\n'),
      );
    } else if (o.status === 'valid') {
      // A dry run: nothing was run; the plan is what a real run would do.
      tc.ele('skipped', { message: `dry run: ${o.plan_words ?? 'valid'}` });
    } else if (LEFT.has(o.status)) {
      const words =
        o.status === 'accepted'
          ? `accepted (paid), its booking result pending${o.hint ? `: ${o.hint}` : ''}`
          : o.status === 'still_booking'
            ? 'interrupted: accepted, its booking goes on at the service'
            : o.status === 'pending'
              ? 'interrupted: created and pending, not accepted'
              : 'interrupted: not started';
      tc.ele('skipped', { message: `${words}${o.order_id ? ` (${o.order_id})` : ''}` });
    } else {
      // An order another run booked says which station (host) and process booked it.
      const by = o.booked_by !== undefined ? ` booked by ${o.booked_by.host} (pid ${o.booked_by.pid})` : '';
      tc.ele('system-out').txt(`${o.status} ${o.order_id ?? ''} ${(o.tracking_numbers ?? []).join(',')} ${o.total ?? ''}`.trim() + by);
    }
  }
  return root.end({ prettyPrint: true });
}
