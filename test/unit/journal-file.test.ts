/**
 * The batch journal's file under faults: a record is written whole or not at all (a disk that
 * fills up mid-record), a torn last record is set aside by the next run, a line glued to a torn
 * one is read, and the lock names its live holder and is taken from a dead one.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JournalLockedError, JournalWriteError } from '../../src/ledger/errors.js';
import { Journal } from '../../src/ledger/file/journal.js';
import { readJournal } from '../../src/ledger/file/read.js';
import { EXIT } from '../../src/errors.js';
import { acquireLock, LockHeldError } from '../../src/lock.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'shipbook-journal-'));
});
afterEach(() => {
  delete process.env.SHIPBOOK_TEST_JOURNAL_SPACE;
  rmSync(dir, { recursive: true, force: true });
});

const sent = (id: string) => ({ id, event: 'create_sent' as const, step: 'create_order', file: 'orders.ndjson', line: 3 });

describe('a disk that fills up under the journal', () => {
  it('cuts a half-written record off again, refuses every later record and names what was not recorded', async () => {
    const path = join(dir, 'journal.ndjson');
    const first = await Journal.open(path, { lock: true, command: 'test' });
    first.append(sent('a'));
    await first.durable();
    await first.close();
    const size = readFileSync(path).length;
    // Room for part of the next record only: the write is short, then the disk is full.
    process.env.SHIPBOOK_TEST_JOURNAL_SPACE = String(size + 20);
    const journal = await Journal.open(path, { lock: true, command: 'test' });
    // The record is written with the others of its turn, before its flush: that is where it fails.
    journal.append(sent('b'));
    const err: unknown = await journal.durable().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JournalWriteError);
    const w = err as JournalWriteError;
    expect(w.exitCode).toBe(EXIT.STORAGE);
    expect(w.message).toContain(path);
    expect(w.message).toContain('no space left on the device [ENOSPC]');
    expect(w.message).toContain('the create_order request of the order of orders.ndjson:3 was about to be sent, so it was not sent, nor anything after it');
    expect(() => journal.append({ id: 'a', event: 'created', order_id: 'ORD-1' })).toThrow(JournalWriteError);
    await expect(journal.durable()).rejects.toBeInstanceOf(JournalWriteError);
    await journal.close();
    // Nothing of the record that failed is left: the file ends with the last whole record.
    expect(readFileSync(path).length).toBe(size);
    expect([...readJournal(path).keys()]).toEqual(['a']);
  });

  it('sets a torn last record aside on the next run and goes on writing after the last whole one', async () => {
    const path = join(dir, 'journal.ndjson');
    const whole = `${JSON.stringify({ t: 'x', ...sent('a') })}\n`;
    const torn = JSON.stringify({ t: 'y', ...sent('b') }).slice(0, 30);
    writeFileSync(path, whole + torn);
    const journal = await Journal.open(path, { lock: true, command: 'test' });
    expect(journal.notes).toEqual([
      `${path}:2: an incomplete last record (cut short by a full disk or a crash while it was written, so never acted on) was set aside in ${path}.torn; the journal continues after the last whole record`,
    ]);
    expect(journal.states.has('b')).toBe(false);
    journal.append(sent('c'));
    await journal.close();
    expect(readFileSync(`${path}.torn`, 'utf8')).toContain(torn);
    expect([...readJournal(path).keys()]).toEqual(['a', 'c']);
    // Usable again: a second run finds nothing to set aside.
    const again = await Journal.open(path, { lock: true, command: 'test' });
    expect(again.notes).toEqual([]);
    await again.close();
  });

  it('reads a record glued to a torn one by an older shipbook, skipping the torn start', () => {
    const path = join(dir, 'journal.ndjson');
    const torn = JSON.stringify({ t: 'y', ...sent('b') }).slice(0, 25);
    writeFileSync(
      path,
      `${JSON.stringify({ t: 'x', ...sent('a') })}\n${torn}${JSON.stringify({ t: 'z', ...sent('c') })}\n${JSON.stringify({ t: 'w', id: 'c', event: 'created', order_id: 'ORD-9' })}\n`,
    );
    const states = readJournal(path);
    expect([...states.keys()]).toEqual(['a', 'c']);
    expect(states.get('c')?.orderId).toBe('ORD-9');
  });

  it('still refuses a line in the middle that is no record at all, naming it (exit 2)', () => {
    const path = join(dir, 'journal.ndjson');
    writeFileSync(path, `${JSON.stringify({ t: 'x', ...sent('a') })}\nhello\n${JSON.stringify({ t: 'x', ...sent('b') })}\n`);
    expect(() => readJournal(path)).toThrow(`${path}:2: not a journal record`);
  });
});

describe('the journal lock', () => {
  it('is refused while its holder runs, naming it, and taken once the holder is gone', async () => {
    const path = join(dir, 'journal.ndjson');
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      // A lock left by a process that still runs on this machine (as a stopped batch would).
      mkdirSync(`${path}.lock`, { recursive: true });
      writeFileSync(
        `${path}.lock/owner.json`,
        JSON.stringify({ pid: child.pid, host: hostname(), started_at: 'then', command: 'shipbook book other.ndjson', nonce: 'n1' }),
      );
      const err = await Journal.open(path, { lock: true, command: 'test' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(JournalLockedError);
      expect((err as Error).message).toContain(`pid ${child.pid} on ${hostname()}`);
    } finally {
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    }
    const journal = await Journal.open(path, { lock: true, command: 'test' });
    expect(JSON.parse(readFileSync(`${path}.lock/owner.json`, 'utf8')).pid).toBe(process.pid);
    await journal.close();
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it('finds a lock removed behind its back compromised, and a batch then sends nothing new (exit 11)', async () => {
    const path = join(dir, 'journal.ndjson');
    const journal = await Journal.open(path, { lock: true, command: 'test' });
    journal.append(sent('a'));
    rmSync(`${path}.lock`, { recursive: true });
    const other = await acquireLock(`${path}.lock`, { command: 'another batch' });
    let err: unknown;
    try {
      journal.append(sent('b'));
    } catch (e) {
      err = e;
    }
    expect((err as { exitCode?: number }).exitCode).toBe(EXIT.LOCK_LOST);
    expect((err as Error).message).toContain('another batch');
    // What was under way is still recorded.
    expect(() => journal.append({ id: 'a', event: 'created', order_id: 'ORD-1' })).not.toThrow();
    await journal.close();
    // The lock it lost is not released by it: the other holder keeps it.
    expect(JSON.parse(readFileSync(`${path}.lock/owner.json`, 'utf8')).command).toBe('another batch');
    other.release();
  });

  it('waits for a live holder and gets the lock once it is given back', async () => {
    const path = join(dir, 'store.lock');
    const first = await acquireLock(path, { command: 'first' });
    await expect(acquireLock(path, { command: 'second' })).rejects.toBeInstanceOf(LockHeldError);
    const waiting = acquireLock(path, { command: 'second', waitMs: 5_000, retryMs: 5 });
    setTimeout(() => first.release(), 50);
    const second = await waiting;
    expect(second.owner.command).toBe('second');
    second.release();
  });
});
