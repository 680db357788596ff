/**
 * A progress spinner on stderr with the time elapsed, for waits (the booking result). On a
 * terminal it redraws one line every 100 ms (`⠋ waiting for … 12s`) and erases it when stopped;
 * without a terminal it writes its text once as a plain line (`… waiting for …`) and nothing more,
 * so logs stay clean.
 */
import type { IOStreams } from '../io.js';
import { paint } from './style.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const ERASE = '\r\x1b[2K';

/** A running spinner. */
export interface Spinner {
  /** Replaces the text (shown at the next frame on a terminal; ignored otherwise). */
  update(text: string): void;
  /** Prints a whole line on stderr above the spinner (the spinner is redrawn under it). */
  note(line: string): void;
  /** Erases the spinner line. Idempotent. */
  stop(): void;
}

/** Formats milliseconds as `4s`, `1m05s`, `1h02m`. */
function formatElapsed(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

/** Starts a spinner showing `text` and the time since it started (see module documentation). */
export function startSpinner(io: IOStreams, text: string): Spinner {
  if (!io.stderrIsTTY) {
    io.err(`… ${text}\n`);
    return { update() {}, note: (line) => io.err(`${line}\n`), stop() {} };
  }
  const started = Date.now();
  let frame = 0;
  let current = text;
  let stopped = false;
  const draw = () => {
    const glyph = paint(io, 'cyan', FRAMES[frame++ % FRAMES.length]!);
    io.err(`${ERASE}${glyph} ${current} ${paint(io, 'dim', formatElapsed(Date.now() - started))}`);
  };
  draw();
  const timer = setInterval(draw, 100);
  timer.unref();
  return {
    update(next) {
      current = next;
    },
    note(line) {
      if (stopped) return void io.err(`${line}\n`);
      io.err(`${ERASE}${line}\n`);
      draw();
    },
    stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      io.err(ERASE);
    },
  };
}
