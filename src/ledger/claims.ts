/**
 * The claim protocol: how the ledger arbitrates between runs that book against the same target at
 * the same time (two terminals, a retried CI job, a scheduled run meeting a manual one). Any ledger
 * implements it with these semantics — the file ledger of src/ledger/file/ledger.ts on one machine, a
 * database shared between machines alike:
 *
 * 1. Before a run sends anything that changes a document at the service (a create, an accept, a
 *    cancel) or starts waiting for its result, it **claims** the document: atomically, it reads what
 *    every other run recorded so far, checks that no other live run holds the document and that the
 *    document still needs what this run means to do (the resume table decides again, on what was
 *    just read), and records a `claimed` record naming the run (pid, host, process start, run start,
 *    a nonce). The claim reaches the disk with the intent record that follows it, before the request.
 *    Claims asked for in one turn are decided together: one lock, one read, one write.
 * 2. A claim whose run lives is respected: the other run leaves the document alone and may wait for
 *    its outcome. Liveness on one machine is the process (pid and start time); across machines, a
 *    lease (the claim counts for a while from its time, renewed while the run lives).
 * 3. A claim ends with its run's final record for the document (processed, failed, resolved), with a
 *    `released` record when the run stops before (interrupted: not started, pending, accepted), or
 *    when its run is gone. A claim of a run that is gone is taken over: a create recorded as sent
 *    without an answer leaves the document **unknown** (never sent again by itself); anything else
 *    is claimed again and continued from its stage.
 */
import type { EntryState, RunClaim } from './records.js';
import { processRuns } from '../lock.js';

/** The answer to a claim. */
export type ClaimAnswer =
  /** This run holds the document now: act on `state`, as read under the claim. */
  | { kind: 'claimed'; state: EntryState | undefined }
  /** Another live run holds it (`by`): leave it alone, or wait for its outcome. */
  | { kind: 'held'; state: EntryState; by: RunClaim & { since: string } }
  /** Nothing for this run to do (`wants` said so on the fresh state): nothing was recorded. */
  | { kind: 'settled'; state: EntryState | undefined };

/** What a ledger offers for claims (see the protocol above). */
export interface ClaimLedger {
  /** This run, as its claims name it. */
  readonly run: RunClaim;
  /**
   * Claims the document `id` for this run when `wants(state)` is true of its state as just read and
   * no other live run holds it. Claims of one turn share one lock, one read and one write.
   * @throws the signal's reason when it aborts while the claims lock is held by a paused process;
   *   JournalWriteError (exit 10) when the claim cannot be written
   */
  claim(id: string, wants: (state: EntryState | undefined) => boolean, signal?: AbortSignal): Promise<ClaimAnswer>;
  /** True while this run holds `id` (checked before each request that changes something). */
  holds(id: string): boolean;
  /** Lets go of `id` (a `released` record) when this run still holds it. */
  release(id: string): void;
  /** Reads what other runs recorded since the last read (for a run waiting on another's claim). */
  refresh(): void;
  /** Whether the run holding `claim` still lives (on one machine its process; across machines its lease). */
  lives(claim: RunClaim & { since: string }): boolean;
}

/**
 * How long a claim of a run on another machine (a ledger on a shared disk) is respected, from its
 * time, ms: liveness there can only be judged by a lease.
 */
const FOREIGN_CLAIM_LEASE_MS = 5 * 60_000;

/**
 * Whether the run holding a claim still lives: on this machine its process (pid and start time);
 * from another machine, while its lease runs ({@link FOREIGN_CLAIM_LEASE_MS} from the claim).
 */
export function claimLives(claim: RunClaim & { since: string }, now = Date.now()): boolean {
  return processRuns(claim) ?? now - Date.parse(claim.since) < FOREIGN_CLAIM_LEASE_MS;
}
