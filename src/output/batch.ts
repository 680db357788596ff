/**
 * How a batch looks: on a terminal, the finished orders scroll as lines above ONE progress line
 * on stderr (done of total, failed, orders per second, time left) that is redrawn in place (an
 * order's line there reads `✔ booked  orders.ndjson:3  ORD-…  SBX…  47.30 AUD`);
 * without one, a plain line per finished order on stderr. On stdout one line per order (input
 * file and line, order id, status, tracking numbers, total) as it finishes, or the same as
 * records in a machine format. The summary at the end, after the progress line is gone.
 *
 * The progress line is drawn with a carriage return and erase-line only, never with saved cursor
 * positions (which go stale as order lines scroll the screen, so later text lands at the top), and
 * it is never wider than the terminal (a wrapped line could not be erased with one erase-line); a
 * resize redraws it to the new width.
 */
import type { OnExit } from '../exit-work.js';
import { fstatSync } from 'node:fs';
import { printable } from './printable.js';
import type { BatchResult, BatchSummary } from '../booking/batch/results.js';
import { CLAIMS_LOCK_WAIT } from '../errors.js';
import type { IOStreams } from '../io.js';
import { paint } from './style.js';
import type { OutputChoice } from './format.js';
import { aud } from '../schema/money.js';
import { shellCommand, type HintStyle } from '../shell.js';
import type { BookingEvent } from '../booking/progress.js';
import { waitNoticeLines } from './wait-notice.js';

/** The progress display of one batch. */
interface BatchProgress {
  /** An order finished. */
  done(result: BatchResult): void;
  /**
   * The service asked the run to wait (a 429/503 with `Retry-After`): no request leaves until
   * `until` (ms since the epoch); undefined: requests leave again. The progress line says so.
   */
  paused(until: number | undefined): void;
  /** Erases the progress line (before the summary is printed) and gives stdout and stderr back. */
  stop(): void;
}

const WORDS: Record<BatchResult['status'], string> = {
  booked: 'booked',
  already_booked: 'already booked',
  booked_by_other_run: 'booked by another run',
  accepted: 'accepted',
  failed: 'failed',
  unknown: 'unknown',
  invalid: 'invalid',
  valid: 'valid',
  still_booking: 'still booking',
  pending: 'pending',
  not_started: 'not started',
  over_limit: 'over limit',
  over_budget: 'over budget',
};

const ERASE_LINE = '\r\x1b[2K';

/** The mark of a finished order: ✔ booked (by this run, an earlier one or another at the same time), … accepted with its result pending, ✖ anything else. */
function markOf(io: Pick<IOStreams, 'color'>, r: BatchResult): string {
  if (r.status === 'booked' || r.status === 'already_booked' || r.status === 'booked_by_other_run' || r.status === 'valid') return paint(io, 'green', '✔');
  return r.status === 'accepted' ? paint(io, 'yellow', '…') : paint(io, 'red', '✖');
}

/**
 * Why an order did not go through, in one line: its error, or for an invalid order its first
 * problem (`path: message`, at its line) and how many more there are.
 */
