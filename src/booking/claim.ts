/**
 * The claim of a booking typed by hand (`book` of one file or the prompts, `order accept`): this run
 * takes the document (or order) in the ledger before anything is sent, and waits for another run
 * that is booking it right now (src/ledger/claims.ts). What it waits for is said as data
 * ({@link ClaimNote}); output/other-run.ts words it.
 */
import type { RunClaim } from '../ledger/index.js';
import { claimEntry, type Claimed } from './engine.js';
import type { DocumentIdentity } from '../ledger/index.js';
import { ShipbookError } from '../errors.js';
import { realSleep } from '../sleep.js';
import { DEFAULT_WAIT_TIMEOUT_MS } from './wait.js';
import type { LedgerStore } from '../ledger/index.js';

/** How long a wait for another run lasts, and what happens then. */
interface WaitLimit {
  /** The longest wait, ms (whole seconds). */
  timeoutMs: number;
  /** The flag that sets it, when the command has one (`--wait-timeout`). */
  flag?: string;
  /** What happens when it has passed: `this run stops, nothing sent (exit 7)`. */
  then: string;
}

/**
 * What a claim waits for, said once per wait: the ledger's claims lock held by another run for
 * more than a second (`lock`), or the document held by another live run (`held`, `what` names it).
 */
export type ClaimNote =
  | { kind: 'lock'; holder: Parameters<NonNullable<LedgerStore['onLockWait']>>[0]; limit: WaitLimit }
  | { kind: 'held'; what: string; by: RunClaim; limit: WaitLimit };

/** What a claim needs of the run: its stop signal, and where its notes go. */
export interface ClaimRun {
  signal: AbortSignal;
  say: (note: ClaimNote) => void;
}

/** A claim of a single booking, with the run it waited for (if it waited). */
type DocumentClaim = Exclude<Claimed, { kind: 'held' }> & { byOther?: RunClaim };

/** What ends a single run's wait for another run when it ends unanswered. */
const NOTHING_SENT = 'this run stops, nothing sent (exit 7)';

/**
 * Has the ledger say, once per wait, when its claims lock is held by another run for more than a
 * second (a paused process): who holds it, and how this run stops waiting; and bounds that wait by
 * `timeoutMs` (src/ledger/errors.ts ClaimsLockWaitError).
 */
function sayLockWaits(ledger: LedgerStore, timeoutMs: number, flag: string | undefined, run: ClaimRun): void {
  ledger.lockWaitMs = Math.max(1, timeoutMs);
  ledger.onLockWait = (holder) => run.say({ kind: 'lock', holder, limit: waitLimit(timeoutMs, flag) });
}

/** The limit of a wait that has `leftMs` to go, in whole seconds (as the flag gave it, when the wait has just begun). */
function waitLimit(leftMs: number, flag: string | undefined): WaitLimit {
  return { timeoutMs: Math.max(0, Math.ceil(leftMs / 1000) * 1000), then: NOTHING_SENT, ...(flag !== undefined ? { flag } : {}) };
}

/** A claim that ended because the run was stopped (Ctrl-C, SIGTERM) while it waited for the claims lock: the interruption, nothing sent. */
function stoppedWaiting(run: ClaimRun): (err: unknown) => never {
  return (err) => {
    if (run.signal.aborted && !(err instanceof ShipbookError))
      throw new ShipbookError('interrupted', "interrupted while waiting for the ledger's claims lock; nothing was sent", 'interrupted');
    throw err;
  };
}

/**
 * Claims the document `id` for this run (src/booking/engine.ts `claimEntry`). While another live run
 * holds it, says so once (its pid, host and command, and how to stop waiting) and waits for its
 * outcome, reading the ledger again every quarter second, up to `timeoutMs` in all (a wait for the
 * ledger's claims lock, held by a paused run, included); then claims again: the other run's
 * outcome decides (booked: nothing to do; let go unbooked or gone: this run books or continues it).
 * `o.flag` names the flag that set `timeoutMs`, when the command has one.
 * @throws ShipbookError `wait_timeout` (exit 7) when the other run still holds it after `timeoutMs`,
 *   ClaimsLockWaitError (exit 7) when the claims lock was still held; the interruption when the
 *   run is stopped while waiting
 */
export async function claimDocument(
  ledger: LedgerStore,
  id: string,
  o: { maxTotalCents?: number; again?: boolean; createOnly?: boolean; timeoutMs: number; flag?: string; what?: string },
  run: ClaimRun,
): Promise<DocumentClaim> {
  const deadline = Date.now() + o.timeoutMs;
  let byOther: RunClaim | undefined;
  for (;;) {
    sayLockWaits(ledger, deadline - Date.now(), o.flag, run);
    const claimed = await claimEntry(ledger, id, {
      ...(o.maxTotalCents !== undefined ? { maxTotalCents: o.maxTotalCents } : {}),
      signal: run.signal,
      again: o.again === true,
      createOnly: o.createOnly === true,
    }).catch(stoppedWaiting(run));
    if (claimed.kind !== 'held') return { ...claimed, ...(byOther ? { byOther } : {}) };
    const by = claimed.by;
    if (byOther?.nonce !== by.nonce) run.say({ kind: 'held', what: o.what ?? 'this document', by, limit: waitLimit(deadline - Date.now(), o.flag) });
    byOther = by;
    if (Date.now() >= deadline) {
      throw new ShipbookError(
        'wait_timeout',
        `another run (pid ${by.pid} on ${by.host}: ${by.command}) was still booking ${o.what ?? 'this document'} when the wait ended; nothing was sent`,
        'pending',
        { suggestion: 'Run the same command again once that run has ended: its outcome is in the ledger, and the document is not booked twice.' },
      );
    }
    await realSleep(250, run.signal).catch(() => {
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
export async function claimFreshOccurrence(ledger: LedgerStore, identity: DocumentIdentity, run: ClaimRun): Promise<void> {
  sayLockWaits(ledger, DEFAULT_WAIT_TIMEOUT_MS, undefined, run);
  for (;;) {
    const claimed = await claimEntry(ledger, identity.id, { signal: run.signal, createOnly: true, anyway: true }).catch(stoppedWaiting(run));
    if (claimed.kind === 'go') return;
    identity.next();
  }
}
