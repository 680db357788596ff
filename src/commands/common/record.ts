/**
 * The ledger a command that changes something at the service records in (src/ledger/ledger.ts),
 * opened so that `shipbook history` can say who did what and when: every record of the run says
 * which command, operating-system user, host and profile made it. What is recorded, and how, is
 * the recorder's (src/booking/record.ts).
 */
import type { Context } from '../../context.js';
import type { ClaimRun } from '../../booking/index.js';
import { claimNote } from '../../output/other-run.js';
import { openLedger } from '../../ledger/index.js';
import type { LedgerStore } from '../../ledger/index.js';

/** What {@link openLedgerFor} needs besides the context. */
interface OpenFor {
  /** The operation as `history` names it: `book`, `order accept` … */
  op: string;
  /** The command line, for claims and locks (no secrets). */
  command: string;
  /** The run's journal copy (a batch). */
  copy?: { path: string; lock: boolean };
  /** The payment type of the run's accepts, once known (stamped on each `accept_sent`). */
  payment?: () => string | undefined;
}

/**
 * Opens the ledger of the run's target (src/context.ts `Context.ledger`) with the run's actor (the operation, and the profile; the
 * user and host are the process's), closed when the command ends.
 * @throws as src/ledger/index.ts `openLedger` (write)
 */
export async function openLedgerFor(ctx: Context, o: OpenFor): Promise<LedgerStore> {
  return ctx.ledger('write', o);
}

/** What a claim (src/booking/claim.ts) needs of this run: its stop signal, and its notes said on stderr. */
export function claimRun(ctx: Context): ClaimRun {
  return { signal: ctx.signal, say: (note) => ctx.io.err(claimNote(ctx.io, note)) };
}
