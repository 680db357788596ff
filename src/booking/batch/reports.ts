/**
 * The reports of a batch run and their tally: every result is counted and added to the JSON/JUnit
 * report and the CSV report as it comes; a process that ends at once (a second Ctrl-C) still
 * finishes them, every input not reported yet at the stage the ledger last knew.
 */
import { readCents } from '../../schema/money.js';
import type { LedgerStore } from '../../ledger/index.js';
import type { BatchCheck } from './check.js';
import type { ReportWriter } from './report.js';
import type { CsvReportWriter } from './report-csv.js';
import { emptySummary, lastKnown, type BatchResult, type BatchSummary } from './results.js';

/** Counts `r` into `s` (the total of the orders booked, now or before, in cents). */
function count(s: BatchSummary, r: BatchResult): void {
  if (r.status === 'valid') return;
  s[r.status]++;
  if ((r.status === 'booked' || r.status === 'already_booked') && r.total) s.totalCents += readCents(r.total) ?? 0;
}

/** A batch's reports while it runs, and what it has reported so far. */
export class BatchReports {
  private readonly reported = new Set<string>();
  /** The counts of what was reported so far. */
  readonly soFar: BatchSummary = emptySummary();

  /**
   * `entries`: every input of the run (from its check); `ledger`: where the ones not reported stand;
   * `withHint`: a result with the words of its next step; `maxTotalCents`: the run's `--max-total`.
   */
  constructor(
    private readonly x: {
      reports: ReportWriter;
      csvReport: CsvReportWriter | undefined;
      entries: BatchCheck['entries'];
      ledger: Pick<LedgerStore, 'get'>;
      withHint: (r: BatchResult) => BatchResult;
      maxTotalCents: number | undefined;
    },
  ) {}

  /** Counts a result and adds it to both reports. */
  add(r: BatchResult): void {
    this.reported.add(r.id);
    count(this.soFar, r);
    this.x.reports.add(r);
    this.x.csvReport?.add(r);
  }

  /** Every input not reported yet, at the stage the ledger last knew. */
  private standing(): BatchResult[] {
    const caps = this.x.maxTotalCents !== undefined ? { maxTotalCents: this.x.maxTotalCents } : {};
    return this.x.entries
      .filter((e) => !this.reported.has(e.id))
      .map((e) =>
        e.invalid
          ? { id: e.id, file: e.file, line: e.line, status: 'invalid' as const, attempts: 0 }
          : this.x.withHint(lastKnown({ id: e.id, file: e.file, line: e.line }, this.x.ledger.get(e.id), undefined, 0, caps)),
      );
  }

  /**
   * Finishes both reports at once, as the process exits: every other input at the stage the
   * ledger last knew. A report the disk refuses is left (the journal still says where every order
   * stands). Returns the counts of every input.
   */
  finishNow(): BatchSummary {
    const rest = this.standing();
    for (const r of rest) {
      this.x.csvReport?.add(r);
      count(this.soFar, r);
    }
    try {
      this.x.reports.finishNow(new Date(), rest);
    } catch {
      // The disk refused them: the journal still says where every order stands.
    }
    try {
      this.x.csvReport?.finishNow();
    } catch {
      // As above.
    }
    return this.soFar;
  }
}
