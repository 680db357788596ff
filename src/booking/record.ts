/**
 * The recorder: the one module that writes records to the ledger (src/ledger/store.ts
 * `LedgerStore.append`), for the booking engine and for commands typed by hand alike, in one
 * dialect (src/ledger/records.ts `currentRecord` reads older records as this one):
 *
 * - before each request that changes something, its intent, on disk before the request leaves:
 *   `create_sent` (with its step: create_order, create_shipment, combine), `accept_sent`,
 *   `cancel_sent`;
 * - after each answer, what it said: `shipment_created`, `created` (an order or a consolidated
 *   parent, with its total and what the hand-over sheet needs), `accepted`, `cancelled`, or
 *   `refused` (the service said no: nothing changed there);
 * - results: `processed` with the tracking numbers (`N/A` for a shipment without one) and the
 *   total (AUD, a decimal string), `failed`, and `resolved` (what `journal resolve` found out).
 *
 * A change that belongs to no document (a shipment or a combine typed by hand) is recorded under an
 * identity of its own ({@link changeIdentity}), which never tells where a document stands.
 */
import { randomBytes } from 'node:crypto';
import { paperFields } from './papers/ledger.js';
import type { SignatureHints } from './papers/shipment.js';
import type { LedgerDecision } from './rules/record.js';
import type { BookingDeps } from './book.js';
import type { BookingEvent } from './progress.js';
import { ApiError } from '../errors.js';
import type { OrderResponse } from '../schema/order.js';
import { trackingNumberOf } from '../schema/shipment.js';
import { orderStatusWord } from '../schema/status.js';
import type { ClaimLedger } from '../ledger/index.js';
import { claimLives } from '../ledger/index.js';
import { CHANGE_PREFIX, type DockMark, type EntryState, type JournalRecord } from '../ledger/index.js';
import type { LedgerStore } from '../ledger/index.js';
import { sheetShipmentsOf } from '../ledger/index.js';

/**
 * Where records go: the ledger (src/ledger/store.ts), with the run's journal copy, and its
 * claims: appends (every record joins the turn's group write), waits
 * until they are on disk or written, and where a document stands.
 */
export type RecordSink = Pick<LedgerStore, 'append' | 'durable' | 'written' | 'get' | 'elsewhere' | keyof ClaimLedger>;

/** Whom a record is about: the document's identity, and its file and line when known. */
type RecordAt = Pick<JournalRecord, 'id' | 'file' | 'line'>;

/** The intent of a request that changes something, as recorded before it leaves. */
type Intent =
  | { step: 'create_order' | 'create_shipment' | 'combine'; shipmentIds?: readonly string[]; transientIds?: readonly string[] }
  | { step: 'accept'; orderId?: string; payment?: string }
  | { step: 'cancel'; orderId: string }
  /** A change typed by hand that shipbook has no step of its own for (`what`: create_shipment, `PUT path`…). */
  | { step: 'change'; what: string; orderId?: string };

/** What the service answered to a request that changes something, as recorded. */
type Answer =
  /**
   * An order or a consolidated parent; `shipmentIds`: the shipments it combined, when the engine
   * knows them; `serviceChoice`: what the rules chose for each shipment of an order they decided.
   */
  | {
      kind: 'created';
      order: OrderResponse;
      shipmentIds?: readonly string[];
      signatures?: SignatureHints | undefined;
      serviceChoice?: readonly LedgerDecision[] | undefined;
    }
  /** Shipments that exist (all of the document's so far); `total`: of a shipment created by hand. */
  | { kind: 'shipment_created'; shipmentIds: readonly string[]; total?: string }
  | { kind: 'accepted'; orderId: string }
  | { kind: 'cancelled'; orderId: string }
  /** The answer to a `change` intent. */
  | { kind: 'changed'; orderId?: string };

/** The record of an intent. */
function intentRecord(at: RecordAt, i: Intent): Omit<JournalRecord, 't'> {
  if (i.step === 'accept')
    return {
      ...at,
      event: 'accept_sent',
      ...(i.orderId !== undefined ? { order_id: i.orderId } : {}),
      ...(i.payment !== undefined ? { payment: i.payment } : {}),
    };
  if (i.step === 'cancel') return { ...at, event: 'cancel_sent', order_id: i.orderId };
  if (i.step === 'change') return { ...at, event: 'change_sent', step: i.what, ...(i.orderId !== undefined ? { order_id: i.orderId } : {}) };
  return {
    ...at,
    event: 'create_sent',
    step: i.step,
    ...(i.shipmentIds !== undefined ? { shipment_ids: [...i.shipmentIds] } : {}),
    ...(i.transientIds !== undefined && i.transientIds.length > 0 ? { transient_ids: [...i.transientIds] } : {}),
  };
}

