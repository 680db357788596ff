/**
 * The batch's reports for CI: `--report report.json` (every order: input file and line, identity,
 * order id, status, price, tracking numbers, attempts, error), rewritten atomically as results
 * arrive so a killed job still leaves a readable report, and `--junit junit.xml` (one test case per
 * order, failures with the service's message) for CI dashboards, written with xmlbuilder2.
 */
import writeFileAtomic from 'write-file-atomic';
import { create } from 'xmlbuilder2';
import type { BatchResult, BatchSummary } from './runner.js';

/** The JSON report's content. */
export interface BatchReport {
  started_at: string;
  finished_at?: string;
  summary?: Omit<BatchSummary, 'totalCents'> & { total: string };
  orders: BatchResult[];
}

/** Keeps the results and writes the report files (at most every `intervalMs` while running, and at the end). */
export class ReportWriter {
  private readonly report: BatchReport;
  private lastWrite = 0;

  constructor(
    private readonly paths: { report?: string; junit?: string },
    private readonly intervalMs = 1000,
    now: Date = new Date(),
  ) {
    this.report = { started_at: now.toISOString(), orders: [] };
  }

  /** True when a report file was asked for. */
  get enabled(): boolean {
    return this.paths.report !== undefined || this.paths.junit !== undefined;
  }

  /** Adds a result; writes the JSON report if the interval has passed. */
  add(result: BatchResult): void {
    if (!this.enabled) return;
    this.report.orders.push(result);
    const now = Date.now();
    if (this.paths.report !== undefined && now - this.lastWrite >= this.intervalMs) {
      this.lastWrite = now;
      writeFileAtomic.sync(this.paths.report, `${JSON.stringify(this.report, null, 2)}\n`);
    }
  }

  /** Writes both files with the summary. */
  finish(summary: BatchSummary, now: Date = new Date()): void {
    if (!this.enabled) return;
    const { totalCents, ...rest } = summary;
    this.report.finished_at = now.toISOString();
    this.report.summary = { ...rest, total: (totalCents / 100).toFixed(2) };
    if (this.paths.report !== undefined) writeFileAtomic.sync(this.paths.report, `${JSON.stringify(this.report, null, 2)}\n`);
    if (this.paths.junit !== undefined) writeFileAtomic.sync(this.paths.junit, junitXml(this.report));
  }
}

/** Statuses of an interrupted batch that are neither booked nor failed: JUnit `skipped`. */
const LEFT = new Set(['still_booking', 'pending', 'not_started']);

/**
 * JUnit XML: one test suite, one test case per input; failed and unknown orders are failures,
 * invalid ones errors, and the orders an interruption left (accepted and still booking, created
 * and pending, not started) skipped, each saying what it is.
 */
export function junitXml(report: BatchReport): string {
  const orders = report.orders;
  const failures = orders.filter((o) => o.status === 'failed' || o.status === 'unknown').length;
  const errors = orders.filter((o) => o.status === 'invalid').length;
  const skipped = orders.filter((o) => LEFT.has(o.status)).length;
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele('testsuites', { name: 'shipbook book', tests: orders.length, failures, errors, skipped });
  const suite = root.ele('testsuite', { name: 'shipbook book', tests: orders.length, failures, errors, skipped, timestamp: report.started_at });
  for (const o of orders) {
    const tc = suite.ele('testcase', { classname: o.file, name: `${o.file}:${o.line} ${o.order_id ?? o.id}` });
    if (o.status === 'failed' || o.status === 'unknown') {
      tc.ele('failure', { message: o.error?.message ?? o.status, type: o.status }).txt(`${o.error?.message ?? o.status}${o.hint ? `\n${o.hint}` : ''}`);
    } else if (o.status === 'invalid') {
      tc.ele('error', { message: 'invalid input', type: 'invalid' }).txt((o.issues ?? []).map((i) => `${i.file ?? o.file}:${i.line ?? '?'}:${i.column ?? '?'} ${i.path} ${i.message}`).join('\n'));
    } else if (LEFT.has(o.status)) {
      const words = o.status === 'still_booking' ? 'interrupted: accepted, its booking goes on at the service' : o.status === 'pending' ? 'interrupted: created and pending, not accepted' : 'interrupted: not started';
      tc.ele('skipped', { message: `${words}${o.order_id ? ` (${o.order_id})` : ''}` });
    } else {
      tc.ele('system-out').txt(`${o.status} ${o.order_id ?? ''} ${(o.tracking_numbers ?? []).join(',')} ${o.total ?? ''}`.trim());
    }
  }
  return root.end({ prettyPrint: true });
}