function reason(r: BatchResult): string {
  if (r.error) return r.error.message;
  const errors = (r.issues ?? []).filter((i) => i.severity !== 'warning');
  const [first] = errors;
  if (first === undefined) return '';
  const where = first.line !== undefined && first.line !== r.line ? `line ${first.line}: ` : '';
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more problem${errors.length === 2 ? '' : 's'})` : '';
  return `${where}${first.path ? `${first.path}: ` : ''}${first.message}${more}`;
}

/** For an order booked by another run: `by <host> (pid N)`, the station that booked it; else empty. */
function bookedBy(r: BatchResult): string {
  return r.booked_by === undefined ? '' : `by ${r.booked_by.host} (pid ${r.booked_by.pid})`;
}

/** The plain line of a finished order on stderr: `✔ booked         orders/a.yaml:1  ORD-…`. */
function plainLine(io: Pick<IOStreams, 'color'>, r: BatchResult): string {
  const mark = markOf(io, r);
  const what = r.order_id ?? (r.shipment_ids?.length ? r.shipment_ids.join(',') : '');
  const why = reason(r) || bookedBy(r);
  return `${mark} ${WORDS[r.status].padEnd(14)} ${printable(`${r.file}:${r.line}${what ? `  ${what}` : ''}${why ? `  ${why}` : ''}`)}\n`;
}

/**
 * An order's line on a terminal, for people: `✔ booked  orders.ndjson:3  ORD-…  SBX…  47.30 AUD`
 * (the tab-separated line is for programs reading stdout without a terminal).
 */
function terminalLine(io: Pick<IOStreams, 'color'>, r: BatchResult): string {
  const mark = markOf(io, r);
  const parts = [
    `${r.file}:${r.line}`,
    r.order_id ?? (r.shipment_ids?.length ? r.shipment_ids.join(',') : ''),
    (r.tracking_numbers ?? []).join(','),
    r.total !== undefined && r.total !== '' ? aud(r.total) : '',
    reason(r) || bookedBy(r),
  ].filter((p) => p !== '');
  return `${mark} ${WORDS[r.status].padEnd(14)} ${printable(parts.join('  '))}\n`;
}

/** `4s`, `1m05s` for a number of seconds. */
function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

/**
 * Cuts `text` to at most `width` terminal columns. The progress line's text is made of printable
 * ASCII and `·`, one column each (as string-width counts them), so its length is its width.
 */
function fit(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`;
}

/** What the progress line shows. */
interface Counts {
  done: number;
  failed: number;
  total: number;
  elapsedSeconds: number;
  /** The run waits for the service's limit this many more seconds (undefined: it does not wait). */
  waitSeconds?: number;
}

/**
 * The progress line for `columns` terminal columns, never wider than `columns - 1`:
 * `▕██████░░░░░░▏ 12/30 orders · 1 failed · 4.2/s · 4s left`; the bar shrinks, then goes, on a
 * narrow terminal.
 */
function progressLine(c: Counts, columns: number): string {
  const rate = c.done / Math.max(c.elapsedSeconds, 0.001);
  const left = c.done > 0 && c.done < c.total ? ` · ${duration((c.total - c.done) / rate)} left` : '';
  const waiting = c.waitSeconds !== undefined ? ` · waiting ${c.waitSeconds.toFixed(1)}s for the service's rate limit` : '';
  const text = `${c.done}/${c.total} orders · ${c.failed} failed · ${c.done > 0 ? rate.toFixed(1) : '0.0'}/s${left}${waiting}`;
  // One column a character (see fit).
  const room = columns - 1 - text.length - 3;
  const size = Math.min(24, room);
  if (size < 6) return fit(text, columns - 1);
  const filled = c.total === 0 ? size : Math.round((size * c.done) / c.total);
  return `▕${'█'.repeat(filled)}${'░'.repeat(size - filled)}▏ ${text}`;
}

/**
 * The batch display for `total` orders, for the run's `output` (its format and `--quiet`). On a
 * terminal (stderr) the progress line; the order lines written meanwhile to stdout (when they land
 * on the same screen, see below) or to stderr go above it. `--quiet` (stdout carries only ids,
 * written by a writer this display does not see) and no terminal give plain lines on stderr instead.
 */
