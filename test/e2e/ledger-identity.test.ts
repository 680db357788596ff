/**
 * The ledger follows the service and the account, not the key's text or the URL's spelling, and a
 * station carries its history into the shared ledger and back (docs/shared-ledger.md, "Keys,
 * accounts and spellings of the URL"). Each case books first, changes one thing, and counts the
 * orders at `shipbook sandbox` (its own process, its own list of orders the witness).
 *
 * The sandbox shows every order to every key; a real service shows an account's orders to that
 * account's keys only. A small proxy in front of it plays that part for the keys named
 * `other-account-…`: fetch-order-data answers them 404, as a real service answers a key of another
 * account. Everything else goes through to the sandbox as it is.
 */
import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startSandboxProcess } from '../helpers/sandbox-process.js';
import { countedByTag, taggedOrdersFile } from '../helpers/runs.js';
import { POSTGRES_MISSING, startPostgres, type TestPostgres } from '../helpers/postgres.js';

const running: ChildProcess[] = [];
let sandbox: string;
let proxy: Server;
let port: number;

const KEY_A = 'key-AAAA-0001';
const KEY_B = 'key-BBBB-0002';
const fp = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex').slice(0, 12);

/** The orders at the sandbox for documents tagged `tag` (every key sees every order there). */
const orders = async (tag: string) => (await countedByTag(sandbox, KEY_A, tag)).orders;

/** A state directory and a configuration directory of their own: one station. */
function station(): { SHIPBOOK_STATE_DIR: string; SHIPBOOK_CONFIG_DIR: string } {
  return { SHIPBOOK_STATE_DIR: mkdtempSync(join(tmpdir(), 'shipbook-id-state-')), SHIPBOOK_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'shipbook-id-config-')) };
}

const book = (file: string, env: Record<string, string>, ...more: string[]) =>
  runCli(['book', file, '--payment', 'credit', ...more], { env, timeoutMs: 30_000 });

beforeAll(async () => {
  // Listening on :: (both IPv6 and IPv4 here) so that 127.0.0.1, localhost and [::1] all reach it.
  sandbox = await startSandboxProcess(['--host', '::'], running);
  proxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const key = String(req.headers.authorization ?? '');
      if (req.method === 'GET' && /^\/orders\/[^/]+\/$/.test(req.url ?? '') && key.includes('other-account-')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'order not found', code: 404, result: {} }));
        return;
      }
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== 'host' && k !== 'content-length')) as Record<string, string>;
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      fetch(new URL(req.url!.slice(1), sandbox), { method: req.method!, headers, ...(body ? { body } : {}) })
        .then(async (answer) => {
          const out = Buffer.from(await answer.arrayBuffer());
          const back: Record<string, string> = {};
          answer.headers.forEach((v, k) => {
            if (k !== 'content-length' && k !== 'transfer-encoding' && k !== 'content-encoding' && k !== 'connection') back[k] = v;
          });
          res.writeHead(answer.status, back).end(out);
        })
        .catch(() => res.writeHead(502).end());
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '::', resolve));
  port = (proxy.address() as AddressInfo).port;
}, 60_000);