/** The record of an answer. */
function answerRecord(at: RecordAt, a: Answer): Omit<JournalRecord, 't'> {
  switch (a.kind) {
    case 'created': {
      const total = a.order.price?.total?.toString();
      return {
        ...at,
        event: 'created',
        order_id: a.order.id,
        ...(a.shipmentIds !== undefined ? { shipment_ids: [...a.shipmentIds] } : {}),
        ...(total !== undefined ? { total } : {}),
        sheet: sheetShipmentsOf(a.order),
        // What the customs papers of an international order need, kept now: they are made offline later.
        ...paperFields(a.order, a.shipmentIds, a.signatures),
        // The rules' choice with the quote it was made from: `rules diff` re-prices it offline.
        ...(a.serviceChoice !== undefined && a.serviceChoice.length > 0 ? { service_choice: [...a.serviceChoice] } : {}),
      };
    }
    case 'shipment_created':
      return { ...at, event: 'shipment_created', shipment_ids: [...a.shipmentIds], ...(a.total !== undefined ? { total: a.total } : {}) };
    case 'accepted':
      return { ...at, event: 'accepted', order_id: a.orderId };
    case 'cancelled':
      return { ...at, event: 'cancelled', order_id: a.orderId };
    case 'changed':
      return { ...at, event: 'changed', ...(a.orderId !== undefined ? { order_id: a.orderId } : {}) };
  }
}

/** Records that the service refused a request (`orderId`: the order it was about): nothing changed there. */
function recordRefused(sink: RecordSink, at: RecordAt, orderId: string | undefined, error: { code: string; message: string }): void {
  sink.append({ ...at, event: 'refused', ...(orderId !== undefined ? { order_id: orderId } : {}), error });
}

/** What an accept refused because the order was accepted before says: `order … was already processed; nothing was accepted`. */
export function acceptedBeforeText(order: OrderResponse): string {
  return `order ${order.id} was already ${orderStatusWord(order.status) === 'processed' ? 'processed' : 'accepted'}; nothing was accepted`;
}

/**
 * Records a processed order (its tracking numbers, `N/A` for a shipment without one, and its
 * total); returns them as recorded.
 * @throws as src/ledger/store.ts `LedgerStore.append`
 */
function recordProcessed(sink: RecordSink, at: RecordAt, order: OrderResponse): { tracking: string[]; total?: string } {
  const tracking = order.shipments.map((s) => trackingNumberOf(s) ?? 'N/A');
  const total = order.price?.total?.toString();
  sink.append({ ...at, event: 'processed', order_id: order.id, tracking_numbers: tracking, ...(total ? { total } : {}) });
  return total === undefined ? { tracking } : { tracking, total };
}

/**
 * Records that a booking failed: `created` says whether anything existed at the service before it
 * (false: a rerun may book it again); `limit` and `total` (AUD, decimal strings) for a refusal by
 * `--max-total` or `--budget`; `orderId` when the failure is an order's.
 * @throws as src/ledger/store.ts `LedgerStore.append`
 */
export function recordFailed(
  sink: Pick<RecordSink, 'append'>,
  at: RecordAt,
  f: { created: boolean; error: NonNullable<JournalRecord['error']>; orderId?: string; limit?: string; total?: string },
): void {
  sink.append({
    ...at,
    event: 'failed',
    ...(f.orderId !== undefined ? { order_id: f.orderId } : {}),
    created: f.created,
    error: f.error,
    ...(f.limit !== undefined ? { limit: f.limit } : {}),
    ...(f.total !== undefined ? { total: f.total } : {}),
  });
}

/**
 * Records what `journal resolve` found out about a create whose answer was lost: the order it
 * made (`orderId`), or that nothing was created; `forced` when it overrides an earlier answer.
 * Returns where the document stands then.
 * @throws as src/ledger/store.ts `LedgerStore.append`
 */
export function recordResolved(sink: Pick<LedgerStore, 'append'>, id: string, r: { orderId?: string; forced?: boolean }): EntryState {
  return sink.append({
    id,
    event: 'resolved',
    ...(r.orderId !== undefined ? { order_id: r.orderId } : { not_created: true }),
    ...(r.forced ? { forced: true } : {}),
  });
}

/**
 * Records, on an order that rules sent by consolidated mail, what its combination (booked under an
 * identity of its own, `group`) did for it:
 * - `sent`: before the combination's first request, the intent of its shipment create (on disk
 *   once {@link RecordSink.durable} resolves): a run stopped from here on leaves the order
 *   unknown, so that no later run, whatever it combines, creates its shipment again by itself;
 * - `not_created`: the combination stopped before anything was created: the order may be booked again;
 * - `combine_refused`: the order's own shipments (`shipmentIds`) were created and the service
 *   refused their combine (`error`: its code `combine_refused`, the service's message, the exit
 *   code then): no parent exists, and a rerun reports it failed so, sending nothing;
 * - `created`: the parent order (`orderId`) exists but its result is not known: a rerun continues
 *   the order as any created order (accept, which the service answers 409 when done, then wait);
 * - `processed`: the parent order (`orderId`) was booked: the order's own shipments, tracking
 *   numbers and total (AUD, decimal string: its children's), so that a rerun finds it booked.
 * `serviceChoice`: what the rules chose for the order's shipments, written on its `created` record.
 * @throws as src/ledger/store.ts `LedgerStore.append`
 */
