/**
 * A run paused (SIGSTOP) while another waits for it, end to end with real processes: the waiting run
 * says once, after a second, which run it waits for (pid, host, command) and how to stop waiting;
 * once the paused run is continued (SIGCONT), both end as they would have, every order booked once.
 * The waits: the ledger's claims lock held by a paused batch (a single `book`, another batch, and a
 * `book --wait-timeout` and a Ctrl-C that end the wait), a document a paused `book` is booking
 * (`book`, `order create`), and the orders a paused batch holds when another batch reaches its end.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { E2E_API_KEY, useSandbox } from '../helpers/sandbox.js';
import { countedByTag, startRun, taggedOrdersFile, until } from '../helpers/runs.js';

const running: ChildProcess[] = [];
afterEach(() => {
  for (const c of running.splice(0))
    if (c.exitCode === null && c.signalCode === null) {
      c.kill('SIGCONT');
      c.kill('SIGKILL');
    }
});

/** Starts a run in its own working directory `cwd` (a batch's default journal is there: one per batch). */
const start = (args: string[], env: Record<string, string>, cwd: string) => startRun(args, env, cwd, running);
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** How many times `text` holds `part`. */
const times = (text: string, part: string) => text.split(part).length - 1;

/** The ledger file of a state directory (one target), once it exists. */
function ledgerOf(state: string): string | undefined {
  const dir = join(state, 'ledger');
  if (!existsSync(dir)) return undefined;
  const f = readdirSync(dir).find((x) => x.endsWith('.ndjson'));
  return f === undefined ? undefined : join(dir, f);
}

/** The pid in the ledger's claims lock of `state`, if it is held. */
function claimsLockHolder(state: string): number | undefined {
  const ledger = ledgerOf(state);
  if (ledger === undefined) return undefined;
  try {
    return (JSON.parse(readFileSync(`${ledger}.claims.lock`, 'utf8')) as { pid: number }).pid;
  } catch {
    return undefined;
  }
}

/**
 * Stops `child` (SIGSTOP) at a moment it holds the ledger's claims lock of `state`: stops it, looks,
 * and continues it to try again when it did not hold the lock (held for microseconds at a time, a
 * busy batch takes it often). Fails when the child ends first.
 */
async function stopHoldingClaimsLock(child: ChildProcess, state: string): Promise<void> {
  for (let tries = 0; tries < 20_000; tries++) {
    if (child.exitCode !== null) break;
    child.kill('SIGSTOP');
    await pause(2);
    if (claimsLockHolder(state) === child.pid) return;
    child.kill('SIGCONT');
    await pause(Math.random() * 5);
  }
  throw new Error('the batch ended before it could be stopped holding the claims lock');
}

/** The count of `"event":"<event>"` records in the ledger of `state`. */
const recorded = (state: string, event: string) => {
  const path = ledgerOf(state);
  return path === undefined ? 0 : times(readFileSync(path, 'utf8'), `"event":"${event}"`);
};

