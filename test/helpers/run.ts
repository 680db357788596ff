/**
 * The in-process runner: runs `shipbook <args>` through `main(argv, io)` with buffers for streams,
 * the same environment defaults as the spawning runner (test/e2e/cli.ts `runCli`: no colour, `CI`,
 * a private config directory, a fast built-in sandbox) and returns the same {@link CliResult}.
 * No process is started, so a run costs milliseconds instead of a Node.js start-up. Tests that need
 * a real process (a pseudo-terminal, signals, broken pipes, the launcher itself, another working
 * directory) use `runCli`.
 */
import { Readable, Writable } from 'node:stream';
import type { IOStreams } from '../../src/io.js';
import { main } from '../../src/main.js';
import { isolatedEnv, runCli, type CliOptions, type CliResult } from '../e2e/cli.js';

/** Streams that are buffers, no terminal, for one run. */
export function bufferIO(env: Record<string, string | undefined>, input = ''): IOStreams & { stdoutText(): string; stderrText(): string } {
  let out = '';
  let err = '';
  const sink = (add: (s: string) => void) =>
    new Writable({
      write(chunk: Buffer | string, _enc, done) {
        add(chunk.toString());
        done();
      },
    });
  const stdout = sink((s) => (out += s));
  const stderr = sink((s) => (err += s));
  return {
    stdin: Readable.from(input === '' ? [] : [Buffer.from(input)]),
    stdout,
    stderr,
    env,
    color: !(env.NO_COLOR !== undefined && env.NO_COLOR !== '') && env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0',
    stdoutIsTTY: false,
    stderrIsTTY: false,
    canPrompt: false,
    out: (t) => void (out += t),
    err: (t) => void (err += t),
    stdoutText: () => out,
    stderrText: () => err,
  };
}

/**
 * Runs `shipbook <args>` in this process and collects its output and exit code. With `cwd` (which
 * one process cannot change per run) it spawns the built launcher instead.
 */
export async function runShipbook(args: string[], options: CliOptions = {}): Promise<CliResult> {
  if (options.cwd !== undefined) return runCli(args, options);
  const env = isolatedEnv(options.env);
  const io = bufferIO(env, options.input);
  const code = await main(['node', 'shipbook', ...args], io);
  return { code, stdout: io.stdoutText(), stderr: io.stderrText() };
}
