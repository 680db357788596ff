/**
 * The ledger: the record of every document booked against one target service, in the user's state
 * directory (`<state dir>/ledger/<fingerprint>.ndjson`, the fingerprint a hash of the target's
 * identity from src/config/target.ts, which itself holds the base URL and a fingerprint of the key,
 * never the key). Every `book` consults it — single, batch, shard, with or without `--journal` —
 * so protection against booking a document twice never depends on which file a run wrote.
 *
 * It is a journal file (src/ledger/file/journal.ts: append-only NDJSON, each intent on disk before the
 * request it announces, each answer written as it arrives) whose first record names its target. A run may also keep a copy of what it
 * does in a journal of its own (the default journal of the target, or `--journal FILE`, the
 * portable copy CI keeps between attempts): every record goes to both, a copy written against
 * another target is refused, and what a copy knows that this ledger does not (a CI job on a fresh
 * machine, whose state directory is empty) is taken into the ledger when the run starts.
 */
import type { OnExit } from '../../exit-work.js';
import { randomBytes } from 'node:crypto';
import { actorFields, type Actor } from '../actor.js';
import { claimLives, type ClaimAnswer, type ClaimLedger } from '../claims.js';
import { ClaimsLockWaitError, JournalUnusableError } from '../errors.js';
import { ledgerPath } from '../paths.js';
import { rank, recordsOf } from '../rank.js';
import { prepareRecord, type EntryState, type JournalRecord, type RecordStamp, type RunClaim } from '../records.js';
import type { JournalCopy, LedgerOptions, LedgerStore, RecordFilter } from '../store.js';
import { Journal } from './journal.js';
import { checkCopyTarget, peekCopy, stampTarget } from './copy.js';
import { readJournal, readRecords } from './read.js';
import { ShortLock, thisProcess } from '../../lock.js';
import { ConfigError, ShipbookError } from '../../errors.js';

/**
 * Where each document stands according to the ledger of `o.target` and the journal copy, read
 * without writing anything (a dry run): the further along of the two.
 * @throws JournalTargetError (exit 2) when the copy names another target
 * @throws Error naming the line of a record that cannot be read
 */
export function peekLedger(
  o: Pick<LedgerOptions, 'stateDir' | 'target'> & { copy?: Pick<JournalCopy, 'path'> & Partial<JournalCopy> },
): (id: string) => EntryState | undefined {
  const ledger = readJournal(ledgerPath(o.stateDir, o.target));
  let copy = new Map<string, EntryState>();
  if (o.copy !== undefined) {
    copy = peekCopy(o.copy.path, o.target);
  }
  return (id) => {
    const a = ledger.get(id);
    const b = copy.get(id);
    return rank(b) > rank(a) ? b : a;
  };
}

/**
 * The ledger of one target, opened for a run, with the run's journal copy when it keeps one; the
 * arbiter of every run on the machine through its claims ({@link ClaimLedger}).
 */
export class Ledger implements LedgerStore {
  /** This run, as its claims name it. */
  readonly run: RunClaim;
  /** The short lock around refresh, decide and write of the claims (`<ledger>.claims.lock`). */
  private readonly claimLock: ShortLock;
  /** Claims asked for in this turn, decided together (one lock, one read, one write). */
  private claims: ClaimRequest[] = [];
  /** A round of claims is scheduled or under way. */
  private claiming = false;

  /** What stamps each record with who made it (see {@link actorStamp}). */
  private readonly stamp: (given: Omit<JournalRecord, 't'>) => RecordStamp | undefined;

  private constructor(
    private readonly ledger: Journal,
    readonly copy: Journal | undefined,
    readonly target: string,
    command: string,
    actor?: Actor,
    onExit?: OnExit,
  ) {
    this.stamp = actorFields(actor);
    this.run = { ...thisProcess(), at: new Date().toISOString(), nonce: randomBytes(8).toString('hex'), command };
    this.claimLock = new ShortLock(`${ledger.path}.claims.lock`, command);
    this.unregisterExit = onExit?.(this.closeAtExit);
  }

  /** Unregisters {@link closeAtExit} from the run's exit work (undefined when none was given). */
  private readonly unregisterExit: (() => void) | undefined;

  /** A process that ends without closing the ledger (a second Ctrl-C) leaves no claims lock, nor its own file of it. */
  private readonly closeAtExit = (): void => this.claimLock.close();

  /** Called when the claims lock is still held by another process after a second (a paused run). */
  onLockWait: ((holder: { pid: number; host: string; command: string }) => void) | undefined;

  /** How long a round of claims waits for the claims lock held by another process, ms; undefined: until its signal aborts. */
  lockWaitMs: number | undefined;

