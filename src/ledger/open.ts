/**
 * The one place a command opens the ledger of its target: the file ledger of src/ledger/ledger.ts
 * (the default, in the state directory), or the ledger shared by several machines on a PostgreSQL
 * server (src/ledger/pg/ledger.ts, loaded only when the `ledger` setting names one): both
 * implementations of src/ledger/store.ts `LedgerStore`.
 */
import type { EntryState } from './records.js';
import { Ledger, peekLedger, type LedgerOptions } from './ledger.js';
import type { BookedElsewhere, LedgerStore } from './store.js';
import { bookedElsewhere, separateAccounts } from './accounts.js';
import { splitTargetId } from '../config/target.js';

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
  if (!isSharedLedger(setting)) {
    const ledger: LedgerStore = await Ledger.open(rest);
    let found: Map<string, BookedElsewhere> | undefined;
    // Read when a create is about to leave, once: the other ledgers of this service on this machine.
    ledger.elsewhere = (id) => (found ??= bookedElsewhere(o.stateDir, o.target)).get(id);
    return ledger;
  }
  const [{ PgLedger }, { joinShared, bookedUnderOtherKeys, mirrorToFile }] = await Promise.all([import('./pg/ledger.js'), import('./pg/join.js')]);
  // A station joining carries its history in before it books anything (idempotent, as `ledger push`).
  await joinShared({ url: setting, stateDir: o.stateDir, target: o.target });
  const ledger: LedgerStore = await PgLedger.open({
    url: setting,
    target: o.target,
    command: o.command,
    ...(o.copy !== undefined ? { copy: o.copy } : {}),
    ...(o.actor !== undefined ? { actor: o.actor } : {}),
    ...(o.onExit !== undefined ? { onExit: o.onExit } : {}),
  });
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
