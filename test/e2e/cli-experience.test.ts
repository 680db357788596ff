/**
 * The command-line experience: help and topics, suggestions for mistyped commands, completion
 * scripts loading in real shells, doctor on a healthy and on broken set-ups, output formats parsed
 * back, --quiet, and --dry-run sending nothing. What only the process shows (the launcher's own
 * `--help` from dist/help.txt, Tab completion through the real shipbook, no Node.js warning on
 * stderr) runs bin/shipbook.js; the rest runs in-process.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { startSandbox } from '../../src/sandbox/index.js';
import { runShipbook } from '../helpers/run.js';
import { BIN, ROOT, runCli } from '../helpers/cli.js';

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
  return {
    SHIPBOOK_BASE_URL: sandbox.url,
    SHIPBOOK_API_KEY: KEY,
    SHIPBOOK_CONFIG_DIR: join(home, 'cfg-remote'),
    SHIPBOOK_STATE_DIR: join(home, 'state'),
    ...extra,
  };
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

  it('--help and -h into a pipe print the help the build rendered, the same text the program prints', async () => {
    // `--help` alone is answered by bin/shipbook.js from dist/help.txt; `help` and `--json --help`
    // go through commander. The three must agree, in the environment the user has.
    const env = { SHIPBOOK_PROFILE: 'warehouse', COLUMNS: '200' };
    const fast = await runCli(['--help'], { env });
    const short = await runCli(['-h'], { env });
    const program = await runCli(['help'], { env });
    const viaCommander = await runCli(['--json', '--help'], { env });
    expect(fast.code).toBe(0);
    expect(fast.stdout).toBe(readFileSync(join(ROOT, 'dist', 'help.txt'), 'utf8'));
    expect(short.stdout).toBe(fast.stdout);
    expect(program.stdout).toBe(fast.stdout);
    expect(viaCommander.stdout).toBe(fast.stdout);
    // `shipbook --help | head -1` ends quietly
    const piped = spawnSync('sh', ['-c', `"${process.execPath}" "${BIN}" --help | head -1`], { encoding: 'utf8' });
    expect(piped.stdout).toBe('Usage: shipbook [options] [command]\n');
    expect(piped.stderr).toBe('');
  });

  it('help <command path> shows that command, not its group', async () => {
    const { code, stdout } = await runShipbook(['help', 'order', 'accept']);
    expect(code).toBe(0);
    expect(stdout).toContain('Usage: shipbook order accept');
  });

  it('help topics print the README tables', async () => {
    const exit = await runShipbook(['help', 'exit-codes']);
    expect(exit.code).toBe(0);
    expect(exit.stdout).toMatch(/130/);
    expect((await runShipbook(['help', 'environment'])).stdout).toContain('SHIPBOOK_API_KEY');
    expect((await runShipbook(['help', 'formats'])).stdout).toContain('ndjson');
  });

  it('a mistyped command or option is answered with the closest one', async () => {
    const cmd = await runShipbook(['qoute']);
    expect(cmd.code).toBe(2);
    expect(cmd.stderr).toMatch(/Did you mean quote\?/);
    const opt = await runShipbook(['quote', '--form', 'AU:2000:Sydney']);
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
      const { code, stdout } = await runShipbook(['completion', shell]);
      expect(code).toBe(0);
      const file = join(home, `completion.${shell}`);
      writeFileSync(file, stdout);
      const res = spawnSync(check[0]!, [...check.slice(1), file], { encoding: 'utf8' });
      expect(res.status, res.stderr).toBe(0);
    });
  }

  it('bash registers the completion function for shipbook', async () => {
    const { stdout } = await runShipbook(['completion', 'bash']);
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
    const { stdout } = await runShipbook(['completion', 'bash']);
    const file = join(home, 'completion-tab.bash');
    writeFileSync(file, stdout);
    const bin = join(home, 'bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'shipbook'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"\n`, { mode: 0o755 });
    const env = { ...process.env, PATH: `${bin}:${process.env.PATH}`, SHIPBOOK_CONFIG_DIR: join(home, 'cfg-tab') };
    /** What bash offers for Tab after `line` (the last word is the one being completed). */
    const tab = (words: string[]) => {
      const line = words.join(' ');
      const script = `${helper}\nsource ${file}\nCOMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; COMP_LINE='${line}'; COMP_POINT=\${#COMP_LINE}\n__shipbook_complete 2>/dev/null; printf '%s\\n' "\${COMPREPLY[@]}"`;
      return spawnSync('bash', ['-c', script], { encoding: 'utf8', env });
    };
    const res = tab(['shipbook', 'order', 'cr']);
    expect(res.stdout.trim(), res.stderr).toBe('create');
    const profiles = tab(['shipbook', '--profile', '']);
    expect(profiles.stdout.trim().split('\n'), profiles.stderr).toEqual(['sandbox']);
  });
});

