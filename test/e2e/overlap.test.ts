/**
 * Overlapping runs on one machine, one ledger: the ledger's claims make every document booked once
 * however many runs book it at the same time. Each run is the built `bin/shipbook.js` as its own
 * process, against `shipbook sandbox` as a process (or the built-in sandbox), whose own list of
 * orders is the witness; the runs' JSON reports must add up (each order once `booked`, at most
 * once more as `booked_by_other_run` or `already_booked`).
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandboxProcess } from '../helpers/sandbox-process.js';
import { countedByTag, startRun, taggedOrdersFile, until } from '../helpers/runs.js';

const KEY = 'sk_test_overlap_0123456789';
const running: ChildProcess[] = [];
const start = (args: string[], env: Record<string, string>, cwd: string) => startRun(args, env, cwd, running);

afterAll(() => {
  for (const c of running) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

type Report = { orders: Array<{ status: string; order_id?: string; line: number }> };
const report = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Report;

/** Checks that two runs' reports add up for `n` orders: each line once `booked`, at most once more as booked by the other or before. */
function expectReportsAddUp(n: number, ...reports: Report[]): void {
  const booked = new Map<number, number>();
  const other = new Map<number, number>();
  for (const r of reports) {
    expect(r.orders).toHaveLength(n);
    for (const o of r.orders) {
      if (o.status === 'booked') booked.set(o.line, (booked.get(o.line) ?? 0) + 1);
      else {
        expect(['booked_by_other_run', 'already_booked']).toContain(o.status);
        other.set(o.line, (other.get(o.line) ?? 0) + 1);
      }
    }
  }
  expect(booked.size).toBe(n);
  for (const count of booked.values()) expect(count).toBe(1);
  for (const count of other.values()) expect(count).toBeLessThanOrEqual(reports.length - 1);
}

/** The ledger file of a state directory (one target). */
function ledgerOf(state: string): string | undefined {
  const dir = join(state, 'ledger');
  if (!existsSync(dir)) return undefined;
  const f = readdirSync(dir).find((x) => x.endsWith('.ndjson'));
  return f === undefined ? undefined : join(dir, f);
}

const count = (path: string | undefined, event: string) =>
  path === undefined || !existsSync(path) ? 0 : readFileSync(path, 'utf8').split(`"event":"${event}"`).length - 1;

