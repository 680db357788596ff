/**
 * The ledger of a target opened for questions only (`history`, `handover`): its records streamed
 * as src/ledger/store.ts `LedgerStore.records` gives them, without opening it for writing (no
 * lock, no fold of every document, no file created). Like src/ledger/open.ts `openLedger`, the one
 * place that chooses the implementation for queries: the file ledger of src/ledger/ledger.ts today.
 */
import { ledgerPath } from './ledger.js';
import { readRecords } from './read.js';
import type { LedgerStore } from './store.js';

/** What a query of the ledger needs. */
type LedgerQueries = Pick<LedgerStore, 'records' | 'location'>;

/**
 * The ledger of `o.target` in `o.stateDir`, for queries: records as they are on disk now (none
 * when nothing was ever recorded).
 */
export function queryLedger(o: { stateDir: string; target: string }): LedgerQueries {
  const path = ledgerPath(o.stateDir, o.target);
  return { location: path, records: (filter = {}) => readRecords(path, filter) };
}
