/**
 * Single bookings through a journal (issue 19, item 4): `shipbook book order.yaml` run twice (the
 * shell history, a double Enter) must not pay for a second shipment without a word.
 *
 * Every single `book` records its steps in the journal of single bookings,
 * `<state dir>/bookings.ndjson` (the same append-only format and records as a batch's journal,
 * src/batch/journal.ts: create sent, created, accept sent, accepted, processed, failed; each
 * flushed to disk before the request it announces). A document is known by its identity: a hash
 * of the target service (its base URL, or the built-in sandbox's state directory) and the
 * document's canonical JSON, plus an occurrence number that `--again` increases. So the same file
 * booked against another service is a new booking, and a renamed copy of it is not.
 *
 * A second `book` of a document finds its last booking and:
 * - processed: says which order it became (status and tracking numbers, read again from the
 *   service) and books nothing, unless `--again` or a "yes" on a terminal;
 * - created (not accepted) or accepted (result not seen): continues that order (accepts it, or
 *   waits for its result), never creating a second one;
 * - a create whose answer never came (`kill -9`, a lost answer): reported as unknown, with how to
 *   find out and `shipbook journal resolve`; booked only with `--again` or a "yes";
 * - failed before anything was created: booked again as if new.
 */
import { join } from 'node:path';
import { contentHash } from '../batch/identity.js';
import { Journal, JournalUnusableError, type EntryState, type JournalRecord } from '../batch/journal.js';
import { stepRecorder } from '../batch/steps.js';
import type { BookingDeps, BookingDocument } from '../booking/book.js';
import { BookingStoppedError, type BookingEvent } from '../booking/progress.js';
import { ApiError, ConfigError, EXIT, ShipbookError } from '../errors.js';
import type { OrderResponse } from '../schema/order.js';

/** The file of the journal of single bookings, in the user's state directory. */
export const SINGLE_BOOKINGS_JOURNAL = 'bookings.ndjson';

/** What an earlier booking of this document means for this run. */
export type EarlierBooking =
  | { kind: 'none' }
  /** Continue this order: accept it (again: a 409 is read as accepted) and wait. */
  | { kind: 'continue'; state: EntryState; orderId: string }
  /** Processed (or failed after it was created): booked again only when the user says so. */
  | { kind: 'booked'; state: EntryState; orderId: string }
  /** A create whose answer never came, or shipments not combined: the user must find out first. */
  | { kind: 'unresolved'; state: EntryState };

/** The journal of this run's booking: where the document stands, and the hooks that record its steps. */
export interface SingleBooking {
  journal: Journal;
  /** The identity this run records under (`<hash>-<n>`). */
  id: string;
  /** What the last earlier booking of the document means (see {@link EarlierBooking}). */
  earlier: EarlierBooking;
  /** Moves on to the next occurrence: this run books the document a further time (`--again`). */
  again(): void;
  /** Hooks for {@link bookDocument}: records before each request (flushed) and after each answer. */
  hooks(file: string): Pick<BookingDeps, 'beforeRequest'> & { record(e: BookingEvent): void };
  /** Records the processed order. */
  processed(order: OrderResponse): void;
  /** Records a failure (or leaves a create whose answer was lost as unknown). */
  failed(err: unknown): void;
  close(): Promise<void>;
}

/**
 * Opens the journal of single bookings (`<stateDir>/bookings.ndjson`) for `doc` against `target`
 * (the base URL, or `builtin-sandbox:<state dir>`), and finds its last earlier booking.
 * @throws ConfigError (exit 4) when the state directory cannot be written
 */
export async function openSingleBooking(stateDir: string, target: string, doc: BookingDocument, command: string): Promise<SingleBooking> {
  let journal: Journal;
  try {
    journal = await Journal.open(join(stateDir, SINGLE_BOOKINGS_JOURNAL), { lock: false, command });
  } catch (err) {
    if (!(err instanceof JournalUnusableError)) throw err;
    throw new ConfigError(`cannot record the booking in the state directory: ${err.message}; nothing was sent`, {
      suggestion: 'Point SHIPBOOK_STATE_DIR at a directory you can write (not a file), or fix the permissions or the free space.',
      cause: err,
    });
  }
  const content = doc.kind === 'regular' ? { order: doc.order } : doc.kind === 'consolidated' ? { consolidated: doc.booking } : { pending: doc.orderId };
  const hash = contentHash({ target, ...content });
  let n = 1;
  while (journal.states.has(`${hash}-${n + 1}`)) n++;
  let id = `${hash}-${n}`;
  const last = journal.states.get(id);
  const earlier = classify(last);
  const record = (fields: Omit<JournalRecord, 't' | 'id'>) => journal.append({ id, ...fields });
  return {
    journal,
    get id() {
      return id;
    },
    earlier,
    again() {
      if (journal.states.has(id)) id = `${hash}-${++n}`;
    },
    hooks(file) {
      const steps = stepRecorder(journal, { id, file });
      return { beforeRequest: steps.beforeRequest, record: (e) => steps.onEvent(e) };
    },
    processed(order) {
      stepRecorder(journal, { id }).processed(order);
    },
    failed(err) {
      const state = journal.states.get(id);
      const detail = err instanceof BookingStoppedError ? err.cause : err;
      const sent = (detail as { sent?: unknown }).sent === true && !(detail instanceof ApiError);
      // A create sent and never answered stays unknown: the next run must not create it again.
      if (state?.stage === 'unknown' && sent) return;
      // Interrupted (Ctrl-C, SIGTERM) while waiting: the order stays accepted, the next run waits again.
      if (detail instanceof ShipbookError && (detail.exitCode === EXIT.INTERRUPTED || detail.exitCode === EXIT.TERMINATED) && state?.stage === 'accepted') return;
      const created = state?.orderId !== undefined || (state?.shipmentIds.length ?? 0) > 0;
      const error = detail instanceof ShipbookError ? { code: detail.code, message: detail.message, exit_code: detail.exitCode } : { code: 'internal', message: detail instanceof Error ? detail.message : String(detail) };
      record({ event: 'failed', created, error });
    },
    close: () => journal.close(),
  };
}

/** What the last recorded state of the document means for this run. */
function classify(state: EntryState | undefined): EarlierBooking {
  if (state === undefined || state.stage === 'new') return { kind: 'none' };
  if (state.stage === 'unknown') return { kind: 'unresolved', state };
  if (state.stage === 'processed' && state.orderId !== undefined) return { kind: 'booked', state, orderId: state.orderId };
  if ((state.stage === 'created' || state.stage === 'accepted') && state.orderId !== undefined) return { kind: 'continue', state, orderId: state.orderId };
  if (state.stage === 'failed' && state.orderId !== undefined) {
    // Created, then refused at acceptance (a declined card …): continued like a pending order.
    // Failed at the carrier, unreadable, or cancelled by --max-total: booked again only on request.
    const ended = ['booking_failed', 'result_unreadable', 'limit_refused'].includes(state.error?.code ?? '');
    return ended ? { kind: 'booked', state, orderId: state.orderId } : { kind: 'continue', state, orderId: state.orderId };
  }
  return { kind: 'unresolved', state };
}
