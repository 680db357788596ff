/**
 * The ledger of this run's target, opened as the profile's `ledger` setting says (the file ledger
 * in the state directory, or the shared one on a PostgreSQL server): every command that books,
 * accepts, resolves or reads the ledger opens it here.
 */
import type { Context } from '../../context.js';
import { openLedger, peekAnyLedger, type LedgerHandle } from '../../ledger/open.js';
import type { EntryState } from '../../ledger/journal.js';

/**
 * Opens the ledger of this run's target (or of `o.target`), with the run's journal copy when given.
 * @throws as src/ledger/open.ts `openLedger`
 */
export async function openRunLedger(ctx: Context, o: { target?: string; copy?: { path: string; lock: boolean }; command: string }): Promise<LedgerHandle> {
  const profile = await ctx.profile();
  return openLedger({
    setting: profile.ledger,
    stateDir: ctx.stateDir(),
    target: o.target ?? (await ctx.targetId()),
    command: o.command,
    ...(o.copy !== undefined ? { copy: o.copy } : {}),
  });
}

/**
 * Where each document stands in the ledger of this run's target (and the copy, when given), read
 * without writing anything.
 * @throws as src/ledger/open.ts `peekAnyLedger`
 */
export async function peekRunLedger(
  ctx: Context,
  o: { target?: string; copy?: { path: string; lock: boolean } } = {},
): Promise<(id: string) => EntryState | undefined> {
  const profile = await ctx.profile();
  return peekAnyLedger({
    setting: profile.ledger,
    stateDir: ctx.stateDir(),
    target: o.target ?? (await ctx.targetId()),
    ...(o.copy !== undefined ? { copy: o.copy } : {}),
  });
}
