/**
 * What the sandbox stores: orders, shipments and payments as records (the state machine is in
 * `state.ts`, where they are kept in `store/`). Amounts in AUD cents.
 */
import type { ShipmentRequest } from '../schema/shipment.js';
import type { PriceCents, SandboxService } from './rates.js';

/** Order statuses the sandbox uses (`new` pending, `ACC` accepted, then `processed` or `failed`; or `cancelled`). */
export type OrderStatus = 'new' | 'ACC' | 'processed' | 'failed' | 'cancelled';
/**
 * Shipment statuses: only the three the interface document lists. `PEN` in a pending order (and
 * a main shipment when combined), `NEW` once accepted or created alone, `TODO` once the order is
 * processed (booked: the carrier's work to do). The document shows no move between them and no
 * failed or cancelled shipment: a failed or cancelled order's shipments keep their status.
 */
export type ShipmentStatus = 'PEN' | 'NEW' | 'TODO';

/** What the sandbox remembers of a payment: never the card number or CVV. */
export interface PaymentRecord {
  type: 'credit_card' | 'stored_card' | 'credit';
  /** Last four digits of a `credit_card` number. */
  last4?: string;
  /** The stored card id of a `stored_card` payment. */
  storedCardId?: string;
}

/** A stored shipment: the validated request form, its service and price (AUD cents), status and tracking number. */
export interface StoredShipment {
  id: string;
  /** The order it belongs to, once it is part of one. */
  orderId?: string;
  status: ShipmentStatus;
  /** Assigned when the booking completes; `N/A` on the wire until then. */
  trackingNumber?: string;
  /** Drawn at acceptance, so every reader of the order sees the same number once it is processed. */
  plannedTrackingNumber?: string;
  /** The shipment as validated by `shipmentRequest(kind)` (countries upper case, item values as Money). */
  request: ShipmentRequest;
  service: SandboxService;
  /** `service.options` as submitted: a list of strings (create order) or `{insurance}` (create shipment). */
  serviceOptions: unknown;
  price: PriceCents;
  createdAt: Date;
}

/** A stored order. `price` is the sum over its shipments, in AUD cents. */
export interface StoredOrder {
  id: string;
  status: OrderStatus;
  /** Every shipment of the order; for a parent: the children in the order given, then the main shipment. */
  shipmentIds: string[];
  price: PriceCents;
  /** Set on a parent order from combine: the child shipment ids, in the order given. */
  childShipmentIds?: string[];
  /** Set on a parent order combined with a `main_shipment`: its id (absent under free pickup). */
  mainShipmentId?: string;
  /** Set on a parent order: the sum of the children's prices (`summary_child_shipments`), AUD cents. */
  childrenPrice?: PriceCents;
  createdAt: Date;
  acceptedAt?: Date;
  /** When an accepted order's booking completes: `acceptedAt` + the processing delay. Time, not a process, moves it on. */
  completesAt?: Date;
  completedAt?: Date;
  /** Set once one process has taken on the callback of this order, so it is sent once. */
  callbackClaimed?: boolean;
  cancelledAt?: Date;
  payment?: PaymentRecord;
  /** Callback URL given at acceptance. */
  callback?: string;
  /** Accept-order `options` (send_documents, account_number) as given. */
  acceptOptions?: { send_documents?: boolean | undefined; account_number?: string | undefined };
  /** Why the booking failed, when it did. */
  failure?: string;
}

/**
 * A card saved with `save: true` at acceptance: what the sandbox keeps of it. Never the
 * full number or the CVV: the brand and last four digits are taken from the number, which is then
 * dropped.
 */
export interface StoredCardRecord {
  id: string;
  /** `Visa`, `Mastercard`, `American Express` or `Card`. */
  brand: string;
  last4: string;
  /** `MM/YY`. */
  expire: string;
  holder: string;
  savedAt: Date;
}