  claim(id: string, wants: (state: EntryState | undefined) => boolean, signal?: AbortSignal): Promise<ClaimAnswer> {
    return new Promise<ClaimAnswer>((resolve, reject) => {
      this.claims.push({ id, wants, resolve, reject, ...(signal ? { signal } : {}) });
      if (!this.claiming) {
        this.claiming = true;
        setImmediate(() => void this.claimRound());
      }
    });
  }

  /** Decides every claim asked for so far, under the lock, then the next round if more came meanwhile. */
  private async claimRound(): Promise<void> {
    const round = this.claims;
    this.claims = [];
    try {
      await this.acquireClaimLock(round[0]?.signal);
      let answers: ClaimAnswer[];
      try {
        this.ledger.refresh();
        answers = round.map((c) => this.decide(c.id, c.wants));
        // In the file before the lock is given back: the next reader must see them. They reach the
        // disk with the intent that follows them (the flush before a request covers both).
        this.ledger.writeNow();
      } finally {
        this.claimLock.release();
      }
      round.forEach((c, i) => c.resolve(answers[i]!));
    } catch (err) {
      for (const c of round) c.reject(err);
    }
    if (this.claims.length > 0) setImmediate(() => void this.claimRound());
    else this.claiming = false;
  }

  /**
   * Takes the claims lock for a round, telling {@link onLockWait} once when another process still
   * holds it after a second, and giving up after {@link lockWaitMs}.
   * @throws ClaimsLockWaitError (exit 7) once `lockWaitMs` has passed; the signal's reason once it aborts
   */
  private async acquireClaimLock(given: AbortSignal | undefined): Promise<void> {
    const waitMs = this.lockWaitMs;
    const timeout = waitMs === undefined ? undefined : AbortSignal.timeout(waitMs);
    const signal = timeout !== undefined && given !== undefined ? AbortSignal.any([given, timeout]) : (timeout ?? given);
    let holder: { pid: number; host: string; command: string } | undefined;
    const started = Date.now();
    try {
      await this.claimLock.acquire({
        onWait: (h) => {
          holder = h;
          this.onLockWait?.(h);
        },
        ...(signal ? { signal } : {}),
      });
    } catch (err) {
      if (timeout?.aborted === true && given?.aborted !== true)
        throw new ClaimsLockWaitError(this.claimLock.path, holder ?? this.claimLock.holderNow(), Date.now() - started);
      throw err;
    }
  }

  /** One claim's answer, under the lock, on a freshly read ledger (appends the `claimed` record when granted). */
  private decide(id: string, wants: (state: EntryState | undefined) => boolean): ClaimAnswer {
    const state = this.ledger.states.get(id);
    const holder = state?.claim;
    if (holder !== undefined && holder.nonce !== this.run.nonce && claimLives(holder)) return { kind: 'held', state: state!, by: holder };
    if (!wants(state)) return { kind: 'settled', state };
    if (holder?.nonce === this.run.nonce) return { kind: 'claimed', state };
    const after = this.ledger.append({ id, event: 'claimed', run: this.run });
    return { kind: 'claimed', state: after };
  }

  holds(id: string): boolean {
    return this.ledger.states.get(id)?.claim?.nonce === this.run.nonce;
  }

  release(id: string): void {
    if (this.holds(id)) this.ledger.append({ id, event: 'released', run: this.run });
  }

  refresh(): void {
    this.ledger.refresh();
  }

  lives(claim: RunClaim & { since: string }): boolean {
    return claimLives(claim);
  }

