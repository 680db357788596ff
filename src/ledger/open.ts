/**
 * The one place that opens a ledger: the file ledger in the state directory (src/ledger/ledger.ts,
 * the default) or the ledger shared by several machines on a PostgreSQL server
 * (src/ledger/pg/ledger.ts, loaded only when the `ledger` setting names one), behind one interface.
 */
import type { ClaimLedger } from './claims.js';
import type { EntryState, Journal, JournalRecord } from './journal.js';
import { Ledger, peekLedger } from './ledger.js';
import type { ShortLockHolder } from '../lock.js';

/** What a ledger opened for a run offers, whichever kind it is (the methods of src/ledger/ledger.ts `Ledger`). */
export interface LedgerHandle extends ClaimLedger {
  /** The target's identity. */
  readonly target: string;
  /** Where the records are kept, as it may be shown: the ledger file, or the database URL with its password masked. */
  readonly path: string;
  /** What reading set aside, for people. */
  readonly notes: string[];
  /** The run's journal copy, when it keeps one. */
  readonly copy: Journal | undefined;
  /** Called when the claims lock is held by a paused process. */
  onLockWait: ((holder: ShortLockHolder) => void) | undefined;
  /** Appends a record; returns the document's state. @throws JournalWriteError / LedgerLostError (exit 10), JournalLockLostError (exit 11) */
  append(record: Omit<JournalRecord, 't'>): EntryState;
  /** Resolves once every record appended so far is durable (flushed, or committed). @throws as {@link append} */
  durable(): Promise<void>;
  /** Resolves once every record appended so far is written. @throws as {@link append} */
  written(): Promise<void>;
  /** Where the document `id` stands. */
  get(id: string): EntryState | undefined;
  /** Every document, in first-seen order. */
  entries(): EntryState[];
  /** Lets go of this run's claims and closes. */
  close(): Promise<void>;
}

/** What opening a ledger needs. */
interface OpenLedgerOptions {
  /** The `ledger` setting: `file` or undefined for the file ledger, else a PostgreSQL URL. */
  setting: string | undefined;
  /** The user's state directory (the file ledger's home). */
  stateDir: string;
  /** The target's identity (src/config/target.ts `targetId`). */
  target: string;
  /** The run's own journal, when it keeps one. */
  copy?: { path: string; lock: boolean };
  /** The command line, for the records naming this run. */
  command: string;
}

/** Whether the `ledger` setting names a PostgreSQL server. */
export function isSharedLedger(setting: string | undefined): setting is string {
  return setting !== undefined && setting !== 'file';
}

/**
 * Opens the ledger of `o.target` for a run: the file ledger, or the shared one on PostgreSQL.
 * @throws as src/ledger/ledger.ts `Ledger.open` or src/ledger/pg/ledger.ts `PgLedger.open`
 *   (LedgerUnreachableError, exit 10, when the database cannot be reached)
 */
export async function openLedger(o: OpenLedgerOptions): Promise<LedgerHandle> {
  const copy = o.copy !== undefined ? { copy: o.copy } : {};
  if (!isSharedLedger(o.setting)) return Ledger.open({ stateDir: o.stateDir, target: o.target, command: o.command, ...copy });
  const { PgLedger } = await import('./pg/ledger.js');
  return PgLedger.open({ url: o.setting, target: o.target, command: o.command, ...copy });
}

/**
 * Where each document stands, read without writing anything (a dry run, `journal show`): the file
 * ledger and the copy (the further along), or the shared ledger and the copy.
 * @throws as {@link openLedger}, and JournalTargetError (exit 2) when the copy names another target
 */
export async function peekAnyLedger(o: Omit<OpenLedgerOptions, 'command'>): Promise<(id: string) => EntryState | undefined> {
  const copy = o.copy !== undefined ? { copy: o.copy } : {};
  if (!isSharedLedger(o.setting)) return peekLedger({ stateDir: o.stateDir, target: o.target, ...copy });
  const { PgLedger } = await import('./pg/ledger.js');
  return PgLedger.peek({ url: o.setting, target: o.target, ...copy });
}
