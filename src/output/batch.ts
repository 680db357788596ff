/**
 * How a batch looks (issue 11 part 2): on a terminal a progress bar on stderr (cli-progress: done,
 * failed, in flight, orders per second, ETA); without one, a plain line per finished order on
 * stderr. On stdout one line per order (input file and line, order id, status, tracking numbers,
 * total) as it finishes, or the same as records in a machine format. The summary at the end.
 */
import cliProgress from 'cli-progress';
import type { BatchResult, BatchSummary } from '../batch/runner.js';
import type { IOStreams } from '../io.js';
import { paint } from './style.js';

/** The progress display of one batch. */
export interface BatchProgress {
  /** An order finished. */
  done(result: BatchResult): void;
  /** Stops the bar (before the summary is printed). */
  stop(): void;
}

const WORDS: Record<BatchResult['status'], string> = {
  booked: 'booked',
  already_booked: 'already booked',
  failed: 'failed',
  unknown: 'unknown',
  invalid: 'invalid',
  valid: 'valid',
  still_booking: 'still booking',
  pending: 'pending',
  not_started: 'not started',
};

/** A progress bar on a terminal, plain lines otherwise, for `total` orders. */
export function batchProgress(io: IOStreams, total: number): BatchProgress {
  const started = Date.now();
  if (io.stderrIsTTY) {
    let failed = 0;
    const bar = new cliProgress.SingleBar(
      {
        stream: io.stderr as unknown as NodeJS.WritableStream,
        format: ' {bar} {value}/{total} orders | {failed} failed | {rate}/s | ETA {eta_formatted}',
        hideCursor: true,
        clearOnComplete: false,
      },
      cliProgress.Presets.shades_classic,
    );
    bar.start(total, 0, { failed: 0, rate: '0.0' });
    return {
      done(r) {
        if (r.status === 'failed' || r.status === 'unknown' || r.status === 'invalid') failed++;
        const seconds = (Date.now() - started) / 1000;
        bar.increment(1, { failed, rate: (bar.getProgress() * total / Math.max(seconds, 0.001)).toFixed(1) });
      },
      stop: () => bar.stop(),
    };
  }
  return {
    done(r) {
      const ok = r.status === 'booked' || r.status === 'already_booked';
      const mark = ok ? paint(io, 'green', '✔') : paint(io, 'red', '✖');
      const what = r.order_id ?? (r.shipment_ids?.length ? r.shipment_ids.join(',') : '');
      io.err(`${mark} ${WORDS[r.status].padEnd(14)} ${r.file}:${r.line}${what ? `  ${what}` : ''}${r.error ? `  ${r.error.message}` : ''}\n`);
    },
    stop: () => {},
  };
}

/** One tab-separated line of a result: `file:line  order id  status  tracking numbers  total`. */
export function batchResultLine(r: BatchResult): string {
  return [`${r.file}:${r.line}`, r.order_id ?? '', r.status, (r.tracking_numbers ?? []).join(','), r.total ?? ''].join('\t');
}

/** The summary for people, on stderr, and what to do about failed and unknown orders. */
export function printBatchSummary(io: IOStreams, s: BatchSummary, failures: readonly BatchResult[]): void {
  io.err(
    `${paint(io, 'bold', 'batch:')} ${s.booked} booked, ${s.already_booked} already booked, ${s.failed} failed, ${s.unknown} unknown, ${s.invalid} skipped as invalid` +
      (s.interrupted ? `, ${s.still_booking} accepted and still booking, ${s.pending} created and pending, ${s.not_started} not started` : '') +
      `; total ${(s.totalCents / 100).toFixed(2)} AUD${s.interrupted ? ' (interrupted: the ledger says where every order stands)' : ''}\n`,
  );
  for (const r of failures.slice(0, 20)) {
    io.err(`  ${paint(io, 'red', WORDS[r.status])} ${r.file}:${r.line} (${r.id})${r.error ? `: ${r.error.message}` : ''}\n`);
    if (r.hint) io.err(`    ${paint(io, 'cyan', 'hint:')} ${r.hint}\n`);
  }
  if (failures.length > 20) io.err(`  … and ${failures.length - 20} more (see the report, or "shipbook journal show")\n`);
}
