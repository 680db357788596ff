/**
 * The booking engine: what every `book` runs — a single file (a batch of one with a terminal
 * display), a batch, a shard, `order accept --wait` and the wizard are screens over it. It owns the
 * three decisions that make booking exactly-once:
 *
 * - **resume**: one table ({@link resumeFrom}) from what the ledger says about a document to what
 *   this run does with it;
 * - **retry**: none of its own. Requests are retried by the API client alone, under the policy of
 *   each request (src/api/outcome.ts `mayRetry`): creates when the service answered 429/5xx,
 *   accepts on every passing fault (a repeat is read as accepted), reads freely. A booking that
 *   still fails is recorded and continued by the next run, from the table;
 * - **record**: every request that changes something is written to the ledger (and the run's
 *   journal copy) and flushed to disk before it leaves, and every answer after it comes.
 *
 * Stopping is the engine's too ({@link RunStop}): once the run is stopping no new step starts, a
 * request that changes something and was already sent finishes within its deadline and its answer
 * is recorded, and waits end; only the abort ends requests in flight. It draws nothing and returns data.
 */
import { bookDocument, type BookingDeps, type BookingDocument, type BookingOutcome } from './book.js';
import { cancelOrder, createOrder, fetchOrder, DEFAULT_ORDER_PATHS } from '../api/orders.js';
import type { CreateOrderRequest } from '../schema/order.js';
import { BookingStoppedError, STOPPED_BEFORE_NEXT_STEP, type BookingEventHandler } from './progress.js';
import { recordedRequest, recordFailed, stepRecorder, type RecordSink } from './record.js';
import { type EntryState, type RunClaim, BookedElsewhereError } from '../ledger/index.js';
import { signatureHintsOf } from './papers/shipment.js';
import { ApiError, BookingErrorReportedError, BookingFailedError, LimitRefusedError, ProtocolError, ServiceCallError, ShipbookError } from '../errors.js';
import { judgeCaps, overBudget, type BudgetReservation, type PriceCaps } from './limits.js';
import type { OrderResponse } from '../schema/order.js';
import { readCents, formatCents } from '../schema/money.js';
import { onAbort } from '../sleep.js';
import type { ServiceChoice } from './rules/record.js';

/**
 * How a run stops, in two degrees; the commands only turn the first and the second Ctrl-C (or
 * SIGTERM, or a closed stdout) into them:
 * - `stopping` aborted: no new step starts; a create, combine or accept already sent is given its
 *   deadline and its answer is recorded (aborting it would leave an order whose creation or
 *   acceptance is unknown); waits and reads end now;
 * - `abort` aborted: requests in flight end too. Absent, only the process's exit does that (the
 *   ledger holds what was sent, so the next run finds out).
 */
interface RunStop {
  stopping: AbortSignal;
  abort?: AbortSignal;
}

/**
 * What this run does with a document, from what the ledger says about it (the one resume table):
 *
 * | the ledger says                                        | this run                  |
 * |---------------------------------------------------------|---------------------------|
 * | nothing, or nothing was created (failed before, resolved not created) | `book` it        |
 * | processed                                               | `already_booked`: nothing |
 * | order created, not accepted (or refused at acceptance)  | `accept` that order       |
 * | accepted, result not seen                               | `wait` for that order     |
 * | a create sent and never answered                        | `unknown`: nothing, resolve first |
 * | shipments created, not combined                         | `combine`: nothing, combine them first |
 * | the booking failed at the carrier                       | `ended`: nothing unless booked again on request |
 * | refused by `--max-total`, the order cancelled           | `book` anew when this run's limit allows the recorded total; else `over_limit` |
 * | refused by `--budget` (cancelled, or never created)     | `book` anew: a budget is a run's own |
 */
export type Resume =
  | { action: 'book' }
  | { action: 'already_booked'; orderId: string; state: EntryState }
  | { action: 'accept'; orderId: string; state: EntryState }
  | { action: 'wait'; orderId: string; state: EntryState }
  | { action: 'unknown'; state: EntryState }
  | { action: 'combine'; state: EntryState }
  | { action: 'ended'; orderId: string; state: EntryState }
  | { action: 'over_limit'; orderId: string; state: EntryState; totalCents: number };