describe("a run paused holding the ledger's claims lock", () => {
  // The paused batch stays stopped for about ten seconds; a connection the service closed as idle
  // meanwhile could take its next create and lose the answer (an unknown order, which is not what
  // this test is about), so the sandbox keeps idle connections for a minute.
  const fx = useSandbox({ processingDelayMs: 20, keepAliveMs: 60_000 });

  it('a single book, a batch, a --wait-timeout and a Ctrl-C: each says once who holds it and how to stop; once continued, every order is booked once', async () => {
    const state = mkdtempSync(join(tmpdir(), 'shipbook-paused-claims-'));
    const env = { ...fx.env, SHIPBOOK_STATE_DIR: state };
    const holder = taggedOrdersFile(400, 'CLA');
    const single = taggedOrdersFile(1, 'CLS');
    const batch = taggedOrdersFile(20, 'CLB');
    const timed = taggedOrdersFile(1, 'CLT');
    const stopped = taggedOrdersFile(1, 'CLI');
    const batchTimed = taggedOrdersFile(5, 'CLU');

    const a = start(['book', holder.file, '--concurrency', '8'], env, holder.dir);
    await until(() => recorded(state, 'claimed') > 0, 30_000, 'the batch to claim its first orders');
    await stopHoldingClaimsLock(a.child, state);

    const one = start(['book', single.single], env, single.dir);
    const many = start(['book', batch.file, '--concurrency', '4'], env, batch.dir);
    const bounded = start(['book', timed.single, '--wait-timeout', '3s'], env, timed.dir);
    const interrupted = start(['book', stopped.single], env, stopped.dir);
    const batchReport = join(batchTimed.dir, 'report.json');
    const batchBounded = start(['book', batchTimed.file, '--wait-timeout', '3s', '--report', batchReport], env, batchTimed.dir);
    const note = `waiting for the ledger's claims lock, held by another run (pid ${a.child.pid} on ${hostname()}: shipbook book `;
    await until(
      () => [one, many, bounded, interrupted, batchBounded].every((r) => r.stderr().includes(note)),
      20_000,
      'each waiting run to say whom it waits for',
    );

    // The Ctrl-C the note offers ends the wait: nothing sent, exit 130.
    expect(interrupted.stderr()).toContain('press Ctrl-C to stop waiting');
    interrupted.child.kill('SIGINT');
    expect(await interrupted.done, interrupted.stderr()).toBe(130);
    expect(interrupted.stderr()).not.toMatch(/internal error|at .*\.cjs/);

    // --wait-timeout bounds the wait: exit 7, nothing sent, the holder named.
    expect(await bounded.done, bounded.stderr()).toBe(7);
    expect(bounded.stderr()).toContain('Waiting up to 3 s (--wait-timeout), then this run stops, nothing sent (exit 7)');
    expect(bounded.stderr()).toContain(`was still held by another run (pid ${a.child.pid} on ${hostname()}: shipbook book `);
    expect(bounded.stderr()).toContain(`kill -CONT ${a.child.pid}`);

    // A batch's --wait-timeout too: it stops with exit 8, every input reported not started, for a rerun.
    expect(await batchBounded.done, batchBounded.stderr()).toBe(8);
    expect(batchBounded.stderr()).toContain('Waiting up to 3 s (--wait-timeout), then the batch stops and reports every order where it stands (exit 8)');
    expect(batchBounded.stderr()).toContain(`was still held by another run (pid ${a.child.pid} on ${hostname()}: shipbook book `);
    const stoppedOrders = (JSON.parse(readFileSync(batchReport, 'utf8')) as { orders: Array<{ status: string; error?: { code: string } }> }).orders;
    expect(stoppedOrders.map((o) => [o.status, o.error?.code])).toEqual(Array(5).fill(['not_started', 'claims_lock_wait']));

    // Still waiting after three seconds more, having said it once.
    await pause(3_000);
    for (const r of [one, many]) {
      expect(r.child.exitCode).toBe(null);
      expect(times(r.stderr(), note), r.stderr()).toBe(1);
    }
    expect(one.stderr()).toContain('Waiting up to 10 min (--wait-timeout), then this run stops, nothing sent (exit 7); press Ctrl-C to stop waiting.');
    expect(many.stderr()).toContain('Waiting up to 10 min (--wait-timeout), then the batch stops and reports every order where it stands (exit 8)');

    a.child.kill('SIGCONT');
    const [codeA, codeOne, codeMany] = await Promise.all([a.done, one.done, many.done]);
    expect(codeA, a.stderr()).toBe(0);
    expect(codeOne, one.stderr()).toBe(0);
    expect(codeMany, many.stderr()).toBe(0);
    expect(times(one.stderr(), note)).toBe(1);
    expect(times(many.stderr(), note)).toBe(1);
    expect(await countedByTag(fx.sandbox.url, E2E_API_KEY, 'CLA')).toEqual({ documents: 400, orders: 400 });
    expect(await countedByTag(fx.sandbox.url, E2E_API_KEY, 'CLS')).toEqual({ documents: 1, orders: 1 });
    expect(await countedByTag(fx.sandbox.url, E2E_API_KEY, 'CLB')).toEqual({ documents: 20, orders: 20 });
    // The runs stopped while waiting sent nothing.
    expect(await countedByTag(fx.sandbox.url, E2E_API_KEY, 'CLT')).toEqual({ documents: 0, orders: 0 });
    expect(await countedByTag(fx.sandbox.url, E2E_API_KEY, 'CLI')).toEqual({ documents: 0, orders: 0 });
    expect(await countedByTag(fx.sandbox.url, E2E_API_KEY, 'CLU')).toEqual({ documents: 0, orders: 0 });
  }, 180_000);
});

