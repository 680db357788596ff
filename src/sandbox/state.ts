/**
 * The sandbox's state machine: orders and shipments, their statuses and tracking numbers, kept in
 * a {@link SandboxStore} (in memory, or on disk for the built-in sandbox: src/sandbox/store/). Interface document, "States and transitions":
 *
 * | order status | moved by                        | next                                  |
 * |--------------|---------------------------------|---------------------------------------|
 * | (none)       | POST /orders/                   | `new` (pending), shipments `PEN`      |
 * | `new`        | PUT /orders/{id}/accept/        | `ACC`, shipments `NEW`                |
 * | `ACC`        | booking completes (async)       | `processed`, shipments `TODO` with tracking numbers |
 * | `ACC`        | booking fails ({@link SandboxState.failNextBooking}) | `failed`; shipments stay `NEW` |
 * | `new`        | PUT /orders/{id}/cancel/        | `cancelled`; shipments stay as they were |
 *
 * Shipments only ever show the statuses the interface document lists (`PEN`, `NEW`, `TODO`); it
 * places `PEN`/`NEW` and shows no move to `TODO`, so `TODO` for a booked shipment is the
 * sandbox's choice. The order statuses `failed` and `cancelled` are the sandbox's own (the
 * document gives no failure status and does not show where cancel-order leads).
 *
 * Consolidated mail (interface document, "Create shipment" and "Combine shipments"):
 *
 * | shipment / parent | moved by                 | next                                                   |
 * |-------------------|--------------------------|--------------------------------------------------------|
 * | (none)            | POST /shipments/         | shipment `NEW`, in no order                            |
 * | shipments `NEW`   | PUT /shipments/          | parent order `new` (shown `NEW`); children stay `NEW`, the main shipment is `PEN` |
 * | parent `new`      | accept, booking, cancel  | as any order: every child and the main shipment move with it |
 *
 * A shipment belongs to at most one order: combining a shipment that is already part of an order
 * (a parent, or a regular order) is a 409.
 *
 * Ids are `ORD-` / `SHP-` + 8 upper-case letters and digits, tracking numbers `SBX` + 10 digits;
 * all drawn from a seeded generator, so one seed gives one sequence, and never repeated within a
 * sandbox. Card numbers and CVVs are never stored: a payment keeps its type and at most the last
 * four digits.
 */
import { conflict, notFound } from './errors.js';
import { sumPrices } from './rates.js';
import { memoryStore, type SandboxStore } from './store/index.js';

export type { OrderStatus, ShipmentStatus, PaymentRecord, StoredShipment, StoredOrder } from './records.js';
import type { OrderStatus, PaymentRecord, ShipmentStatus, StoredOrder, StoredShipment } from './records.js';

/** The body POSTed to a callback URL (interface document, "Events"): an ordinary envelope. */
export interface CallbackBody {
  code: number;
  message: string;
  result: { order: { id: string; status: string; shipments: Array<{ id: string; tracking_number: string }> } };
}

/** One callback delivery as it went, for tests and diagnostics. */
export interface CallbackRecord {
  orderId: string;
  /** Attempts made so far (1 = the first POST). */
  attempts: number;
  /** HTTP status of the last answer, or the error of the last attempt (`timeout`, `ECONNREFUSED` …). */
  lastOutcome?: number | string;
  state: 'pending' | 'delivered' | 'gave_up' | 'aborted';
}

/** A deterministic 32-bit generator (mulberry32). */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** The sandbox's store of orders and shipments and the transitions between their statuses. */
export class SandboxState {
  /** Callback deliveries made by this process, oldest first. */
  readonly callbacks: CallbackRecord[] = [];
  private readonly random: () => number;
  private readonly used = new Set<string>();
  /** Where the orders, shipments and pending failures are kept (memory, or the built-in sandbox's state directory). */
  readonly store: SandboxStore;
  private readonly clock: () => Date;
  private readonly processingDelayMs: number;

  /**
   * @param seed seed of the id generator; the same seed gives the same ids in the same order
   * @param options the store (default: in memory), the clock, and the time from acceptance to the booking result (ms)
   */
  constructor(seed = 1, options: { store?: SandboxStore; now?: () => Date; processingDelayMs?: number } = {}) {
    this.random = mulberry32(seed);
    this.store = options.store ?? memoryStore();
    this.clock = options.now ?? (() => new Date());
    this.processingDelayMs = options.processingDelayMs ?? 1500;
  }

  /** The stored orders. */
  get orders() {
    return this.store.orders;
  }

  /** The stored shipments. */
  get shipments() {
    return this.store.shipments;
  }

  private get failures() {
    return this.store.failures;
  }

  private unique(make: () => string): string {
    for (;;) {
      const id = make();
      if (!this.used.has(id) && !this.store.orders.has(id) && !this.store.shipments.has(id)) {
        this.used.add(id);
        return id;
      }
    }
  }

  private chars(alphabet: string, n: number): string {
    let out = '';
    for (let i = 0; i < n; i++) out += alphabet[Math.floor(this.random() * alphabet.length)];
    return out;
  }

