/**
 * The in-process runner: runs `shipbook <args>` through `main(argv, io)` with buffers for streams,
 * the same environment defaults as the spawning runner (test/helpers/cli.ts `runCli`: no colour, `CI`,
 * a private config directory and sandbox state per run, a fast built-in sandbox) and returns the
 * same {@link CliResult}. No process is started, so a run costs milliseconds instead of a Node.js
 * start-up. Its streams behave as the process's do when they are pipes (every line scrubbed of the
 * run's secrets and of stray control characters, colour only when forced and not turned off).
 *
 * What it cannot give each run, and so what stays with `runCli`: a pseudo-terminal, signals,
 * broken pipes, the exit of the real process, start-up (the launcher, the code cache, Node.js
 * warnings), the built bundle in dist/, another working directory, and the variables shipbook
 * reads from `process.env` instead of its run's environment (SHIPBOOK_TEST_STORE_SPACE,
 * SHIPBOOK_TEST_JOURNAL_SPACE).
 */
import { Readable, Writable } from 'node:stream';
import { clearSecrets, scrubKnown } from '../../src/api/redact.js';
import type { IOStreams } from '../../src/io.js';
import { main } from '../../src/main.js';
import { terminalSafe } from '../../src/output/printable.js';
import { isolatedEnv, runCli, type CliOptions, type CliResult } from './cli.js';

/** What {@link bufferIO} streams pretend to be; every field is optional. */
interface BufferIOOptions {
  /** The run's environment (default: none). */
  env?: Record<string, string | undefined>;
  /** What stdin gives (default: nothing). */
  input?: string;
  /** The `--no-color` flag: no colour even when forced. */
  noColor?: boolean;
  /** Stdout and stderr are terminals (both when a boolean). */
  tty?: boolean | { stdout?: boolean; stderr?: boolean };
  /** The terminal's width in columns, on both streams. */
  columns?: number;
  /** Prompts are allowed. */
  canPrompt?: boolean;
}

/** Buffered streams: {@link IOStreams} with what was written to stdout and to stderr so far. */
type BufferIO = IOStreams & { stdoutText(): string; stderrText(): string };

/**
 * Streams that are buffers for one run: what `out` and `err` write is scrubbed as the process's
 * own streams scrub it, and what is written to the `stdout`/`stderr` streams themselves (spinners,
 * progress lines) is kept as written, in the same buffers. No terminal unless `tty` says so; colour
 * only when forced by `FORCE_COLOR` and not turned off by `NO_COLOR` or `noColor`.
 */
export function bufferIO(options: BufferIOOptions = {}): BufferIO {
  const env = options.env ?? {};
  const input = options.input ?? '';
  const tty = typeof options.tty === 'object' ? options.tty : { stdout: options.tty, stderr: options.tty };
  let out = '';
  let err = '';
  const sink = (add: (s: string) => void, isTTY: boolean) =>
    Object.assign(
      new Writable({
        write(chunk: Buffer | string, _enc, done) {
          add(chunk.toString());
          done();
        },
      }),
      isTTY ? { isTTY: true, columns: options.columns } : {},
    );
  const stdout = sink((s) => (out += s), tty.stdout === true);
  const stderr = sink((s) => (err += s), tty.stderr === true);
  return {
    stdin: Readable.from(input === '' ? [] : [Buffer.from(input)]),
    stdout,
    stderr,
    env,
    color:
      options.noColor !== true &&
      !(env.NO_COLOR !== undefined && env.NO_COLOR !== '') &&
      env.FORCE_COLOR !== undefined &&
      env.FORCE_COLOR !== '' &&
      env.FORCE_COLOR !== '0',
    stdoutIsTTY: tty.stdout === true,
    stderrIsTTY: tty.stderr === true,
    canPrompt: options.canPrompt ?? false,
    out: (t) => void (out += terminalSafe(scrubKnown(t))),
    err: (t) => void (err += terminalSafe(scrubKnown(t))),
    stdoutText: () => out,
    stderrText: () => err,
  };
}

/** In-process runs under way: the secrets registry is one per process, so it is cleared only when none is. */
let running = 0;

/**
 * Runs `shipbook <args>` in this process and collects its output and exit code. With `cwd` (which
 * one process cannot change per run) it spawns the built launcher instead. The secrets a previous
 * run registered are forgotten first, as a new process would have none.
 */
export async function runShipbook(args: string[], options: CliOptions = {}): Promise<CliResult> {
  if (options.cwd !== undefined) return runCli(args, options);
  const env = isolatedEnv(options.env);
  const io = bufferIO({ env, input: options.input, noColor: args.includes('--no-color') });
  if (running === 0) clearSecrets();
  running++;
  try {
    const code = await main(['node', 'shipbook', ...args], io);
    return { code, stdout: io.stdoutText(), stderr: io.stderrText() };
  } finally {
    running--;
  }
}
