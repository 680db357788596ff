/**
 * The steps of one booking: {@link bookDocument} books any document: a regular order (create →
 * accept → wait), consolidated mail (interface document, "What the service does", the alternative
 * path: create shipment × N → combine → accept the parent → wait) or an order that already exists
 * and is pending (accept → wait, `order accept --wait`). The booking engine
 * (src/booking/engine.ts `bookEntry`) calls it for every `book` (one file, the prompts, a batch)
 * and for `order accept --wait`, around the ledger's records.
 *
 * It draws nothing: every step is reported as a {@link BookingEvent}, and a booking that stops
 * part-way throws a {@link BookingStoppedError} whose {@link BookingProgress} names what exists,
 * so a booking is never lost. It takes what it uses (an ApiClient, a waiter, an accept-request
 * builder, an event callback, a clock), never the command's context or IO.
 */
import type { ServiceChoice } from './rules/record.js';
import { checkProcessed } from '../api/contradictions.js';
import { acceptOrder, createOrder } from '../api/orders.js';
import type { ApiClient } from '../api/client.js';
import { combineShipments, createShipment } from '../api/shipments.js';
import type { ConsolidatedBooking } from '../schema/consolidated.js';
import type { CreateOrderRequest, OrderResponse } from '../schema/order.js';
import type { AcceptRequest } from '../schema/payment.js';
import type { ShipmentResponse } from '../schema/shipment.js';
import { ShipbookError } from '../errors.js';
import type { OrderPaths } from '../api/orders.js';
import { orderWarnings } from './price-check.js';
import { orderStatusWord } from '../schema/status.js';
import { STOPPED_BEFORE_NEXT_STEP, stoppedAt, type BookingEventHandler, type BookingProgress } from './progress.js';

/** How the booking result is awaited; returns the processed order (see src/booking/result/state.ts `ResultWaiter.wait`). */
type WaitForResult = (orderId: string, accepted: OrderResponse) => Promise<OrderResponse>;

/** A document to book, already validated (src/input/validate.ts `validateKind`). */
export type BookingDocument =
  /** A regular order: `{order: …}` as sent to `POST /orders/`. */
  | {
      kind: 'regular';
      order: CreateOrderRequest;
      file?: string;
      /** What service-selection rules chose for it (recorded with its create; its `max_total` caps this order). */
      choice?: ServiceChoice;
    }
  /**
   * Consolidated mail: the child shipments and the main shipment (src/schema/consolidated.ts).
   * `choice`: what rules chose, when they sent the document's order by consolidated mail (recorded
   * with the parent); `mail.key`: in a batch, the collection address and day whose orders are
   * combined into one parent (src/booking/mail/).
   */
  | { kind: 'consolidated'; booking: ConsolidatedBooking; file?: string; choice?: ServiceChoice; mail?: { key: string } }
  /** An order that exists and is pending: accept it and wait. */
  | { kind: 'pending'; orderId: string };

/** What a booking uses besides the document. */
export interface BookingDeps {
  api: ApiClient;
  /**
   * Builds the validated accept request for an order id (payment flags, a payment file, the
   * profile's default, the waiter's callback URL). Called once, after the order exists.
   */
  accept: (orderId: string) => Promise<AcceptRequest>;
  /** Waits for the accepted order's result (a prepared `ResultWaiter`'s `wait`). */
  waitForResult: WaitForResult;
  /** Receives every step as it happens (optional; must not throw). */
  onEvent?: BookingEventHandler;
  /** Milliseconds since the epoch (tests replace it); default `Date.now`. */
  now?: () => number;
  /**
   * Stops the booking before its next step once aborted (a batch runner winding down, Ctrl-C): the
   * step under way finishes, then a {@link BookingStoppedError} (exit 130) says how far it got.
   */
  signal?: AbortSignal;
  /**
   * Called just before each request that changes something at the service is sent, with what it
   * is and the ids known so far: the booking engine records the intent in the ledger here and
   * waits until it is on disk (src/booking/steps.ts), so that a request whose answer never comes is
   * known (and never sent again on a rerun).
   */
  beforeRequest?: (request: MutatingStep, progress: Readonly<BookingProgress>) => void | Promise<void>;
  /** The profile's order paths, for reading an order whose accept met 409. */
  paths?: OrderPaths;
  /**
   * For an order the user names (`order accept --wait`): an order the service says was accepted
   * before this run (409 to the first attempt) is reported as such (`accepted_before`), never as
   * accepted now. Unset (a booking resumed from the ledger, whose earlier accept may have landed),
   * such an order counts as accepted.
   */
  reportAcceptedBefore?: boolean;
}

/** The requests of a booking that change something at the service. */
type MutatingStep = 'create_order' | 'create_shipment' | 'combine' | 'accept';

/** A finished booking: the processed order (with tracking numbers) and how it got there. */
export interface BookingOutcome {
  /** The processed order (for consolidated mail: the parent, with every child and the main shipment). */
  order: OrderResponse;
  /** The final progress record, stage `processed`. */
  progress: BookingProgress;
  /** Consolidated mail: the children's ids in the document's order (empty otherwise). */
  childIds: string[];
  /**
   * Set when the order was accepted before this run (see {@link BookingDeps.reportAcceptedBefore}):
   * its status word then (`accepted` or `processed`); nothing was accepted or paid by this run.
   */
  acceptedBefore?: 'accepted' | 'processed';
  /**
   * What a second look at the service's answers found (src/booking/price-check.ts): prices that do
   * not add up, negative figures, a children's sum that differs. One sentence each, with both
   * figures; empty when all is well. (An answer about another order is an error, not a warning:
   * src/api/contradictions.ts.)
   */
  warnings: string[];
}