export function batchProgress(io: IOStreams, output: Pick<OutputChoice, 'format' | 'quiet'>, total: number): BatchProgress {
  const started = Date.now();
  let done = 0;
  let failed = 0;
  const count = (r: BatchResult) => {
    done++;
    if (r.status === 'failed' || r.status === 'unknown' || r.status === 'invalid') failed++;
  };
  if (!io.stderrIsTTY || output.quiet) {
    let said = 0;
    return {
      done(r) {
        count(r);
        io.err(plainLine(io, r));
      },
      // Without a terminal, a pause is said once in a while, not at every 429.
      paused(until) {
        const now = Date.now();
        if (until === undefined || now - said < PLAIN_PAUSE_NOTE_MS) return;
        said = now;
        io.err(`… waiting ${((until - now) / 1000).toFixed(1)} s: the service asked to slow down (rate limit)\n`);
      },
      stop: () => {},
    };
  }
  const stderr = io.stderr as NodeJS.WriteStream;
  const columns = () => stderr.columns || (io.stdout as { columns?: number }).columns || 80;
  const write = (text: string) => stderr.write(text);
  let shown = false;
  let pausedUntil: number | undefined;
  const draw = () => {
    const now = Date.now();
    const waitSeconds = pausedUntil !== undefined && pausedUntil > now ? (pausedUntil - now) / 1000 : undefined;
    write(
      `${ERASE_LINE}${progressLine({ done, failed, total, elapsedSeconds: (now - started) / 1000, ...(waitSeconds !== undefined ? { waitSeconds } : {}) }, columns())}`,
    );
    shown = true;
  };
  const erase = () => {
    if (shown) write(ERASE_LINE);
    shown = false;
  };
  // Every line written while the progress line shows goes above it: erase, write, draw again.
  const { out, err } = io;
  const above =
    (print: (text: string) => void) =>
    (text: string): void => {
      erase();
      print(text);
      draw();
    };
  io.err = above(err);
  // Order lines on stdout land on this screen in the table format (the form for people on a
  // terminal), and in a machine format when stdout is the terminal too; there the tab-separated
  // line of the order that just finished is shown as a line for people. tsv is for programs: the
  // orders scroll by on stderr as well.
  const onScreen = output.format === 'table' || (output.format !== 'tsv' && io.stdoutIsTTY);
  let last: BatchResult | undefined;
  if (onScreen) {
    io.out = above((text) => out(last !== undefined && text === `${batchResultLine(last)}\n` ? terminalLine(io, last) : text));
  }
  const onResize = () => draw();
  stderr.on?.('resize', onResize);
  // The rate and time left change between orders too.
  const timer = setInterval(draw, 1000);
  timer.unref();
  draw();
  let stopped = false;
  return {
    done(r) {
      count(r);
      last = r;
      // With stdout elsewhere (a file), the orders still scroll by on the screen.
      if (!onScreen) io.err(plainLine(io, r));
      else draw();
    },
    paused(until) {
      pausedUntil = until;
      if (!stopped) draw();
    },
    stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      stderr.off?.('resize', onResize);
      erase();
      io.err = err;
      io.out = out;
    },
  };
}

/** What {@link batchWrites} gives: the way to write what is pending now, and to stop buffering. */
interface BatchWrites {
  /** Writes what is pending now, in the order it was written. */
  flush(): void;
  /** Writes what is pending and gives `io.out` and `io.err` back. */
  stop(): void;
}

/** True when the two streams write to the same file (`2>&1`, one pipe for both). */
function sameFile(a: unknown, b: unknown): boolean {
  const fdA = (a as { fd?: unknown }).fd;
  const fdB = (b as { fd?: unknown }).fd;
  if (typeof fdA !== 'number' || typeof fdB !== 'number') return false;
  try {
    const x = fstatSync(fdA);
    const y = fstatSync(fdB);
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    return true;
  }
}

/** How long a line a batch writes may wait to be written with others, ms (see {@link batchWrites}). */
const FLUSH_MS = 50;
/** Without a terminal, a wait for the service's rate limit is said at most this often, ms. */
const PLAIN_PAUSE_NOTE_MS = 10_000;
/** How much text a batch buffers at most before writing it, UTF-16 units. */
const FLUSH_CHARS = 64 * 1024;

