/**
 * The command-line experience (issue 14), end to end through bin/shipbook.js: help and topics,
 * suggestions for mistyped commands, completion scripts loading in real shells, doctor on a
 * healthy and on broken set-ups, output formats parsed back, --quiet, and --dry-run sending nothing.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { startSandbox } from '../../src/sandbox/index.js';
import { BIN, runCli } from './cli.js';

const home = mkdtempSync(join(tmpdir(), 'shipbook-cli-exp-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));
const KEY = 'sk_test_cli_experience_4242';
let sandbox: Awaited<ReturnType<typeof startSandbox>>;
beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: KEY, processingDelayMs: 50 });
});
afterAll(async () => sandbox?.close());

/** Environment of a run against the test's sandbox, with a private config and state directory. */
function remote(extra: Record<string, string> = {}): Record<string, string> {
  return { SHIPBOOK_BASE_URL: sandbox.url, SHIPBOOK_API_KEY: KEY, SHIPBOOK_CONFIG_DIR: join(home, 'cfg-remote'), SHIPBOOK_STATE_DIR: join(home, 'state'), ...extra };
}

async function sandboxOrders(): Promise<unknown[]> {
  const res = await fetch(new URL('_sandbox/orders/', sandbox.url), { headers: { authorization: `Bearer ${KEY}` } });
  const body = (await res.json()) as { result?: unknown };
  const result = body.result as { orders?: unknown[] } | unknown[] | undefined;
  return Array.isArray(result) ? result : (result?.orders ?? []);
}

