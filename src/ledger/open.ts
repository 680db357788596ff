/**
 * The one place a command opens the ledger of its target: the file ledger of src/ledger/ledger.ts
 * (the default, in the state directory), or the ledger shared by several machines on a PostgreSQL
 * server (src/ledger/pg/ledger.ts, loaded only when the `ledger` setting names one): both
 * implementations of src/ledger/store.ts `LedgerStore`.
 */
import type { EntryState } from './records.js';
import { Ledger, peekLedger, type LedgerOptions } from './ledger.js';
import type { LedgerStore } from './store.js';

/** What choosing the ledger adds to opening one: the `ledger` setting. */
interface LedgerChoice {
  /** The profile's `ledger` setting (or `SHIPBOOK_LEDGER`): `file` or undefined for the file ledger, else a PostgreSQL URL. */
  setting?: string | undefined;
}

/** Whether the `ledger` setting names a PostgreSQL server (anything but `file`). */
export function isSharedLedger(setting: string | undefined): setting is string {
  return setting !== undefined && setting !== 'file';
}

/**
 * Opens the ledger of `o.target` for a run (with the run's journal copy when it keeps one). Every
 * command opens its ledger here, so where the ledger lives is chosen in one place.
 * @throws as src/ledger/ledger.ts `Ledger.open`: ConfigError (exit 4), ShipbookError `storage`
 *   (exit 10), JournalTargetError (exit 2), JournalLockedError / JournalUnusableError from the copy;
 *   for a shared ledger, as src/ledger/pg/ledger.ts `PgLedger.open` (LedgerUnreachableError, exit 10)
 */
export async function openLedger(o: LedgerOptions & LedgerChoice): Promise<LedgerStore> {
  const { setting, ...rest } = o;
  if (!isSharedLedger(setting)) return Ledger.open(rest);
  const { PgLedger } = await import('./pg/ledger.js');
  return PgLedger.open({
    url: setting,
    target: o.target,
    command: o.command,
    ...(o.copy !== undefined ? { copy: o.copy } : {}),
    ...(o.actor !== undefined ? { actor: o.actor } : {}),
  });
}

/**
 * Where each document stands, read without writing anything (a dry run): the ledger and the run's
 * journal copy, the further along of the two.
 * @throws as {@link openLedger}; JournalTargetError (exit 2) when the copy names another target
 */
export async function peekAnyLedger(o: Omit<LedgerOptions, 'command'> & LedgerChoice): Promise<(id: string) => EntryState | undefined> {
  const { setting, ...rest } = o;
  if (!isSharedLedger(setting)) return peekLedger(rest);
  const { PgLedger } = await import('./pg/ledger.js');
  return PgLedger.peek({ url: setting, target: o.target, ...(o.copy !== undefined ? { copy: o.copy } : {}) });
}
