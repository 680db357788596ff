/**
 * The ledger of one target as the flows and commands use it: what any implementation of it offers —
 * the file ledger of src/ledger/file/ledger.ts (one machine), a ledger on a database server shared by
 * many machines alike. Commands open it through src/ledger/index.ts `openLedger`, the one place that
 * chooses the implementation.
 *
 * An implementation keeps these promises:
 * - **Durable appends.** {@link LedgerStore.append} folds a record into the document's state at
 *   once; {@link LedgerStore.durable} resolves only when every record appended so far would survive
 *   a crash of the machine (a request that depends on a record is sent after it, never before);
 *   {@link LedgerStore.written} when they are visible to other runs.
 * - **Read and fold.** {@link LedgerStore.get} and {@link LedgerStore.entries} give where each
 *   document stands, folded from its records by src/ledger/fold.ts `applyRecord`.
 * - **Claims** (src/ledger/claims.ts): the lock between runs lives inside the claim protocol.
 * - **Queries** for history and end-of-day sheets: {@link LedgerStore.records} streams the records
 *   themselves, oldest first, filtered by document, order id and time.
 */
import type { OnExit } from '../exit-work.js';
import type { ClaimLedger } from './claims.js';
import type { Actor } from './actor.js';
import type { EntryState, JournalRecord, PreparedRecord } from './records.js';

/**
 * Which records a query wants; every field given must hold (an empty filter wants every record of
 * every document). Times compare with the record's `t` (its time of writing).
 */
export interface RecordFilter {
  /** Records of this document (its identity, src/ledger/identity.ts). */
  id?: string;
  /**
   * Records of the document that became this order at the service: every record of it, including
   * those written before the order id was known (its claim, its create as sent).
   */
  orderId?: string;
  /** Records written at or after this instant. */
  since?: Date;
  /** Records written before this instant (exclusive). */
  until?: Date;
  /** Records written on this calendar day, `YYYY-MM-DD`, in the machine's time zone ({@link dayFilter}). */
  day?: string;
}

/** A document found booked in another ledger of the same service. */
export interface BookedElsewhere {
  /** The order the service created for it there. */
  orderId: string;
  /** When that order was created, ISO 8601. */
  at: string;
  /** Where: the ledger file, or the shared ledger's URL (password masked). */
  where: string;
  /** The account (key fingerprint) that ledger is of. */
  account: string;
}

/** The ledger of one target (see the promises above). */
export interface LedgerStore extends ClaimLedger {
  /** The target's identity (src/config/target.ts `targetId`: base URL and key fingerprint, never a key). */
  readonly target: string;
  /** Where the ledger lives, for people: a file path, or a URL without password. */
  readonly location: string;
  /** What opening set aside (a torn last record …), for people: one sentence each. */
  readonly notes: readonly string[];
  /**
   * Called when the claims lock is held by another run for more than a moment (a paused process),
   * with who holds it, so the command can say what it waits for.
   */
  onLockWait: ((holder: { pid: number; host: string; command: string }) => void) | undefined;
  /**
   * How long a claim waits for the claims lock held by another run before it fails with
   * ClaimsLockWaitError (src/ledger/errors.ts, exit 7; nothing claimed, nothing sent), ms;
   * undefined: until the claim's signal aborts.
   */
  lockWaitMs: number | undefined;
  /**
   * Appends a record (stamped with the time now) and returns the document's state with it folded in.
   * @throws JournalWriteError (exit 10) when it cannot be recorded; JournalLockLostError (exit 11)
   */
  append(record: Omit<JournalRecord, 't'>): EntryState;
  /** Resolves once every record appended so far is durable. @throws JournalWriteError (exit 10) */
  durable(): Promise<void>;
  /** Resolves once every record appended so far is visible to other runs. @throws JournalWriteError (exit 10) */
  written(): Promise<void>;
  /** Where the document `id` stands, or undefined when nothing is recorded for it. */
  get(id: string): EntryState | undefined;
  /** Every document, in first-seen order. */
  entries(): EntryState[];
  /**
   * The records that match `filter`, oldest first, read from the store as it is now (records
   * appended meanwhile may or may not be included); the target's own record is not a document's
   * and is left out. An incomplete last record (a write under way, or torn by a crash) is skipped.
   * @throws JournalCorruptError (exit 2) for a line in the middle that is not a record
   */
  records(filter?: RecordFilter): AsyncIterable<JournalRecord>;
  /** Lets go of this run's claims and closes the ledger (and the run's journal copy). */
  close(): Promise<void>;
  /**
   * Where the document `id` was booked in another ledger of the same service, under another key
   * that is neither linked to this one nor declared another account (src/ledger/accounts.ts); set
   * by src/ledger/index.ts `openLedger`. Consulted before a create leaves.
   */
  elsewhere?: ((id: string) => BookedElsewhere | undefined) | undefined;
}

/**
 * The span of one calendar day, `YYYY-MM-DD`, in the machine's time zone (TZ), as a
 * {@link RecordFilter} (`since` its first instant, `until` the next day's); undefined when `day` is
 * not such a date.
 */
export function dayFilter(day: string): { since: Date; until: Date } | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]) - 1, Number(m[3])];
  const since = new Date(y, mo, d);
  if (since.getFullYear() !== y || since.getMonth() !== mo || since.getDate() !== d) return undefined;
  return { since, until: new Date(y, mo, d + 1) };
}

/** Where a run keeps its copy of the records. */
export interface JournalCopy {
  /** The journal file (absolute, or relative to the working directory). */
  path: string;
  /** One batch at a time: take the journal's lock. */
  lock: boolean;
}

/** What opening a ledger needs. */
export interface LedgerOptions {
  /** The user's state directory (src/dirs.ts `stateDirectory`). */
  stateDir: string;
  /** The target's identity (src/config/target.ts `targetId`). */
  target: string;
  /** The run's own journal, when it keeps one. */
  copy?: JournalCopy;
  /** The command line, for the journal's owner record. */
  command: string;
  /** Who makes the changes: stamped on every record this run writes (see {@link Actor}). */
  actor?: Actor;
  /**
   * Registers the ledger's exit work (release the claims lock, write what is pending, give the
   * copy's lock back) with the run (the context's `onExit`); without it a process that exits at
   * once leaves them to the next run, which takes over a lock whose holder is gone.
   */
  onExit?: OnExit;
}

/**
 * The run's own journal file as a ledger keeps it up to date beside itself (src/ledger/file/journal.ts
 * `Journal` is one): every ledger implementation writes what it records there too, so the next run
 * (on a fresh machine, or back on the file ledger) knows it.
 */
export interface CopyJournal {
  /** The journal file, as given. */
  readonly path: string;
  /** Where each document stands in the file, folded from its records. */
  readonly states: Map<string, EntryState>;
  /** Appends a record (written in the background) and returns the document's new state. */
  append(record: Omit<JournalRecord, 't'>): EntryState;
  /** Appends a record already stamped and serialised by the ledger. */
  appendPrepared(prepared: PreparedRecord, record?: Omit<JournalRecord, 't'>): EntryState;
  /** Asks for a flush to disk within a second. */
  flushSoon(): void;
  /** Resolves once every record appended so far is written to the file. */
  written(): Promise<void>;
  /** Writes what is pending, flushes and closes the file (and its lock). */
  close(): Promise<void>;
}
