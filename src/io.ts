/**
 * IO streams: what a command may write to and read from, and whether they are terminals. Stdout
 * carries data; stderr carries everything else (progress, hints, the sandbox marker). Tests
 * replace the streams with buffers.
 */
import { scrubKnown } from './api/redact.js';
import { terminalSafe } from './output/printable.js';
import type { Readable, Writable } from 'node:stream';

/** The streams of a run and what they are connected to. */
export interface IOStreams {
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable & { isTTY?: boolean; columns?: number };
  stderr: Writable & { isTTY?: boolean };
  /** Environment variables (never mutated). */
  env: Readonly<Record<string, string | undefined>>;
  /** Colour on stderr/stdout: terminals only, never with `NO_COLOR` or `--no-color`. */
  color: boolean;
  /** True when stdout is a terminal: tables instead of tab-separated lines. */
  stdoutIsTTY: boolean;
  /** True when stderr is a terminal: spinners and progress. */
  stderrIsTTY: boolean;
  /** Prompts are allowed: stdin and stdout are terminals, not under `CI`, and not `--no-input`. */
  canPrompt: boolean;
  /** Writes data to stdout. */
  out(text: string): void;
  /** Writes a message to stderr. */
  err(text: string): void;
}

/** Options that shape the streams: from global flags. */
export interface IOOptions {
  noColor?: boolean;
  noInput?: boolean;
}

/** IO on the process's own streams. */
export function processIO(options: IOOptions = {}, proc: NodeJS.Process = process): IOStreams {
  const env = proc.env;
  const stdoutIsTTY = proc.stdout.isTTY === true;
  const stderrIsTTY = proc.stderr.isTTY === true;
  const ci = env.CI !== undefined && env.CI !== '' && env.CI !== '0' && env.CI.toLowerCase() !== 'false';
  const color =
    !options.noColor && (env.NO_COLOR === undefined || env.NO_COLOR === '') && (env.FORCE_COLOR ? env.FORCE_COLOR !== '0' : stderrIsTTY);
  return {
    // Standard input is opened on first use: its stream costs a start-up a few milliseconds, and
    // most runs never read it.
    get stdin() {
      return proc.stdin;
    },
    stdout: proc.stdout,
    stderr: proc.stderr,
    env,
    color,
    stdoutIsTTY,
    stderrIsTTY,
    get canPrompt() {
      return stdoutIsTTY && !ci && !options.noInput && proc.stdin.isTTY === true;
    },
    // Every line written is scrubbed of the run's known secrets (key, card numbers), whatever its source.
    // … and of control characters from outside that no renderer escaped (see terminalSafe).
    out: (text) => void proc.stdout.write(terminalSafe(scrubKnown(text))),
    err: (text) => void proc.stderr.write(terminalSafe(scrubKnown(text))),
  };
}
