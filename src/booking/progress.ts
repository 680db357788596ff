/**
 * Booking progress as data: every step of a booking is one typed
 * {@link BookingEvent}, and how far a booking got is one {@link BookingProgress} record, returned
 * on success and carried by a {@link BookingStoppedError} when a booking stops part-way. The flows
 * never draw: a single `book` and `order accept --wait` turn events into lines
 * (src/output/progress.ts), and the booking engine records what they say was created or accepted
 * in the ledger (src/booking/steps.ts). Hints ("accept it with …", "combine them with …") are
 * rendered from the record by src/output/hints.ts.
 */
import { ShipbookError } from '../errors.js';

/** The message of a booking that an interruption stopped between two steps (nothing was in flight). */
export const STOPPED_BEFORE_NEXT_STEP = 'the booking was stopped before its next step';
import type { OrderResponse } from '../schema/order.js';
import type { ShipmentResponse } from '../schema/shipment.js';

/**
 * How far a booking got, the last step that completed:
 * - `started`: nothing exists at the service yet;
 * - `shipments_created`: consolidated mail, some or all children exist but are not combined;
 * - `order_created`: the order (or the parent order) exists and is pending (`NEW`);
 * - `accepted`: the order is accepted (`ACC`), the booking runs at the service;
 * - `processed`: the booking result is in, with tracking numbers.
 */
type BookingStage = 'started' | 'shipments_created' | 'order_created' | 'accepted' | 'processed';

/** How far one booking got, and the names needed to continue it. */
export interface BookingProgress {
  /** `regular` (create → accept → wait), `consolidated` (shipments → combine → accept → wait) or `pending` (accept → wait). */
  kind: 'regular' | 'consolidated' | 'pending';
  stage: BookingStage;
  /** The order (for consolidated mail: the parent order), once it exists. */
  orderId?: string;
  /** Consolidated mail: the child shipment ids created so far, in the document's order. */
  shipmentIds: string[];
  /** Consolidated mail: the parent order id (the same as `orderId`), once combined. */
  parentId?: string;
  /** Consolidated mail: how many child shipments the document lists. */
  shipmentCount?: number;
  /** Consolidated mail: the document has a main shipment (the combine hint then needs `--main`). */
  withMain?: boolean;
  /** The booking file as the user named it (`-` for standard input), for hints. */
  file?: string;
}

/**
 * One step of a booking, in the order it happens. `polled`, `waiting`, `wait_ended`,
 * `callback_ignored`, `warning` and `note` come from the waiters (src/booking/result.ts).
 */
export type BookingEvent =
  /** A child shipment exists (`NEW`), index 0-based of `count`, with its exact price. */
  | { type: 'shipment_created'; shipment: ShipmentResponse; index: number; count: number }
  /** The children are combined into a pending parent order (with the main shipment, if any). */
  | { type: 'combined'; parent: OrderResponse; childIds: readonly string[] }
  /** A regular order exists, pending, with its exact price. */
  | { type: 'order_created'; order: OrderResponse }
  /** The order is accepted (`ACC`); the booking runs asynchronously. */
  | { type: 'accepted'; order: OrderResponse }
  /** Waiting for the booking result began; `text` describes how (route, interval, timeout). */
  | { type: 'waiting'; orderId: string; route: 'callback' | 'poll'; text: string }
  /** A poll of fetch-order-data answered; `text` describes the state for a spinner. */
  | { type: 'polled'; orderId: string; order: OrderResponse; text: string }
  /** The wait ended (result, failure, timeout or interruption). */
  | { type: 'wait_ended'; orderId: string }
  /** A callback for another order arrived at the receiver and was dropped. */
  | { type: 'callback_ignored'; orderId: string; otherOrderId: string }
  /** The booking result: the processed order with tracking numbers; `elapsedMs` since the booking began. */
  | { type: 'processed'; order: OrderResponse; elapsedMs: number }
  /** Something worth a `warning:` line; the booking goes on. */
  | { type: 'warning'; message: string }
  /** Something worth a dim line (how the result is awaited) or a `note:`; the booking goes on. */
  | { type: 'note'; message: string; label?: 'note' }
  /** The wait was interrupted (Ctrl-C, SIGTERM) while the order was accepted and still booking. */
  | { type: 'interrupted'; orderId: string };

/** Receives booking events as they happen. Must not throw. */
export type BookingEventHandler = (event: BookingEvent) => void;

/**
 * A booking stopped part-way: the step's own error (`cause`, whose code, exit code, message and
 * suggestion this error keeps) together with how far the booking got. The hint naming what exists
 * and the command that continues is rendered from {@link progress} by src/output/hints.ts.
 */
export class BookingStoppedError extends ShipbookError {
  readonly progress: BookingProgress;
  declare readonly cause: ShipbookError;

  constructor(cause: ShipbookError, progress: BookingProgress) {
    super(cause.code, cause.message, cause.kind, { suggestion: cause.suggestion, cause, reported: cause.reported });
    this.progress = progress;
  }
}

/** Wraps a step's error with the progress so far (a non-shipbook error is passed through unchanged). */
export function stoppedAt(err: unknown, progress: BookingProgress): unknown {
  if (err instanceof BookingStoppedError || !(err instanceof ShipbookError)) return err;
  return new BookingStoppedError(err, { ...progress, shipmentIds: [...progress.shipmentIds] });
}
