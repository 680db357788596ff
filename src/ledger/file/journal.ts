/**
 * The batch journal: an append-only NDJSON file (one per target by default, src/ledger/paths.ts
 * `defaultJournalPath`). An intent (create sent, accept sent) is written and flushed to disk BEFORE
 * the request that changes something at the service is sent (a group commit: the intents of the
 * orders under way share one write and one fdatasync per turn); what an answer said (order created
 * with its id, accepted, processed with its tracking numbers) is written at the end of the turn it
 * arrived in, with the other records of that turn, and always before the next request of its order
 * leaves; a failure records the error. A rerun reads it and continues each order from
 * where it stands; a create that was sent and never answered is **unknown** and is not sent again
 * until `shipbook journal resolve` says what became of it (docs/batch.md, "Unknown orders").
 *
 * One batch at a time per journal: a lock (`<journal>.lock`, src/lock.ts) with the holder's pid,
 * host and command, held until the holder ends, so a second batch refuses to start and names the
 * first. A record is written whole (and flushed) before its request, or the request is not sent: a
 * full disk ends the batch with exit 10 and a message saying what was not recorded; an incomplete
 * last record left by it (or by a crash) is set aside by the next run.
 *
 * This file is the writer (the group commit); the records are in src/ledger/records.ts, their fold
 * in fold.ts, reading and torn-tail recovery in read.ts, the errors in errors.ts.
 */
import type { OnExit } from '../../exit-work.js';
import { closeSync, existsSync, fdatasync, fdatasyncSync, fstatSync, fsyncSync, ftruncateSync, openSync, readSync, writeFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { FILE_SYSTEM_REFUSALS, makeDirectory } from '../../dirs.js';
import { acquireLock, LockHeldError, type HeldLock } from '../../lock.js';
import { describeRecord, JournalLockedError, JournalLockLostError, JournalUnusableError, JournalWriteError } from '../errors.js';
import { applyRecord } from '../fold.js';
import { readJournalFile, setAsideTorn } from './read.js';
import type { StateIndex } from './state-index.js';
import { parseRecord, prepareRecord, RECORD_START, type EntryState, type JournalEvent, type JournalRecord, type PreparedRecord } from '../records.js';

/** How to open a journal. */
interface JournalOpenOptions {
  /** One batch at a time: take the journal's lock. */
  lock: boolean;
  /** Names the holder in the lock. */
  command: string;
  /** Other processes append to it too (the ledger): keep reading it with {@link Journal.refresh}. */
  shared?: boolean;
  /**
   * Registers the journal's exit work (write what is pending, give the lock back) with the run
   * (the context's `onExit`); without it a process that exits at once leaves both to the next run.
   */
  onExit?: OnExit;
}

/** Records of what an answer said: still written once the lock is lost (see {@link Journal.append}). */
const FACTS: ReadonlySet<JournalEvent> = new Set(['created', 'shipment_created', 'accepted', 'processed', 'answered', 'cancelled', 'refused']);

/**
 * How long a record written to a journal whose flushes are made in the background ({@link Journal.flushSoon})
 * may wait for its flush, ms.
 */
const BACKGROUND_FLUSH_MS = 1000;

/** A write that lets the file grow to at most `limit` bytes (then ENOSPC), for tests of a full disk (see {@link Journal.open}). */
function limitedWrite(limit: number): (fd: number, bytes: Buffer, offset: number, length: number) => number {
  return (fd, bytes, offset, length) => {
    const room = limit - fstatSync(fd).size;
    if (room <= 0) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });
    return writeSync(fd, bytes, offset, Math.min(room, length));
  };
}

/**
 * An open journal: the state of every order, and its appends: records written in groups (one write
 * per turn of the event loop, one flush per round: {@link Journal.durable}).
 */
export class Journal {
  /** Set once a write or flush failed: no record is written after a torn one. */
  private broken: NodeJS.ErrnoException | undefined;
  /** The first failure, thrown again by every later append: what people need to know is where it began. */
  private failure: JournalWriteError | undefined;
  /** The file's size after the last complete record this process wrote (locked journals only: the sole writer). */
  private size: number;