/** Errors after which an existing order is not continued: its booking ended. */
const ENDED = new Set(['booking_failed']);

/**
 * True when the ledger knows the order was accepted and its booking has not ended (its result not
 * read yet: a wait that timed out or a result that could not be read leaves it accepted).
 */
export function acceptedNotEnded(state: EntryState | undefined): boolean {
  return state?.stage === 'accepted';
}

/**
 * The resume table (see {@link Resume}). `maxTotalCents` is this run's `--max-total`, if any.
 */
export function resumeFrom(state: EntryState | undefined, options: { maxTotalCents?: number } = {}): Resume {
  if (state === undefined || state.stage === 'new') return { action: 'book' };
  if (state.stage === 'unknown') return { action: 'unknown', state };
  if (state.stage === 'processed' && state.orderId !== undefined) return { action: 'already_booked', orderId: state.orderId, state };
  if (state.stage === 'accepted' && state.orderId !== undefined) return { action: 'wait', orderId: state.orderId, state };
  if (state.stage === 'created' && state.orderId !== undefined) return { action: 'accept', orderId: state.orderId, state };
  if (state.stage === 'failed' && state.orderId !== undefined) {
    if (state.error?.code === 'limit_refused') {
      // The refused order was cancelled: a limit that allows its total books the document anew.
      const totalCents = state.total === undefined ? undefined : centsOf(state.total);
      if (totalCents === undefined || options.maxTotalCents === undefined || totalCents <= options.maxTotalCents) return { action: 'book' };
      return { action: 'over_limit', orderId: state.orderId, state, totalCents };
    }
    // Cancelled by the person (a declined card, then "cancel the order"), or because it would have
    // passed a run's budget: nothing stands; book anew.
    if (state.error?.code === 'cancelled' || state.error?.code === 'budget_refused') return { action: 'book' };
    if (ENDED.has(state.error?.code ?? '')) return { action: 'ended', orderId: state.orderId, state };
    return { action: 'accept', orderId: state.orderId, state };
  }
  return { action: 'combine', state };
}

/** A decimal AUD string as cents; undefined when it is not one. */
function centsOf(text: string): number | undefined {
  return readCents(text);
}

/** True for what the resume table says this run acts on (creates, accepts or waits for). */
function acts(r: Resume): boolean {
  return r.action === 'book' || r.action === 'accept' || r.action === 'wait';
}

/**
 * What claiming a document in the ledger gave this run (src/ledger/claims.ts):
 * - `go`: this run holds it; `resume` (decided again on the ledger as just read) says what to do;
 * - `settled`: nothing to act on (`resume` says why: booked, unknown, …); nothing was claimed;
 * - `held`: another live run holds it (`by`: its pid, host, command), with the document's `state`.
 */
export type Claimed =
  | { kind: 'go'; resume: Extract<Resume, { action: 'book' | 'accept' | 'wait' }> }
  | { kind: 'settled'; resume: Resume }
  | { kind: 'held'; by: RunClaim & { since: string }; state: EntryState };

/**
 * The claim step: before anything is sent for document `id`, takes it in the ledger, atomically
 * with the check that no other live run holds it and that the resume table (on the freshly read
 * ledger, with `options.maxTotalCents`) still gives this run something to do. With `options.again`,
 * a new occurrence is always booked; with `options.createOnly` only a document to create is claimed
 * (one created before is settled: `order create` prints it).
 *
 * A document this ledger knows nothing of, found booked in another ledger of the same service
 * (another key: {@link RecordSink.elsewhere}), is not claimed and nothing is sent, unless `again`
 * or `anyway` (a further occurrence asked for by the user, claimed without `again`'s table).
 * @throws BookedElsewhereError (exit 2) for such a document; as {@link ClaimLedger.claim}
 */
