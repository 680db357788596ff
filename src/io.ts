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
  /**
   * Colour on stderr/stdout: terminals only, never with `NO_COLOR`; main turns it off for
   * `--no-color` once the flags are parsed (src/output/format.ts, `outputColor`).
   */
  color: boolean;
  /**
   * True when stdout is a terminal: the truth about the terminal, never changed by a flag. Whether
   * results are a table or tab-separated lines is the output's format (`--output`, default table on
   * a terminal), which renderers are given.
   */
  stdoutIsTTY: boolean;
  /** True when stderr is a terminal: spinners and progress. */
  stderrIsTTY: boolean;
  /** Prompts are allowed: stdin and stdout are terminals, not under `CI`, and not `--no-input` (main turns it off for that flag once parsed). */
  canPrompt: boolean;
  /** Writes data to stdout. */
  out(text: string): void;
  /** Writes a message to stderr. */
  err(text: string): void;
}

/** IO on the process's own streams, as the terminal and the environment make them (before any flag). */
export function processIO(proc: NodeJS.Process = process): IOStreams {
  const env = proc.env;
  const stdoutIsTTY = proc.stdout.isTTY === true;
  const stderrIsTTY = proc.stderr.isTTY === true;
  const ci = env.CI !== undefined && env.CI !== '' && env.CI !== '0' && env.CI.toLowerCase() !== 'false';
  const color = (env.NO_COLOR === undefined || env.NO_COLOR === '') && (env.FORCE_COLOR ? env.FORCE_COLOR !== '0' : stderrIsTTY);
  let promptOverride: boolean | undefined;
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
    // Asked on first read (standard input is opened only then); --no-input sets it false.
    get canPrompt() {
      return promptOverride ?? (stdoutIsTTY && !ci && proc.stdin.isTTY === true);
    },
    set canPrompt(value: boolean) {
      promptOverride = value;
    },
    // Every line written is scrubbed of the run's known secrets (key, card numbers), whatever its source.
    // … and of control characters from outside that no renderer escaped (see terminalSafe).
    out: (text) => void proc.stdout.write(terminalSafe(scrubKnown(text))),
    err: (text) => void proc.stderr.write(terminalSafe(scrubKnown(text))),
  };
}
