/**
 * The ledger shared by several machines on PostgreSQL (docs/shared-ledger.md), against a real
 * server started for these tests (test/helpers/postgres.ts) and `shipbook sandbox` as a process,
 * whose own list of orders is the witness. Each station is the built `bin/shipbook.js` with a home
 * (state directory, configuration) of its own, as two machines would be.
 */
import { batchExitCode } from '../helpers/batch-exit.js';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { ordersByInput, startSandboxProcess } from '../helpers/sandbox-process.js';
import { countedByTag, startRun, taggedOrdersFile, until } from '../helpers/runs.js';
import { POSTGRES_MISSING, startPostgres, type TestPostgres } from '../helpers/postgres.js';

const KEY = 'sk_test_shared_ledger_0123456789';
const running: ChildProcess[] = [];
const start = (args: string[], env: Record<string, string>, cwd: string) => startRun(args, env, cwd, running);

type Report = {
  summary: Record<string, unknown>;
  orders: Array<{ id: string; status: string; order_id?: string; line: number; booked_by?: { host: string } }>;
};
const report = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Report;

/** A home of its own: a state directory and a configuration directory, as a second machine has. */
function station(): { state: string; config: string; cwd: string } {
  return {
    state: mkdtempSync(join(tmpdir(), 'shipbook-pg-state-')),
    config: mkdtempSync(join(tmpdir(), 'shipbook-pg-config-')),
    cwd: mkdtempSync(join(tmpdir(), 'shipbook-pg-cwd-')),
  };
}

