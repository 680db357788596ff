/**
 * The ledger of a target opened for questions only (`history`, `handover`): its records streamed
 * as src/ledger/store.ts `LedgerStore.records` gives them, without opening it for writing (no
 * lock, no fold of every document, no file created). Like src/ledger/open.ts `openLedger`, the one
 * place that chooses the implementation for queries: the file ledger of src/ledger/ledger.ts, or the
 * ledger shared on a PostgreSQL server when the `ledger` setting names one (so `history` and the
 * hand-over sheet cover every station).
 */
import { ledgerPath } from './file/ledger.js';
import { readRecords } from './file/read.js';
import type { LedgerStore } from './store.js';
import { isSharedLedger } from './open.js';

/** What a query of the ledger needs, and its end (the connection of a shared ledger). */
type LedgerQueries = Pick<LedgerStore, 'records' | 'location'> & { close(): Promise<void> };

/**
 * The ledger of `o.target` for queries: in `o.stateDir` (records as they are on disk now, none when
 * nothing was ever recorded), or the shared one that `o.setting` names.
 * @throws LedgerUnreachableError (exit 10) when a shared ledger cannot be reached
 */
export async function queryLedger(o: { setting?: string | undefined; stateDir: string; target: string }): Promise<LedgerQueries> {
  if (isSharedLedger(o.setting)) {
    const { queryPgLedger } = await import('./pg/query.js');
    return queryPgLedger(o.setting, o.target);
  }
  const path = ledgerPath(o.stateDir, o.target);
  return { location: path, records: (filter = {}) => readRecords(path, filter), close: async () => undefined };
}