  /**
   * Opens the ledger of `o.target` (creating it, its first record naming the target) and the run's
   * journal copy; takes into the ledger what the copy knows that the ledger does not.
   * @throws ConfigError (exit 4) when the state directory cannot hold the ledger; ShipbookError
   *   `storage` (exit 10) when its disk cannot take writes (full, quota, I/O error, read-only)
   * @throws JournalTargetError (exit 2) when the copy names another target
   * @throws JournalLockedError / JournalUnusableError (src/ledger/errors.ts) from the copy: the caller words them
   */
  static async open(o: LedgerOptions): Promise<Ledger> {
    if (o.copy !== undefined) {
      checkCopyTarget(o.copy.path, o.target);
    }
    let ledger: Journal;
    const path = ledgerPath(o.stateDir, o.target);
    try {
      ledger = await Journal.open(path, { lock: false, command: o.command, shared: true, ...(o.onExit !== undefined ? { onExit: o.onExit } : {}) });
    } catch (err) {
      if (!(err instanceof JournalUnusableError)) throw err;
      // A full (or read-only, failing) disk is said as such, with its own exit code.
      if (err.kind === 'storage') {
        throw new ShipbookError('storage', `cannot keep the ledger of bookings in the state directory: ${err.message}; nothing was sent`, 'storage', {
          suggestion: 'Free space there (or point SHIPBOOK_STATE_DIR elsewhere) and run the same command again.',
          cause: err,
        });
      }
      throw new ConfigError(`cannot keep the ledger of bookings in the state directory: ${err.message}; nothing was sent`, {
        suggestion: 'Point SHIPBOOK_STATE_DIR at a directory you can write (not a file), or fix the permissions or the free space.',
        cause: err,
      });
    }
    stampTarget(ledger, o.target);
    let copy: Journal | undefined;
    if (o.copy !== undefined) {
      try {
        copy = await Journal.open(o.copy.path, { lock: o.copy.lock, command: o.command, ...(o.onExit !== undefined ? { onExit: o.onExit } : {}) });
      } catch (err) {
        await ledger.close();
        throw err;
      }
      stampTarget(copy, o.target);
      // The copy holds the ledger's documents: a document settled alike in both is kept once.
      copy.states.pairWith(ledger.states);
      for (const s of copy.states.values()) {
        if (rank(s) > rank(ledger.states.get(s.id))) for (const r of recordsOf(s)) ledger.append(r);
      }
    }
    return new Ledger(ledger, copy, o.target, o.command, o.actor, o.onExit);
  }

  /** What reading the ledger and the copy set aside (a torn last record …), for people. */
  get notes(): string[] {
    return [...this.ledger.notes, ...(this.copy?.notes ?? [])];
  }

  /** The ledger file, for people. */
  get location(): string {
    return this.ledger.path;
  }

  /**
   * The ledger's records that match `filter`, oldest first, streamed from the file as it is now
   * (src/ledger/file/read.ts `readRecords`); the run's journal copy is not read (the ledger holds all it knows).
   * @throws JournalCorruptError (exit 2) for a line in the middle that is not a record
   */
  records(filter: RecordFilter = {}): AsyncIterable<JournalRecord> {
    return readRecords(this.ledger.path, filter);
  }

  /**
   * Where the document `id` stands according to the ledger. When the run keeps a copy that knows
   * less, the copy is brought up to date first, so the portable copy always holds what this run
   * relied on.
   */
  get(id: string): EntryState | undefined {
    const s = this.ledger.states.get(id);
    if (s !== undefined && this.copy !== undefined && rank(this.copy.states.get(id)) < rank(s)) for (const r of recordsOf(s)) this.copy.append(r);
    return s;
  }

  /** Every document of the ledger, in first-seen order. */
  entries(): EntryState[] {
    return [...this.ledger.states.values()];
  }

  /**
   * Appends a record to the ledger and the copy (the same line, serialised once; in each file it
   * joins the turn's group write); returns the document's
   * state in the ledger.
   * @throws as {@link Journal.append}: JournalWriteError (exit 10), JournalLockLostError (exit 11)
   */
  append(given: Omit<JournalRecord, 't'>): EntryState {
    const prepared = prepareRecord(given, this.stamp(given));
    this.copy?.appendPrepared(prepared);
    return this.ledger.appendPrepared(prepared);
  }

  /**
   * Resolves once every record appended so far is on disk in the ledger and written to the copy.
   * The copy is flushed in the background, within a second, for the records of that second
   * together (and when the run ends): the ledger's flush is what a request waits for.
   * @throws JournalWriteError (exit 10) from either file
   */
  async durable(): Promise<void> {
    if (this.copy === undefined) return this.ledger.durable();
    this.copy.flushSoon();
    await Promise.all([this.ledger.durable(), this.copy.written()]);
  }

  /**
   * Resolves once every record appended so far is written to both files (not yet flushed).
   * @throws JournalWriteError (exit 10) from either file
   */
  async written(): Promise<void> {
    await (this.copy === undefined ? this.ledger.written() : Promise.all([this.ledger.written(), this.copy.written()]));
  }

  /** Lets go of every claim this run still holds, then closes both files (and the copy's lock). */
  async close(): Promise<void> {
    try {
      // A settled document is claimed by no run: only those under way are looked at.
      for (const s of [...this.ledger.states.unsettled()]) if (s.claim?.nonce === this.run.nonce) this.release(s.id);
    } catch {
      // a ledger that takes no more records: its claims end with this process
    }
    this.claimLock.close();
    this.unregisterExit?.();
    await Promise.allSettled([this.ledger.close(), this.copy?.close()]);
  }
}

/** A claim asked for, waiting for its round. */
interface ClaimRequest {
  id: string;
  wants: (state: EntryState | undefined) => boolean;
  signal?: AbortSignal;
  resolve: (answer: ClaimAnswer) => void;
  reject: (err: unknown) => void;
}