/**
 * Buffers the lines a batch writes (`io.out`, `io.err`) and writes them together, at most
 * {@link FLUSH_MS} after the first of them: the same bytes, in fewer writes (each write to a pipe
 * is a system call that cost more than the rest of an order's output; orders finish one or two a
 * turn of the event loop, so a write a turn saved little). Used without a terminal on stderr,
 * where no progress line is redrawn between lines. When stdout and stderr go to the same file, the lines
 * keep their order across the two; otherwise each stream keeps its own order (as with a write
 * each). What is pending is written before the process exits (exit work registered with `onExit`), even by `process.exit` (a second
 * Ctrl-C), and by {@link BatchWrites.stop}.
 */
export function batchWrites(io: IOStreams, onExit: OnExit): BatchWrites {
  const { out, err } = io;
  const together = sameFile(io.stdout, io.stderr);
  // Runs of text for the same stream, in the order written; without `together`, one run a stream.
  let runs: Array<{ toErr: boolean; text: string }> = [];
  let size = 0;
  let scheduled: NodeJS.Timeout | undefined;
  const flush = (): void => {
    if (scheduled !== undefined) clearTimeout(scheduled);
    scheduled = undefined;
    const pending = runs;
    runs = [];
    size = 0;
    for (const run of pending) (run.toErr ? err : out)(run.text);
  };
  const add = (toErr: boolean, text: string): void => {
    if (text === '') return;
    const run = together ? runs[runs.length - 1] : runs.find((r) => r.toErr === toErr);
    if (run !== undefined && run.toErr === toErr) run.text += text;
    else runs.push({ toErr, text });
    size += text.length;
    if (size >= FLUSH_CHARS) flush();
    else if (scheduled === undefined) {
      scheduled = setTimeout(flush, FLUSH_MS);
      scheduled.unref();
    }
  };
  io.out = (text) => add(false, text);
  io.err = (text) => add(true, text);
  const unregisterExit = onExit(flush);
  let stopped = false;
  return {
    flush,
    stop() {
      if (stopped) return;
      stopped = true;
      unregisterExit();
      flush();
      io.out = out;
      io.err = err;
    },
  };
}

/** One tab-separated line of a result: `file:line  order id  status  tracking numbers  total`. */
export function batchResultLine(r: BatchResult): string {
  return [`${r.file}:${r.line}`, r.order_id ?? '', r.status, (r.tracking_numbers ?? []).join(','), r.total ?? ''].map((cell) => printable(cell)).join('\t');
}

/** The line of an order another run is booking at the same time (this run comes back to it at its end). */
export function heldLine(io: Pick<IOStreams, 'color'>, item: { file: string; line: number }, by: { pid: number; host: string; command: string }): string {
  return `${paint(io, 'yellow', '…')} ${'other run'.padEnd(14)} ${printable(`${item.file}:${item.line}  being booked by another run (pid ${by.pid} on ${by.host}: ${by.command}); its outcome is read at the end`)}
`;
}

/**
 * The summary line of a batch (`batch: 3 booked, … ; total 42.00 AUD`), unwrapped: what
 * {@link printBatchSummary} prints, and what a process ending at once prints as it exits.
 */
export function batchSummaryLine(io: Pick<IOStreams, 'color'>, s: BatchSummary): string {
  const stopped = s.interrupted || s.stopped_by !== undefined;
  return (
    `${paint(io, 'bold', 'batch:')} ${s.booked} booked, ${s.already_booked} already booked, ${s.booked_by_other_run > 0 ? `${s.booked_by_other_run} booked by another run, ` : ''}${s.accepted > 0 ? `${s.accepted} accepted (result pending), ` : ''}${s.failed} failed, ${s.unknown} unknown, ${s.invalid} skipped as invalid` +
    (stopped ? `, ${s.still_booking} accepted and still booking, ${s.pending} created and pending, ${s.not_started} not started` : '') +
    (s.over_limit > 0 ? `, ${s.over_limit} over --max-total (cancelled, not accepted)` : '') +
    (s.over_budget > 0 ? `, ${s.over_budget} left by --budget (not accepted)` : '') +
    `; total ${aud(s.totalCents)}${s.stopped_by !== undefined ? ` (stopped: ${s.stopped_by === CLAIMS_LOCK_WAIT ? "the ledger's claims lock stayed held by another run" : 'the ledger took no more records'}; each order is at the stage it last recorded)` : s.interrupted ? ' (interrupted: the ledger says where every order stands)' : ''}` +
    (s.budget !== undefined ? `; budget ${aud(s.budget.limit)}, ${aud(s.budget.spent)} spent by this run` : '')
  );
}

