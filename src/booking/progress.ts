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
  /**
   * Consolidated mail chosen by service-selection rules: the document's identity in the ledger. Its
   * main shipment (or free pickup) comes from the profile, not the file, so shipments left
   * uncombined are settled through the ledger (`journal resolve … --not-created`, then the same
   * command), not by a combine command of their own.
   */
  mailIdentity?: string;
  /** The booking file as the user named it (`-` for standard input), for hints. */
  file?: string;
  /**
   * A create sent whose answer never came: the order may exist. The document's identity in the
   * ledger, its shipments' transient ids, the day it was sent (YYYY-MM-DD, local) and the command
   * that sent it (`book` or `order create`), for the hint that says how to settle it.
   */
  unknownCreate?: { identity: string; references: string[]; day: string; command: 'book' | 'order create' };
}

/**
 * What a callback claimed, as data: `word` is the order status word it carried (`processed`,
 * `accepted` …) or `failed` for an error code; `detail` the service's message worth showing with
 * it, if any; `success` for a processed claim.
 */
export interface CallbackClaim {
  word: string;
  detail?: string;
  success: boolean;
}

/**
 * Something a waiter tells while it prepares or waits (src/booking/result/), as data; src/output/
 * words it (src/output/wait-notice.ts). Durations in milliseconds.
 */
export type WaitNotice =
  /** The result goes to the user's own callback URL: the waiter polls every `pollMs`. */
  | { kind: 'own_callback'; pollMs: number }
  /** The service at `serviceOrigin` cannot reach a loopback receiver: the waiter polls every `pollMs`. */
  | { kind: 'loopback_unreachable'; serviceOrigin: string; pollMs: number }
  /** The receiver listens on a non-loopback `host`, reachable from the network. */
  | { kind: 'receiver_on_network'; host: string }
  /** Where the receiver listens (token masked), and the public URL it is reached through, if any. */
  | { kind: 'receiver_address'; localUrl: string; publicUrl?: string }
  /** A poll failed in a way that may pass (`reason`: the error's message); polling goes on. */
  | { kind: 'poll_failed'; reason: string }
  /** The receiver refused something on its token path (a summary, or the answer it gave); the wait goes on. */
  | { kind: 'receiver_problem'; summary?: string; status?: number; method?: string; remote?: string; reason?: string }
  /** A callback could not be checked with fetch-order-data yet (`reason`); checked again later. */
  | { kind: 'callback_unconfirmed_yet'; orderId: string; claim: CallbackClaim; reason: string }
  /** A callback could not be checked with fetch-order-data (`reason`, a refusal); its word is taken. */
  | { kind: 'callback_unconfirmed'; reason: string }
  /** A callback's final claim that the service contradicts (`serviceWord`): the service's word is taken. */
  | { kind: 'callback_overruled'; orderId: string; claim: CallbackClaim; serviceWord: string }
  /** A callback's final claim while the service still shows `serviceWord`: the wait goes on. */
  | { kind: 'callback_ahead'; orderId: string; claim: CallbackClaim; serviceWord: string }
  /** The callback's tracking numbers differ from the service's: the service's are shown. */
  | { kind: 'tracking_differs'; callback: readonly string[]; service: readonly string[] }
  /** No callback arrived, but fetch-order-data shows the order processed. */
  | { kind: 'processed_without_callback'; orderId: string };

/**
 * One step of a booking, in the order it happens. `polled`, `waiting`, `wait_ended`,
 * `callback_ignored`, `wait_notice` and `interrupted` come from the waiters (src/booking/result/).
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
  /**
   * The order named by the user was accepted (or processed) before this run: the service refused
   * the accept (409) and nothing was accepted or paid now; `order` is the order as read then.
   */
  | { type: 'accepted_before'; order: OrderResponse }
  /** Waiting for the booking result began: by `route`, polling every `pollMs` (poll route), for up to `timeoutMs`. */
  | { type: 'waiting'; orderId: string; route: 'callback' | 'poll'; timeoutMs: number; pollMs?: number }
  /** A poll of fetch-order-data answered with `order`. */
  | { type: 'polled'; orderId: string; order: OrderResponse }
  /** The wait ended (result, failure, timeout or interruption). */
  | { type: 'wait_ended'; orderId: string }
  /** A callback for another order arrived at the receiver and was dropped. */
  | { type: 'callback_ignored'; orderId: string; otherOrderId: string }
  /** The booking result: the processed order with tracking numbers; `elapsedMs` since the booking began. */
  | { type: 'processed'; order: OrderResponse; elapsedMs: number }
  /** Something a waiter tells (a warning, a note on how the result is awaited); the booking goes on. */
  | { type: 'wait_notice'; notice: WaitNotice }
  /**
   * The run is stopping (the first Ctrl-C or SIGTERM) before the order was accepted: no new request
   * is sent, and one already sent is given its deadline to answer.
   */
  | { type: 'stopping' }
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