  /** A new order id: `ORD-` + 8 upper-case letters and digits. */
  newOrderId(): string {
    return this.unique(() => `ORD-${this.chars(ALNUM, 8)}`);
  }

  /** A new shipment id: `SHP-` + 8 upper-case letters and digits. */
  newShipmentId(): string {
    return this.unique(() => `SHP-${this.chars(ALNUM, 8)}`);
  }

  /** A new tracking number: `SBX` + 10 digits. */
  newTrackingNumber(): string {
    return this.unique(() => `SBX${this.chars('0123456789', 10)}`);
  }

  /** Stores a shipment (status `NEW` unless told) and returns it with its new id. */
  addShipment(shipment: Omit<StoredShipment, 'id' | 'status'> & { status?: ShipmentStatus }): StoredShipment {
    const stored: StoredShipment = { ...shipment, id: this.newShipmentId(), status: shipment.status ?? 'NEW' };
    this.shipments.set(stored.id, stored);
    return stored;
  }

  /**
   * Creates a pending order (`new`) from priced shipments; each is stored as `PEN`.
   * The order price is the sum of the shipment prices.
   */
  createOrder(shipments: ReadonlyArray<Omit<StoredShipment, 'id' | 'status' | 'orderId' | 'createdAt'>>, now: Date): StoredOrder {
    const id = this.newOrderId();
    const stored = shipments.map((s) => this.addShipment({ ...s, orderId: id, status: 'PEN', createdAt: now }));
    const order: StoredOrder = {
      id,
      status: 'new',
      shipmentIds: stored.map((s) => s.id),
      price: sumPrices(stored.map((s) => s.price)),
      createdAt: now,
    };
    this.orders.set(id, order);
    return order;
  }

  /**
   * Combines shipments from create shipment into a pending parent order (interface document,
   * "Combine shipments"). Every id must exist (404 naming the unknown ids) and belong to no order
   * yet (409 naming the shipment and its order). The children keep their status (`NEW`); the main
   * shipment, when given, is stored `PEN` in the parent. The parent's price is the sum over the
   * children and the main shipment; `childrenPrice` is the children's sum alone.
   * Checks everything before changing anything.
   */
  combineShipments(childIds: readonly string[], main: Omit<StoredShipment, 'id' | 'status' | 'orderId' | 'createdAt'> | undefined, now: Date): StoredOrder {
    const unknown = childIds.filter((id) => !this.shipments.has(id));
    if (unknown.length > 0) {
      throw notFound(
        unknown.length === 1 ? `shipment ${unknown[0]} not found` : `shipments ${unknown.join(', ')} not found`,
        unknown.map((id) => ({ field: `shipments[${childIds.indexOf(id)}]`, message: `unknown shipment id ${id}` })),
      );
    }
    const children = childIds.map((id) => this.shipments.get(id)!);
    const taken = children.filter((c) => c.orderId !== undefined);
    if (taken.length > 0) {
      const describeTaken = (c: StoredShipment) => {
        const order = this.orders.get(c.orderId!);
        const kind = order?.childShipmentIds?.includes(c.id) ? 'combined into parent order' : 'part of order';
        return `shipment ${c.id} is already ${kind} ${c.orderId}${order ? ` (${describeStatus(order.status)})` : ''}`;
      };
      throw conflict(
        `${describeTaken(taken[0]!)}${taken.length > 1 ? ` (and ${taken.length - 1} more)` : ''}; a shipment can be combined only once`,
        taken.map((c) => ({ field: `shipments[${childIds.indexOf(c.id)}]`, message: describeTaken(c) })),
      );
    }
    const id = this.newOrderId();
    for (const c of children) c.orderId = id;
    const mainShipment = main === undefined ? undefined : this.addShipment({ ...main, orderId: id, status: 'PEN', createdAt: now });
    const all = mainShipment === undefined ? children : [...children, mainShipment];
    const order: StoredOrder = {
      id,
      status: 'new',
      shipmentIds: all.map((s) => s.id),
      price: sumPrices(all.map((s) => s.price)),
      childShipmentIds: [...childIds],
      childrenPrice: sumPrices(children.map((c) => c.price)),
      createdAt: now,
    };
    if (mainShipment !== undefined) order.mainShipmentId = mainShipment.id;
    this.orders.set(id, order);
    return order;
  }

  /** The order with this id (its booking completed if its time has come), or `undefined`. */
  findOrder(id: string): StoredOrder | undefined {
    const order = this.orders.get(id);
    if (order !== undefined) this.settle(order, this.clock());
    return order;
  }

  /** The order with this id (its booking completed if its time has come), or a 404. */
  getOrder(id: string): StoredOrder {
    const order = this.findOrder(id);
    if (order === undefined) throw notFound(`order ${id} not found`);
    return order;
  }

  /** Every stored order, newest first, each settled as {@link getOrder} does. */
  allOrders(): StoredOrder[] {
    const now = this.clock();
    const orders = this.orders.values();
    for (const o of orders) this.settle(o, now);
    return orders.sort((a, b) => new Date(b.createdAt).getTime() - new Date(a.createdAt).getTime());
  }

