/**
 * The claim of a booking typed by hand (`book` of one file or the prompts, `order accept`): this run
 * takes the document (or order) in the ledger before anything is sent, and waits for another run
 * that is booking it right now (src/ledger/claims.ts).
 */
import type { RunClaim } from '../../ledger/records.js';
import { claimEntry, type Claimed } from '../../booking/engine.js';
import type { DocumentIdentity } from '../../ledger/identity.js';
import type { Context } from '../../context.js';
import { ShipbookError } from '../../errors.js';
import { paint } from '../../output/style.js';
import { realSleep } from '../../sleep.js';
import type { LedgerStore } from '../../ledger/store.js';

/** A claim of a single booking, with the run it waited for (if it waited). */
type DocumentClaim = Exclude<Claimed, { kind: 'held' }> & { byOther?: RunClaim };

/**
 * Claims the document `id` for this run (src/booking/engine.ts `claimEntry`). While another live run
 * holds it, says so (its pid and command) and waits for its outcome, reading the ledger again every
 * quarter second, up to `timeoutMs`; then claims again: the other run's outcome decides (booked:
 * nothing to do; let go unbooked or gone: this run books or continues it).
 * @throws ShipbookError `wait_timeout` (exit 7) when the other run still holds it after `timeoutMs`;
 *   the interruption when the run is stopped while waiting
 */
export async function claimDocument(
  ledger: LedgerStore,
  id: string,
  o: { maxTotalCents?: number; again?: boolean; createOnly?: boolean; timeoutMs: number; what?: string },
  ctx: Context,
): Promise<DocumentClaim> {
  const { io } = ctx;
  ledger.onLockWait = (h) =>
    io.err(`${paint(io, 'yellow', 'note:')} waiting for the ledger's claims lock, held by pid ${h.pid} on ${h.host} (${h.command}), which is paused or slow\n`);
  const deadline = Date.now() + o.timeoutMs;
  let byOther: RunClaim | undefined;
  for (;;) {
    const claimed = await claimEntry(ledger, id, {
      ...(o.maxTotalCents !== undefined ? { maxTotalCents: o.maxTotalCents } : {}),
      signal: ctx.signal,
      again: o.again === true,
      createOnly: o.createOnly === true,
    });
    if (claimed.kind !== 'held') return { ...claimed, ...(byOther ? { byOther } : {}) };
    const by = claimed.by;
    if (byOther?.nonce !== by.nonce)
      io.err(
        `${paint(io, 'yellow', 'note:')} another run is booking ${o.what ?? 'this document'} right now (pid ${by.pid} on ${by.host}: ${by.command}); waiting for its outcome, nothing is sent meanwhile\n`,
      );
    byOther = by;
    if (Date.now() >= deadline) {
      throw new ShipbookError(
        'wait_timeout',
        `another run (pid ${by.pid} on ${by.host}: ${by.command}) was still booking ${o.what ?? 'this document'} when the wait ended; nothing was sent`,
        'pending',
        { suggestion: 'Run the same command again once that run has ended: its outcome is in the ledger, and the document is not booked twice.' },
      );
    }
    await realSleep(250, ctx.signal).catch(() => {
      throw new ShipbookError('interrupted', `interrupted while waiting for another run booking ${o.what ?? 'this document'}; nothing was sent`, 'interrupted');
    });
    ledger.refresh();
  }
}

/**
 * Claims a fresh occurrence of the document for `order create --again`: the next one after the
 * latest recorded, skipping any another live run holds or created meanwhile, so that runs creating
 * the same file again at the same time each create their own order without waiting for each other.
 * Moves `identity` to the occurrence claimed.
 * @throws as {@link claimEntry}
 */
export async function claimFreshOccurrence(ledger: LedgerStore, identity: DocumentIdentity, ctx: Context): Promise<void> {
  for (;;) {
    const claimed = await claimEntry(ledger, identity.id, { signal: ctx.signal, createOnly: true, anyway: true });
    if (claimed.kind === 'go') return;
    identity.next();
  }
}