describe('help', () => {
  it('top-level help shows examples of the main flows', async () => {
    const { code, stdout } = await runCli(['--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/Examples:/);
    expect(stdout).toContain('shipbook book fixtures/orders/domestic-syd-mel.yaml');
    expect(stdout).toContain('shipbook doctor');
  });

  it('help <command path> shows that command, not its group', async () => {
    const { code, stdout } = await runCli(['help', 'order', 'accept']);
    expect(code).toBe(0);
    expect(stdout).toContain('Usage: shipbook order accept');
  });

  it('help topics print the README tables', async () => {
    const exit = await runCli(['help', 'exit-codes']);
    expect(exit.code).toBe(0);
    expect(exit.stdout).toMatch(/130/);
    expect((await runCli(['help', 'environment'])).stdout).toContain('SHIPBOOK_API_KEY');
    expect((await runCli(['help', 'formats'])).stdout).toContain('ndjson');
  });

  it('a mistyped command or option is answered with the closest one', async () => {
    const cmd = await runCli(['qoute']);
    expect(cmd.code).toBe(2);
    expect(cmd.stderr).toMatch(/Did you mean quote\?/);
    const opt = await runCli(['quote', '--form', 'AU:2000:Sydney']);
    expect(opt.code).toBe(2);
    expect(opt.stderr).toMatch(/Did you mean --from\?/);
  });
});

describe('completion', () => {
  const shells: Array<[string, string[]]> = [
    ['bash', ['bash', '-n']],
    ['zsh', ['zsh', '-n']],
    ['fish', ['fish', '--no-execute']],
  ];
  for (const [shell, check] of shells) {
    const installed = spawnSync(check[0]!, ['--version']).status === 0;
    if (!installed) console.warn(`skipping the ${shell} completion check: ${shell} is not installed`);
    it.skipIf(!installed)(`the ${shell} script parses in ${shell}`, async () => {
      const { code, stdout } = await runCli(['completion', shell]);
      expect(code).toBe(0);
      const file = join(home, `completion.${shell}`);
      writeFileSync(file, stdout);
      const res = spawnSync(check[0]!, [...check.slice(1), file], { encoding: 'utf8' });
      expect(res.status, res.stderr).toBe(0);
    });
  }

  it('bash registers the completion function for shipbook', async () => {
    const { stdout } = await runCli(['completion', 'bash']);
    const file = join(home, 'completion-load.bash');
    writeFileSync(file, stdout);
    const res = spawnSync('bash', ['-c', `source ${file} && complete -p shipbook`], { encoding: 'utf8' });
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout.trim()).toBe('complete -F __shipbook_complete shipbook');
  });

  it('completes in bash as a user would press Tab, through the real shipbook', async () => {
    const bashCompletion = '/usr/share/bash-completion/bash_completion';
    const hasBashCompletion = spawnSync('test', ['-f', bashCompletion]).status === 0;
    // Without the bash-completion package, a minimal _get_comp_words_by_ref stands in for it.
    const helper = hasBashCompletion
      ? `source ${bashCompletion}`
      : '_get_comp_words_by_ref() { cur="${COMP_WORDS[COMP_CWORD]}"; prev="${COMP_WORDS[COMP_CWORD-1]}"; words=("${COMP_WORDS[@]}"); cword=$COMP_CWORD; }';
    const { stdout } = await runCli(['completion', 'bash']);
    const file = join(home, 'completion-tab.bash');
    writeFileSync(file, stdout);
    const bin = join(home, 'bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'shipbook'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"\n`, { mode: 0o755 });
    const script = `${helper}
source ${file}
COMP_WORDS=(shipbook order cr); COMP_CWORD=2; COMP_LINE="shipbook order cr"; COMP_POINT=\${#COMP_LINE}
__shipbook_complete; printf '%s\\n' "\${COMPREPLY[@]}"`;
    const env = { ...process.env, PATH: `${bin}:${process.env.PATH}`, SHIPBOOK_CONFIG_DIR: join(home, 'cfg-tab') };
    const res = spawnSync('bash', ['-c', script], { encoding: 'utf8', env });
    expect(res.stdout.trim(), res.stderr).toBe('create');
    const profiles = spawnSync('bash', ['-c', script.replace('COMP_WORDS=(shipbook order cr); COMP_CWORD=2', 'COMP_WORDS=(shipbook --profile ""); COMP_CWORD=2')], { encoding: 'utf8', env });
    expect(profiles.stdout.trim().split('\n'), profiles.stderr).toEqual(['sandbox']);
  });
});

describe('doctor', () => {
  it('passes on a healthy set-up, as a table of checks or JSON', async () => {
    const { code, stdout } = await runCli(['doctor', '--json'], { env: remote() });
    const report = JSON.parse(stdout) as { ok: boolean; checks: Array<{ id: string; status: string; detail: string }> };
    expect(code, stdout).toBe(0);
    expect(report.ok).toBe(true);
    expect(report.checks.map((c) => c.id)).toEqual(['node', 'config-file', 'profile', 'base-url', 'api-key', 'callback', 'sandbox-state']);
    expect(report.checks.find((c) => c.id === 'profile')!.detail).toContain('env SHIPBOOK_API_KEY');
    expect(stdout).not.toContain(KEY);
    const tsv = await runCli(['doctor'], { env: remote() });
    expect(tsv.code).toBe(0);
    expect(tsv.stdout.replace(/\n$/, '').split('\n').map((l) => l.split('\t').length)).toEqual([4, 4, 4, 4, 4, 4, 4]);
  });

  it('fails on a wrong key with exit 4 and says what to do', async () => {
    const { code, stdout, stderr } = await runCli(['doctor', '--json'], { env: remote({ SHIPBOOK_API_KEY: 'sk_wrong_key_000000' }) });
    expect(code).toBe(4);
    const key = (JSON.parse(stdout) as { checks: Array<{ id: string; status: string; fix?: string }> }).checks.find((c) => c.id === 'api-key')!;
    expect(key.status).toBe('fail');
    expect(key.fix).toMatch(/auth login|SHIPBOOK_API_KEY/);
    expect(stderr).toMatch(/check failed/);
  });

  it('fails on an unreachable base URL with exit 5', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const { code, stdout } = await runCli(['doctor', '--json'], { env: remote({ SHIPBOOK_BASE_URL: `http://127.0.0.1:${port}/` }) });
    expect(code).toBe(5);
    const base = (JSON.parse(stdout) as { checks: Array<{ id: string; status: string }> }).checks.find((c) => c.id === 'base-url')!;
    expect(base.status).toBe('fail');
  });

  it('fails on a configuration file readable by others, naming the chmod', async () => {
    const dir = join(home, 'cfg-open');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ version: 1 }));
    chmodSync(join(dir, 'config.json'), 0o644);
    const { code, stdout } = await runCli(['doctor'], { env: { SHIPBOOK_CONFIG_DIR: dir, SHIPBOOK_STATE_DIR: join(home, 'state') } });
    expect(code).toBe(4);
    expect(stdout).toMatch(/config-file\tfail\t.*readable by others.*\tchmod 600/);
  });
});
