/**
 * Booking one document (`book <file>`, the guided booking): claimed in the ledger before anything
 * is sent, what an earlier booking of it means settled (continue that order, book again, or stop),
 * then booked by the engine (src/booking/engine.ts `bookEntry`); an attempt that failed in a way
 * the caller can answer (a card declined at acceptance, answered with another card or the credit
 * account) is claimed again and continued, never created anew. UI-free: asking and saying are the
 * caller's, through {@link BookOneDeps}.
 */
import { LimitRefusedError, ShipbookError } from '../errors.js';
import { BookedElsewhereError, type LedgerStore, type RunClaim } from '../ledger/index.js';
import { claimDocument, type ClaimRun } from './claim.js';
import { bookEntry, type EngineDeps, type EngineItem, type EngineOutcome, type Resume } from './engine.js';
import { BookingStoppedError } from './progress.js';

/** What {@link bookOne} uses besides the engine's own dependencies. */
interface BookOneDeps {
  ledger: LedgerStore;
  /** How the claim waits for another run and says so. */
  claim: ClaimRun;
  /** `--max-total`, AUD cents: a recorded refusal above it is not booked again. */
  maxTotalCents: number | undefined;
  /** `--again`: book a document booked before once more. */
  again: boolean;
  /** How long a claim waits for another run holding the document, ms, and the flag that set it. */
  timeoutMs: number;
  flag: string;
  /** The hint of a document booked under another key: the command that books it anyway. */
  bookedElsewhere: (err: BookedElsewhereError) => Error;
  /**
   * What an earlier booking means for this run: the resume to book from, or
   * undefined when nothing is to be booked (the earlier result stands, said by the caller).
   * @throws the earlier booking's error when it ends this run
   */
  settle: (resume: Resume, byOther: RunClaim | undefined) => Promise<Resume | undefined>;
  /** After a failed attempt: true when it was answered and the order is to be accepted again. */
  retry: (err: unknown) => Promise<boolean>;
}

/** The claim of this run was taken by another run between two steps: nothing was sent. */
function claimLost(): ShipbookError {
  return new ShipbookError('claim_lost', 'another run took this booking in hand meanwhile; nothing was sent', 'lock_lost');
}

/**
 * Claims, settles and books `item` (see the module's description).
 * @returns the engine's outcome, or undefined when the earlier booking stands
 * @throws what the claim and the engine throw; a refusal by `--max-total` as its LimitRefusedError
 *   (the order is cancelled: nothing to continue); ShipbookError `claim_lost` when another run took
 *   the document between steps
 */
export async function bookOne(item: EngineItem, engine: EngineDeps, d: BookOneDeps): Promise<EngineOutcome | undefined> {
  const claimOnce = (again: boolean | undefined, maxTotalCents: number | undefined) =>
    claimDocument(
      d.ledger,
      item.id,
      { ...(maxTotalCents !== undefined ? { maxTotalCents } : {}), ...(again !== undefined ? { again } : {}), timeoutMs: d.timeoutMs, flag: d.flag },
      d.claim,
    );
  let claimed = await claimOnce(d.again, d.maxTotalCents).catch((err: unknown) => {
    throw err instanceof BookedElsewhereError ? d.bookedElsewhere(err) : err;
  });
  let from: Resume | undefined = claimed.kind === 'go' && claimed.resume.action === 'book' ? claimed.resume : undefined;
  if (from === undefined) {
    from = await d.settle(claimed.resume, claimed.byOther);
    if (from === undefined) return undefined;
    if (claimed.kind !== 'go') {
      // Booked again on request (a new occurrence): claimed as such.
      claimed = await claimOnce(true, undefined);
      if (claimed.kind !== 'go') throw claimLost();
      from = claimed.resume;
    }
  }
  try {
    for (;;) {
      try {
        return await bookEntry(item, from, engine);
      } catch (err) {
        if (!(await d.retry(err))) throw err;
        // The declined accept ended this run's claim: it takes the document again before the next accept.
        const again = await claimOnce(undefined, d.maxTotalCents);
        if (again.kind !== 'go') throw claimLost();
        from = again.resume;
      }
    }
  } catch (err) {
    // Refused by --max-total: the order is cancelled, so there is nothing to continue (no hint).
    throw err instanceof BookingStoppedError && err.cause instanceof LimitRefusedError ? err.cause : err;
  }
}