describe('overlapping runs against shipbook sandbox --delay (one ledger)', () => {
  let url: string;
  const env = (state: string) => ({ SHIPBOOK_BASE_URL: url, SHIPBOOK_API_KEY: KEY, SHIPBOOK_STATE_DIR: state });

  it('two batches of the same file from two working directories at once: each order created once, both exit 0, reports add up', async () => {
    url = await startSandboxProcess(['--api-key', KEY, '--delay', '150ms'], running);
    const state = mkdtempSync(join(tmpdir(), 'shipbook-overlap-state-'));
    const { dir, file } = taggedOrdersFile(30, 'CWD');
    const [cwdA, cwdB] = [mkdtempSync(join(tmpdir(), 'shipbook-overlap-a-')), mkdtempSync(join(tmpdir(), 'shipbook-overlap-b-'))];
    const a = start(['book', file, '--poll', '50ms', '--report', join(dir, 'a.json'), '--junit', join(dir, 'a.xml')], env(state), cwdA);
    const b = start(['book', file, '--poll', '50ms', '--report', join(dir, 'b.json'), '--junit', join(dir, 'b.xml')], env(state), cwdB);
    const [ca, cb] = await Promise.all([a.done, b.done]);
    expect(ca, a.stderr()).toBe(0);
    expect(cb, b.stderr()).toBe(0);
    expect(await countedByTag(url, KEY, 'CWD')).toEqual({ documents: 30, orders: 30 });
    expectReportsAddUp(30, report(join(dir, 'a.json')), report(join(dir, 'b.json')));
    // The JUnit files name the run that booked what the other run booked.
    let named = 0;
    for (const side of ['a', 'b']) {
      const others = report(join(dir, `${side}.json`)).orders.filter((o) => o.status === 'booked_by_other_run');
      const xml = readFileSync(join(dir, `${side}.xml`), 'utf8');
      expect(xml.match(/booked_by_other_run ORD-\w+ .* booked by \S+ \(pid \d+\)/g) ?? []).toHaveLength(others.length);
      named += others.length;
    }
    expect(named).toBeGreaterThan(0);
    // The summary lines say the same as the reports.
    const summed = [a.stderr(), b.stderr()].map((e) => Number(/batch: (\d+) booked/.exec(e)?.[1]));
    expect(summed[0]! + summed[1]!).toBe(30);
  }, 90_000);

  it('two batches with their own --journal, the second started 1 s later: each order created once, both exit 0', async () => {
    const state = mkdtempSync(join(tmpdir(), 'shipbook-overlap-state-'));
    const { dir, file } = taggedOrdersFile(30, 'LATE');
    const a = start(['book', file, '--poll', '50ms', '--journal', join(dir, 'ja.ndjson'), '--report', join(dir, 'a.json')], env(state), dir);
    await new Promise((r) => setTimeout(r, 1000));
    const b = start(['book', file, '--poll', '50ms', '--journal', join(dir, 'jb.ndjson'), '--report', join(dir, 'b.json')], env(state), dir);
    const [ca, cb] = await Promise.all([a.done, b.done]);
    expect(ca, a.stderr()).toBe(0);
    expect(cb, b.stderr()).toBe(0);
    expect(await countedByTag(url, KEY, 'LATE')).toEqual({ documents: 30, orders: 30 });
    expectReportsAddUp(30, report(join(dir, 'a.json')), report(join(dir, 'b.json')));
  }, 90_000);

  it('a batch paused (SIGSTOP) holding claims while another runs, then resumed (SIGCONT): no second create, both exit 0', async () => {
    const state = mkdtempSync(join(tmpdir(), 'shipbook-overlap-state-'));
    const { dir, file } = taggedOrdersFile(24, 'STOP');
    const a = start(['book', file, '--poll', '50ms', '--journal', join(dir, 'ja.ndjson'), '--report', join(dir, 'a.json')], env(state), dir);
    await until(() => count(ledgerOf(state), 'claimed') >= 2, 30_000, 'the first batch to claim orders');
    a.child.kill('SIGSTOP');
    const b = start(['book', file, '--poll', '50ms', '--journal', join(dir, 'jb.ndjson'), '--report', join(dir, 'b.json')], env(state), dir);
    // The second batch books what the paused one does not hold, and names the run it waits for.
    await until(() => /being booked by another run \(pid \d+/.test(b.stderr()), 30_000, 'the second batch to find orders held');
    await new Promise((r) => setTimeout(r, 1500));
    expect(b.child.exitCode).toBeNull();
    a.child.kill('SIGCONT');
    const [ca, cb] = await Promise.all([a.done, b.done]);
    expect(ca, a.stderr()).toBe(0);
    expect(cb, b.stderr()).toBe(0);
    expect(await countedByTag(url, KEY, 'STOP')).toEqual({ documents: 24, orders: 24 });
    expectReportsAddUp(24, report(join(dir, 'a.json')), report(join(dir, 'b.json')));
    expect(report(join(dir, 'b.json')).orders.some((o) => o.status === 'booked_by_other_run')).toBe(true);
  }, 90_000);

  it('two single books of one document at once: one order, both exit 0, the loser names the other run and shows its order', async () => {
    const state = mkdtempSync(join(tmpdir(), 'shipbook-overlap-state-'));
    const { dir, single } = taggedOrdersFile(1, 'ONE');
    const a = start(['book', single, '--poll', '50ms', '--json'], env(state), dir);
    const b = start(['book', single, '--poll', '50ms', '--json'], env(state), dir);
    const [ca, cb] = await Promise.all([a.done, b.done]);
    expect(ca, a.stderr()).toBe(0);
    expect(cb, b.stderr()).toBe(0);
    expect(await countedByTag(url, KEY, 'ONE')).toEqual({ documents: 1, orders: 1 });
    const ids = [a.stdout(), b.stdout()].map((o) => (JSON.parse(o) as { order: { id: string } }).order.id);
    expect(ids[0]).toBe(ids[1]);
    const loser = [a, b].find((r) => /already_booked/.test(r.stdout()))!;
    expect(loser.stderr()).not.toMatch(/answer never came|may exist/);
    expect(loser.stderr()).toMatch(/booked before \(by another run just now: pid \d+|another run is booking this document right now \(pid \d+/);
  }, 60_000);

  it('two order create of one document at once: one order, both exit 0, both print it, the loser names the other run', async () => {
    const state = mkdtempSync(join(tmpdir(), 'shipbook-overlap-state-'));
    const { dir, single } = taggedOrdersFile(1, 'OC2');
    const a = start(['order', 'create', single, '--json'], env(state), dir);
    const b = start(['order', 'create', single, '--json'], env(state), dir);
    const [ca, cb] = await Promise.all([a.done, b.done]);
    expect(ca, a.stderr()).toBe(0);
    expect(cb, b.stderr()).toBe(0);
    expect(await countedByTag(url, KEY, 'OC2')).toEqual({ documents: 1, orders: 1 });
    const ids = [a.stdout(), b.stdout()].map((o) => (JSON.parse(o) as { order: { id: string } }).order.id);
    expect(ids[0]).toBe(ids[1]);
    const loser = [a, b].find((r) => /created before/.test(r.stderr()))!;
    expect(loser.stderr()).not.toMatch(/answer never came|may exist/);
    // A create is one short request: the second process may start only once the first has
    // finished, and then the ledger says it was created before. Either way: named, never unknown.
    expect(loser.stderr()).toMatch(
      /created before by another run just now \(pid \d+|another run is booking this document right now \(pid \d+|this document was created before \(/,
    );
  }, 60_000);

  it('order create twice in sequence: one order, the second prints it and says it exists; --again: another order, concurrent --again runs each their own', async () => {
    const state = mkdtempSync(join(tmpdir(), 'shipbook-overlap-state-'));
    const { dir, single } = taggedOrdersFile(1, 'OCSEQ');
    const first = start(['order', 'create', single, '--quiet'], env(state), dir);
    expect(await first.done, first.stderr()).toBe(0);
    const second = start(['order', 'create', single, '--quiet'], env(state), dir);
    expect(await second.done, second.stderr()).toBe(0);
    expect(second.stdout()).toBe(first.stdout());
    expect(first.stdout()).toMatch(/^ORD-\S+\n$/);
    expect(second.stderr()).toMatch(/this document was created before .*order ORD-\S+, pending; nothing was sent/);
    expect(second.stderr()).toMatch(/--again/);
    expect(await countedByTag(url, KEY, 'OCSEQ')).toEqual({ documents: 1, orders: 1 });
    const again = start(['order', 'create', single, '--again', '--quiet'], env(state), dir);
    expect(await again.done, again.stderr()).toBe(0);
    expect(again.stdout()).not.toBe(first.stdout());
    expect(await countedByTag(url, KEY, 'OCSEQ')).toEqual({ documents: 1, orders: 2 });
    // Three at once with --again: three more orders, none waiting for another.
    const runs = [0, 1, 2].map(() => start(['order', 'create', single, '--again', '--quiet'], env(state), dir));
    const codes = await Promise.all(runs.map((r) => r.done));
    expect(codes, runs.map((r) => r.stderr()).join('\n')).toEqual([0, 0, 0]);
    for (const r of runs) expect(r.stderr()).not.toMatch(/waiting for its outcome/);
    expect(new Set(runs.map((r) => r.stdout())).size).toBe(3);
    expect(await countedByTag(url, KEY, 'OCSEQ')).toEqual({ documents: 1, orders: 5 });
    // Without --again, the latest is printed.
    const last = start(['order', 'create', single, '--quiet'], env(state), dir);
    expect(await last.done, last.stderr()).toBe(0);
    expect(await countedByTag(url, KEY, 'OCSEQ')).toEqual({ documents: 1, orders: 5 });
  }, 60_000);

  it('a run SIGKILLed with creates in flight and claims held: another run takes over, the sent ones are unknown, nothing is created twice', async () => {
    const slow = await startSandboxProcess(['--api-key', KEY, '--latency', '1500ms'], running);
    const state = mkdtempSync(join(tmpdir(), 'shipbook-overlap-state-'));
    const { dir, file } = taggedOrdersFile(8, 'KILL');
    const senv = { SHIPBOOK_BASE_URL: slow, SHIPBOOK_API_KEY: KEY, SHIPBOOK_STATE_DIR: state };
    const a = start(['book', file, '--poll', '50ms', '--concurrency', '3', '--journal', join(dir, 'ja.ndjson')], senv, dir);
    await until(() => count(ledgerOf(state), 'create_sent') >= 3, 30_000, 'the first run to send its creates');
    // Inside the sandbox's latency: the creates have left, their answers have not come.
    await new Promise((r) => setTimeout(r, 500));
    a.child.kill('SIGKILL');
    await a.done;
    const ledger = ledgerOf(state)!;
    const sent = count(ledger, 'create_sent') - count(ledger, 'created');
    const b = start(['book', file, '--poll', '50ms', '--concurrency', '8', '--journal', join(dir, 'jb.ndjson'), '--report', join(dir, 'b.json')], senv, dir);
    const cb = await b.done;
    expect(cb, b.stderr()).toBe(8);
    const statuses = report(join(dir, 'b.json')).orders.map((o) => o.status);
    expect(statuses.filter((s) => s === 'unknown')).toHaveLength(sent);
    expect(statuses.filter((s) => s === 'booked')).toHaveLength(8 - sent);
    // The creates the killed run sent are processed after the latency: never a document twice.
    await new Promise((r) => setTimeout(r, 2000));
    const at = await countedByTag(slow, KEY, 'KILL');
    expect(at.orders).toBe(at.documents);
    expect(at.documents).toBeGreaterThanOrEqual(8 - sent);
  }, 90_000);
});

describe('overlapping runs on the built-in sandbox (one state directory)', () => {
  it('two batches of the same file from two working directories at once: each order created once, both exit 0', async () => {
    const state = mkdtempSync(join(tmpdir(), 'shipbook-overlap-state-'));
    const { dir, file } = taggedOrdersFile(20, 'BUILTIN');
    const env = { SHIPBOOK_STATE_DIR: state, SHIPBOOK_SANDBOX_DELAY_MS: '100' };
    const [cwdA, cwdB] = [mkdtempSync(join(tmpdir(), 'shipbook-overlap-a-')), mkdtempSync(join(tmpdir(), 'shipbook-overlap-b-'))];
    const a = start(['book', file, '--poll', '50ms', '--report', join(dir, 'a.json')], env, cwdA);
    const b = start(['book', file, '--poll', '50ms', '--report', join(dir, 'b.json')], env, cwdB);
    const [ca, cb] = await Promise.all([a.done, b.done]);
    expect(ca, a.stderr()).toBe(0);
    expect(cb, b.stderr()).toBe(0);
    expectReportsAddUp(20, report(join(dir, 'a.json')), report(join(dir, 'b.json')));
    const status = start(['sandbox', 'status', '--json'], env, dir);
    expect(await status.done, status.stderr()).toBe(0);
    expect((JSON.parse(status.stdout()) as { orders: { total: number } }).orders.total).toBe(20);
  }, 90_000);
});