export async function claimEntry(
  ledger: RecordSink,
  id: string,
  options: { maxTotalCents?: number; signal?: AbortSignal; again?: boolean; createOnly?: boolean; anyway?: boolean } = {},
): Promise<Claimed> {
  const decide = (s: EntryState | undefined): Resume => (options.again ? { action: 'book' } : resumeFrom(s, { maxTotalCents: options.maxTotalCents }));
  if (options.again !== true && options.anyway !== true && (ledger.get(id)?.records ?? 0) === 0) {
    const booked = ledger.elsewhere?.(id);
    if (booked !== undefined) throw new BookedElsewhereError(id, booked);
  }
  // createOnly (`order create`): only a document with nothing created yet is claimed.
  const wanted = (r: Resume) => (options.createOnly ? r.action === 'book' : acts(r));
  const answer = await ledger.claim(id, (s) => wanted(decide(s)), options.signal);
  if (answer.kind === 'held') return { kind: 'held', by: answer.by, state: answer.state };
  const resume = decide(answer.state);
  if (answer.kind === 'claimed' && wanted(resume) && (resume.action === 'book' || resume.action === 'accept' || resume.action === 'wait'))
    return { kind: 'go', resume };
  return { kind: 'settled', resume };
}

/** One document to book, with its identity in the ledger. */
export interface EngineItem {
  /** The identity (`<hash>-<n>`, src/ledger/identity.ts). */
  id: string;
  /** The input file as the user named it, and the document's line in it. */
  file?: string;
  line?: number;
  doc: BookingDocument;
}

/** What the engine uses besides the document. */
export interface EngineDeps extends Pick<BookingDeps, 'api' | 'accept' | 'now' | 'paths'> {
  /** The ledger (with the run's journal copy). */
  ledger: RecordSink;
  /**
   * Waits for an accepted order's result. `resumed` is true for an order an earlier run accepted
   * (its callback went to that run's receiver: poll). `accepted` is this run's accept answer, when
   * it sent one. Ends (rejects) once `signal` aborts.
   */
  waitForResult(orderId: string, resumed: boolean, signal: AbortSignal | undefined, accepted?: OrderResponse): Promise<OrderResponse>;
  /**
   * How the run stops (see {@link RunStop}). `api` may be bound to the stopping signal: the engine
   * sends what changes something through a copy of it bound to `abort` alone, and waits under `stopping`.
   */
  stop?: RunStop;
  /** Receives every step as it happens (must not throw). */
  onEvent?: BookingEventHandler;
  /** Counts the requests that change something (for the report's `attempts`). */
  onRequest?: () => void;
  /**
   * The run's price caps (src/booking/limits.ts): before an accept leaves, an order whose exact
   * total is above `maxTotalCents`, or would pass the `budget`, is cancelled (the cancel recorded in
   * the ledger like every cancel) and the booking ends with a LimitRefusedError (exit 9).
   */
  caps?: PriceCaps;
  /** See src/booking/book.ts `BookingDeps.reportAcceptedBefore`: for an order the user names. */
  reportAcceptedBefore?: boolean;
}

/** A booking that finished, or a document this run leaves alone (what the ledger said). */
export type EngineOutcome =
  ({ status: 'booked'; resumed: Resume } & BookingOutcome) | { status: 'skipped'; resume: Exclude<Resume, { action: 'book' | 'accept' | 'wait' }> };

/**
 * Books `item` from where the ledger says it stands (`resume`, from {@link resumeFrom}), recording
 * every step. Returns what it booked, or what the ledger said when there is nothing to do.
 * @throws the booking's error (BookingStoppedError after something was created) once it is
 *   recorded: a create whose answer was lost stays unknown, an accepted order interrupted while
 *   waiting stays accepted, anything else is recorded as failed (with `--max-total`'s limit)
 */
