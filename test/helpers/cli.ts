/**
 * The spawning runner: runs the built `bin/shipbook.js` as a user would, a child process with its
 * own environment, no terminal, and a clean config directory. Used where the process itself is
 * under test (signals, exit of the real process, start-up, the launcher and the bundle in dist/,
 * runs side by side, another working directory) and by a few runs per command family, so the
 * built launcher is proven end to end; every other run goes in-process through
 * test/helpers/run.ts `runShipbook`, which shares this file's environment defaults.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The repository root (tests run from it). */
export const ROOT = resolve(import.meta.dirname, '..', '..');
/** The launcher under test. */
export const BIN = join(ROOT, 'bin', 'shipbook.js');

/** What a run printed and how it ended. */
export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Options of one run. */
export interface CliOptions {
  env?: Record<string, string | undefined>;
  input?: string;
  cwd?: string;
  timeoutMs?: number;
}

/** A private home for one test file, so no real config is read or written. */
export function makeHome(): { home: string; cleanup: () => void } {
  const home = mkdtempSync(join(tmpdir(), 'shipbook-e2e-'));
  return { home, cleanup: () => rmSync(home, { recursive: true, force: true }) };
}

/**
 * A config directory shared by the runs that do not set their own, so no test ever reads or
 * writes the developer's real configuration.
 */
let isolatedConfigDir: string | undefined;
/** Where the private state directories of this file's runs go (removed when the test process exits). */
let stateRoot: string | undefined;

/**
 * The environment of one test run: `own` over the defaults (no colour, `CI`, a 100 ms sandbox
 * delay), a config directory shared by the file's runs unless the test gives one, and a private
 * built-in sandbox state per run (never the developer's) unless the test shares one.
 */
export function isolatedEnv(own: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  if (!('SHIPBOOK_CONFIG_DIR' in own) && !('XDG_CONFIG_HOME' in own) && !('HOME' in own)) {
    isolatedConfigDir ??= mkdtempSync(join(tmpdir(), 'shipbook-e2e-config-'));
    env.SHIPBOOK_CONFIG_DIR = isolatedConfigDir;
  }
  if (!('SHIPBOOK_STATE_DIR' in own)) {
    if (stateRoot === undefined) {
      const root = mkdtempSync(join(tmpdir(), 'shipbook-e2e-state-'));
      process.on('exit', () => rmSync(root, { recursive: true, force: true }));
      stateRoot = root;
    }
    env.SHIPBOOK_STATE_DIR = mkdtempSync(join(stateRoot, 'run-'));
  }
  for (const [k, v] of Object.entries({ PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', CI: '1', SHIPBOOK_SANDBOX_DELAY_MS: '100', ...own })) {
    if (v !== undefined) env[k] = v;
  }
  return env;
}

/** Runs `shipbook <args>` and collects its output. */
export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    const env = isolatedEnv(options.env);
    const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd ?? ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`shipbook ${args.join(' ')} did not finish in time\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, options.timeoutMs ?? 20_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}
