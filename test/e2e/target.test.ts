/**
 * Sandbox or real service, never confused (CI above all): runs with `CI=true`, in-process, and for
 * a single book on the built-in sandbox and an order against `shipbook sandbox` the built
 * bin/shipbook.js as a separate process. A fault server counting every request it receives is the
 * witness that nothing was sent where the run must refuse.
 */
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { runShipbook } from '../helpers/run.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { startSandboxProcess } from '../helpers/sandbox-process.js';

const ORDER = 'fixtures/orders/domestic-syd-mel.yaml';
let fault: FaultServer;
beforeAll(async () => {
  fault = await startFaultServer();
});
afterAll(async () => {
  await fault.close();
});
beforeEach(() => fault.reset());

/** A configuration directory whose default profile `ci` points at `baseUrl`, with `apiKey` when given. */
function configWith(baseUrl: string, apiKey?: string, extra: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'shipbook-target-config-'));
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'config.json');
  const profile = { 'base-url': baseUrl, ...(apiKey ? { 'api-key': apiKey } : {}), ...extra };
  writeFileSync(file, `${JSON.stringify({ version: 1, 'default-profile': 'ci', profiles: { ci: profile } })}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return dir;
}

describe('an empty variable is never "not set"', () => {
  const cases: Array<[string, Record<string, string>, string]> = [
    ['SHIPBOOK_API_KEY alone', { SHIPBOOK_API_KEY: '' }, 'SHIPBOOK_API_KEY is set but empty'],
    ['SHIPBOOK_BASE_URL alone', { SHIPBOOK_BASE_URL: '' }, 'SHIPBOOK_BASE_URL is set but empty'],
    ['SHIPBOOK_PROFILE alone', { SHIPBOOK_PROFILE: ' ' }, 'SHIPBOOK_PROFILE is set but empty'],
    ['both key and base URL', { SHIPBOOK_API_KEY: '', SHIPBOOK_BASE_URL: '' }, 'SHIPBOOK_API_KEY and SHIPBOOK_BASE_URL are set but empty'],
  ];
  for (const [name, vars, message] of cases) {
    it(`refuses ${name} with exit 4 and sends nothing, in every format`, async () => {
      const config = configWith(fault.url, 'sk_ci_0123456789');
      for (const args of [
        ['book', ORDER, '--json'],
        ['order', 'create', ORDER],
        ['quote', 'fixtures/quotes/syd-mel-single.yaml', '--output', 'ndjson'],
      ]) {
        const r = await runShipbook(args, { env: { CI: 'true', SHIPBOOK_CONFIG_DIR: config, ...vars } });
        expect(r.code, r.stderr).toBe(4);
        expect(r.stderr).toContain(`error: ${message}: is a CI secret missing? Nothing was sent`);
        if (args.includes('--json') || args.includes('ndjson')) {
          const body = JSON.parse(r.stdout) as { error: { code: string; exit_code: number; message: string } };
          expect(body.error).toMatchObject({ code: 'config_error', exit_code: 4 });
          expect(body.error.message).toContain(message);
        }
      }
      expect(fault.requests).toEqual([]);
    });
  }

  it('refuses it in every context: auth status, config list and doctor too', async () => {
    const config = configWith(fault.url, 'sk_ci_0123456789');
    for (const args of [['auth', 'status'], ['config', 'list'], ['doctor']]) {
      const r = await runShipbook(args, { env: { CI: 'true', SHIPBOOK_CONFIG_DIR: config, SHIPBOOK_API_KEY: '' } });
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(4);
      expect(`${r.stdout}${r.stderr}`).toContain('SHIPBOOK_API_KEY is set but empty: is a CI secret missing?');
    }
    expect(fault.requests).toEqual([]);
  });

  it('refuses the empty key even when nothing else is configured (no fall-back to the built-in sandbox)', async () => {
    const r = await runShipbook(['book', ORDER, '--json'], { env: { CI: 'true', SHIPBOOK_API_KEY: '', SHIPBOOK_BASE_URL: '' } });
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).not.toContain('built-in sandbox at');
    expect(r.stdout).not.toContain('"booked"');
  });
});

const SANDBOX_LINE = 'sandbox\tsimulated service, nothing is really booked';
const CLOSING = '[sandbox] nothing was really booked';

/** A directory holding two order files, for a batch. */
function ordersDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'shipbook-target-orders-'));
  copyFileSync(join(ROOT, ORDER), join(dir, 'domestic-syd-mel.yaml'));
  copyFileSync(join(ROOT, 'fixtures/orders/insured-bne-per.yaml'), join(dir, 'insured-bne-per.yaml'));
  return dir;
}

describe('CI with nothing configured books on the built-in sandbox, every output marked', () => {
  const env = { CI: 'true', SHIPBOOK_API_KEY: undefined, SHIPBOOK_BASE_URL: undefined, SHIPBOOK_PROFILE: undefined };

  it('single book: --json carries the target, stderr names it and ends saying nothing was really booked', async () => {
    const r = await runCli(['book', ORDER, '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { order: { status: string }; sandbox: boolean; target: { kind: string; base_url: string; profile: string } };
    expect(doc.order.status).toBe('processed');
    expect(doc.sandbox).toBe(true);
    expect(doc.target).toEqual({ kind: 'builtin-sandbox', base_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/$/), profile: 'sandbox' });
    expect(r.stderr).toMatch(/^\[sandbox\] built-in sandbox at http:\/\/127\.0\.0\.1:\d+\/ \(state in .+\): simulated service, nothing is really booked$/m);
    const last = r.stderr.trimEnd().split('\n').at(-1);
    expect(last).toBe(`${CLOSING}: this run booked on the built-in sandbox, a simulated service`);
    expect(r.stderr.split(CLOSING)).toHaveLength(2); // once
  });

  it('tab-separated output starts with the sandbox marker line', async () => {
    const r = await runShipbook(['order', 'create', ORDER], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe(SANDBOX_LINE);
    expect(r.stderr).toContain(CLOSING);
  });

  it('a quote books nothing: marked, but no closing line', async () => {
    const r = await runShipbook(['quote', 'fixtures/quotes/syd-mel-single.yaml', '--output', 'yaml'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^target:\n {2}kind: builtin-sandbox\n {2}base_url: http:\/\/127\.0\.0\.1:\d+\/\n {2}profile: sandbox$/m);
    expect(r.stderr).not.toContain(CLOSING);
  });

  it('batch: --json summary, every ndjson line, report.json and JUnit properties carry the target', async () => {
    const dir = ordersDir();
    const out = mkdtempSync(join(tmpdir(), 'shipbook-target-out-'));
    const json = await runShipbook(['book', dir, '--json', '--journal', join(out, 'j1.ndjson')], { env });
    expect(json.code, json.stderr).toBe(0);
    const summary = JSON.parse(json.stdout) as { summary: { booked: number }; target: { kind: string } };
    expect(summary.summary.booked).toBe(2);
    expect(summary.target.kind).toBe('builtin-sandbox');
    expect(json.stderr).toContain(CLOSING);

    const report = join(out, 'report.json');
    const junit = join(out, 'junit.xml');
    const nd = await runShipbook(['book', dir, '--output', 'ndjson', '--journal', join(out, 'j2.ndjson'), '--report', report, '--junit', junit], { env });
    expect(nd.code, nd.stderr).toBe(0);
    const lines = nd.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { status: string; target: { kind: string; profile: string } });
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line.target).toMatchObject({ kind: 'builtin-sandbox', profile: 'sandbox' });
    const written = JSON.parse(readFileSync(report, 'utf8')) as { target: { kind: string; base_url: string }; orders: unknown[] };
    expect(written.target.kind).toBe('builtin-sandbox');
    expect(written.orders).toHaveLength(2);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain('<property name="target.kind" value="builtin-sandbox"/>');
    expect(xml).toContain(`<property name="target.base_url" value="${written.target.base_url}"/>`);
    expect(xml).toContain('<property name="target.profile" value="sandbox"/>');
  });
});

describe("a profile pointing at `shipbook sandbox` is marked from the server's announcement", () => {
  const running: ChildProcess[] = [];
  afterEach(async () => {
    for (const c of running.splice(0)) {
      if (c.exitCode === null && c.signalCode === null) {
        const exited = once(c, 'exit');
        c.kill('SIGKILL');
        await exited;
      }
    }
  });

  /** `shipbook sandbox` in its own process; resolves with its URL once it listens. */
  const sandboxProcess = () => startSandboxProcess([], running);

  it('a profile that says nothing of a sandbox: the answers announce it, and every format is marked', async () => {
    const url = await sandboxProcess();
    const config = configWith(url, 'sk_sandbox_builtin');
    const tsv = await runCli(['order', 'create', ORDER], { env: { CI: 'true', SHIPBOOK_CONFIG_DIR: config } });
    expect(tsv.code, tsv.stderr).toBe(0);
    expect(tsv.stdout.split('\n')[0]).toBe(SANDBOX_LINE);
    expect(tsv.stderr).toContain(`[service] ${url} (profile ci, key ****ltin)`);
    expect(tsv.stderr).toContain(`[sandbox] ${url} announces itself as a shipbook sandbox: simulated service, nothing is really booked`);
    expect(tsv.stderr.trimEnd().split('\n').at(-1)).toBe(
      `${CLOSING}: this run created orders or shipments, none accepted, on the sandbox at ${url}, a simulated service`,
    );

    const json = await runShipbook(['book', ORDER, '--json'], { env: { CI: 'true', SHIPBOOK_CONFIG_DIR: config } });
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ sandbox: true, target: { kind: 'sandbox', base_url: url, profile: 'ci' } });

    // An error from it is marked too (the header is on every answer).
    const missing = await runShipbook(['order', 'get', 'ORD-NOSUCH1', '--json'], { env: { CI: 'true', SHIPBOOK_CONFIG_DIR: config } });
    expect(missing.code).toBe(3);
    expect(JSON.parse(missing.stdout)).toMatchObject({ error: { status: 404 }, sandbox: true, target: { kind: 'sandbox', base_url: url } });
  });

  it('a profile declared a sandbox in its settings is marked before any answer', async () => {
    fault.set('GET /orders/ORD-DECLARED/', { mode: 'status', status: 404, message: 'no such order' });
    const config = configWith(fault.url, 'sk_ci_0123456789', { sandbox: 'true' });
    const r = await runShipbook(['order', 'get', 'ORD-DECLARED', '--json'], { env: { CI: 'true', SHIPBOOK_CONFIG_DIR: config } });
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stdout)).toMatchObject({ sandbox: true, target: { kind: 'sandbox', base_url: fault.url, profile: 'ci' } });
    expect(r.stderr).toContain(`[sandbox] sandbox at ${fault.url} (profile ci): simulated service, nothing is really booked`);
  });

  it('a service that does not announce itself is a service: no marker, kind service', async () => {
    fault.set('GET /orders/ORD-REAL1/', { mode: 'status', status: 404, message: 'no such order' });
    const config = configWith(fault.url, 'sk_live_0123456789');
    const r = await runShipbook(['order', 'get', 'ORD-REAL1', '--json'], { env: { CI: 'true', SHIPBOOK_CONFIG_DIR: config } });
    expect(r.code).toBe(3);
    const doc = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(doc.target).toEqual({ kind: 'service', base_url: fault.url, profile: 'ci' });
    expect(doc.sandbox).toBeUndefined();
    expect(r.stderr).toContain(`[service] ${fault.url} (profile ci, key ****6789)`);
    expect(r.stderr).not.toContain('[sandbox]');

    // With the service given by the environment alone, no profile names it: `profile` is null.
    const fromEnv = await runShipbook(['order', 'get', 'ORD-REAL1', '--json'], {
      env: { CI: 'true', SHIPBOOK_BASE_URL: fault.url, SHIPBOOK_API_KEY: 'sk_live_0123456789' },
    });
    expect(fromEnv.code).toBe(3);
    expect((JSON.parse(fromEnv.stdout) as Record<string, unknown>).target).toEqual({ kind: 'service', base_url: fault.url, profile: null });
    expect(fromEnv.stderr).toContain(`[service] ${fault.url} (from SHIPBOOK_BASE_URL, key ****6789)`);
  });
});

describe('authorization as the interface document says', () => {
  const operations: Array<[string, string[]]> = [
    ['create order', ['order', 'create', ORDER]],
    ['accept order', ['order', 'accept', 'ORD-NOKEY01', '--payment', 'credit']],
    ['create shipment', ['shipment', 'create', 'fixtures/shipments/au-us-1.yaml']],
    ['combine shipments', ['shipment', 'combine', 'SHP-A', 'SHP-B', '--main', 'fixtures/shipments/main-to-hub.yaml']],
  ];
  for (const [title, args] of operations) {
    it(`${title} without a key on a service target: exit 4 naming auth login and SHIPBOOK_API_KEY, nothing sent`, async () => {
      const config = configWith(fault.url);
      const r = await runShipbook(args, { env: { CI: 'true', SHIPBOOK_CONFIG_DIR: config } });
      expect(r.code, r.stderr).toBe(4);
      expect(r.stderr).toContain(`error: ${title} requires authorization and no API key is configured: nothing was sent`);
      expect(r.stderr).toContain('shipbook auth login');
      expect(r.stderr).toContain('SHIPBOOK_API_KEY');
      expect(fault.requests).toEqual([]);
    });
  }

  it('book without a key refuses before its first step', async () => {
    const config = configWith(fault.url);
    const r = await runShipbook(['book', ORDER, '--json'], { env: { CI: 'true', SHIPBOOK_CONFIG_DIR: config } });
    expect(r.code, r.stderr).toBe(4);
    expect(JSON.parse(r.stdout)).toMatchObject({ error: { exit_code: 4 }, target: { kind: 'service', base_url: fault.url } });
    expect(fault.requests).toEqual([]);
  });

  it('a quote goes without a key (authorization is optional for it)', async () => {
    fault.set('POST /quote/', { mode: 'ok', result: { services: [] } });
    const config = configWith(fault.url);
    await runShipbook(['quote', 'fixtures/quotes/syd-mel-single.yaml'], { env: { CI: 'true', SHIPBOOK_CONFIG_DIR: config } });
    expect(fault.requests.map((q) => `${q.method} ${q.path}`)).toEqual(['POST /quote/']);
    expect(fault.requests[0]!.headers.authorization).toBeUndefined();
  });

  it('doctor reports the missing key as a failed check (exit 4)', async () => {
    fault.set('*', { mode: 'status', status: 404, message: 'no such order' });
    const config = configWith(fault.url);
    const r = await runShipbook(['doctor', '--json'], { env: { CI: 'true', SHIPBOOK_CONFIG_DIR: config } });
    expect(r.code).toBe(4);
    const checks = (JSON.parse(r.stdout) as { checks: Array<{ id: string; status: string; detail: string; fix?: string }> }).checks;
    const key = checks.find((c) => c.id === 'api-key')!;
    expect(key.status).toBe('fail');
    expect(key.detail).toContain('no API key: create order, accept order, create shipment and combine shipments require authorization');
    expect(key.fix).toBe('Log in: shipbook --profile ci auth login, or set SHIPBOOK_API_KEY.');
    expect((JSON.parse(r.stdout) as { target: unknown }).target).toEqual({ kind: 'service', base_url: fault.url, profile: 'ci' });
  });
});
