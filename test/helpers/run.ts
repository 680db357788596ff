/**
 * The in-process runner: runs `shipbook <args>` through `main(argv, io)` with buffers for streams,
 * the same environment defaults as the spawning runner (test/e2e/cli.ts `runCli`: no colour, `CI`,
 * a private config directory, a fast built-in sandbox) and returns the same {@link CliResult}.
 * No process is started, so a run costs milliseconds instead of a Node.js start-up. Tests that need
 * a real process (a pseudo-terminal, signals, broken pipes, the launcher itself, another working
 * directory) use `runCli`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import type { IOStreams } from '../../src/io.js';
import { main } from '../../src/main.js';
import { runCli, type CliOptions, type CliResult } from '../e2e/cli.js';

/** A config directory shared by the runs that do not set their own (never the developer's). */
let isolatedConfigDir: string | undefined;
/** Holds each run's private state directory; removed when the test process ends. */
let stateRoot: string | undefined;

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
  const own = options.env ?? {};
  const env: Record<string, string | undefined> = {};
  if (!('SHIPBOOK_CONFIG_DIR' in own) && !('XDG_CONFIG_HOME' in own) && !('HOME' in own)) {
    isolatedConfigDir ??= mkdtempSync(join(tmpdir(), 'shipbook-e2e-config-'));
    env.SHIPBOOK_CONFIG_DIR = isolatedConfigDir;
  }
  // A private state directory per run, as runCli gives (for a sandbox that keeps state on disk).
  if (!('SHIPBOOK_STATE_DIR' in own)) {
    if (stateRoot === undefined) {
      const root = mkdtempSync(join(tmpdir(), 'shipbook-e2e-state-'));
      process.on('exit', () => rmSync(root, { recursive: true, force: true }));
      stateRoot = root;
    }
    env.SHIPBOOK_STATE_DIR = mkdtempSync(join(stateRoot, 'run-'));
  }
  Object.assign(env, { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', CI: '1', SHIPBOOK_SANDBOX_DELAY_MS: '100' }, own);
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
  const io = bufferIO(env, options.input);
  const code = await main(['node', 'shipbook', ...args], io);
  return { code, stdout: io.stdoutText(), stderr: io.stderrText() };
}
