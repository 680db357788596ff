/**
 * The one place a command opens the ledger of its target: the file ledger of src/ledger/ledger.ts
 * today; a second implementation of src/ledger/store.ts `LedgerStore` is chosen here.
 */
import { Ledger, type LedgerOptions } from './ledger.js';
import type { LedgerStore } from './store.js';

/**
 * Opens the ledger of `o.target` for a run (with the run's journal copy when it keeps one). Every
 * command opens its ledger here, so where the ledger lives is chosen in one place.
 * @throws as src/ledger/ledger.ts `Ledger.open`: ConfigError (exit 4), ShipbookError `storage`
 *   (exit 10), JournalTargetError (exit 2), JournalLockedError / JournalUnusableError from the copy
 */
export async function openLedger(o: LedgerOptions): Promise<LedgerStore> {
  return Ledger.open(o);
}
