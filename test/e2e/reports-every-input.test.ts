/**
 * Every way a batch can end early still leaves reports that name every input exactly once, and no
 * lock behind: a state directory and journal on a tmpfs that fills up, the shared PostgreSQL ledger
 * stopped mid-batch, a second Ctrl-C while creates are in flight, and a reader that closes stdout
 * (`| head -1`). A report path in a missing directory is refused before anything is sent. Each
 * fault is made for real, against `shipbook sandbox` as a process (its own list of orders is the
 * witness).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, isolatedEnv, runCli } from '../helpers/cli.js';
import { startSandboxProcess } from '../helpers/sandbox-process.js';
import { countedByTag, startRun, taggedOrdersFile, until } from '../helpers/runs.js';
import { POSTGRES_MISSING, startPostgres, type TestPostgres } from '../helpers/postgres.js';

const KEY = 'sk_test_every_input_0123456789';
const running: ChildProcess[] = [];
let url: string;

beforeAll(async () => {
  url = await startSandboxProcess(['--api-key', KEY], running);
}, 60_000);
afterAll(() => {
  for (const c of running) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

type Report = { summary?: Record<string, unknown>; orders: Array<{ id: string; line: number; status: string; error?: { message: string }; hint?: string }> };

/** The JSON report, checked to list each of the `n` inputs (lines 1..n) exactly once. */
function everyInputOnce(path: string, n: number): Report {
  const report = JSON.parse(readFileSync(path, 'utf8')) as Report;
  const lines = report.orders.map((o) => o.line).sort((a, b) => a - b);
  expect(lines).toEqual(Array.from({ length: n }, (_, i) => i + 1));
  expect(report.summary).toBeDefined();
  return report;
}

/** The JUnit file's test cases, by count. */
const testCases = (path: string) => (readFileSync(path, 'utf8').match(/<testcase /g) ?? []).length;

/** Lock files left anywhere under `dirs` (the journal's `.lock`, the claims lock and its holder files). */
function locksUnder(...dirs: string[]): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    if (!existsSync(d)) return;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name.includes('.lock')) found.push(join(d, e.name));
      else if (e.isDirectory()) walk(join(d, e.name));
    }
  };
  for (const d of dirs) walk(d);
  return found;
}

/** Why a tmpfs cannot be mounted here (not root, no permission), or undefined once `dir` has one of 256 KiB. */
function mountTmpfs(dir: string): string | undefined {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', dir], { stdio: 'pipe' });
    return undefined;
  } catch (err) {
    return `cannot mount a tmpfs here (${String((err as { stderr?: Buffer }).stderr ?? err).trim()})`;
  }
}