describe('doctor', () => {
  it('passes on a healthy set-up, as a table of checks or JSON', async () => {
    const { code, stdout } = await runShipbook(['doctor', '--json'], { env: remote() });
    const report = JSON.parse(stdout) as { ok: boolean; checks: Array<{ id: string; status: string; detail: string }> };
    expect(code, stdout).toBe(0);
    expect(report.ok).toBe(true);
    expect(report.checks.map((c) => c.id)).toEqual(['node', 'config-file', 'profile', 'base-url', 'api-key', 'ledger', 'callback', 'sandbox-state']);
    expect(report.checks.find((c) => c.id === 'profile')!.detail).toContain('env SHIPBOOK_API_KEY');
    expect(stdout).not.toContain(KEY);
    const tsv = await runShipbook(['doctor'], { env: remote() });
    expect(tsv.code).toBe(0);
    expect(
      tsv.stdout
        .replace(/\n$/, '')
        .split('\n')
        .map((l) => l.split('\t').length),
    ).toEqual([4, 4, 4, 4, 4, 4, 4, 4]);
  });

  it('fails on a wrong key with exit 4 and says what to do', async () => {
    const { code, stdout, stderr } = await runShipbook(['doctor', '--json'], { env: remote({ SHIPBOOK_API_KEY: 'sk_wrong_key_000000' }) });
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
    const { code, stdout } = await runShipbook(['doctor', '--json'], { env: remote({ SHIPBOOK_BASE_URL: `http://127.0.0.1:${port}/` }) });
    expect(code).toBe(5);
    const base = (JSON.parse(stdout) as { checks: Array<{ id: string; status: string }> }).checks.find((c) => c.id === 'base-url')!;
    expect(base.status).toBe('fail');
  });

  it('fails on a configuration file readable by others, naming the chmod', async () => {
    const dir = join(home, 'cfg-open');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ version: 1 }));
    chmodSync(join(dir, 'config.json'), 0o644);
    const { code, stdout } = await runShipbook(['doctor'], { env: { SHIPBOOK_CONFIG_DIR: dir, SHIPBOOK_STATE_DIR: join(home, 'state') } });
    expect(code).toBe(4);
    expect(stdout).toMatch(/config-file\tfail\t.*readable by others.*\tchmod 600/);
  });
});