export async function bookEntry(item: EngineItem, resume: Resume, given: EngineDeps): Promise<EngineOutcome> {
  if (resume.action !== 'book' && resume.action !== 'accept' && resume.action !== 'wait') return { status: 'skipped', resume };
  // The `max_total` of the rules that chose the order's service caps it, where lower than `--max-total`.
  const ruleCap = item.doc.kind !== 'pending' ? item.doc.choice?.maxTotal : undefined;
  const deps: EngineDeps =
    ruleCap !== undefined && (given.caps?.maxTotalCents === undefined || ruleCap.cents < given.caps.maxTotalCents)
      ? { ...given, caps: { ...given.caps, maxTotalCents: ruleCap.cents, maxTotalRule: ruleCap.rule } }
      : given;
  const record = { id: item.id, ...(item.file !== undefined ? { file: item.file } : {}), ...(item.line !== undefined ? { line: item.line } : {}) };
  const steps = stepRecorder(
    deps.ledger,
    record,
    transientIdsOf(item.doc),
    signatureHintsOf(item.doc),
    item.doc.kind !== 'pending' ? item.doc.choice?.records : undefined,
  );
  const onEvent = deps.onEvent ?? (() => {});
  const stop = deps.stop?.stopping;
  // Requests that change something are let finish when the run is stopping; the abort ends them.
  const sending = deps.stop === undefined ? deps.api : deps.api.withOptions({ signal: deps.stop.abort });
  // Stopping before the order is accepted: said once (an accepted order has nothing left to send).
  let accepted = resume.action === 'wait';
  const unlisten = stop === undefined || stop.aborted ? undefined : onAbort(stop, () => accepted || onEvent({ type: 'stopping' }));
  // What this order's accept holds of the run's budget, and whether the accept left.
  let reservation: BudgetReservation | undefined;
  let acceptSent = false;
  // The order was accepted before this run (`order accept` of an accepted or processed order).
  let acceptedBeforeSeen = false;
  try {
    const budget = deps.caps?.budget;
    // The budget used up: an order to create would be cancelled whatever it costs, so none is created.
    if (resume.action === 'book' && budget !== undefined && budget.remainingCents <= 0) throw overBudget(undefined, undefined, budget);
    let outcome: BookingOutcome;
    if (resume.action === 'wait') {
      if (stop?.aborted) throw stopped({ kind: 'pending', stage: 'accepted', orderId: resume.orderId, shipmentIds: [...resume.state.shipmentIds] });
      const order = await deps.waitForResult(resume.orderId, true, stop).catch((err: unknown) => {
        throw err instanceof ShipbookError
          ? new BookingStoppedError(err, { kind: 'pending', stage: 'accepted', orderId: resume.orderId, shipmentIds: [...resume.state.shipmentIds] })
          : err;
      });
      onEvent({ type: 'processed', order, elapsedMs: 0 });
      outcome = {
        order,
        progress: { kind: 'pending', stage: 'processed', orderId: order.id, shipmentIds: [...resume.state.shipmentIds] },
        childIds: [...resume.state.shipmentIds],
        warnings: [],
      };
    } else {
      const doc: BookingDocument = resume.action === 'accept' ? { kind: 'pending', orderId: resume.orderId } : item.doc;
      let created: OrderResponse | undefined;
      outcome = await bookDocument(doc, {
        api: sending,
        ...(deps.paths ? { paths: deps.paths } : {}),
        ...(deps.now ? { now: deps.now } : {}),
        accept: async (orderId) => {
          if (deps.caps !== undefined)
            reservation = await holdToCaps(orderId, deps.caps, created?.id === orderId ? created : undefined, {
              record,
              ledger: deps.ledger,
              api: sending,
              paths: deps.paths,
            });
          return deps.accept(orderId);
        },
        ...(deps.reportAcceptedBefore ? { reportAcceptedBefore: true } : {}),
        // An order an earlier run (or anyone before this run) accepted sent its callback to that run's receiver.
        waitForResult: (orderId, acceptedOrder) =>
          deps.waitForResult(orderId, (resume.action === 'accept' && resume.state.stage !== 'created') || acceptedBeforeSeen, stop, acceptedOrder),
        ...(stop ? { signal: stop } : {}),
        async beforeRequest(step, progress) {
          // Re-checked before every request that changes something: only the run holding the claim sends.
          if (!deps.ledger.holds(item.id)) throw claimLost(item.id);
          deps.onRequest?.();
          await steps.beforeRequest(step, progress);
          if (step === 'accept') acceptSent = true;
        },
        onEvent(e) {
          if (e.type === 'order_created') created = e.order;
          else if (e.type === 'combined') created = e.parent;
          else if (e.type === 'accepted') {
            accepted = true;
            reservation?.commit();
          } else if (e.type === 'accepted_before') {
            // Accepted before this run: nothing was spent now.
            accepted = true;
            acceptedBeforeSeen = true;
            reservation?.release();
          }
          steps.onEvent(e);
          onEvent(e);
        },
      });
    }
    // A result the ledger holds already (an order processed before this run) is not recorded twice.
    const known = deps.ledger.get(item.id);
    if (!(known?.stage === 'processed' && known.orderId === outcome.order.id)) steps.processed(outcome.order);
    // Reported as booked once its record is in the files (written with the others of this turn).
    await deps.ledger.written();
    return { status: 'booked', resumed: resume, ...outcome };
  } catch (err) {
    // An accept that never left, or that the service refused, spent nothing; one sent without an
    // answer may have been accepted, so its amount stays spent.
    const detail = err instanceof BookingStoppedError ? err.cause : err;
    const refused = detail instanceof ApiError && detail.status >= 400 && detail.status < 500;
    if (!acceptSent || refused || (detail instanceof ServiceCallError && !detail.sent)) reservation?.release();
    else reservation?.commit();
    if (recordFailure(deps.ledger, record, err, stop)) await deps.ledger.written();
    throw withUnknownCreate(err, deps.ledger.get(item.id), {
      identity: item.id,
      references: transientIdsOf(item.doc),
      command: 'book',
      ...(item.file !== undefined ? { file: item.file } : {}),
      ...(deps.now ? { now: deps.now } : {}),
    });
  } finally {
    unlisten?.();
    // Stopped in a stage that is not final (interrupted, unknown …): the claim is let go, so another
    // run may continue the document (or find it unknown).
    deps.ledger.release(item.id);
  }
}