  private constructor(
    readonly path: string,
    private readonly fd: number,
    readonly states: StateIndex,
    private readonly lock: HeldLock | undefined,
    /** What opening set aside (a torn last record …), for people: one sentence each. */
    readonly notes: readonly string[],
    private readonly write: (fd: number, bytes: Buffer, offset: number, length: number) => number,
    /** Shared with other runs (the ledger): where this process has read up to, bytes; undefined for a file of one run. */
    private readTo: number | undefined,
    onExit: OnExit | undefined,
  ) {
    this.size = fstatSync(fd).size;
    this.unregisterExit = onExit?.(this.writeAtExit);
  }

  /** Unregisters {@link writeAtExit} from the run's exit work (undefined when none was given). */
  private readonly unregisterExit: (() => void) | undefined;

  /** Lines this process wrote to a shared file that {@link refresh} has not read back yet (line → how many). */
  private readonly own = new Map<string, number>();
  /** What this process wrote to a shared file since {@link refresh} last read it, as written (not yet in {@link own}). */
  private ownUnread: string[] = [];
  /** The bytes of {@link ownUnread}. */
  private ownUnreadBytes = 0;

  /**
   * Reads what other processes appended to a shared file since this process last read it, and
   * folds it into {@link states}: one fstat, and one read of the new bytes only. A line still being
   * written (no newline yet) is left for the next refresh; this process's own lines are recognised
   * and skipped (they were folded when appended). Returns the ids whose state another process
   * changed. A file of one run (not shared) has nothing to read.
   * @throws the file system's error when the file cannot be read
   */
  refresh(): Set<string> {
    const changed = new Set<string>();
    if (this.readTo === undefined) return changed;
    const size = fstatSync(this.fd).size;
    if (size <= this.readTo) return changed;
    // Nothing but what this process wrote since the last read (the file grew by exactly that): no
    // other run's record to fold, nothing to read.
    if (this.own.size === 0 && size === this.readTo + this.ownUnreadBytes) {
      this.readTo = size;
      this.ownUnread = [];
      this.ownUnreadBytes = 0;
      return changed;
    }
    for (const text of this.ownUnread) for (const line of text.split('\n')) if (line !== '') this.own.set(line, (this.own.get(line) ?? 0) + 1);
    this.ownUnread = [];
    this.ownUnreadBytes = 0;
    const bytes = Buffer.alloc(size - this.readTo);
    const got = readSync(this.fd, bytes, 0, bytes.length, this.readTo);
    const last = bytes.lastIndexOf(10, got - 1);
    if (last < 0) return changed;
    this.readTo += last + 1;
    for (const line of bytes.toString('utf8', 0, last).split('\n')) {
      if (line === '') continue;
      let r = parseRecord(line);
      let key = line;
      if (r === undefined) {
        // A record cut short by a process that died while writing it, glued to the next one.
        const at = line.lastIndexOf(RECORD_START);
        if (at <= 0) continue;
        key = line.slice(at);
        r = parseRecord(key);
        if (r === undefined) continue;
      }
      const mine = this.own.get(key);
      if (mine !== undefined) {
        if (mine <= 1) this.own.delete(key);
        else this.own.set(key, mine - 1);
        continue;
      }
      if (r.event === 'target') continue;
      this.states.set(r.id, applyRecord(this.states.get(r.id), r));
      changed.add(r.id);
    }
    return changed;
  }

  /**
   * Writes what is still pending when the process exits without closing the journal (a second
   * Ctrl-C exits at once): records of answers already received are not lost with the turn. Then
   * gives the lock back: the process that held it is ending, and the next run must not find it
   * held (a lock left by a process killed outright is taken over as its holder is found gone).
   */
  private readonly writeAtExit = (): void => {
    try {
      this.writePending();
      if (this.flushTimer !== undefined) fdatasyncSync(this.fd);
    } catch {
      // the process is ending: the next run sets a torn record aside
    }
    this.lock?.release();
  };

