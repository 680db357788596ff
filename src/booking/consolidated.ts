/**
 * The consolidated-mail booking flow (PRODUCT.md, flows 2 and 3; interface document, "What the
 * service does", the alternative path): create each shipment (`POST /shipments/`) → combine them
 * into a parent order with the main shipment (`PUT /shipments/`) → accept the parent as a regular
 * order → wait for the booking result. Every step is reported as it happens, and a step that fails
 * says how far the booking got: the shipments already created (and the command that combines
 * them), or the pending parent order (and the command that accepts it).
 */
import type { ApiClient } from '../api/client.js';
import { acceptOrder } from '../api/orders.js';
import { combineShipments, createShipment } from '../api/shipments.js';
import type { ConsolidatedBooking } from '../schema/consolidated.js';
import { Money } from '../schema/money.js';
import type { OrderResponse } from '../schema/order.js';
import type { AcceptRequest } from '../schema/payment.js';
import { trackingNumberOf, type ShipmentResponse } from '../schema/shipment.js';
import { withStep, type WaitForResult } from './book.js';

/** A parent order's shipments told apart: the children (in the order they were combined) and the main shipment. */
export interface ParentParts {
  children: ShipmentResponse[];
  /** The shipment that carries the children to the hub; absent when combined under free pickup. */
  main: ShipmentResponse | undefined;
  /** Child ids the order does not list (should be none). */
  missing: string[];
}

/**
 * Splits a parent order's shipments into the children (`childIds`, in that order) and the main
 * shipment (the first shipment that is not a child). The response does not mark which is which;
 * the client knows the ids it combined.
 */
export function splitParent(order: Pick<OrderResponse, 'shipments'>, childIds: readonly string[]): ParentParts {
  const byId = new Map(order.shipments.map((s) => [s.id, s] as const));
  const children: ShipmentResponse[] = [];
  const missing: string[] = [];
  for (const id of childIds) {
    const s = byId.get(id);
    if (s === undefined) missing.push(id);
    else children.push(s);
  }
  const main = order.shipments.find((s) => !childIds.includes(s.id));
  return { children, main, missing };
}

/** The sum of the shipments' `service.price.total`, exactly (AUD); a shipment without a price counts 0. */
export function sumOfTotals(shipments: readonly ShipmentResponse[]): Money {
  return new Money(shipments.reduce((sum, s) => sum + (s.service?.price?.total.cents ?? 0), 0));
}

/**
 * Checks `price.summary_child_shipments` of a parent against the sum of its children's totals, to
 * the cent. Returns a warning for people, or `undefined` when they agree (or the summary is absent).
 */
export function summaryMismatch(order: Pick<OrderResponse, 'price'>, children: readonly ShipmentResponse[]): string | undefined {
  const summary = order.price?.summary_child_shipments;
  if (summary === undefined) return undefined;
  const sum = sumOfTotals(children);
  if (summary.cents === sum.cents) return undefined;
  return `the service's summary_child_shipments (${summary.toString()} AUD) differs from the sum of the children's prices (${sum.toString()} AUD)`;
}

/** The ids of shipments of an order that have no tracking number yet (`N/A`). */
export function withoutTrackingNumber(order: Pick<OrderResponse, 'shipments'>): string[] {
  return order.shipments.filter((s) => trackingNumberOf(s) === undefined).map((s) => s.id);
}

/** Progress of a consolidated booking, reported step by step. */
export interface ConsolidatedEvents {
  /** Child `index` (0-based) of `count` exists, status `NEW`, with its exact price. */
  shipmentCreated?(shipment: ShipmentResponse, index: number, count: number): void;
  /** The parent order exists, pending, with the children and the main shipment. */
  combined?(parent: OrderResponse, childIds: readonly string[]): void;
  /** The parent is accepted (`ACC`); the booking runs asynchronously. */
  accepted?(order: OrderResponse): void;
}

/** What the flow needs besides the API: how to build the accept request, how to wait, and names for hints. */
export interface ConsolidatedFlowOptions {
  /** Builds the accept request for the parent order id. */
  accept: (orderId: string) => Promise<AcceptRequest>;
  /** Waits for the processed parent. */
  waitForResult: WaitForResult;
  /** The booking file as the user named it, for the `--main` of the combine hint (`-` for standard input). */
  file: string;
  events?: ConsolidatedEvents;
}

/** The processed parent order and the ids of its children. */
export interface ConsolidatedResult {
  order: OrderResponse;
  childIds: string[];
}

/** The command that combines `ids`, for hints. */
export function combineHint(ids: readonly string[], file: string, withMain: boolean, more = false): string {
  const main = !withMain ? '' : file === '-' ? ' --main <file with the main shipment>' : ` --main ${file}`;
  return `shipbook shipment combine ${ids.join(' ')}${more ? ' <ids of the other shipments>' : ''}${main}`;
}

/**
 * Books a consolidated booking: create each child in order, combine them with the main shipment,
 * accept the parent, wait for the result.
 * When a step fails after something was created, the error (type and exit code kept) gains a
 * suggestion naming what exists and the command that continues: the created shipment ids and
 * `shipbook shipment combine …`, or the parent id and `shipbook order accept …`.
 * @returns the processed parent order (every child and the main shipment with a tracking number)
 */
export async function bookConsolidated(api: ApiClient, booking: ConsolidatedBooking, options: ConsolidatedFlowOptions): Promise<ConsolidatedResult> {
  const { events = {} } = options;
  const withMain = booking.main_shipment !== undefined;
  const childIds: string[] = [];
  const count = booking.shipments.length;
  for (const [index, shipment] of booking.shipments.entries()) {
    let created: ShipmentResponse;
    try {
      created = await createShipment(api, { shipment });
    } catch (err) {
      if (childIds.length === 0) throw err;
      throw withStep(
        err,
        `Shipment${childIds.length === 1 ? '' : 's'} ${childIds.join(', ')} (${childIds.length} of ${count}) ${childIds.length === 1 ? 'was' : 'were'} created and ${childIds.length === 1 ? 'is' : 'are'} not combined yet (shipments[${index}] failed). ` +
          `Create the rest with "shipbook shipment create <file>", then combine them all: ${combineHint(childIds, options.file, withMain, true)}`,
      );
    }
    childIds.push(created.id);
    events.shipmentCreated?.(created, index, count);
  }

  let parent: OrderResponse;
  try {
    parent = await combineShipments(api, { shipments: childIds, ...(withMain ? { main_shipment: booking.main_shipment } : {}) });
  } catch (err) {
    throw withStep(
      err,
      `Shipment${childIds.length === 1 ? '' : 's'} ${childIds.join(', ')} ${childIds.length === 1 ? 'was' : 'were'} created but not combined. After fixing the problem, combine them with: ${combineHint(childIds, options.file, withMain)}`,
    );
  }
  events.combined?.(parent, childIds);

  let accepted: OrderResponse;
  try {
    accepted = await acceptOrder(api, parent.id, await options.accept(parent.id));
  } catch (err) {
    throw withStep(
      err,
      `Parent order ${parent.id} (shipments ${childIds.join(', ')}) was created and is still pending: accept it with "shipbook order accept ${parent.id}" or cancel it with "shipbook order cancel ${parent.id}".`,
    );
  }
  events.accepted?.(accepted);
  const order = await options.waitForResult(parent.id, accepted);
  return { order, childIds };
}
