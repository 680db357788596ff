/**
 * End-to-end in a pseudo-terminal: `shipbook auth login` asks for the base URL and the API key
 * (hidden) when stdin and stdout are terminals. The terminal comes from util-linux `script`
 * (`script -qfec <command> /dev/null`), driven through pipes: answers are typed when their
 * question appears. Skipped where `script` is not installed.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { BIN, ROOT, makeHome } from '../helpers/cli.js';

const hasScript = process.platform === 'linux' && spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;
const KEY = 'sk_test_typed_in_pty_4c8e';
let sandbox: Sandbox;
const home = makeHome();

beforeAll(async () => {
  sandbox = await startSandbox({ processingDelayMs: 50, apiKey: KEY });
});
afterAll(async () => {
  await sandbox.close();
  home.cleanup();
});

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Runs `shipbook <args>` in a pseudo-terminal; `answers` maps a question's text to the keys typed
 * when it first appears. Resolves with the exit code and everything the terminal showed.
 */
function runInTerminal(args: string[], env: Record<string, string>, answers: Array<[string, string]>): Promise<{ code: number | null; screen: string }> {
  return new Promise((resolvePromise, reject) => {
    const command = [process.execPath, BIN, ...args].map(quote).join(' ');
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', TERM: 'dumb', NO_COLOR: '1', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let screen = '';
    const pending = [...answers];
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no answer in time; the terminal showed:\n${screen}`));
    }, 20_000);
    const onData = (chunk: Buffer) => {
      screen += chunk.toString('utf8');
      const next = pending[0];
      if (next && screen.includes(next[0])) {
        pending.shift();
        child.stdin.write(next[1]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, screen });
    });
  });
}

describe.skipIf(!hasScript)('auth login in a terminal', () => {
  it('asks for the base URL and the key, never echoes the key, and stores both', async () => {
    const dir = mkdtempSync(join(home.home, 'pty-'));
    const { code, screen } = await runInTerminal(['auth', 'login'], { HOME: dir, XDG_CONFIG_HOME: dir }, [
      ['Base URL of the booking service', `${sandbox.url}\r`],
      ['API key', `${KEY}\r`],
    ]);
    expect(screen).toContain('Logged in: profile "default"');
    expect(code).toBe(0);
    expect(screen).not.toContain(KEY);
    expect(screen).toContain('****4c8e');
    const file = join(dir, 'shipbook', 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8')).profiles.default).toEqual({ 'base-url': sandbox.url, 'api-key': KEY });
  });

  it('stops with exit code 130 and stores nothing on Ctrl-C at the key prompt', async () => {
    const dir = mkdtempSync(join(home.home, 'pty-'));
    const { code } = await runInTerminal(['auth', 'login'], { HOME: dir, XDG_CONFIG_HOME: dir }, [
      ['Base URL of the booking service', `${sandbox.url}\r`],
      ['API key', 'sk_half_typed\x03'],
    ]);
    expect(code).toBe(130);
    expect(existsSync(join(dir, 'shipbook'))).toBe(false);
  });

  it('does not prompt with --no-input, and names the flag instead', async () => {
    const dir = mkdtempSync(join(home.home, 'pty-'));
    const { code, screen } = await runInTerminal(['auth', 'login', '--no-input', '--base-url', sandbox.url], { HOME: dir, XDG_CONFIG_HOME: dir }, []);
    expect(code).toBe(2);
    expect(screen).toContain('cannot ask for the API key (prompting is turned off by --no-input): pipe it in with --with-key');
  });
});