/** The summary for people, on stderr, and what to do about failed and unknown orders; resolves once written. */
export async function printBatchSummary(io: IOStreams, s: BatchSummary, failures: readonly BatchResult[], hints: HintStyle): Promise<void> {
  const line = batchSummaryLine(io, s);
  // On a terminal, broken between words to its width (never in the middle of an amount).
  const columns = io.stderrIsTTY ? (io.stderr as { columns?: number }).columns : undefined;
  // wrap-ansi (and the Unicode tables of string-width under it) is loaded only for a terminal.
  const wrapAnsi = columns ? (await import('wrap-ansi')).default : undefined;
  io.err(`${wrapAnsi && columns ? wrapAnsi(line, columns - 1, { hard: false, trim: true }) : line}\n`);
  // One hint per distinct action: an order whose next step is to run the same command again
  // gets none of its own (the command's final hint says it once, for all of them), and a hint
  // already given above is not repeated.
  const given = new Set<string>();
  for (const r of failures.slice(0, 20)) {
    const why = reason(r);
    io.err(
      `  ${paint(io, r.status === 'accepted' ? 'yellow' : 'red', WORDS[r.status])} ${printable(`${r.file}:${r.line} (${r.id})${why ? `: ${why}` : ''}`)}\n`,
    );
    // An unknown order gets its own hint even when running again continues it: it names the order to look at first.
    if (r.hint && (r.next?.action !== 'rerun' || r.status === 'unknown') && !given.has(r.hint)) {
      given.add(r.hint);
      io.err(`    ${paint(io, 'cyan', 'hint:')} ${printable(r.hint)}\n`);
    }
  }
  if (failures.length > 20) io.err(`  … and ${failures.length - 20} more (see the report, or "${shellCommand(hints, 'journal', 'show')}")\n`);
}

/** Notices about one order, which a batch of many would repeat: each kind is shown once per run. */
const ONCE_PER_RUN = new Set([
  'processed_without_callback',
  'callback_ahead',
  'callback_unconfirmed_yet',
  'callback_unconfirmed',
  'callback_overruled',
  'tracking_differs',
  'poll_failed',
]);

/**
 * The notices of a batch's waits (the run's callback receiver, src/booking/result/run-callbacks.ts)
 * as `note:`/`warning:` lines on stderr; a notice about one order is shown for the first order
 * only (a note says the rest are not listed). Other events are not drawn (each order has its line).
 */
export function batchWaitNotices(io: IOStreams): (e: BookingEvent) => void {
  const shown = new Set<string>();
  return (e) => {
    if (e.type !== 'wait_notice') return;
    const kind = e.notice.kind;
    if (ONCE_PER_RUN.has(kind)) {
      if (shown.has(kind)) return;
      shown.add(kind);
    }
    const more = ONCE_PER_RUN.has(kind) ? ' (shown for the first order only)' : '';
    for (const { level, text } of waitNoticeLines(e.notice)) {
      const mark = level === 'warning' ? paint(io, 'yellow', 'warning:') : level === 'note' ? paint(io, 'yellow', 'note:') : undefined;
      const line = `${printable(text, 'lines')}${more}`;
      io.err(`${mark === undefined ? paint(io, 'dim', line) : `${mark} ${line}`}\n`);
    }
  };
}