describe.skipIf(POSTGRES_MISSING !== undefined)(`the ledger shared on PostgreSQL${POSTGRES_MISSING ? ` (skipped: ${POSTGRES_MISSING})` : ''}`, () => {
  let pg: TestPostgres;
  let url: string;
  const env = (home: { state: string; config: string; cwd: string }, extra: Record<string, string> = {}) => ({
    SHIPBOOK_BASE_URL: url,
    SHIPBOOK_API_KEY: KEY,
    SHIPBOOK_STATE_DIR: home.state,
    SHIPBOOK_CONFIG_DIR: home.config,
    SHIPBOOK_LEDGER: pg.url,
    ...extra,
  });

  beforeAll(async () => {
    pg = startPostgres();
    url = await startSandboxProcess(['--api-key', KEY, '--delay', '10ms'], running);
  }, 120_000);

  afterAll(() => {
    for (const c of running) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    pg?.stop();
  });

  it('a connection the server drops while it is checked out fails the statement under way, never the process', async () => {
    const { openPool } = await import('../../src/ledger/pg/connect.js');
    const idle: unknown[] = [];
    const pool = await openPool(pg.url, (err) => idle.push(err), 1);
    const client = await pool.connect();
    try {
      const pid = Number((await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid);
      // Dropped between two statements: without a listener of its own, the driver's 'error' event
      // on a checked-out connection is thrown out of the event loop.
      pg.sql(`SELECT pg_terminate_backend(${pid})`);
      await new Promise((r) => setTimeout(r, 200));
      await expect(client.query('SELECT 1')).rejects.toThrow();
    } finally {
      client.release(true);
      await pool.end();
    }
  });

  it('two stations book the same 40-order file at once: 40 orders at the service, both exit 0, the reports add up to 40 and name the other station', async () => {
    const { dir, file } = taggedOrdersFile(40, 'TWO');
    const [s1, s2] = [station(), station()];
    const a = start(['book', file, '--poll', '50ms', '--report', join(dir, 'a.json')], env(s1), s1.cwd);
    const b = start(['book', file, '--poll', '50ms', '--report', join(dir, 'b.json')], env(s2), s2.cwd);
    const [ca, cb] = await Promise.all([a.done, b.done]);
    expect([ca, cb], `${a.stderr()}\n----\n${b.stderr()}`).toEqual([0, 0]);
    expect(await countedByTag(url, KEY, 'TWO')).toEqual({ documents: 40, orders: 40 });
    const [ra, rb] = [report(join(dir, 'a.json')), report(join(dir, 'b.json'))];
    const booked = (r: Report) => r.orders.filter((o) => o.status === 'booked').length;
    expect(booked(ra) + booked(rb)).toBe(40);
    for (const r of [ra, rb]) {
      expect(r.orders).toHaveLength(40);
      for (const o of r.orders) expect(['booked', 'booked_by_other_run', 'already_booked']).toContain(o.status);
      for (const o of r.orders.filter((x) => x.status === 'booked_by_other_run')) expect(o.booked_by?.host).toBeTruthy();
    }
    // Both made progress: each booked some.
    expect(booked(ra)).toBeGreaterThan(0);
    expect(booked(rb)).toBeGreaterThan(0);
    // One ledger: a third station finds every order booked.
    const s3 = station();
    const c = await runCli(['book', file, '--json'], { env: env(s3), cwd: s3.cwd });
    expect(c.code, c.stderr).toBe(0);
    expect(c.stderr).toMatch(/0 booked, 40 already booked/);
  }, 120_000);

  it('a station killed (SIGKILL) mid-batch: another takes over its claims (its process is gone), sends nothing twice, and what the dead one sent is unknown until journal resolve', async () => {
    // A service slow to answer every request (--latency), so the dead station has creates in flight
    // when it is killed: --delay alone slows only the booking result, and a create answered within
    // milliseconds would leave nothing unknown on a quiet machine. Short leases, so the takeover comes soon.
    const slow = await startSandboxProcess(['--api-key', KEY, '--delay', '400ms', '--latency', '1s'], running);
    const lease = { SHIPBOOK_TEST_LEDGER_LEASE_MS: '1500', SHIPBOOK_BASE_URL: slow };
    const { file } = taggedOrdersFile(12, 'KILL');
    const [s1, s2] = [station(), station()];
    const sent = () => {
      try {
        return Number(pg.sql(`SELECT count(*) FROM shipbook_records WHERE event = 'create_sent' AND record->>'file' = '${file}'`));
      } catch {
        return 0; // the station has not created the tables yet
      }
    };
    const a = start(['book', file, '--poll', '50ms', '--concurrency', '4'], env(s1, lease), s1.cwd);
    await until(() => sent() >= 2, 30_000, 'the first station to send creates');
    a.child.kill('SIGKILL');
    await a.done;
    // What the dead station sent and never recorded an answer for: its creates left for the service.
    const unanswered = pg
      .sql(
        `SELECT id FROM shipbook_records r WHERE event = 'create_sent' AND record->>'file' = '${file}' AND NOT EXISTS (SELECT 1 FROM shipbook_records c WHERE c.id = r.id AND c.target = r.target AND c.event IN ('created', 'processed'))`,
      )
      .split('\n')
      .filter(Boolean);
    expect(unanswered.length).toBeGreaterThan(0);
    const b = await runCli(['book', file, '--poll', '50ms', '--json'], { env: env(s2, lease), cwd: s2.cwd });
    expect(b.code, b.stderr).toBe(8);
    const rb = JSON.parse(b.stdout) as Report;
    const unknown = rb.orders.filter((o) => o.status === 'unknown').map((o) => o.id);
    expect(unknown.sort()).toEqual([...unanswered].sort());
    for (const o of rb.orders) if (!unknown.includes(o.id)) expect(['booked', 'already_booked']).toContain(o.status);
    // Nothing twice at the service: one order at most per document, every document not unknown booked.
    const by = await ordersByInput(slow, KEY);
    for (const [t, ids] of by) if (t.startsWith('KILL-')) expect(ids, t).toHaveLength(1);
    // Unknown to every station: a third one sees them too, and sends nothing for them.
    const s3 = station();
    const c = await runCli(['book', file, '--json'], { env: env(s3, lease), cwd: s3.cwd });
    expect(c.code, c.stderr).toBe(8);
    expect((JSON.parse(c.stdout) as Report).orders.filter((o) => o.status === 'unknown')).toHaveLength(unknown.length);
    // Settled once with journal resolve (the order the service holds, or not created), then booked.
    for (const id of unknown) {
      const line = rb.orders.find((o) => o.id === id)!.line;
      const order = by.get(`KILL-${line - 1}`)?.[0];
      const args = order === undefined ? ['--not-created', '--yes'] : ['--order', order];
      const r = await runCli(['journal', 'resolve', id, ...args], { env: env(s3, lease), cwd: s3.cwd });
      expect(r.code, r.stderr).toBe(0);
    }
    const d = await runCli(['book', file, '--json'], { env: env(s3, lease), cwd: s3.cwd });
    expect(d.code, d.stderr).toBe(0);
    const after = await ordersByInput(slow, KEY);
    let documents = 0;
    for (const [t, ids] of after)
      if (t.startsWith('KILL-')) {
        documents++;
        expect(ids, t).toHaveLength(1);
      }
    expect(documents).toBe(12);
  }, 120_000);

  it('a station cut off (paused with SIGSTOP) longer than its lease: another takes its claims over; back, it writes and sends nothing more (exit 10), and nothing is booked twice', async () => {
    const slow = await startSandboxProcess(['--api-key', KEY, '--delay', '400ms'], running);
    const lease = { SHIPBOOK_TEST_LEDGER_LEASE_MS: '1500', SHIPBOOK_BASE_URL: slow };
    const { file } = taggedOrdersFile(10, 'PAUSE');
    const [s1, s2] = [station(), station()];
    const sent = () => {
      try {
        return Number(pg.sql(`SELECT count(*) FROM shipbook_records WHERE event = 'create_sent' AND record->>'file' = '${file}'`));
      } catch {
        return 0;
      }
    };
    const a = start(['book', file, '--poll', '50ms', '--concurrency', '3'], env(s1, lease), s1.cwd);
    await until(() => sent() >= 2, 30_000, 'the first station to send creates');
    a.child.kill('SIGSTOP');
    // The other station waits for the paused one's lease to run out (its process still exists), then books the rest.
    const b = await runCli(['book', file, '--poll', '50ms', '--json'], { env: env(s2, lease), cwd: s2.cwd, timeoutMs: 60_000 });
    const rb = JSON.parse(b.stdout) as Report;
    expect(b.code, b.stderr).toBe(batchExitCode(rb.summary));
    a.child.kill('SIGCONT');
    const code = await a.done;
    expect(code, a.stderr()).toBe(10);
    expect(a.stderr()).toMatch(/lease ran out/);
    const by = await ordersByInput(slow, KEY);
    let documents = 0;
    for (const [t, ids] of by)
      if (t.startsWith('PAUSE-')) {
        documents++;
        expect(ids, t).toHaveLength(1);
      }
    const unknown = rb.orders.filter((o) => o.status === 'unknown').length;
    expect(documents).toBeGreaterThanOrEqual(10 - unknown);
    // Every document is booked or unknown in the shared ledger: none was left new by what the paused station wrote after.
    const c = await runCli(['book', file, '--json'], { env: env(station(), lease), cwd: s2.cwd });
    const rc = JSON.parse(c.stdout) as Report;
    expect(c.code, c.stderr).toBe(batchExitCode(rc.summary));
    expect(rc.orders.filter((o) => o.status === 'booked')).toHaveLength(0);
  }, 120_000);

  it('the database stopped mid-batch: the run sends nothing new, ends with exit 10 saying what is unknown; once it is back, a rerun books the rest once', async () => {
    const slow = await startSandboxProcess(['--api-key', KEY, '--delay', '300ms'], running);
    const { file } = taggedOrdersFile(12, 'STOP');
    const s1 = station();
    const sent = () => {
      try {
        return Number(pg.sql(`SELECT count(*) FROM shipbook_records WHERE event = 'create_sent' AND record->>'file' = '${file}'`));
      } catch {
        return 0;
      }
    };
    const a = start(['book', file, '--poll', '50ms', '--concurrency', '4'], env(s1, { SHIPBOOK_BASE_URL: slow }), s1.cwd);
    await until(() => sent() >= 2, 30_000, 'the station to send creates');
    pg.kill();
    try {
      const code = await a.done;
      expect(code, a.stderr()).toBe(10);
      expect(a.stderr()).toMatch(/lost the shared ledger at postgresql:\/\/shipbook@127\.0\.0\.1:\d+\/shipbook/);
      const before = await ordersByInput(slow, KEY);
      for (const [t, ids] of before) if (t.startsWith('STOP-')) expect(ids, t).toHaveLength(1);
    } finally {
      // Back up whatever happened above: the tests after this one use the same server.
      pg.start();
    }
    // The same station again, from the same directory (its journal keeps what the database missed).
    const b = await runCli(['book', file, '--poll', '50ms', '--json'], { env: env(s1, { SHIPBOOK_BASE_URL: slow }), cwd: s1.cwd });
    const rb = JSON.parse(b.stdout) as Report;
    expect(b.code, b.stderr).toBe(batchExitCode(rb.summary));
    for (const o of rb.orders.filter((x) => x.status === 'unknown')) {
      const order = (await ordersByInput(slow, KEY)).get(`STOP-${o.line - 1}`)?.[0];
      const r = await runCli(['journal', 'resolve', o.id, ...(order === undefined ? ['--not-created', '--yes'] : ['--order', order])], {
        env: env(s1, { SHIPBOOK_BASE_URL: slow }),
        cwd: s1.cwd,
      });
      expect(r.code, r.stderr).toBe(0);
    }
    const c = await runCli(['book', file, '--poll', '50ms', '--json'], { env: env(s1, { SHIPBOOK_BASE_URL: slow }), cwd: s1.cwd });
    expect(c.code, c.stderr).toBe(0);
    let documents = 0;
    for (const [t, ids] of await ordersByInput(slow, KEY))
      if (t.startsWith('STOP-')) {
        documents++;
        expect(ids, t).toHaveLength(1);
      }
    expect(documents).toBe(12);
  }, 120_000);

  it('ledger push twice imports once: what a station booked on its own counts for every station', async () => {
    const { file } = taggedOrdersFile(3, 'PUSH');
    const s1 = station();
    const own = { ...env(s1), SHIPBOOK_LEDGER: 'file' };
    const booked = await runCli(['book', file], { env: own, cwd: s1.cwd });
    expect(booked.code, booked.stderr).toBe(0);
    const refused = await runCli(['ledger', 'push'], { env: own, cwd: s1.cwd });
    expect(refused.code).toBe(4);
    expect(refused.stderr).toMatch(/no shared ledger is configured/);
    // Earlier tests on this server push too (a station that rejoins after losing the database), so
    // only the rows added from here on are this test's.
    const pushed = () => Number(pg.sql(`SELECT count(*) FROM shipbook_records WHERE writer = 'push'`));
    const before = pushed();
    const count = () => pushed() - before;
    const first = await runCli(['ledger', 'push', '--json'], { env: env(s1), cwd: s1.cwd });
    expect(first.code, first.stderr).toBe(0);
    const p1 = (JSON.parse(first.stdout) as { pushed: { records: number; copied: number; documents: number } }).pushed;
    expect(p1.documents).toBe(3);
    expect(p1.copied).toBe(p1.records);
    const rows = count();
    expect(rows).toBe(p1.records);
    const second = await runCli(['ledger', 'push', '--json'], { env: env(s1), cwd: s1.cwd });
    expect(second.code, second.stderr).toBe(0);
    expect((JSON.parse(second.stdout) as { pushed: { copied: number } }).pushed.copied).toBe(0);
    expect(count()).toBe(rows);
    // Another station finds them booked, and books nothing.
    const s2 = station();
    const other = await runCli(['book', file], { env: env(s2), cwd: s2.cwd });
    expect(other.code, other.stderr).toBe(0);
    expect(other.stderr).toMatch(/0 booked, 3 already booked/);
    const at = await ordersByInput(url, KEY);
    for (let i = 0; i < 3; i++) expect(at.get(`PUSH-${i}`)).toHaveLength(1);
  }, 60_000);

  it('the password of the ledger URL is never shown: config, messages, doctor', async () => {
    const s1 = station();
    const withPassword = env(s1, { SHIPBOOK_LEDGER: pg.passwordUrl });
    const list = await runCli(['config', 'list'], { env: withPassword, cwd: s1.cwd });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout + list.stderr).toMatch(/postgresql:\/\/secretive:\*\*\*\*@127\.0\.0\.1/);
    // A wrong password: refused, said without the password.
    const wrong = pg.passwordUrl.replace(pg.password, 'wrong-password-123');
    const refused = await runCli(['book', taggedOrdersFile(1, 'PWD').file, '--debug'], { env: env(s1, { SHIPBOOK_LEDGER: wrong }), cwd: s1.cwd });
    expect(refused.code).toBe(10);
    expect(refused.stderr).toMatch(/cannot reach the shared ledger at postgresql:\/\/secretive:\*\*\*\*@/);
    for (const out of [list.stdout, list.stderr, refused.stdout, refused.stderr]) {
      expect(out).not.toContain(pg.password);
      expect(out).not.toContain('wrong-password-123');
    }
    const doctor = await runCli(['doctor', '--json'], { env: withPassword, cwd: s1.cwd });
    const ledgerRow = (JSON.parse(doctor.stdout) as { checks: Array<{ id: string; status: string; detail: string }> }).checks.find((c) => c.id === 'ledger');
    expect(ledgerRow?.status).toBe('ok');
    expect(ledgerRow?.detail).toMatch(
      /^postgresql:\/\/secretive:\*\*\*\*@127\.0\.0\.1:\d+\/shipbook: PostgreSQL \d+\.\d+, (schema version 1|no tables yet \(the first run creates them\)), clock [+-]\d+\.\d\d s from this machine$/,
    );
    expect(doctor.stdout + doctor.stderr).not.toContain(pg.password);
    const stored = await runCli(['--profile', 'wh', 'config', 'set', 'ledger', pg.passwordUrl], { env: { ...env(s1), SHIPBOOK_LEDGER: '' }, cwd: s1.cwd });
    // A password is never taken on the command line (ps, shell history): refused, and never echoed.
    expect(stored.code).toBe(2);
    expect(stored.stdout + stored.stderr).not.toContain(pg.password);
  }, 60_000);
});