/**
 * Books `doc` end to end and returns the processed order.
 * @throws BookingStoppedError when a step fails after something was created at the service: the
 *   step's own error (type of failure, code, exit code and message kept) with the progress so far
 * @throws the step's own error (ValidationError, ApiError, NetworkError …) when nothing was created yet
 * @throws BookingFailedError (exit 6) / WaitTimeoutError (exit 7) from the wait, wrapped with stage `accepted`
 */
export async function bookDocument(doc: BookingDocument, deps: BookingDeps): Promise<BookingOutcome> {
  const emit: BookingEventHandler = deps.onEvent ?? (() => {});
  const now = deps.now ?? Date.now;
  const started = now();
  const progress: BookingProgress = { kind: doc.kind, stage: 'started', shipmentIds: [] };
  if (doc.kind !== 'pending') progress.file = doc.file;
  const step = async <T>(run: () => Promise<T>): Promise<T> => {
    if (deps.signal?.aborted) {
      throw stoppedAt(new ShipbookError('interrupted', STOPPED_BEFORE_NEXT_STEP, 'interrupted'), progress);
    }
    try {
      return await run();
    } catch (err) {
      throw progress.stage === 'started' ? err : stoppedAt(err, progress);
    }
  };

  const warnings: string[] = [];
  const warn = (found: Array<string | undefined>) => {
    for (const w of found) if (w !== undefined && !warnings.includes(w)) warnings.push(w);
  };
  let orderId: string;
  if (doc.kind === 'regular') {
    const created = await step(async () => {
      await deps.beforeRequest?.('create_order', progress);
      return createOrder(deps.api, doc.order, { retry: 'answered-create' });
    });
    warn(orderWarnings(created));
    orderId = created.id;
    Object.assign(progress, { stage: 'order_created', orderId });
    emit({ type: 'order_created', order: created });
  } else if (doc.kind === 'consolidated') {
    const { booking } = doc;
    const count = booking.shipments.length;
    Object.assign(progress, { shipmentCount: count, withMain: booking.main_shipment !== undefined });
    for (const [index, shipment] of booking.shipments.entries()) {
      const created: ShipmentResponse = await step(async () => {
        await deps.beforeRequest?.('create_shipment', progress);
        return createShipment(deps.api, { shipment }, { retry: 'answered-create' });
      });
      progress.shipmentIds.push(created.id);
      progress.stage = 'shipments_created';
      emit({ type: 'shipment_created', shipment: created, index, count });
    }
    const childIds = [...progress.shipmentIds];
    const parent = await step(async () => {
      await deps.beforeRequest?.('combine', progress);
      return combineShipments(
        deps.api,
        { shipments: childIds, ...(booking.main_shipment !== undefined ? { main_shipment: booking.main_shipment } : {}) },
        { retry: 'answered-create' },
      );
    });
    warn(orderWarnings(parent, childIds));
    orderId = parent.id;
    Object.assign(progress, { stage: 'order_created', orderId, parentId: parent.id });
    emit({ type: 'combined', parent, childIds });
  } else {
    orderId = doc.orderId;
    progress.orderId = orderId;
  }

  // A pending order given by the user: its acceptance failing leaves nothing new behind.
  let before: 'accepted' | 'processed' | undefined;
  const accepted = await step(async () => {
    const body = await deps.accept(orderId);
    await deps.beforeRequest?.('accept', progress);
    // Accepting again is safe (the service refuses a repeat with 409, read as accepted).
    return acceptOrder(deps.api, orderId, body, {
      retry: 'idempotent-accept',
      ...(deps.paths ? { paths: deps.paths } : {}),
      ...(deps.reportAcceptedBefore
        ? { acceptedBefore: (o: OrderResponse) => (before = orderStatusWord(o.status) === 'processed' ? 'processed' : 'accepted') }
        : {}),
    });
  });
  progress.stage = 'accepted';
  emit(before === undefined ? { type: 'accepted', order: accepted } : { type: 'accepted_before', order: accepted });
  const order = await step(async () => {
    // An order processed already (accepted before, by hand or by another run) has its result:
    // no callback will come for it, and reading it again tells nothing new.
    const processed = orderStatusWord(accepted.status) === 'processed' ? accepted : await deps.waitForResult(orderId, accepted);
    // "Processed" without tracking numbers is no booking result to report as booked.
    checkProcessed(processed);
    return processed;
  });
  warn(orderWarnings(order, doc.kind === 'consolidated' ? progress.shipmentIds : []));
  progress.stage = 'processed';
  // Processed before this run: no booking happened now, so none is announced.
  if (before !== 'processed') emit({ type: 'processed', order, elapsedMs: now() - started });
  return {
    ...(before !== undefined ? { acceptedBefore: before } : {}),
    order,
    progress: { ...progress, shipmentIds: [...progress.shipmentIds] },
    childIds: doc.kind === 'consolidated' ? [...progress.shipmentIds] : [],
    warnings,
  };
}