/**
 * Holds an order to the run's caps before its accept leaves: its exact total (from this run's
 * create, else the ledger's record, else fetch-order-data) above `--max-total`, or passing the
 * budget, cancels it (or, with `caps.keepPending`, leaves it pending) and throws; otherwise returns
 * what it reserved of the budget.
 * @throws LimitRefusedError (exit 9) once the order is dealt with (a failed cancel is said in the message)
 */
async function holdToCaps(
  orderId: string,
  caps: PriceCaps,
  createdNow: OrderResponse | undefined,
  x: { record: { id: string; file?: string; line?: number }; ledger: RecordSink; api: BookingDeps['api']; paths?: BookingDeps['paths'] },
): Promise<BudgetReservation | undefined> {
  // No cap and no budget: nothing to hold the order to, and nothing is read to find its total.
  if (caps.maxTotalCents === undefined && caps.budget === undefined) return undefined;
  const { record, ledger } = x;
  const paths = x.paths ?? DEFAULT_ORDER_PATHS;
  const known = ledger.get(record.id);
  let totalCents = createdNow?.price?.total.cents ?? (known?.orderId === orderId ? centsOf(known.total ?? '') : undefined);
  if (totalCents === undefined) totalCents = (await fetchOrder(x.api, orderId, paths)).price?.total.cents;
  if (totalCents === undefined)
    throw new ShipbookError('price_unknown', `order ${orderId} shows no total, so it cannot be held to --max-total or --budget: not accepted`, 'api');
  const judged = judgeCaps(orderId, totalCents, caps);
  if (!('refusal' in judged)) return judged.reservation;
  // An order the user named stays pending; one this run created for the booking is cancelled.
  if (caps.keepPending) throw judged.refusal({ kept: true });
  // The cancel goes through the ledger like every cancel: the intent on disk before it leaves, the answer after.
  if (!ledger.holds(record.id)) throw claimLost(record.id);
  try {
    await recordedRequest(
      ledger,
      record,
      { step: 'cancel', orderId },
      () => cancelOrder(x.api, orderId, paths),
      () => ({ kind: 'cancelled', orderId }),
    );
  } catch (err) {
    throw judged.refusal({ cancelError: err instanceof Error ? err : new Error(String(err)) });
  }
  throw judged.refusal();
}

/** The claim of a document was not this run's when a request was about to leave: nothing was sent. */
function claimLost(id: string): ShipbookError {
  return new ShipbookError('claim_lost', `another run holds booking ${id} in the ledger: nothing was sent for it`, 'lock_lost');
}

