/**
 * Helpers of the tests of the release (release/, built by `npm run release`): runs one of its
 * single executables as a user would, with no Node.js on PATH, from a directory of its own, with
 * a private home, configuration, state and cache.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join, resolve } from 'node:path';

/** The repository root. */
export const ROOT = resolve(import.meta.dirname, '..', '..');
/** Where `npm run release` puts what it builds. */
export const RELEASE = join(ROOT, 'release');
/** The Node.js version the executables embed (pinned in scripts/release.mjs). */
export const EMBEDDED_NODE = /const NODE_VERSION = '([\d.]+)'/.exec(readFileSync(join(ROOT, 'scripts', 'release.mjs'), 'utf8'))![1]!;

/**
 * The environment `npx vitest` was started with (as `npm run release` was), before
 * test/setup/isolate.ts gave this test file a home of its own: read from the vitest process that
 * forked this one (/proc, Linux, where the release is built). Falls back to the account's home.
 */
function launchEnvironment(): Record<string, string> {
  try {
    const pairs = readFileSync(`/proc/${process.ppid}/environ`, 'utf8').split('\0');
    return Object.fromEntries(pairs.filter((p) => p.includes('=')).map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)]));
  } catch {
    return { HOME: userInfo().homedir };
  }
}

/** The directory `npm run release` keeps its Node.js builds and release.log in, found as scripts/release.mjs finds it. */
export function releaseCacheDir(): string {
  const env = launchEnvironment();
  return env.SHIPBOOK_RELEASE_CACHE || join(env.XDG_CACHE_HOME || join(env.HOME || userInfo().homedir, '.cache'), 'shipbook-release');
}

/**
 * The path of a release file, or undefined (with the reason printed once) when release/ does not
 * hold it: the tests of that file are then skipped.
 */
export function releaseFile(name: string): string | undefined {
  const file = join(RELEASE, name);
  if (existsSync(file)) return file;
  console.warn(`skipping the tests of release/${name}: it was not built (run "npm run release")`);
  return undefined;
}

/** True when `command` runs here (`command --version` or the given arguments exit 0). */
export function hasCommand(command: string, args = ['--version']): boolean {
  return spawnSync(command, args, { stdio: 'ignore' }).status === 0;
}

/** What a run printed and how it ended. */
export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A private place for one test file's runs: a working directory, home, config, state and cache. */
interface Place {
  dir: string;
  /** The environment of a run: nothing of the caller's, PATH without Node.js. */
  env: Record<string, string>;
  cleanup(): void;
}

/** Makes a {@link Place}; `PATH` is an empty directory (so no `node` can be found). */
export function makePlace(): Place {
  const dir = mkdtempSync(join(tmpdir(), 'shipbook-release-'));
  const empty = join(dir, 'empty-path');
  mkdirSync(empty);
  mkdirSync(join(dir, 'home'));
  mkdirSync(join(dir, 'work'));
  return {
    dir,
    env: {
      PATH: empty,
      HOME: join(dir, 'home'),
      XDG_CONFIG_HOME: join(dir, 'config'),
      XDG_STATE_HOME: join(dir, 'state'),
      XDG_CACHE_HOME: join(dir, 'cache'),
      NO_COLOR: '1',
      CI: '1',
      SHIPBOOK_SANDBOX_DELAY_MS: '100',
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * Runs `command args` (an executable of release/, or an emulator with it) in `cwd` with exactly
 * `env`, and collects its output.
 */
export function run(
  command: string,
  args: string[],
  opts: { env: Record<string, string>; cwd: string; input?: string; timeoutMs?: number },
): Promise<RunResult> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd: opts.cwd, env: opts.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 60_000);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
    child.stdin.end(opts.input ?? '');
  });
}

/** A long-running child (the sandbox, a callback receiver) whose output can be awaited. */
interface Running {
  stdout: string;
  stderr: string;
  /** The first match of `re` in the stream, waiting for more output up to `timeoutMs`. */
  waitFor(stream: 'stdout' | 'stderr', re: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Sends `signal` and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `command args` in the background (killed by {@link Running.stop}). */
export function start(command: string, args: string[], opts: { env: Record<string, string>; cwd: string }): Running {
  const child = spawn(command, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
  const r: Running = {
    stdout: '',
    stderr: '',
    waitFor(stream, re, timeoutMs = 30_000) {
      return new Promise((done, fail) => {
        const check = () => {
          const m = r[stream].match(re);
          if (m) {
            child[stream].off('data', check);
            clearTimeout(timer);
            done(m);
          }
        };
        const timer = setTimeout(() => {
          child[stream].off('data', check);
          fail(new Error(`no ${re} on ${stream}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`));
        }, timeoutMs);
        child[stream].on('data', check);
        check();
      });
    },
    async stop(signal = 'SIGINT') {
      if (child.exitCode === null) child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
  child.stdout.setEncoding('utf8').on('data', (d: string) => (r.stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (r.stderr += d));
  return r;
}
