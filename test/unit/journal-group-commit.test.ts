/**
 * The journal's group commit: records appended in one turn of the event loop go to the file in
 * one write, callers of `durable()` waiting at once share one flush and are all released only
 * after it, and a failed write or flush rejects every caller waiting on it (exit 10).
 */
import * as fs from 'node:fs';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { JournalWriteError } from '../../src/ledger/errors.js';
import { Journal } from '../../src/ledger/file/journal.js';
import { readJournal } from '../../src/ledger/file/read.js';
import { EXIT } from '../../src/errors.js';

/** Every write and flush the journal makes, in order, and a flush failure to inject. */
const calls: string[] = [];
let failFlush: NodeJS.ErrnoException | undefined;

vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  return {
    ...real,
    writeSync: (...args: Parameters<typeof real.writeSync>) => {
      calls.push('write');
      return (real.writeSync as (...a: unknown[]) => number)(...args);
    },
    fdatasync: (fd: number, callback: (err: NodeJS.ErrnoException | null) => void) => {
      calls.push('flush');
      real.fdatasync(fd, (err) => {
        calls.push('flushed');
        callback(failFlush ?? err);
      });
    },
  };
});

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'shipbook-group-commit-'));
  calls.length = 0;
  failFlush = undefined;
});
afterEach(() => {
  delete process.env.SHIPBOOK_TEST_JOURNAL_SPACE;
  rmSync(dir, { recursive: true, force: true });
});

const sent = (id: string) => ({ id, event: 'create_sent' as const, step: 'create_order', file: 'orders.ndjson', line: 1 });