  /**
   * Opens (creating it and its directory) the journal at `path`. With `lock`, takes the lock for
   * this batch (`<path>.lock`, held until this process ends: see src/lock.ts) and sets aside an
   * incomplete last record (into `<path>.torn`, with a note in {@link notes}).
   *
   * For tests of a full disk, `SHIPBOOK_TEST_JOURNAL_SPACE=<bytes>` makes writes fail with ENOSPC
   * (after a short write) once the file would grow past that size.
   * @throws JournalLockedError when another batch holds it; JournalUnusableError when the file
   *   system refuses the file or its directory; JournalCorruptError when a line is not a record
   */
  static async open(path: string, options: JournalOpenOptions): Promise<Journal> {
    try {
      return await Journal.openFile(path, options);
    } catch (err) {
      if (FILE_SYSTEM_REFUSALS.has((err as NodeJS.ErrnoException)?.code ?? '')) throw new JournalUnusableError(path, err as NodeJS.ErrnoException);
      throw err;
    }
  }

  private static async openFile(path: string, options: JournalOpenOptions): Promise<Journal> {
    makeDirectory(dirname(path));
    if (!existsSync(path)) writeFileSync(path, '', { flag: 'a' });
    let lock: HeldLock | undefined;
    if (options.lock) {
      try {
        // Held while this process runs, however long it pauses; lost only if removed or taken by force.
        lock = await acquireLock(`${path}.lock`, { command: options.command });
      } catch (err) {
        if (err instanceof LockHeldError) throw new JournalLockedError(path, err.owner);
        throw err;
      }
    }
    try {
      const reading = readJournalFile(path);
      const notes = [...reading.notes];
      if (lock !== undefined && reading.tornAt !== undefined) notes.splice(0, notes.length, ...setAsideTorn(path, reading.tornAt, reading.notes));
      const fd = openSync(path, options.shared ? 'a+' : 'a');
      const limit = Number(process.env.SHIPBOOK_TEST_JOURNAL_SPACE);
      return new Journal(
        path,
        fd,
        reading.states,
        lock,
        notes,
        Number.isFinite(limit) && limit > 0 ? limitedWrite(limit) : writeSync,
        options.shared ? reading.end : undefined,
        options.onExit,
      );
    } catch (err) {
      lock?.release();
      throw err;
    }
  }

  /** Fails when nothing more may be written: a write failed earlier, or (for a request about to be sent) the lock was lost. */
  private check(record: Omit<JournalRecord, 't'>): void {
    if (this.broken) throw this.failure ?? new JournalWriteError(this.path, this.broken, describeRecord(record));
    // Once the lock is lost, only what answers already said is recorded (created, accepted,
    // processed): no request is started, and no failure is written over another batch's records.
    if (this.lock !== undefined && !FACTS.has(record.event) && !this.lock.verify()) {
      throw new JournalLockLostError(this.path, this.lock.compromised?.message ?? `the lock ${this.lock.path} was lost`);
    }
  }

  /** Lines appended and not yet written, in order (one write takes them all: see {@link writePending}). */
  private pending: string[] = [];
  /** The first record of {@link pending}, to say what was not recorded when their write fails. */
  private pendingFirst: Omit<JournalRecord, 't'> | undefined;
  /** Callers of {@link written} waiting for the next write of {@link pending}. */
  private writeWaiters: Array<{ resolve: () => void; reject: (err: unknown) => void }> = [];
  /** A write of {@link pending} is scheduled for the end of this turn of the event loop. */
  private writeScheduled = false;

  /**
   * Appends a record and updates the order's state. An intent joins the others appended in the
   * same turn of the event loop: they are written together, whole, in one write (a group commit) at
   * the end of the turn, or before the flush of {@link durable} starts, whichever comes first. What
   * an answer said is written at once, with whatever is pending, before this returns.
   * Call {@link durable} before a request that depends on it, {@link written} to know it reached
   * the file.
   * @throws JournalWriteError (exit 10) when an earlier write or flush failed; JournalLockLostError
   *   (exit 11) for any record but what an answer said (created, shipment_created, accepted,
   *   processed) once the lock was lost
   */
  append(record: Omit<JournalRecord, 't'>): EntryState {
    return this.appendPrepared(prepareRecord(record), record);
  }

