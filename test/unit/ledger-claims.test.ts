import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyRecord } from '../../src/ledger/fold.js';
import type { EntryState, JournalRecord, RunClaim } from '../../src/ledger/records.js';
import { claimEntry } from '../../src/booking/engine.js';
import { claimLives } from '../../src/ledger/claims.js';
import { Ledger } from '../../src/ledger/file/ledger.js';
import { ledgerPath } from '../../src/ledger/paths.js';
import { ShortLock } from '../../src/lock.js';
import { ClaimsLockWaitError } from '../../src/ledger/errors.js';

const TARGET = 'https://claims.example/#key:333333333333';

/** A run of this process, as a claim names it (another nonce: another run). */
const run = (nonce: string, over: Partial<RunClaim> = {}): RunClaim => ({
  pid: process.pid,
  host: hostname(),
  at: '2026-01-01T00:00:00.000Z',
  nonce,
  command: 'shipbook book orders.ndjson',
  ...over,
});

/** A pid that ran and is gone. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid!;
}

function stateOf(...records: Array<Omit<JournalRecord, 't' | 'id'>>): EntryState {
  let s: EntryState | undefined;
  for (const r of records) s = applyRecord(s, { t: '2026-01-01T00:00:01.000Z', id: 'doc-1', ...r });
  return s!;
}

const open = (state: string, command = 'test') => Ledger.open({ stateDir: state, target: TARGET, command });

describe('the fold of claims', () => {
  it('a claim names its run and time; its own release or a final outcome ends it; it is no step of the document', () => {
    const claimed = stateOf({ event: 'claimed', run: run('a') });
    expect(claimed.claim).toMatchObject({ nonce: 'a', pid: process.pid, since: '2026-01-01T00:00:01.000Z' });
    expect(claimed.records).toBe(0);
    expect(stateOf({ event: 'claimed', run: run('a') }, { event: 'released', run: run('b') }).claim?.nonce).toBe('a');
    expect(stateOf({ event: 'claimed', run: run('a') }, { event: 'released', run: run('a') }).claim).toBeUndefined();
    for (const end of [
      { event: 'processed', order_id: 'ORD-A' },
      { event: 'failed', created: false, error: { code: 'x', message: 'y' } },
      { event: 'resolved', not_created: true },
    ] as const)
      expect(stateOf({ event: 'claimed', run: run('a') }, { event: 'created', order_id: 'ORD-A' }, end).claim).toBeUndefined();
    // Created or accepted: the claim stays until the run ends or lets go.
    expect(stateOf({ event: 'claimed', run: run('a') }, { event: 'created', order_id: 'ORD-A' }, { event: 'accepted', order_id: 'ORD-A' }).claim?.nonce).toBe(
      'a',
    );
  });

  it('a claim lives while its process runs on this machine; from another machine, for its lease', () => {
    expect(claimLives({ ...run('a'), since: new Date().toISOString() })).toBe(true);
    expect(claimLives({ ...run('a', { pid: deadPid() }), since: new Date().toISOString() })).toBe(false);
    // The same pid with another start time is another process: the claim's run is gone.
    expect(claimLives({ ...run('a', { start: '1' }), since: new Date().toISOString() })).toBe(false);
    const far = { ...run('a', { host: 'another-machine' }), since: '2026-01-01T00:00:00.000Z' };
    expect(claimLives(far, Date.parse('2026-01-01T00:01:00.000Z'))).toBe(true);
    expect(claimLives(far, Date.parse('2026-01-01T01:00:00.000Z'))).toBe(false);
  });
});

describe('claims between runs on one ledger', () => {
  it('a live run holding a document is respected; once it lets go, the other run claims it', async () => {
    const state = mkdtempSync(join(tmpdir(), 'shipbook-claims-'));
    const a = await open(state, 'shipbook book a');
    const b = await open(state, 'shipbook book b');
    try {
      expect(await claimEntry(a, 'doc-1')).toMatchObject({ kind: 'go', resume: { action: 'book' } });
      const held = await claimEntry(b, 'doc-1');
      expect(held).toMatchObject({ kind: 'held', by: { pid: process.pid, command: 'shipbook book a', nonce: a.run.nonce } });
      expect(b.holds('doc-1')).toBe(false);
      a.release('doc-1');
      await a.written();
      expect(await claimEntry(b, 'doc-1')).toMatchObject({ kind: 'go', resume: { action: 'book' } });
      expect(b.holds('doc-1')).toBe(true);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('claims of one turn share one write, and what another run recorded meanwhile decides again', async () => {
    const state = mkdtempSync(join(tmpdir(), 'shipbook-claims-'));
    const a = await open(state);
    const b = await open(state);
    try {
      expect((await claimEntry(a, 'doc-1')).kind).toBe('go');
      a.append({ id: 'doc-1', event: 'created', order_id: 'ORD-A' });
      a.append({ id: 'doc-1', event: 'accepted', order_id: 'ORD-A' });
      a.append({ id: 'doc-1', event: 'processed', order_id: 'ORD-A', tracking_numbers: ['T1'] });
      await a.written();
      // b read the ledger before: the claim reads it again, and finds the document booked.
      const [one, two] = await Promise.all([claimEntry(b, 'doc-1'), claimEntry(b, 'doc-2')]);
      expect(one).toMatchObject({ kind: 'settled', resume: { action: 'already_booked', orderId: 'ORD-A' } });
      expect(two).toMatchObject({ kind: 'go', resume: { action: 'book' } });
      expect(b.get('doc-1')?.trackingNumbers).toEqual(['T1']);
    } finally {
      await a.close();
      await b.close();
    }
    const lines = readFileSync(ledgerPath(state, TARGET), 'utf8').trim().split('\n');
    // a's claim, its three answers, b's one claim (doc-2), and b's release at close.
    expect(lines.filter((l) => l.includes('"claimed"'))).toHaveLength(2);
    expect(lines.filter((l) => l.includes('"released"'))).toHaveLength(1);
  });

  it('a claim of a run that is gone is taken over: continued from its stage, or unknown when its create was sent', async () => {
    const state = mkdtempSync(join(tmpdir(), 'shipbook-claims-'));
    const seed = await open(state);
    await seed.close();
    const gone = run('gone', { pid: deadPid() });
    const line = (r: Omit<JournalRecord, 't'>) => `${JSON.stringify({ t: new Date().toISOString(), ...r })}\n`;
    appendFileSync(
      ledgerPath(state, TARGET),
      line({ id: 'doc-new', event: 'claimed', run: gone }) +
        line({ id: 'doc-sent', event: 'claimed', run: gone }) +
        line({ id: 'doc-sent', event: 'create_sent', step: 'create_order' }) +
        line({ id: 'doc-accepted', event: 'claimed', run: gone }) +
        line({ id: 'doc-accepted', event: 'created', order_id: 'ORD-C' }) +
        line({ id: 'doc-accepted', event: 'accepted', order_id: 'ORD-C' }),
    );
    const b = await open(state);
    try {
      expect(await claimEntry(b, 'doc-new')).toMatchObject({ kind: 'go', resume: { action: 'book' } });
      expect(await claimEntry(b, 'doc-sent')).toMatchObject({ kind: 'settled', resume: { action: 'unknown' } });
      expect(await claimEntry(b, 'doc-accepted')).toMatchObject({ kind: 'go', resume: { action: 'wait', orderId: 'ORD-C' } });
      expect(b.holds('doc-sent')).toBe(false);
    } finally {
      await b.close();
    }
  });

  it('a line another process is still writing is read once it is whole', async () => {
    const state = mkdtempSync(join(tmpdir(), 'shipbook-claims-'));
    const b = await open(state);
    try {
      const path = ledgerPath(state, TARGET);
      const whole = `${JSON.stringify({ t: new Date().toISOString(), id: 'doc-1', event: 'claimed', run: run('other') })}\n`;
      appendFileSync(path, whole.slice(0, 20));
      b.refresh();
      expect(b.get('doc-1')).toBeUndefined();
      appendFileSync(path, whole.slice(20));
      b.refresh();
      expect(b.get('doc-1')?.claim?.nonce).toBe('other');
    } finally {
      await b.close();
    }
  });
});

describe('a wait for the claims lock held by another run', () => {
  it('names the holder once past a second, ends after lockWaitMs with nothing claimed, and claims once the lock is given back', async () => {
    const state = mkdtempSync(join(tmpdir(), 'shipbook-claims-wait-'));
    const ledger = await open(state, 'shipbook book waiting');
    const holder = new ShortLock(`${ledgerPath(state, TARGET)}.claims.lock`, 'shipbook book held');
    await holder.acquire();
    try {
      const told: string[] = [];
      ledger.onLockWait = (h) => told.push(`${h.pid} ${h.host} ${h.command}`);
      ledger.lockWaitMs = 1_500;
      const started = Date.now();
      const err = await claimEntry(ledger, 'doc-1').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ClaimsLockWaitError);
      expect((err as ClaimsLockWaitError).exitCode).toBe(7);
      expect((err as ClaimsLockWaitError).holder).toMatchObject({ pid: process.pid, host: hostname(), command: 'shipbook book held' });
      expect((err as ClaimsLockWaitError).message).toContain(`held by another run (pid ${process.pid} on ${hostname()}: shipbook book held)`);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_400);
      expect(told).toEqual([`${process.pid} ${hostname()} shipbook book held`]);
      expect(ledger.holds('doc-1')).toBe(false);
      holder.release();
      expect(await claimEntry(ledger, 'doc-1')).toMatchObject({ kind: 'go' });
    } finally {
      holder.close();
      await ledger.close();
    }
  });
});

describe('the short lock around claims', () => {
  it('is taken over from a holder that no longer runs, and its file removed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shipbook-shortlock-'));
    const path = join(dir, 'l.lock');
    const file = `${path}.dead-1`;
    writeFileSync(file, JSON.stringify({ pid: deadPid(), host: hostname(), command: 'x', nonce: 'dead-1', file }));
    writeFileSync(path, readFileSync(file));
    const lock = new ShortLock(path, 'test');
    await lock.acquire();
    expect(existsSync(file)).toBe(false);
    lock.close();
    expect(existsSync(path)).toBe(false);
  });

  it('a live holder (paused) is waited for, and named to the waiter; the wait ends with the signal', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shipbook-shortlock-'));
    const path = join(dir, 'l.lock');
    const holder = new ShortLock(path, 'shipbook book held');
    await holder.acquire();
    const waiter = new ShortLock(path, 'test');
    const stop = new AbortController();
    let told: string | undefined;
    const waiting = waiter.acquire({
      noticeMs: 50,
      signal: stop.signal,
      onWait: (h) => {
        told = h.command;
        stop.abort(new Error('stopped'));
      },
    });
    await expect(waiting).rejects.toThrow('stopped');
    expect(told).toBe('shipbook book held');
    holder.release();
    await waiter.acquire();
    waiter.close();
    holder.close();
  });
});