describe('output formats', () => {
  it('quote in every format parses back to the same services', async () => {
    const json = await runShipbook(['quote', 'fixtures/quotes/syd-per-multi.yaml', '--output', 'json'], { env: remote() });
    expect(json.code).toBe(0);
    const data = JSON.parse(json.stdout) as { services: Array<{ code: string; price: { total: string } }> };
    const codes = data.services.map((s) => s.code);
    expect(codes.length).toBeGreaterThan(0);

    const yaml = await runShipbook(['quote', 'fixtures/quotes/syd-per-multi.yaml', '--output', 'yaml'], { env: remote() });
    expect(yaml.code).toBe(0);
    expect(parseYaml(yaml.stdout)).toEqual(data);

    const ndjson = await runShipbook(['quote', 'fixtures/quotes/syd-per-multi.yaml', '--output', 'ndjson'], { env: remote() });
    const lines = ndjson.stdout.trimEnd().split('\n');
    expect(lines.map((l) => JSON.parse(l) as unknown)).toEqual([data]);

    const tsv = await runShipbook(['quote', 'fixtures/quotes/syd-per-multi.yaml', '--output', 'tsv'], { env: remote() });
    const rows = tsv.stdout
      .trimEnd()
      .split('\n')
      .map((l) => l.split('\t'));
    expect(rows.map((r) => r.length)).toEqual(codes.map(() => 8));
    expect(rows.map((r) => r[0]).sort()).toEqual([...codes].sort());
  });

  it('a table forced without a terminal is a table; NO_COLOR leaves no escape codes', async () => {
    const { code, stdout } = await runShipbook(['quote', 'fixtures/quotes/syd-per-multi.yaml', '--output', 'table'], {
      env: remote({ NO_COLOR: '1', FORCE_COLOR: '1' }),
    });
    expect(code).toBe(0);
    expect(stdout).toMatch(/^┌/);
    expect(stdout).not.toMatch(/\u001b\[/);
  });

  it('errors are {"error": …} in JSON and YAML too', async () => {
    const json = await runShipbook(['order', 'get', 'ORD-NOPE0000', '--output', 'json'], { env: remote() });
    expect(json.code).toBe(3);
    expect((JSON.parse(json.stdout) as { error: { code: string } }).error.code).toBe('api_error');
    const yaml = await runShipbook(['order', 'get', 'ORD-NOPE0000', '--output', 'yaml'], { env: remote() });
    expect((parseYaml(yaml.stdout) as { error: { exit_code: number } }).error.exit_code).toBe(3);
  });
});

describe('--quiet', () => {
  it('prints only the order id, so ORDER=$(…) works, and the next command takes it', async () => {
    const created = await runShipbook(['order', 'create', 'fixtures/orders/domestic-syd-mel.yaml', '--quiet'], { env: remote() });
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^ORD-[A-Z0-9]+\n$/);
    const id = created.stdout.trim();
    const got = await runShipbook(['order', 'get', id, '--quiet'], { env: remote() });
    expect(got.stdout).toBe(`${id}\n`);
  });

  it('book prints only the final order id, regular and consolidated (no progress lines)', async () => {
    for (const file of ['fixtures/orders/domestic-syd-mel.yaml', 'fixtures/consolidated/three-parcels.yaml']) {
      const { code, stdout } = await runShipbook(['book', file, '--quiet', '--poll', '100ms'], { env: remote() });
      expect(code).toBe(0);
      expect(stdout).toMatch(/^ORD-[A-Z0-9]+\n$/);
    }
  });

  it('refuses --quiet together with another output format', async () => {
    const { code, stderr } = await runShipbook(['quote', 'fixtures/quotes/syd-per-multi.yaml', '--quiet', '--json'], { env: remote() });
    expect(code).toBe(2);
    expect(stderr).toMatch(/--quiet and --json ask for two kinds of output/);
  });

  it('prints the shipment id of a shipment, and the service codes of a quote', async () => {
    const shp = await runShipbook(['shipment', 'create', 'fixtures/shipments/au-us-1.yaml', '--quiet'], { env: remote() });
    expect(shp.stdout).toMatch(/^SHP-[A-Z0-9]+\n$/);
    const quote = await runShipbook(['quote', 'fixtures/quotes/syd-per-multi.yaml', '--quiet'], { env: remote() });
    expect(
      quote.stdout
        .trimEnd()
        .split('\n')
        .every((l) => /^[A-Z0-9-]+$/.test(l)),
    ).toBe(true);
  });
});