describe('reports of a batch that ends early', () => {
  it('a full disk under the state directory and the journal: exit 10, the report and JUnit list all 200 inputs, no lock left', async (t) => {
    const { dir, file } = taggedOrdersFile(200, 'FULL');
    const mnt = join(dir, 'mnt');
    mkdirSync(mnt);
    const why = mountTmpfs(mnt);
    if (why !== undefined) t.skip(why);
    try {
      const run = startRun(
        ['book', file, '--journal', join(mnt, 'j.ndjson'), '--report', 'rep.json', '--junit', 'j.xml', '--poll', '50ms'],
        { SHIPBOOK_BASE_URL: url, SHIPBOOK_API_KEY: KEY, SHIPBOOK_STATE_DIR: join(mnt, 'state') },
        dir,
        running,
      );
      expect(await run.done, run.stderr()).toBe(10);
      expect(run.stderr()).toMatch(/no space left on the device \[ENOSPC\]/);
      const report = everyInputOnce(join(dir, 'rep.json'), 200);
      expect(report.summary?.stopped_by).toBe('journal_write_failed');
      expect(testCases(join(dir, 'j.xml'))).toBe(200);
      // An input whose create was sent and not recorded says so, with the command that settles it.
      for (const o of report.orders.filter((x) => x.status === 'unknown')) expect(o.hint).toContain(`shipbook journal resolve ${o.id}`);
      expect(locksUnder(mnt)).toEqual([]);
    } finally {
      execFileSync('umount', [mnt]);
    }
  }, 180_000);

  it('a full disk with --max-total and --budget: exit 10, the orders the caps left are still reported and counted with the budget', async (t) => {
    const { dir, file } = taggedOrdersFile(300, 'FULLCAP');
    const mnt = join(dir, 'mnt');
    mkdirSync(mnt);
    const why = mountTmpfs(mnt);
    if (why !== undefined) t.skip(why);
    try {
      // Every order costs more than 1.00 AUD: each is created, refused and cancelled until the disk is full.
      const run = startRun(
        ['book', file, '--max-total', '1', '--budget', '500', '--journal', join(mnt, 'j.ndjson'), '--report', 'rep.json', '--poll', '50ms'],
        { SHIPBOOK_BASE_URL: url, SHIPBOOK_API_KEY: KEY, SHIPBOOK_STATE_DIR: join(mnt, 'state') },
        dir,
        running,
      );
      expect(await run.done, run.stderr()).toBe(10);
      const report = everyInputOnce(join(dir, 'rep.json'), 300);
      expect(report.summary?.stopped_by).toBe('journal_write_failed');
      const overLimit = report.orders.filter((o) => o.status === 'over_limit').length;
      expect(overLimit).toBeGreaterThan(0);
      expect(report.summary?.over_limit).toBe(overLimit);
      expect(report.summary?.budget).toEqual({ limit: '500.00', spent: '0.00' });
      expect(run.stderr()).toMatch(
        new RegExp(`, ${overLimit} over --max-total \\(cancelled, not accepted\\).*; budget 500\\.00 AUD, 0\\.00 AUD spent by this run`),
      );
      expect(locksUnder(mnt)).toEqual([]);
    } finally {
      execFileSync('umount', [mnt]);
    }
  }, 180_000);

  it('a second Ctrl-C while creates are in flight: exit 130, the reports list all 400 inputs, in-flight creates "sent, answer unknown", no lock left', async () => {
    const slow = await startSandboxProcess(['--api-key', KEY, '--latency', '400ms'], running);
    const { dir, file } = taggedOrdersFile(400, 'TWICE');
    const state = mkdtempSync(join(tmpdir(), 'shipbook-twice-state-'));
    const run = startRun(
      ['book', file, '--concurrency', '8', '--journal', 'j.ndjson', '--report', 'rep.json', '--junit', 'j.xml', '--poll', '50ms'],
      { SHIPBOOK_BASE_URL: slow, SHIPBOOK_API_KEY: KEY, SHIPBOOK_STATE_DIR: state },
      dir,
      running,
    );
    await until(() => run.stdout().split('\n').length > 3, 60_000, 'a few orders booked');
    run.child.kill('SIGINT');
    await until(() => run.stderr().includes('interrupted (Ctrl-C)'), 10_000, 'the first Ctrl-C said');
    run.child.kill('SIGINT');
    expect(await run.done, run.stderr()).toBe(130);
    const report = everyInputOnce(join(dir, 'rep.json'), 400);
    expect(report.summary?.stopped_at_once).toBe(true);
    expect(testCases(join(dir, 'j.xml'))).toBe(400);
    expect(report.orders.filter((o) => o.status === 'not_started').length).toBeGreaterThan(0);
    for (const o of report.orders.filter((x) => x.status === 'unknown')) {
      expect(o.error?.message).toContain('sent, answer unknown');
      expect(o.hint).toContain(`shipbook journal resolve ${o.id}`);
    }
    expect(run.stderr()).toMatch(/batch: \d+ booked.*not started/);
    expect(locksUnder(dir, state)).toEqual([]);
  }, 180_000);

  it('a report in a missing directory: exit 2 before anything is sent, no order at the sandbox', async () => {
    const { dir, file } = taggedOrdersFile(3, 'NODIR');
    const r = await runCli(['book', file, '--report', join(dir, 'missing', 'r.json')], { env: { SHIPBOOK_BASE_URL: url, SHIPBOOK_API_KEY: KEY } });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(
      `cannot write --report ${join(dir, 'missing', 'r.json')}: its directory ${join(dir, 'missing')} does not exist; nothing was sent`,
    );
    expect(r.stderr).not.toContain('internal error');
    expect(await countedByTag(url, KEY, 'NODIR')).toEqual({ documents: 0, orders: 0 });
  });

  it('`| head -1`: exit 141 (stdout closed, nothing failed), the report lists every input, no lock left', async () => {
    const { dir, file } = taggedOrdersFile(40, 'HEAD');
    const state = mkdtempSync(join(tmpdir(), 'shipbook-head-state-'));
    const env = isolatedEnv({ SHIPBOOK_BASE_URL: url, SHIPBOOK_API_KEY: KEY, SHIPBOOK_STATE_DIR: state });
    // A real pipe into head: shipbook's exit code is the pipeline's first ($PIPESTATUS).
    const script = `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} book ${JSON.stringify(file)} --journal j.ndjson --report rep.json --poll 50ms | head -1; echo "exit=\${PIPESTATUS[0]}" >&2`;
    const child = spawn('bash', ['-c', script], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.stdout.resume();
    await new Promise((resolve) => child.on('close', resolve));
    expect(stderr).toContain('exit=141');
    expect(stderr).toContain('stdout was closed');
    const report = everyInputOnce(join(dir, 'rep.json'), 40);
    expect(report.orders.some((o) => o.status === 'failed' || o.status === 'unknown')).toBe(false);
    expect(locksUnder(dir, state)).toEqual([]);
  }, 120_000);
});

describe.skipIf(POSTGRES_MISSING !== undefined)(`the shared ledger lost mid-batch${POSTGRES_MISSING ? ` (skipped: ${POSTGRES_MISSING})` : ''}`, () => {
  let pg: TestPostgres;
  beforeAll(() => {
    pg = startPostgres();
  }, 120_000);
  afterAll(() => pg?.stop());

  it('pg_ctl stop -m immediate mid-batch: exit 10, the report lists all 150 inputs, no lock left', async () => {
    const { dir, file } = taggedOrdersFile(150, 'PGLOST');
    const state = mkdtempSync(join(tmpdir(), 'shipbook-pglost-state-'));
    const sent = () => {
      try {
        return Number(pg.sql(`SELECT count(*) FROM shipbook_records WHERE event = 'create_sent' AND record->>'file' = '${file}'`));
      } catch {
        return 0;
      }
    };
    const run = startRun(
      ['book', file, '--concurrency', '4', '--report', 'rep.json', '--junit', 'j.xml', '--poll', '50ms'],
      { SHIPBOOK_BASE_URL: url, SHIPBOOK_API_KEY: KEY, SHIPBOOK_STATE_DIR: state, SHIPBOOK_LEDGER: pg.url },
      dir,
      running,
    );
    await until(() => sent() >= 10, 60_000, 'creates recorded in the database');
    pg.kill();
    try {
      expect(await run.done, run.stderr()).toBe(10);
      expect(run.stderr()).toMatch(/lost the shared ledger/);
      const report = everyInputOnce(join(dir, 'rep.json'), 150);
      expect(report.summary?.stopped_by).toBe('journal_write_failed');
      expect(testCases(join(dir, 'j.xml'))).toBe(150);
      expect(locksUnder(dir, state)).toEqual([]);
    } finally {
      pg.start();
    }
  }, 180_000);
});