/** The transient ids of a document's shipments (the user's own ids, echoed by the service). */
function transientIdsOf(doc: BookingDocument): string[] {
  const shipments: Array<{ transient_id?: string | null }> =
    doc.kind === 'regular' ? doc.order.order.shipments : doc.kind === 'consolidated' ? doc.booking.shipments : [];
  return shipments.map((x) => x.transient_id).filter((t): t is string => typeof t === 'string' && t !== '');
}

/**
 * Creates the order of a regular document (`order create`) that this run holds in the ledger, and
 * records it as the engine records a booking's create: `create_sent` on disk before the request
 * leaves, `created` with the order id and total after; `--max-total` then judges the
 * order (the cancel of an order above it recorded like every cancel). The claim is let go at the end, whatever happened.
 * @throws the create's error once recorded (a create whose answer was lost leaves the document
 *   unknown; a refusal leaves it to create again); ShipbookError `claim_lost` (exit 11) when the
 *   claim is not this run's; LimitRefusedError (exit 9) from `--max-total`, recorded as failed
 */
export async function createEntry(
  item: { id: string; file?: string; order: CreateOrderRequest; choice?: ServiceChoice | undefined },
  deps: Pick<EngineDeps, 'api' | 'ledger' | 'paths'> & { maxTotalCents?: number },
): Promise<OrderResponse> {
  const record = { id: item.id, ...(item.file !== undefined ? { file: item.file } : {}) };
  const steps = stepRecorder(
    deps.ledger,
    record,
    transientIdsOf({ kind: 'regular', order: item.order }),
    signatureHintsOf({ kind: 'regular', order: item.order }),
    item.choice?.records,
  );
  try {
    if (!deps.ledger.holds(item.id)) throw claimLost(item.id);
    await steps.beforeRequest('create_order', { kind: 'regular', stage: 'started', shipmentIds: [] });
    const created = await createOrder(deps.api, item.order, { retry: 'answered-create' });
    steps.onEvent({ type: 'order_created', order: created });
    await deps.ledger.written();
    // `--max-total` judges the new order at once (nothing accepts it here, but a pending order above the cap is not left standing).
    if (deps.maxTotalCents !== undefined)
      await holdToCaps(created.id, { maxTotalCents: deps.maxTotalCents }, created, { record, ledger: deps.ledger, api: deps.api, paths: deps.paths });
    return created;
  } catch (err) {
    if (recordFailure(deps.ledger, record, err, undefined)) await deps.ledger.written();
    throw withUnknownCreate(err, deps.ledger.get(item.id), {
      identity: item.id,
      references: transientIdsOf({ kind: 'regular', order: item.order }),
      command: 'order create',
      ...(item.file !== undefined ? { file: item.file } : {}),
    });
  } finally {
    deps.ledger.release(item.id);
  }
}

/**
 * A create whose answer was lost (the ledger holds the document as unknown) as a BookingStoppedError
 * that carries what its hint needs (identity, references, day, command); any other error unchanged.
 */
function withUnknownCreate(
  err: unknown,
  state: EntryState | undefined,
  o: { identity: string; references: string[]; command: 'book' | 'order create'; file?: string; now?: () => number },
): unknown {
  const detail = err instanceof BookingStoppedError ? err.cause : err;
  if (state?.stage !== 'unknown' || !answerLost(detail) || !(detail instanceof ShipbookError)) return err;
  const d = new Date(o.now?.() ?? Date.now());
  const day = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  const progress = err instanceof BookingStoppedError ? err.progress : { kind: 'regular' as const, stage: 'started' as const, shipmentIds: [] };
  const file = progress.file ?? o.file;
  return new BookingStoppedError(detail, {
    ...progress,
    ...(file !== undefined ? { file } : {}),
    unknownCreate: { identity: o.identity, references: o.references, day, command: o.command },
  });
}

/** The error of a booking stopped before its next step (nothing new was sent). */
function stopped(progress: BookingStoppedError['progress']): BookingStoppedError {
  return new BookingStoppedError(new ShipbookError('interrupted', STOPPED_BEFORE_NEXT_STEP, 'interrupted'), progress);
}

/** What an error says about a request: sent, with no usable answer (a refusal, ApiError, is an answer). */
function answerLost(err: unknown): boolean {
  return err instanceof ServiceCallError && err.sent;
}