describe('a run paused while it books a document', () => {
  // The booking result comes 2 s after the accept: long enough to stop the first run while it waits for it.
  const fx = useSandbox({ processingDelayMs: 2_000, keepAliveMs: 60_000 });

  it('book and order create of the same document say once whom they wait for, and take its order once it is continued', async () => {
    const state = mkdtempSync(join(tmpdir(), 'shipbook-paused-doc-'));
    const env = { ...fx.env, SHIPBOOK_STATE_DIR: state };
    const doc = taggedOrdersFile(1, 'DOC');
    const a = start(['book', doc.single], env, doc.dir);
    await until(() => recorded(state, 'accepted') > 0, 30_000, 'the first book to accept its order');
    a.child.kill('SIGSTOP');

    const b = start(['book', doc.single], env, mkdtempSync(join(tmpdir(), 'shipbook-paused-doc-b-')));
    const c = start(['order', 'create', doc.single], env, mkdtempSync(join(tmpdir(), 'shipbook-paused-doc-c-')));
    const who = `another run is booking this document right now (pid ${a.child.pid} on ${hostname()}: shipbook book `;
    await until(() => b.stderr().includes(who) && c.stderr().includes(who), 20_000, 'both waiting runs to name the paused one');
    await pause(3_000);
    expect(b.child.exitCode).toBe(null);
    expect(c.child.exitCode).toBe(null);
    expect(times(b.stderr(), who), b.stderr()).toBe(1);
    expect(times(c.stderr(), who), c.stderr()).toBe(1);
    expect(b.stderr()).toContain('Waiting up to 10 min (--wait-timeout), then this run stops, nothing sent (exit 7); press Ctrl-C to stop waiting.');
    // order create has no --wait-timeout: the note names none.
    expect(c.stderr()).toContain('Waiting up to 10 min, then this run stops, nothing sent (exit 7); press Ctrl-C to stop waiting.');

    a.child.kill('SIGCONT');
    const [codeA, codeB, codeC] = await Promise.all([a.done, b.done, c.done]);
    expect(codeA, a.stderr()).toBe(0);
    expect(codeB, b.stderr()).toBe(0);
    expect(codeC, c.stderr()).toBe(0);
    expect(b.stderr()).toContain(`booked before (by another run just now: pid ${a.child.pid}`);
    expect(c.stderr()).toContain(`created before by another run just now (pid ${a.child.pid}`);
    expect(await countedByTag(fx.sandbox.url, E2E_API_KEY, 'DOC')).toEqual({ documents: 1, orders: 1 });
  }, 120_000);

  it('a batch that reaches its end with orders a paused batch holds says once whom it waits for, then reports them booked by the other run', async () => {
    const state = mkdtempSync(join(tmpdir(), 'shipbook-paused-held-'));
    const env = { ...fx.env, SHIPBOOK_STATE_DIR: state };
    const { file, dir } = taggedOrdersFile(6, 'HLD');
    const a = start(['book', file, '--concurrency', '6'], env, dir);
    await until(() => recorded(state, 'accepted') >= 6, 30_000, 'the first batch to accept all its orders');
    a.child.kill('SIGSTOP');

    const other = mkdtempSync(join(tmpdir(), 'shipbook-paused-held-b-'));
    const report = join(other, 'b.json');
    const b = start(['book', file, '--report', report], env, other);
    const note = `waiting for 6 order(s) that another run is booking (pid ${a.child.pid} on ${hostname()}: shipbook book `;
    await until(() => b.stderr().includes(note), 20_000, 'the second batch to say whom it waits for');
    expect(b.stderr()).toContain('Waiting up to 10 min (--wait-timeout), then they are reported failed, for a rerun; press Ctrl-C to stop waiting.');
    await pause(3_000);
    expect(b.child.exitCode).toBe(null);
    expect(times(b.stderr(), note), b.stderr()).toBe(1);

    a.child.kill('SIGCONT');
    const [codeA, codeB] = await Promise.all([a.done, b.done]);
    expect(codeA, a.stderr()).toBe(0);
    expect(codeB, b.stderr()).toBe(0);
    expect(times(b.stderr(), note)).toBe(1);
    const orders = (JSON.parse(readFileSync(report, 'utf8')) as { orders: Array<{ status: string }> }).orders;
    expect(orders.map((o) => o.status)).toEqual(Array(6).fill('booked_by_other_run'));
    expect(await countedByTag(fx.sandbox.url, E2E_API_KEY, 'HLD')).toEqual({ documents: 6, orders: 6 });
  }, 120_000);
});