describe('--dry-run', () => {
  const dry = (args: string[]) => runShipbook([...args, '--dry-run', '--json'], { env: remote() });
  const commands: Array<[string, string[], string, string]> = [
    ['order create', ['order', 'create', 'fixtures/orders/domestic-syd-mel.yaml'], 'POST', '/orders/'],
    ['order accept', ['order', 'accept', 'ORD-DRYRUN01', '--payment-file', 'fixtures/payments/credit-card.yaml'], 'PUT', '/orders/ORD-DRYRUN01/accept/'],
    ['order cancel', ['order', 'cancel', 'ORD-DRYRUN01'], 'PUT', '/orders/ORD-DRYRUN01/cancel/'],
    ['shipment create', ['shipment', 'create', 'fixtures/shipments/au-us-1.yaml'], 'POST', '/shipments/'],
    ['shipment combine', ['shipment', 'combine', 'SHP-A0000001', 'SHP-B0000002', '--main', 'fixtures/shipments/main-to-hub.yaml'], 'PUT', '/shipments/'],
    ['book', ['book', 'fixtures/orders/domestic-syd-mel.yaml'], 'POST', '/orders/'],
    ['book (consolidated)', ['book', 'fixtures/consolidated/three-parcels.yaml'], 'POST', '/shipments/'],
  ];
  for (const [name, args, method, path] of commands) {
    it(`${name} prints the request it would send, redacted, and sends nothing`, async () => {
      const before = await sandboxOrders();
      const { code, stdout, stderr } = await dry(args);
      expect(code, stderr).toBe(0);
      const out = JSON.parse(stdout) as {
        dry_run: boolean;
        sent: boolean;
        requests: Array<{ method: string; url: string; headers: Record<string, string>; body?: unknown }>;
      };
      expect(out).toMatchObject({ dry_run: true, sent: false });
      expect(out.requests[0]!.method).toBe(method);
      expect(new URL(out.requests[0]!.url).pathname).toBe(path);
      expect(out.requests[0]!.headers.authorization).toBe('Bearer ****4242');
      expect(stdout + stderr).not.toContain(KEY);
      expect(stderr).toMatch(/nothing was sent/);
      expect(await sandboxOrders()).toEqual(before);
    });
  }

  it('book plans every step, with placeholders for the ids the service would assign', async () => {
    const regular = JSON.parse((await dry(['book', 'fixtures/orders/domestic-syd-mel.yaml'])).stdout) as { requests: Array<{ endpoint: string; url: string }> };
    expect(regular.requests.map((r) => r.endpoint)).toEqual(['createOrder', 'acceptOrder']);
    expect(regular.requests[1]!.url).toMatch(/\/orders\/<order id>\/accept\/$/);
    const consolidated = JSON.parse((await dry(['book', 'fixtures/consolidated/three-parcels.yaml'])).stdout) as {
      requests: Array<{ endpoint: string; body: { request: { shipments?: string[] } } }>;
    };
    expect(consolidated.requests.map((r) => r.endpoint)).toEqual(['createShipment', 'createShipment', 'createShipment', 'combineShipments', 'acceptOrder']);
    expect(consolidated.requests[3]!.body.request.shipments).toEqual(['<shipment id 1>', '<shipment id 2>', '<shipment id 3>']);
  });

  it('redacts the card number and CVV of a payment file', async () => {
    const { stdout } = await dry(['order', 'accept', 'ORD-DRYRUN01', '--payment-file', 'fixtures/payments/credit-card.yaml']);
    expect(stdout).not.toMatch(/4111111111111111|4242424242424242/);
    expect(stdout).toMatch(/"\*\*\*"/);
  });

  it('stops on invalid input with exit 2, sending nothing', async () => {
    const { code } = await dry(['order', 'create', 'fixtures/invalid/order-typos.yaml']);
    expect(code).toBe(2);
  });

  it('on a fresh sandbox, GET /_sandbox/orders/ stays empty after every dry run', async () => {
    const fresh = await startSandbox({ apiKey: KEY, processingDelayMs: 50 });
    try {
      const env = remote({ SHIPBOOK_BASE_URL: fresh.url });
      for (const [, args] of commands) expect((await runShipbook([...args, '--dry-run'], { env })).code).toBe(0);
      const res = await fetch(new URL('_sandbox/orders/', fresh.url), { headers: { authorization: `Bearer ${KEY}` } });
      const body = (await res.json()) as { result: { orders: unknown[] } };
      expect(body.result.orders).toEqual([]);
    } finally {
      await fresh.close();
    }
  });
});

describe('errors', () => {
  it('a YAML key that is a list is a problem at its line and column, never a Node warning', async () => {
    const file = join(home, 'collection-key.yaml');
    writeFileSync(file, 'order:\n  shipments: []\n  ? [a, b]\n  : 1\n');
    const before = await sandboxOrders();
    for (const args of [
      ['validate', file],
      ['order', 'create', file],
    ]) {
      const { code, stdout, stderr } = await runCli(args, { env: remote() });
      expect(code).toBe(2);
      expect(stdout + stderr).toMatch(/collection-key\.yaml:3:5.*a key must be plain text, not a list/);
      expect(stderr).not.toMatch(/Warning|\(node:/);
    }
    expect(await sandboxOrders()).toEqual(before);
  });

  it('an error is one line saying what happened, then what to do next; no stack without --debug', async () => {
    const { code, stderr } = await runShipbook(['order', 'get', 'ORD-NOPE0000'], { env: remote() });
    expect(code).toBe(3);
    const lines = stderr
      .trimEnd()
      .split('\n')
      .filter((l) => !l.startsWith('['));
    expect(lines[0]).toMatch(/^error: /);
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});
