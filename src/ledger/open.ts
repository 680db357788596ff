/**
 * The one place where the ledger of a target is opened, and its implementation chosen: the file
 * ledger (src/ledger/file/, the default, in the state directory), or the ledger shared by several
 * machines on a PostgreSQL server (src/ledger/pg/, loaded only when the `ledger` setting names one).
 * Both are siblings behind src/ledger/store.ts `LedgerStore`; only this module (and the bridge
 * between them, src/ledger/join.ts) knows both.
 */
import { bookedElsewhere, separateAccounts } from './accounts.js';
import { checkCopyTarget, openCopy, peekCopy } from './file/copy.js';
import { Ledger, peekLedger } from './file/ledger.js';
import { readRecords } from './file/read.js';
import { ledgerPath } from './paths.js';
import { rank } from './rank.js';
import type { EntryState } from './records.js';
import type { BookedElsewhere, LedgerOptions, LedgerStore } from './store.js';
import { splitTargetId } from '../config/target.js';

/** What choosing the ledger adds to opening one: the `ledger` setting. */
interface LedgerChoice {
  /** The profile's `ledger` setting (or `SHIPBOOK_LEDGER`): `file` or undefined for the file ledger, else a PostgreSQL URL. */
  setting?: string | undefined;
}

/** Opening the ledger for a run that records: `mode: 'write'`. */
type WriteLedgerOptions = { mode: 'write' } & LedgerOptions & LedgerChoice;

/** Reading where each document stands without writing anything (a dry run): `mode: 'peek'`. */
type PeekLedgerOptions = { mode: 'peek'; stateDir: string; target: string; copy?: { path: string } } & LedgerChoice;

/** Asking the ledger's records (history, hand-over sheet, known orders): `mode: 'query'`. */
type QueryLedgerOptions = { mode: 'query'; stateDir: string; target: string } & LedgerChoice;

/** Where each document stands (`undefined`: the ledger knows nothing of it), as a peek reads it. */
export type LedgerPeek = (id: string) => EntryState | undefined;

/** What a query of the ledger needs, and its end (the connection of a shared ledger). */
export type LedgerQueries = Pick<LedgerStore, 'records' | 'location'> & { close(): Promise<void> };

/** Whether the `ledger` setting names a PostgreSQL server (anything but `file`). */
export function isSharedLedger(setting: string | undefined): setting is string {
  return setting !== undefined && setting !== 'file';
}

/**
 * Opens the ledger of `o.target`, in the implementation the `ledger` setting (`o.setting`) chooses:
 *
 * - `mode: 'write'`: for a run that records, with the run's journal copy when it keeps one
 *   (`o.copy`); a {@link LedgerStore} that the caller closes.
 * - `mode: 'peek'`: where each document stands, read without writing anything (a dry run): the
 *   ledger and the journal copy, the further along of the two; a {@link LedgerPeek}.
 * - `mode: 'query'`: the ledger's records streamed as they are now, without opening it for writing
 *   (no lock, no fold of every document, no file created); {@link LedgerQueries}, closed by the caller.
 *
 * @throws for `write`: ConfigError (exit 4) when the state directory cannot hold the ledger;
 *   ShipbookError `storage` (exit 10) when its disk takes no writes; JournalTargetError (exit 2)
 *   when the copy names another target; JournalLockedError / JournalUnusableError from the copy
 *   (the caller words them)
 * @throws for `peek`: JournalTargetError (exit 2); JournalCorruptError (exit 2) for a line that is
 *   not a record
 * @throws for every mode on a shared ledger: LedgerUnreachableError (exit 10), ConfigError (exit 4)
 *   for a schema newer than this shipbook's
 */
export function openLedger(o: WriteLedgerOptions): Promise<LedgerStore>;
export function openLedger(o: PeekLedgerOptions): Promise<LedgerPeek>;
export function openLedger(o: QueryLedgerOptions): Promise<LedgerQueries>;
export async function openLedger(o: WriteLedgerOptions | PeekLedgerOptions | QueryLedgerOptions): Promise<LedgerStore | LedgerPeek | LedgerQueries> {
  switch (o.mode) {
    case 'write':
      return openForWriting(o);
    case 'peek':
      return openForPeeking(o);
    case 'query':
      return openForQueries(o);
  }
}

/** {@link openLedger} `write`. */
async function openForWriting(o: WriteLedgerOptions): Promise<LedgerStore> {
  const { setting, mode: _mode, ...rest } = o;
  if (!isSharedLedger(setting)) {
    const ledger: LedgerStore = await Ledger.open(rest);
    let found: Map<string, BookedElsewhere> | undefined;
    // Read when a create is about to leave, once: the other ledgers of this service on this machine.
    ledger.elsewhere = (id) => (found ??= bookedElsewhere(o.stateDir, o.target)).get(id);
    return ledger;
  }
  const [{ PgLedger }, { joinShared, bookedUnderOtherKeys, mirrorToFile }] = await Promise.all([import('./pg/ledger.js'), import('./join.js')]);
  // A station joining carries its history in before it books anything (idempotent, as `ledger push`).
  await joinShared({ url: setting, stateDir: o.stateDir, target: o.target });
  // A copy written against another target is refused before this run's ledger is opened.
  if (o.copy !== undefined) checkCopyTarget(o.copy.path, o.target);
  const pg = await PgLedger.open({
    url: setting,
    target: o.target,
    command: o.command,
    ...(o.actor !== undefined ? { actor: o.actor } : {}),
    ...(o.onExit !== undefined ? { onExit: o.onExit } : {}),
  });
  if (o.copy !== undefined) {
    let copy;
    try {
      copy = await openCopy(o.copy, o.target, o.command, o.onExit);
    } catch (err) {
      await pg.close();
      throw err;
    }
    await pg.keepCopy(copy);
  }
  const ledger: LedgerStore = pg;
  const service = splitTargetId(o.target)?.service;
  const local = bookedElsewhere(o.stateDir, o.target);
  const shared =
    service === undefined ? new Map<string, BookedElsewhere>() : await bookedUnderOtherKeys(setting, o.target, separateAccounts(o.stateDir, service));
  ledger.elsewhere = (id) => local.get(id) ?? shared.get(id);
  // Going back to the file ledger books nothing again: what the shared ledger knows is kept there too.
  const close = ledger.close.bind(ledger);
  ledger.close = async () => {
    await close();
    await mirrorToFile({ stateDir: o.stateDir, target: o.target, entries: ledger.entries() }).catch(() => undefined);
  };
  return ledger;
}

/** {@link openLedger} `peek`. */
async function openForPeeking(o: PeekLedgerOptions): Promise<LedgerPeek> {
  if (!isSharedLedger(o.setting)) return peekLedger(o);
  const copy = o.copy === undefined ? new Map<string, EntryState>() : peekCopy(o.copy.path, o.target);
  const { PgLedger } = await import('./pg/ledger.js');
  const shared = await PgLedger.peek({ url: o.setting, target: o.target });
  return (id) => {
    const a = shared(id);
    const b = copy.get(id);
    return rank(b) > rank(a) ? b : a;
  };
}

/** {@link openLedger} `query`. */
async function openForQueries(o: QueryLedgerOptions): Promise<LedgerQueries> {
  if (isSharedLedger(o.setting)) {
    const { queryPgLedger } = await import('./pg/query.js');
    return queryPgLedger(o.setting, o.target);
  }
  const path = ledgerPath(o.stateDir, o.target);
  return { location: path, records: (filter = {}) => readRecords(path, filter), close: async () => undefined };
}
