/**
 * The batch's reports for CI: `--report report.json` (every order: input file and line, identity,
 * order id, status, price, tracking numbers, attempts, error), rewritten atomically as results
 * arrive so a killed job still leaves a readable report, and `--junit junit.xml` (one test case per
 * order, failures with the service's message) for CI dashboards, written with xmlbuilder2. A
 * process stopped at once (a second Ctrl-C) writes both with every result so far as it exits
 * ({@link ReportWriter.finishNow}).
 */
import { closeSync, fsyncSync, openSync, renameSync, rmSync } from 'node:fs';
import writeFileAtomic from 'write-file-atomic';
import { scrubKnownValue } from '../../api/redact.js';
import { ShipbookError } from '../../errors.js';
import { emptySummary, type BatchResult, type BatchSummary } from './results.js';
import type { Target } from '../../config/target.js';
import { formatCents, readCents } from '../../schema/money.js';
import { ReportOrders } from './report-orders.js';

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

/**
 * Writes the report files: the JSON report at most every `intervalMs` while running (less often
 * as it grows: see {@link add}), and both at the end. The JSON report's results are kept on disk as
 * they come ({@link ReportOrders}), and its summary as counts: the writer holds no result, so a
 * batch's memory does not grow with it. A JUnit file is made at the end from every result, so
 * with `junit` the results are kept.
 */
export class ReportWriter {
  /** The report's fields; its `orders` stay empty here (they are in {@link orders}). */
  private report: BatchReport;
  /** The JSON report's results, on disk. */
  private readonly orders: ReportOrders | undefined;
  /** Every result, for the JUnit file (made at the end). */
  private readonly kept: ReportedResult[] | undefined;
  /** What was added so far, counted (the summary of {@link finishNow}). */
  private readonly counts = emptySummary();
  private lastWrite = 0;
  /** The least time between two writes of the JSON report while running, ms: grows with the time a write takes. */
  private gap: number;
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
    this.gap = intervalMs;
    this.report = { started_at: now.toISOString(), orders: [] };
    if (paths.report !== undefined) this.orders = new ReportOrders(`${paths.report}.${process.pid}.orders`);
    if (paths.junit !== undefined) {
      this.kept = [];
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

  /** Counts a result, and keeps it where the files need it. @throws the file system's error for the JSON report's results */
  #keep(result: ReportedResult): void {
    const counts = this.counts as unknown as Record<string, number>;
    counts[result.status] = (counts[result.status] ?? 0) + 1;
    const total = readCents((result as { total?: unknown }).total);
    if ((result.status === 'booked' || result.status === 'already_booked') && total !== undefined) this.counts.totalCents += total;
    this.kept?.push(result);
    this.orders?.add(JSON.stringify(scrubKnownValue(result), null, 2));
  }

  /**
   * Adds a result; writes the JSON report if the interval has passed (and, for a report whose write
   * took more than 50 ms, ten times that time: the report is written whole each time). Never throws: a
   * disk that refuses this copy is met again, and reported, by {@link finish}.
   */
  add(result: ReportedResult): void {
    if (!this.enabled) return;
    try {
      this.#keep(result);
    } catch {
      // the final write says it
    }
    this.#stampTarget();
    const now = Date.now();
    if (this.paths.report !== undefined && now - this.lastWrite >= this.gap) {
      this.lastWrite = now;
      try {
        this.#writeJson(this.paths.report);
      } catch {
        // the final write says it
      }
      const took = Date.now() - now;
      this.gap = took > 50 ? Math.max(this.intervalMs, 10 * took) : this.intervalMs;
    }
  }

  /** Writes the JSON report as it stands: its fields, with every result so far in `orders`. @throws ShipbookError (exit 10) naming the file */
  #writeJson(path: string): void {
    const text = `${JSON.stringify(scrubKnownValue(this.report), null, 2)}\n`;
    const orders = this.orders;
    if (orders === undefined || orders.count === 0) return writeReport(path, text);
    // The empty list, as written at the top level of the report (a text field's quotes are escaped).
    const empty = '\n  "orders": []';
    const at = text.indexOf(empty);
    const head = `${text.slice(0, at)}\n  "orders": [\n`;
    const tail = `\n  ]${text.slice(at + empty.length)}`;
    writeReportWith(path, (fd) => orders.writeInto(fd, head, tail));
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
    try {
      for (const r of rest) this.#keep(r);
      const { totalCents, ...summary } = this.counts;
      this.#stampTarget();
      this.report.finished_at = now.toISOString();
      this.report.summary = { ...summary, interrupted: true, total: formatCents(totalCents) };
      Object.assign(this.report.summary, { stopped_at_once: true });
      if (this.paths.report !== undefined) this.#writeJson(this.paths.report);
      if (this.paths.junit !== undefined && this.xml !== undefined) writeReport(this.paths.junit, junitXml(this.xml.create, this.#junitReport()));
    } finally {
      this.orders?.remove();
    }
  }

  /** The report as the JUnit file is made from: its fields and every result, secrets masked. */
  #junitReport(): BatchReport {
    return scrubKnownValue({ ...this.report, orders: this.kept ?? [] }) as BatchReport;
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
    try {
      const { totalCents, ...rest } = summary;
      this.#stampTarget();
      if (options.dryRun) this.report.dry_run = true;
      this.report.finished_at = now.toISOString();
      this.report.summary = { ...rest, total: formatCents(totalCents) };
      if (this.paths.report !== undefined) this.#writeJson(this.paths.report);
      if (this.paths.junit !== undefined && xml !== undefined) writeReport(this.paths.junit, junitXml(xml.create, this.#junitReport()));
    } finally {
      this.orders?.remove();
    }
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
    throw reportWriteError(path, err);
  }
}

/**
 * Writes a report file atomically with `write` (given the open file of a temporary name, renamed
 * over `path` once flushed).
 * @throws ShipbookError (exit 10) naming the file when the disk refuses it (full, quota, I/O error, read-only)
 */
function writeReportWith(path: string, write: (fd: number) => void): void {
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    const fd = openSync(tmp, 'w', 0o666);
    try {
      write(fd);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw reportWriteError(path, err);
  }
}

/** The error of a report file the file system refused: exit 10 with the file named, never an internal error. */
function reportWriteError(path: string, err: unknown): ShipbookError {
  const code = (err as NodeJS.ErrnoException).code ?? '';
  // A path the user gave is never an internal error: its directory removed during the run, a
  // permission taken away, a directory in its place.
  if (!STORAGE_CODES.has(code))
    return new ShipbookError(
      'report_write_failed',
      `cannot write the report ${path} [${code || 'error'}]: ${(err as Error).message}; the journal still says where every order stands`,
      'storage',
      {
        suggestion: 'Give a report path in a directory you can write, then run the same command again: nothing is booked twice.',
        cause: err,
      },
    );
  return new ShipbookError(
    'report_write_failed',
    `cannot write the report ${path} [${code}]: ${(err as Error).message}; the journal still says where every order stands`,
    'storage',
    {
      suggestion: 'Free space on that disk (or write the report elsewhere), then run the same command again: nothing is booked twice.',
      cause: err,
    },
  );
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