afterAll(() => {
  proxy?.close();
  for (const c of running) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

describe('one ledger per service and account', () => {
  const home = station();
  const { single: file, file: batchFile } = taggedOrdersFile(1, 'rotate');
  const url = () => `http://127.0.0.1:${port}/`;

  it('a new API key for the profile (auth login) carries on its ledger: the service shows it an order of the ledger, so nothing is booked again', async () => {
    const login = (key: string) =>
      runCli(['--profile', 'warehouse', 'auth', 'login', '--with-key', '--base-url', url()], { env: home, input: `${key}\n`, timeoutMs: 30_000 });
    expect((await login(KEY_A)).code).toBe(0);
    const first = await runCli(['--profile', 'warehouse', 'book', file, '--payment', 'credit'], { env: home, timeoutMs: 30_000 });
    expect(first.code, first.stderr).toBe(0);
    expect(await orders('rotate')).toBe(1);
    expect((await login(KEY_B)).code).toBe(0);
    const again = await runCli(['--profile', 'warehouse', 'book', file, '--payment', 'credit'], { env: home, timeoutMs: 30_000 });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(`a new API key for http://localhost:${port}/ (fingerprint ${fp(KEY_B)})`);
    expect(again.stderr).toContain('nothing was sent');
    expect(await orders('rotate')).toBe(1);
  }, 60_000);

  it('the URL spelled four ways is one service: one ledger, no new order', async () => {
    for (const spelling of [`http://127.0.0.1:${port}/`, `http://localhost:${port}`, `http://LOCALHOST:${port}/`, `http://[::1]:${port}`]) {
      const r = await book(file, { ...home, SHIPBOOK_BASE_URL: spelling, SHIPBOOK_API_KEY: KEY_B });
      expect(r.code, `${spelling}: ${r.stderr}`).toBe(0);
      expect(r.stderr).toContain('nothing was sent');
    }
    expect(await orders('rotate')).toBe(1);
    expect(readdirSync(join(home.SHIPBOOK_STATE_DIR, 'ledger')).filter((n) => n.endsWith('.ndjson'))).toHaveLength(1);
  }, 90_000);

  it('a key the service does not link sends nothing for a document booked under another key, says where and when, and books it with --again', async () => {
    const other = { ...home, SHIPBOOK_BASE_URL: url(), SHIPBOOK_API_KEY: 'other-account-key-1' };
    const refused = await book(file, other);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/not sent: this document was booked on \d{4}-\d\d-\d\dT[^ ]+ as order ORD-\w+ under another key of this service/);
    expect(refused.stderr).toContain(`shipbook ledger link ${fp(KEY_A)}`);
    expect(refused.stderr).toContain(`book ${file} --again`);
    expect(await orders('rotate')).toBe(1);
    // order create keeps the same rule: nothing created.
    const create = await runCli(['order', 'create', file], { env: other, timeoutMs: 30_000 });
    expect(create.code, create.stderr).toBe(2);
    expect(create.stderr).toContain(`order create ${file} --again`);
    expect(await orders('rotate')).toBe(1);
    // A batch says the same of that order, books the others, and ends exit 8 naming it.
    const batch = await runCli(['book', batchFile, '--payment', 'credit', '--json'], { env: other, timeoutMs: 30_000 });
    expect(batch.code, batch.stderr).toBe(8);
    const [row] = (JSON.parse(batch.stdout) as { orders: Array<{ status: string; error?: { code: string }; hint?: string }> }).orders;
    expect(row).toMatchObject({ status: 'failed', error: { code: 'booked_elsewhere' } });
    expect(row!.hint).toContain(`shipbook ledger link ${fp(KEY_A)}`);
    expect(await orders('rotate')).toBe(1);
    // The hint that links the keys, as printed: the same account, nothing booked again.
    const link = await runCli(['ledger', 'link', fp(KEY_A)], { env: other });
    expect(link.code, link.stderr).toBe(0);
    const linked = await book(file, other);
    expect(linked.code, linked.stderr).toBe(0);
    expect(await orders('rotate')).toBe(1);
    // --again books it, as the message says.
    const anyway = await book(file, { ...home, SHIPBOOK_BASE_URL: url(), SHIPBOOK_API_KEY: 'other-account-key-2' }, '--again');
    expect(anyway.code, anyway.stderr).toBe(0);
    expect(await orders('rotate')).toBe(2);
  }, 90_000);

  it('two keys declared two accounts (a test and a live key) stay two ledgers: the declared one books, once', async () => {
    const { single } = taggedOrdersFile(1, 'accounts');
    const live = { ...home, SHIPBOOK_BASE_URL: url(), SHIPBOOK_API_KEY: KEY_A };
    const test = { ...home, SHIPBOOK_BASE_URL: url(), SHIPBOOK_API_KEY: 'key-TEST-0003' };
    expect((await book(single, live)).code).toBe(0);
    expect(await orders('accounts')).toBe(1);
    const separate = await runCli(['ledger', 'separate', fp(KEY_A)], { env: test });
    expect(separate.code, separate.stderr).toBe(0);
    const booked = await book(single, test);
    expect(booked.code, booked.stderr).toBe(0);
    expect(await orders('accounts')).toBe(2);
    // Remembered: the next run of either key books nothing more.
    expect((await book(single, test)).code).toBe(0);
    expect((await book(single, live)).code).toBe(0);
    expect(await orders('accounts')).toBe(2);
  }, 90_000);

  it('a state directory written with one ledger per spelling is merged on first use: nothing booked again, the old file kept', async () => {
    const { single } = taggedOrdersFile(1, 'legacy');
    const first = station();
    expect((await book(single, { ...first, SHIPBOOK_BASE_URL: url(), SHIPBOOK_API_KEY: KEY_A })).code).toBe(0);
    expect(await orders('legacy')).toBe(1);
    // The same records, as an earlier shipbook kept them: a file named after `http://127.0.0.1:PORT/#key:<fp>`.
    const [name] = readdirSync(join(first.SHIPBOOK_STATE_DIR, 'ledger')).filter((n) => n.endsWith('.ndjson'));
    const lines = readFileSync(join(first.SHIPBOOK_STATE_DIR, 'ledger', name!), 'utf8').split('\n');
    const oldTarget = `http://127.0.0.1:${port}/#key:${fp(KEY_A)}`;
    lines[0] = JSON.stringify({ ...JSON.parse(lines[0]!), target: oldTarget });
    const legacy = station();
    mkdirSync(join(legacy.SHIPBOOK_STATE_DIR, 'ledger'));
    const oldName = `${createHash('sha256').update(oldTarget, 'utf8').digest('hex').slice(0, 12)}.ndjson`;
    writeFileSync(join(legacy.SHIPBOOK_STATE_DIR, 'ledger', oldName), lines.join('\n'));
    const r = await book(single, { ...legacy, SHIPBOOK_BASE_URL: `http://localhost:${port}`, SHIPBOOK_API_KEY: KEY_A });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('merged the ledger');
    expect(await orders('legacy')).toBe(1);
    expect(readdirSync(join(legacy.SHIPBOOK_STATE_DIR, 'ledger'))).toContain(`${oldName}.merged`);
  }, 60_000);
});

describe.skipIf(POSTGRES_MISSING !== undefined)(`joining the shared ledger, and going back${POSTGRES_MISSING ? ` (skipped: ${POSTGRES_MISSING})` : ''}`, () => {
  let pg: TestPostgres;
  beforeAll(async () => {
    pg = startPostgres();
  }, 120_000);
  afterAll(() => pg?.stop());

  it('a station that booked on its file ledger joins without ledger push: doctor names what is missing, the first run carries it in, nothing is booked again there or back', async () => {
    const { single: mine } = taggedOrdersFile(1, 'joined');
    const { single: theirs } = taggedOrdersFile(1, 'other-station');
    const service = { SHIPBOOK_BASE_URL: `http://127.0.0.1:${port}/`, SHIPBOOK_API_KEY: KEY_A };
    const home = { ...station(), ...service };
    const shared = { ...home, SHIPBOOK_LEDGER: pg.url };
    expect((await book(mine, home)).code).toBe(0);
    expect(await orders('joined')).toBe(1);

    const before = await runCli(['doctor', '--json'], { env: shared, timeoutMs: 30_000 });
    const row = (JSON.parse(before.stdout) as { checks: Array<{ id: string; status: string; detail: string; fix?: string }> }).checks.find(
      (c) => c.id === 'ledger',
    )!;
    expect(row.status).toBe('warn');
    expect(row.detail).toContain('1 document(s)');
    expect(row.fix).toContain('shipbook ledger push');

    const joined = await book(mine, shared);
    expect(joined.code, joined.stderr).toBe(0);
    expect(await orders('joined')).toBe(1);
    const after = await runCli(['doctor', '--json'], { env: shared, timeoutMs: 30_000 });
    expect((JSON.parse(after.stdout) as { checks: Array<{ id: string; status: string }> }).checks.find((c) => c.id === 'ledger')!.status).toBe('ok');

    // Another station books on the shared ledger; this one runs once on it, then goes back to its file.
    expect((await book(theirs, { ...station(), ...service, SHIPBOOK_LEDGER: pg.url })).code).toBe(0);
    expect(await orders('other-station')).toBe(1);
    expect((await book(theirs, shared)).code).toBe(0);
    for (const f of [mine, theirs]) {
      const back = await book(f, home);
      expect(back.code, back.stderr).toBe(0);
      expect(back.stderr).toContain('nothing was sent');
    }
    expect(await orders('joined')).toBe(1);
    expect(await orders('other-station')).toBe(1);
  }, 120_000);
});
