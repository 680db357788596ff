/**
 * The ledger's face: everything outside src/ledger/ uses the ledger through this module, and only
 * this module. The ledger is the durable record of every document booked against one target service
 * (a base URL and the account behind its key) that makes booking exactly-once.
 *
 * - **The interface** ({@link LedgerStore}): durable appends, the fold of records into where each
 *   document stands, the claim protocol between runs, and queries of the records.
 * - **One chooser** ({@link openLedger}`({ mode })`): the file ledger in the state directory (the
 *   default, src/ledger/file/) or the ledger shared on a PostgreSQL server (src/ledger/pg/), chosen
 *   by the profile's `ledger` setting; `write` for a run that records, `peek` for a dry run, `query`
 *   for history and sheets.
 * - **Records and errors**: the record types every implementation writes, and the errors a ledger
 *   throws (each with its exit code, docs/exit-codes.md).
 * - **Paths**: where the ledger and the default journal of a target live.
 * - **Reports** read from the records (history rows, the hand-over sheet, the known orders),
 *   document identities, and the accounts that decide which ledger a key books into.
 *
 * The shared ledger's code (and the `pg` driver) is loaded only when a shared ledger is used: the
 * functions below that need it import it on their first call.
 */
export { openLedger, isSharedLedger } from './open.js';
export type { LedgerPeek, LedgerQueries } from './open.js';
export type { LedgerStore, RecordFilter, BookedElsewhere, LedgerOptions, JournalCopy } from './store.js';
export { claimLives, type ClaimLedger } from './claims.js';
export type { Actor } from './actor.js';
export { type DockMark, CHANGE_PREFIX, currentRecord, isChangeIdentity, type EntryState, type JournalRecord, type RunClaim } from './records.js';
export { BookedElsewhereError, ClaimsLockWaitError, JournalLockedError, JournalUnusableError } from './errors.js';
export { ledgerPath, defaultJournalPath, DEFAULT_JOURNAL_PATTERN } from './paths.js';
export { journalTarget, readJournal } from './file/read.js';
export { canonicalJson, identityOf, IdentityCounter, inShard, parseShard, type DocumentIdentity, type Shard } from './identity.js';
export { resolveAccount, linkKey, separateKey, knownAccount } from './accounts.js';
export {
  HISTORY_STATUSES,
  foldOrderStage,
  historyRows,
  localDay,
  sheetOrders,
  type HistoryFilter,
  type HistoryRow,
  type HistoryStatus,
} from './reports/history.js';
export {
  buildSheet,
  sheetShipmentsOf,
  type Sheet,
  type SheetFilter,
  type SheetLine,
  type SheetOrder,
  type SheetScan,
  type SheetShipment,
} from './reports/sheet.js';
export { KNOWN_ORDER_STATUSES, knownOrders, passesOrderFilter, type KnownOrderFilter, type KnownOrderStatus } from './reports/orders.js';
export { shownUrl, describeDbError } from './pg/connect.js';

/**
 * Copies into the shared ledger at `o.url` the records of every document this machine's file
 * ledger of `o.target` knows further along than it (what `ledger push` does, and every run on a
 * shared ledger before it books); idempotent. Returns the file ledger's path and how many documents
 * and records were found and copied.
 * @throws LedgerUnreachableError (exit 10) when the database cannot be reached or used
 */
export async function joinShared(o: {
  url: string;
  stateDir: string;
  target: string;
}): Promise<{ path: string; documents: number; records: number; copied: number }> {
  return (await import('./join.js')).joinShared(o);
}

/**
 * The documents of this machine's file ledger of `o.target` that the shared ledger at `o.url` lacks
 * or knows less far along (read only: nothing is copied), with the file ledger's path.
 * @throws LedgerUnreachableError (exit 10) when the database cannot be reached or used
 */
export async function missingFromShared(o: { url: string; stateDir: string; target: string }): Promise<{ path: string; ids: Set<string> }> {
  return (await import('./join.js')).missingFromShared(o);
}

/**
 * What `doctor` finds out about the shared ledger at `url`: the server's version, the schema version
 * of shipbook's tables (0: none yet) and the one this shipbook writes (`known`), and the server's
 * clock minus this machine's (`skewMs`, ms); creates nothing.
 * @throws the driver's error when the database cannot be reached within `timeoutMs` (word it with {@link describeDbError})
 */
export async function probeSharedLedger(url: string, timeoutMs?: number): Promise<{ serverVersion: string; schema: number; known: number; skewMs: number }> {
  return (await import('./pg/probe.js')).probeLedger(url, timeoutMs);
}