  /**
   * {@link append} of a record already serialised by {@link prepareRecord} (the ledger writes the
   * same line to two files).
   */
  appendPrepared(prepared: PreparedRecord, record: Omit<JournalRecord, 't'> = prepared.record): EntryState {
    this.check(record);
    if (this.pending.length === 0) this.pendingFirst = record;
    this.pending.push(prepared.line);
    // The intents of this turn go to the file in the turn's one group write: an intent's request
    // leaves only after durable(), which writes and flushes it first, so one lost with the process
    // sent nothing. What an answer said is written at once (with whatever is pending), before the
    // flow tells anyone: a process killed right after saying "order … accepted" has it in the file
    // (the operating system keeps a write whose process died), so the next run continues that
    // order instead of finding it unknown or merely created. Its flush comes with the next intent's.
    if (FACTS.has(record.event)) {
      this.writeTurn();
    } else if (!this.writeScheduled) {
      this.writeScheduled = true;
      setImmediate(this.writeTurn);
    }
    const state = applyRecord(this.states.get(prepared.record.id), prepared.record);
    this.states.set(prepared.record.id, state);
    return state;
  }

  /** The turn's group write (scheduled by {@link appendPrepared}). */
  private readonly writeTurn = (): void => {
    this.writeScheduled = false;
    try {
      this.writePending();
    } catch {
      // kept in this.failure: every waiter was told, and the next append or flush throws it
    }
  };

  /**
   * Writes every pending line in one write (written whole: a write that takes only part of the
   * bytes is followed by the rest, or fails), then tells the callers of {@link written}.
   * @throws JournalWriteError when the write fails (the part written is cut off again where
   *   possible, and the journal takes no more records)
   */
  private writePending(): void {
    if (this.broken) {
      const failure = this.failure ?? new JournalWriteError(this.path, this.broken, 'the records appended since the last write');
      this.settleWriters(failure);
      throw failure;
    }
    if (this.pending.length === 0) {
      this.settleWriters(undefined);
      return;
    }
    const text = this.pending.length === 1 ? this.pending[0]! : this.pending.join('');
    const bytes = Buffer.from(text);
    const first = this.pendingFirst!;
    this.pending = [];
    this.pendingFirst = undefined;
    let written = 0;
    try {
      // A write may take only part of the bytes (a disk filling up): the rest follows, or it fails.
      while (written < bytes.length) written += this.write(this.fd, bytes, written, bytes.length - written);
    } catch (err) {
      this.broken = err as NodeJS.ErrnoException;
      if (this.lock !== undefined && written > 0) {
        try {
          // The sole writer: what was written of these records goes again, so the file ends with a whole record.
          ftruncateSync(this.fd, this.size);
        } catch {
          // the next run sets the torn record aside
        }
      }
      this.failure = new JournalWriteError(this.path, this.broken, `${describeRecord(first)}, nor anything after it`);
      this.settleWriters(this.failure);
      throw this.failure;
    }
    this.size += bytes.length;
    if (this.readTo !== undefined) {
      // Recognised by refresh() when it reads them back (see there).
      this.ownUnread.push(text);
      this.ownUnreadBytes += bytes.length;
    }
    this.settleWriters(undefined);
  }

  /**
   * Writes what is pending now, in one write (a shared file's claims must be in the file before its
   * lock is given back).
   * @throws JournalWriteError (exit 10) when the write, or an earlier one, failed
   */
  writeNow(): void {
    this.writePending();
  }

  /** Resolves (or, with `failure`, rejects) every caller of {@link written} so far. */
  private settleWriters(failure: JournalWriteError | undefined): void {
    if (this.writeWaiters.length === 0) return;
    const waiters = this.writeWaiters;
    this.writeWaiters = [];
    for (const w of waiters)
      if (failure === undefined) w.resolve();
      else w.reject(failure);
  }

  /**
   * Resolves once every record appended so far is written to the file (not yet flushed: a crash of
   * this process then finds it, a crash of the machine may not). Records of the same turn share
   * the write.
   * @throws JournalWriteError (exit 10) when that write, or an earlier one, failed
   */
  written(): Promise<void> {
    if (this.broken) return Promise.reject(this.failure ?? new JournalWriteError(this.path, this.broken, 'the records appended since the last write'));
    if (this.pending.length === 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => this.writeWaiters.push({ resolve, reject }));
  }