  /** Completes an accepted order's booking when `now` is at or past its completion time. */
  private settle(order: StoredOrder, now: Date): void {
    if (order.status === 'ACC' && order.completesAt !== undefined && now.getTime() >= new Date(order.completesAt).getTime()) {
      this.finishBooking(order, new Date(order.completesAt));
    }
  }

  /** The shipments of an order, in order. */
  shipmentsOf(order: StoredOrder): StoredShipment[] {
    return order.shipmentIds.map((id) => this.shipments.get(id)).filter((s): s is StoredShipment => s !== undefined);
  }

  /** A 409 unless the order is pending (`new`); the message says the current status. */
  assertPending(order: StoredOrder, operation: string): void {
    if (order.status !== 'new') {
      throw conflict(
        `order ${order.id} cannot be ${operation}: it is ${describeStatus(order.status)} (status ${order.status}); only a pending order (status new) can be`,
      );
    }
  }

  /** Accepts a pending order: `ACC`, its shipments `NEW`. 404 unknown, 409 not pending. */
  acceptOrder(id: string, accept: { payment: PaymentRecord; callback?: string | undefined; options?: StoredOrder['acceptOptions'] }, now: Date): StoredOrder {
    const order = this.getOrder(id);
    this.assertPending(order, 'accepted');
    order.status = 'ACC';
    order.acceptedAt = now;
    order.completesAt = new Date(now.getTime() + this.processingDelayMs);
    order.payment = accept.payment;
    if (accept.callback !== undefined) order.callback = accept.callback;
    if (accept.options !== undefined) order.acceptOptions = accept.options;
    for (const s of this.shipmentsOf(order)) {
      s.status = 'NEW';
      s.plannedTrackingNumber = this.newTrackingNumber();
    }
    return order;
  }

  /** Cancels a pending order: `cancelled` (its shipments keep their status). 404 unknown, 409 not pending. */
  cancelOrder(id: string, now: Date): StoredOrder {
    const order = this.getOrder(id);
    this.assertPending(order, 'cancelled');
    order.status = 'cancelled';
    order.cancelledAt = now;
    return order;
  }

  /**
   * Test hook: the next booking completion of `orderId` fails. The order ends `failed`, its
   * shipments stay `NEW` without tracking numbers, and the callback (if any) is
   * `{code: 500, message, result: {order: {id, status: "failed", shipments: [{id, tracking_number: "N/A"}, …]}}}`.
   * May be called before or after the order is accepted (before its booking completes).
   */
  failNextBooking(orderId: string, message = 'booking failed at the carrier (sandbox)'): void {
    this.failures.set(orderId, message);
  }

  /**
   * Completes the booking of an accepted order now (if another reader has not already, when its
   * time came): `processed` with the tracking numbers drawn at acceptance, or `failed` when
   * {@link failNextBooking} asked for it. Returns the callback body when the order has a callback
   * URL that no process has taken on yet (it is then taken: a callback is sent once), else `undefined`.
   */
  completeBooking(id: string, now: Date): CallbackBody | undefined {
    const order = this.orders.get(id);
    if (order === undefined) return undefined;
    if (order.status === 'ACC') this.finishBooking(order, now);
    if (order.callback === undefined || order.callbackClaimed || (order.status !== 'processed' && order.status !== 'failed')) return undefined;
    order.callbackClaimed = true;
    const shipments = this.shipmentsOf(order);
    if (order.status === 'failed') {
      return {
        code: 500,
        message: order.failure ?? 'booking failed',
        result: { order: { id, status: 'failed', shipments: shipments.map((s) => ({ id: s.id, tracking_number: 'N/A' })) } },
      };
    }
    return {
      code: 200,
      message: 'OK',
      result: { order: { id, status: 'processed', shipments: shipments.map((s) => ({ id: s.id, tracking_number: s.trackingNumber ?? 'N/A' })) } },
    };
  }

  /** Moves an accepted order to `processed`, its shipments `TODO` with the tracking numbers drawn at acceptance, or to `failed` (the test hook). */
  private finishBooking(order: StoredOrder, at: Date): void {
    const shipments = this.shipmentsOf(order);
    order.completedAt = at;
    const failure = this.failures.get(order.id);
    if (failure !== undefined) {
      this.failures.delete(order.id);
      order.status = 'failed';
      order.failure = failure;
      return;
    }
    order.status = 'processed';
    for (const s of shipments) {
      s.status = 'TODO';
      s.trackingNumber = s.plannedTrackingNumber ?? this.newTrackingNumber();
    }
  }
}

/** A status in words, for 409 messages. */
function describeStatus(status: OrderStatus): string {
  switch (status) {
    case 'new':
      return 'pending';
    case 'ACC':
      return 'already accepted';
    case 'processed':
      return 'already processed';
    case 'failed':
      return 'failed';
    case 'cancelled':
      return 'cancelled';
  }
}