/**
 * True for an accept that was sent and answered with a contradiction (src/api/contradictions.ts:
 * about another order, a status that is not `ACC`): whether the order was accepted is unknown.
 */
export function contradictedAccept(err: unknown): boolean {
  return err instanceof ProtocolError && err.sent && err.endpoint?.name === 'acceptOrder';
}

/** True for an interruption (Ctrl-C, SIGTERM, a closed stdout) rather than a failure. */
function isInterruption(err: unknown, stop?: AbortSignal): boolean {
  const detail = err instanceof BookingStoppedError ? err.cause : err;
  return stop?.aborted === true || (detail instanceof ShipbookError && (detail.kind === 'interrupted' || detail.kind === 'terminated'));
}

/**
 * Records how a booking stopped (see {@link bookEntry}); true when it appended a record.
 * @throws JournalWriteError / JournalLockLostError when the ledger takes no more records
 */
function recordFailure(ledger: RecordSink, record: { id: string; file?: string; line?: number }, err: unknown, stop: AbortSignal | undefined): boolean {
  const state = ledger.get(record.id);
  const detail = err instanceof BookingStoppedError ? err.cause : err;
  // A create sent and never answered stays unknown: no run may create it again by itself.
  if (state?.stage === 'unknown' && answerLost(detail)) return false;
  // An accept answered with a contradiction (about another order, a status that is not ACC) was
  // sent and may have been taken: its `accept_sent` stays open, recorded unknown, never failed.
  if (contradictedAccept(detail)) return false;
  // Interrupted while waiting, or its result not read (a timeout, a service that would not show
  // it): the order stays accepted, the next run waits for its result. Only an end the service
  // reported is recorded.
  if (acceptedNotEnded(state) && !bookingEnded(detail)) return false;
  // An order the user named, refused by a cap before its accept and left pending: nothing happened.
  if (detail instanceof LimitRefusedError && detail.kept) return false;
  // Interrupted before anything was sent for this document: nothing to record.
  if ((state === undefined || state.stage === 'new') && isInterruption(err, stop) && !answerLost(detail)) return false;
  const created = state?.orderId !== undefined || (state?.shipmentIds.length ?? 0) > 0;
  const error =
    detail instanceof ShipbookError
      ? { code: detail.code, message: detail.message, exit_code: detail.exitCode }
      : { code: 'internal', message: detail instanceof Error ? detail.message : String(detail) };
  const limit =
    detail instanceof LimitRefusedError && detail.totalCents !== undefined
      ? { ...(detail.limit === 'max_total' ? { limit: formatCents(detail.limitCents) } : {}), total: formatCents(detail.totalCents) }
      : {};
  recordFailed(ledger, record, { created, error, ...limit });
  return true;
}

/** True for the errors that say an accepted order's booking ended: failed or cancelled, or an error the service reported. */
function bookingEnded(err: unknown): boolean {
  return err instanceof BookingFailedError || err instanceof BookingErrorReportedError;
}

/**
 * What a stopped booking left, in the words of the report: `still_booking` (interrupted: accepted,
 * its booking goes on at the service), `accepted` (accepted, its result not read: a rerun or `order
 * get` reads it), `pending` (created, not accepted), `unknown` (a create sent, no answer), `failed`
 * (it failed; a rerun continues or books it), `not_started` (nothing was sent).
 */
type StoppedAs = 'still_booking' | 'accepted' | 'pending' | 'unknown' | 'failed' | 'not_started';

/** Classifies a document after its booking stopped, from the ledger and the error. */
export function stoppedAs(state: EntryState | undefined, err: unknown, stop?: AbortSignal): StoppedAs {
  const interrupted = isInterruption(err, stop);
  if (state?.stage === 'unknown') return 'unknown';
  if (acceptedNotEnded(state))
    return interrupted ? 'still_booking' : bookingEnded(err instanceof BookingStoppedError ? err.cause : err) ? 'failed' : 'accepted';
  if (interrupted && (state?.stage === 'created' || (state?.stage === 'failed' && state.orderId !== undefined && state.error?.code === 'interrupted')))
    return 'pending';
  if (interrupted && (state === undefined || state.stage === 'new')) return 'not_started';
  return 'failed';
}