describe('the journal group commit', () => {
  it('writes the records of one turn in one write and flushes them once; every caller is released after the flush', async () => {
    expect(fs.writeSync).toBeTypeOf('function');
    const path = join(dir, 'journal.ndjson');
    const journal = await Journal.open(path, { lock: true, command: 'test' });
    calls.length = 0;
    const released: string[] = [];
    const waits = ['a', 'b', 'c'].map((id) => {
      journal.append(sent(id));
      return journal.durable().then(() => {
        released.push(id);
        calls.push(`released ${id}`);
      });
    });
    await Promise.all(waits);
    expect(released).toEqual(['a', 'b', 'c']);
    expect(calls).toEqual(['write', 'flush', 'flushed', 'released a', 'released b', 'released c']);
    expect([...readJournal(path).keys()]).toEqual(['a', 'b', 'c']);
    await journal.close();
  });

  it('groups what is appended while a flush is under way into the next write and flush', async () => {
    const path = join(dir, 'journal.ndjson');
    const journal = await Journal.open(path, { lock: true, command: 'test' });
    calls.length = 0;
    journal.append(sent('a'));
    const first = journal.durable();
    // The flush of `a` is under way: `b` and `c`, each from its own turn, wait for the next one.
    await new Promise((r) => setImmediate(r));
    journal.append(sent('b'));
    const second = journal.durable();
    journal.append(sent('c'));
    const third = journal.durable();
    expect(third).toBe(second);
    await Promise.all([first, second, third]);
    // At most one write per turn of the event loop, and two flushes for three callers.
    expect(calls.filter((c) => c === 'flush')).toHaveLength(2);
    expect(calls.filter((c) => c === 'write').length).toBeLessThanOrEqual(2);
    expect(calls.at(-1)).toBe('flushed');
    expect([...readJournal(path).keys()]).toEqual(['a', 'b', 'c']);
    await journal.close();
  });

  it('writes intents appended without a flush by the end of their turn (written() resolves then)', async () => {
    const path = join(dir, 'journal.ndjson');
    const journal = await Journal.open(path, { lock: false, command: 'test' });
    journal.append(sent('a'));
    journal.append(sent('b'));
    expect(readFileSync(path, 'utf8')).toBe('');
    calls.length = 0;
    await journal.written();
    expect(calls).toEqual(['write']);
    expect(readJournal(path).get('b')?.stage).toBe('unknown'); // a create sent with no answer recorded
    await journal.close();
  });

  it('writes what an answer said at once, with the intents pending then; intents alone wait for the end of their turn; the flush comes with the next intent', async () => {
    const path = join(dir, 'journal.ndjson');
    const journal = await Journal.open(path, { lock: false, command: 'test' });
    journal.append(sent('b'));
    calls.length = 0;
    // Intents of one turn: nothing written until the turn ends, then one write.
    journal.append(sent('x'));
    journal.append(sent('y'));
    expect(calls).toEqual([]);
    await new Promise((r) => setImmediate(r));
    expect(calls).toEqual(['write']);
    // An answer is in the file before append returns (a process killed right after it has it), not flushed yet.
    journal.append({ id: 'a', event: 'created', order_id: 'ORD-1' });
    expect(calls).toEqual(['write', 'write']);
    expect(readJournal(path).get('a')?.stage).toBe('created');
    journal.append({ id: 'a', event: 'accepted', order_id: 'ORD-1' });
    expect(readJournal(path).get('a')?.stage).toBe('accepted');
    // An intent after an answer: the answer already written, the intent written and both flushed before its request.
    journal.append({ id: 'c', event: 'created', order_id: 'ORD-2' });
    journal.append({ id: 'c', event: 'accept_sent', order_id: 'ORD-2' });
    await journal.durable();
    expect(calls).toEqual(['write', 'write', 'write', 'write', 'write', 'flush', 'flushed']);
    const read = readJournal(path);
    expect(read.get('c')?.stage).toBe('created');
    expect(read.get('a')?.stage).toBe('accepted');
    expect(read.get('b')?.stage).toBe('unknown');
    await journal.close();
  });

  it("flushes a journal in the background when asked (the run's copy): one flush for what came meanwhile, none before", async () => {
    const path = join(dir, 'journal.ndjson');
    const journal = await Journal.open(path, { lock: true, command: 'test' });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      calls.length = 0;
      journal.append(sent('a'));
      journal.flushSoon();
      await journal.written();
      journal.append(sent('b'));
      journal.flushSoon();
      await journal.written();
      // Written at once, each in its turn; not flushed yet.
      expect(calls).toEqual(['write', 'write']);
      vi.advanceTimersByTime(1000);
      await vi.waitFor(() => expect(calls).toContain('flushed'));
      expect(calls).toEqual(['write', 'write', 'flush', 'flushed']);
    } finally {
      vi.useRealTimers();
    }
    expect([...readJournal(path).keys()]).toEqual(['a', 'b']);
    await journal.close();
  });

  it('rejects every caller waiting on a flush that fails, and takes no record after it (exit 10)', async () => {
    const path = join(dir, 'journal.ndjson');
    const journal = await Journal.open(path, { lock: true, command: 'test' });
    failFlush = Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' });
    const waits = ['a', 'b', 'c'].map((id) => {
      journal.append(sent(id));
      return journal.durable().then(
        () => undefined,
        (e: unknown) => e,
      );
    });
    const errors = await Promise.all(waits);
    for (const err of errors) {
      expect(err).toBeInstanceOf(JournalWriteError);
      expect((err as JournalWriteError).exitCode).toBe(EXIT.STORAGE);
      expect((err as Error).message).toContain('input/output error [EIO]');
    }
    expect(() => journal.append(sent('d'))).toThrow(JournalWriteError);
    await expect(journal.durable()).rejects.toBeInstanceOf(JournalWriteError);
    await journal.close();
  });

  it('rejects every caller of a group whose write the disk cuts short, naming its first record, and leaves the file at the last whole record', async () => {
    const path = join(dir, 'journal.ndjson');
    const first = await Journal.open(path, { lock: true, command: 'test' });
    first.append(sent('a'));
    await first.durable();
    await first.close();
    const size = readFileSync(path).length;
    process.env.SHIPBOOK_TEST_JOURNAL_SPACE = String(size + 200);
    const journal = await Journal.open(path, { lock: true, command: 'test' });
    const waits = ['b', 'c', 'd'].map((id) => {
      journal.append({ ...sent(id), line: id.charCodeAt(0) });
      return journal.durable().then(
        () => undefined,
        (e: unknown) => e,
      );
    });
    const errors = await Promise.all(waits);
    expect(new Set(errors).size).toBe(1);
    expect(errors[0]).toBeInstanceOf(JournalWriteError);
    expect((errors[0] as Error).message).toContain('no space left on the device [ENOSPC]');
    expect((errors[0] as Error).message).toContain(
      `the create_order request of the order of orders.ndjson:${'b'.charCodeAt(0)} was about to be sent, so it was not sent, nor anything after it`,
    );
    await journal.close();
    expect(readFileSync(path).length).toBe(size);
    expect([...readJournal(path).keys()]).toEqual(['a']);
  });
});