  private inFlight: Promise<void> | undefined;
  private next: { promise: Promise<void>; resolve: () => void; reject: (err: unknown) => void } | undefined;

  /**
   * Resolves once every record appended so far is on disk (written, then fdatasync: the data and
   * the file's size). Orders booked at once share one write and one flush (a group commit): the
   * records appended while a flush is under way are written together when it ends, and flushed by
   * the next one, so the journal costs one write and one flush per round of requests and never
   * blocks the other orders while the disk works.
   * @throws JournalWriteError (exit 10) when the write or the flush fails (the records may not be
   *   on disk): every caller waiting for that flush gets it
   */
  durable(): Promise<void> {
    if (this.broken)
      return Promise.reject(
        this.failure ?? new JournalWriteError(this.path, this.broken, 'the records written since the last flush (their requests were not sent)'),
      );
    const waiting = this.next;
    if (waiting !== undefined) return waiting.promise;
    let resolve!: () => void;
    let reject!: (err: unknown) => void;
    const promise = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    this.next = { promise, resolve, reject };
    this.scheduleKick();
    return promise;
  }

  /** A flush is to start at the end of this turn of the event loop. */
  private kickScheduled = false;

  /**
   * Starts the next flush at the end of this turn (so every order appending in this turn joins
   * it), unless one is under way: then it starts when that one ends.
   */
  private scheduleKick(): void {
    if (this.inFlight !== undefined || this.kickScheduled || this.next === undefined) return;
    this.kickScheduled = true;
    setImmediate(() => {
      this.kickScheduled = false;
      this.kick();
    });
  }

  /**
   * Starts the next flush unless one is under way: writes what is pending first, so the flush
   * covers every record appended before it starts.
   */
  private kick(): void {
    if (this.inFlight !== undefined || this.next === undefined) return;
    const batch = this.next;
    this.next = undefined;
    try {
      this.writePending();
    } catch (err) {
      batch.reject(err);
      return;
    }
    this.inFlight = new Promise<void>((done) =>
      fdatasync(this.fd, (err) => {
        if (err) {
          // After a failed flush the kernel may have dropped the pages: nothing more is trusted to this file.
          this.broken ??= err;
          this.failure ??= new JournalWriteError(
            this.path,
            err,
            'the records written since the last flush (their requests were not sent), nor anything after them',
          );
          batch.reject(this.failure);
        } else batch.resolve();
        done();
      }),
    ).then(() => {
      this.inFlight = undefined;
      this.scheduleKick();
    });
  }

  /** The timer of the next background flush ({@link flushSoon}), while one is due. */
  private flushTimer: NodeJS.Timeout | undefined;

  /**
   * Flushes what is written by {@link BACKGROUND_FLUSH_MS} from now, in the background: one flush
   * for everything written meanwhile (the run's journal copy, which the ledger's own flushes make
   * no request wait for). A flush that fails is kept, as in {@link durable}: the next append,
   * write or flush throws it (exit 10). {@link close} and the process's exit flush what is left.
   */
  flushSoon(): void {
    if (this.flushTimer !== undefined || this.broken) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      this.durable().catch(() => {
        // kept in this.failure: the next append, write or flush throws it
      });
    }, BACKGROUND_FLUSH_MS);
    this.flushTimer.unref();
  }

  /** Closes the file and releases the lock. Never fails for a journal that already failed a write. */
  async close(): Promise<void> {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    await this.inFlight;
    this.unregisterExit?.();
    // A flush still to start is made here, once, for its callers.
    const waiting = this.next;
    this.next = undefined;
    try {
      try {
        this.writePending();
      } catch {
        // the failure was the callers' to report; what was written stays
      }
      if (!this.broken) fsyncSync(this.fd);
      if (this.broken) waiting?.reject(this.failure ?? new JournalWriteError(this.path, this.broken, 'the records written since the last flush'));
      else waiting?.resolve();
    } catch (err) {
      waiting?.reject(err);
      throw err;
    } finally {
      closeSync(this.fd);
      this.lock?.release();
    }
  }
}