export function recordMailMember(
  sink: Pick<RecordSink, 'append'>,
  at: RecordAt,
  what:
    | { kind: 'sent'; group: string }
    | { kind: 'not_created'; error: NonNullable<JournalRecord['error']> }
    | { kind: 'combine_refused'; shipmentIds: readonly string[]; error: NonNullable<JournalRecord['error']> }
    | { kind: 'created'; orderId: string; shipmentIds: readonly string[]; serviceChoice?: readonly LedgerDecision[] | undefined }
    | {
        kind: 'processed';
        orderId: string;
        shipmentIds: readonly string[];
        tracking: readonly string[];
        total?: string;
        serviceChoice?: readonly LedgerDecision[] | undefined;
      },
): void {
  const choice = what.kind === 'created' || what.kind === 'processed' ? what.serviceChoice : undefined;
  const withChoice = choice !== undefined && choice.length > 0 ? { service_choice: [...choice] } : {};
  if (what.kind === 'sent') sink.append({ ...at, event: 'create_sent', step: 'create_shipment', transient_ids: [what.group] });
  else if (what.kind === 'not_created') recordFailed(sink, at, { created: false, error: what.error });
  else if (what.kind === 'combine_refused') {
    // Its shipments exist (answered): the intent is answered, and the refusal ends this run's booking of it.
    sink.append(answerRecord(at, { kind: 'shipment_created', shipmentIds: what.shipmentIds }));
    recordFailed(sink, at, { created: true, error: what.error });
  } else if (what.kind === 'created') sink.append({ ...at, event: 'created', order_id: what.orderId, shipment_ids: [...what.shipmentIds], ...withChoice });
  else {
    const total = what.total !== undefined ? { total: what.total } : {};
    sink.append({ ...at, event: 'created', order_id: what.orderId, shipment_ids: [...what.shipmentIds], ...total, ...withChoice });
    sink.append({ ...at, event: 'processed', order_id: what.orderId, tracking_numbers: [...what.tracking], ...total });
  }
}

/** The hooks of one order's records in the booking engine; `at` gives its identity (and file, line). */
interface StepRecorder {
  /** For {@link BookingDeps.beforeRequest}: records the request and waits until it is on disk. */
  beforeRequest: NonNullable<BookingDeps['beforeRequest']>;
  /** Records what a booking event says was created or accepted (other events are ignored). */
  onEvent(e: BookingEvent): void;
  /** Records the processed order; returns its tracking numbers and total as recorded. */
  processed(order: OrderResponse): { tracking: string[]; total?: string };
}

/**
 * A {@link StepRecorder} appending to `sink` (the ledger) under `at` (`id`, and `file`/`line` when
 * known); `serviceChoice`: the rules' decisions, written on the order's `created` record.
 */
export function stepRecorder(
  sink: RecordSink,
  at: RecordAt,
  transientIds: readonly string[] = [],
  signatures?: SignatureHints,
  serviceChoice?: readonly LedgerDecision[],
): StepRecorder {
  return {
    async beforeRequest(step, progress) {
      sink.append(intentRecord(at, step === 'accept' ? { step, orderId: progress.orderId } : { step, shipmentIds: progress.shipmentIds, transientIds }));
      // On disk before the request leaves: a run killed now knows the request may have been sent.
      await sink.durable();
    },
    onEvent(e) {
      if (e.type === 'order_created') sink.append(answerRecord(at, { kind: 'created', order: e.order, signatures, serviceChoice }));
      else if (e.type === 'shipment_created')
        sink.append(answerRecord(at, { kind: 'shipment_created', shipmentIds: [...(sink.get(at.id)?.shipmentIds ?? []), e.shipment.id] }));
      else if (e.type === 'combined') sink.append(answerRecord(at, { kind: 'created', order: e.parent, shipmentIds: e.childIds, signatures, serviceChoice }));
      else if (e.type === 'accepted') sink.append(answerRecord(at, { kind: 'accepted', orderId: e.order.id }));
      // Accepted before this run: the service refused this accept, nothing was accepted or paid now.
      else if (e.type === 'accepted_before') recordRefused(sink, at, e.order.id, { code: 'already_accepted', message: acceptedBeforeText(e.order) });
    },
    processed: (order) => recordProcessed(sink, at, order),
  };
}

/**
 * The ledger identity an order typed by hand is recorded under: the document that became this
 * order when the ledger knows it (a `book` or batch created it), else one keyed by the order id.
 */
export function identityOfOrder(ledger: Pick<LedgerStore, 'entries'>, orderId: string): string {
  return ledger.entries().find((s) => s.orderId === orderId)?.id ?? `order:${orderId}`;
}

/** A fresh identity for a change that belongs to no document (a shipment created by hand, a combine). */
export function changeIdentity(): string {
  return `${CHANGE_PREFIX}${randomBytes(6).toString('hex')}`;
}

/**
 * Sends a request that changes something under the ledger: the intent (under `at`) is on disk
 * before the request leaves; the answer (`answer(result)`) is written as soon as it comes; a
 * refusal by the service (4xx: nothing changed there) is recorded as `refused`. Any other failure
 * (no answer, a timeout, a 5xx) leaves the intent unanswered: `history` shows it as unknown.
 * @throws what `send` throws; JournalWriteError (exit 10) when the intent cannot be recorded (then nothing was sent)
 */
export async function recordedRequest<T>(sink: RecordSink, at: RecordAt, intent: Intent, send: () => Promise<T>, answer: (result: T) => Answer): Promise<T> {
  sink.append(intentRecord(at, intent));
  await sink.durable();
  let result: T;
  try {
    result = await send();
  } catch (err) {
    if (err instanceof ApiError && err.status >= 400 && err.status < 500) {
      recordRefused(sink, at, 'orderId' in intent ? intent.orderId : undefined, { code: err.code, message: err.message });
      await sink.written();
    }
    throw err;
  }
  sink.append(answerRecord(at, answer(result)));
  await sink.written();
  return result;
}

/**
 * Records what an order read from the service says, when the ledger does not know it yet: processed
 * (with its tracking numbers), cancelled, or a booking that failed. Nothing while another live run
 * holds the order (it records the outcome itself), nor when the ledger already says as much.
 * @returns what was recorded, or undefined when nothing was
 * @throws as src/ledger/store.ts `LedgerStore.append`
 */
export async function recordLearned(
  ledger: LedgerStore,
  order: OrderResponse,
  message: string | undefined,
): Promise<'processed' | 'cancelled' | 'failed' | undefined> {
  const id = identityOfOrder(ledger, order.id);
  const state: EntryState | undefined = ledger.get(id);
  if (state?.claim !== undefined && claimLives(state.claim)) return undefined;
  const word = orderStatusWord(order.status);
  let recorded: 'processed' | 'cancelled' | 'failed';
  if (word === 'processed' && state?.stage !== 'processed') {
    recordProcessed(ledger, { id }, order);
    recorded = 'processed';
  } else if (word === 'cancelled' && state?.error?.code !== 'cancelled') {
    ledger.append(answerRecord({ id }, { kind: 'cancelled', orderId: order.id }));
    recorded = 'cancelled';
  } else if (word === 'failed' && state?.stage !== 'failed') {
    recordFailed(ledger, { id }, { orderId: order.id, created: true, error: { code: 'booking_failed', message: message ?? 'the booking failed' } });
    recorded = 'failed';
  } else return undefined;
  await ledger.written();
  return recorded;
}

/** A parcel as the dock records it: its order, shipment and tracking number. */
export interface RecordedParcel {
  orderId: string;
  shipmentId: string;
  tracking: string;
}

/**
 * Records what the dock saw of `parcels`: each one `scanned` (the ledger stamps the time, user and
 * host; `mark` names the station, the session and, when known, the driver), `handed_over` to the
 * driver `mark` names, or confirmed `not_handed_over`. Visible to other stations once this resolves.
 * @throws as src/ledger/store.ts `LedgerStore.append` / `written` (JournalWriteError, exit 10)
 */
export async function recordDock(
  ledger: LedgerStore,
  event: 'scanned' | 'handed_over' | 'not_handed_over',
  parcels: readonly RecordedParcel[],
  mark: DockMark,
): Promise<void> {
  for (const p of parcels)
    ledger.append({
      id: identityOfOrder(ledger, p.orderId),
      event,
      order_id: p.orderId,
      tracking_numbers: [p.tracking],
      dock: { ...mark, shipment_id: p.shipmentId },
    });
  await ledger.written();
}

/**
 * Records that the customs papers of order `orderId` (document `id`) were written to `files`, so
 * that a rerun makes none twice.
 * @throws as src/ledger/store.ts `LedgerStore.append`
 */
export function recordPapersMade(ledger: { append(record: Omit<JournalRecord, 't'>): unknown }, id: string, orderId: string, files: readonly string[]): void {
  ledger.append({ id, event: 'papers', order_id: orderId, files: [...files] });
}
