/**
 * How consolidated mail is shown: a created shipment (heading, one shipment row, its price), and a
 * parent order from combine (heading, one table of the children and the main shipment, and the
 * price with the sum of the children). Outside the `table` format, every row is a tab-separated line whose
 * first cell says what it is (`shipment`, `order`, `child`, `main`, `amount`, …), so scripts can
 * `grep`/`cut` them.
 */
import { splitParent } from '../schema/parent.js';
import type { IOStreams } from '../io.js';
import type { OutputFormat } from './format.js';
import type { OrderResponse } from '../schema/order.js';
import type { ShipmentResponse } from '../schema/shipment.js';
import { orderState, shipmentState, stateShown } from './state.js';
import { orderHeading, printPrice, printShipments, SHIPMENT_COLUMNS, shipmentRow } from './order.js';
import { paint } from './style.js';
import { printable } from './printable.js';
import { printTable } from './table.js';

/** The heading line of a created shipment: `Shipment SHP-… pending` in a table, `shipment\tSHP-…\tpending` otherwise. */
function shipmentHeading(io: IOStreams, format: OutputFormat, s: ShipmentResponse): string {
  const word = printable(stateShown(shipmentState(s.status), s.status));
  return format === 'table' ? `Shipment ${paint(io, 'bold', s.id)}  ${paint(io, 'cyan', word)}\n` : `shipment\t${s.id}\t${word}\n`;
}

/** Prints a shipment from create shipment: heading, its row (service, destination, status) and its price (AUD). */
export function printCreatedShipment(io: IOStreams, format: OutputFormat, s: ShipmentResponse): void {
  io.out(shipmentHeading(io, format, s));
  printShipments(io, format, [s]);
  printPrice(io, format, s.service?.price);
}

/**
 * One table of a parent order's shipments: a role (`child`, `main`), id, transient id, service,
 * destination, status, tracking number and total (AUD). `childIds` tells the children apart (the
 * response does not mark them); any other shipment is the main shipment.
 */
function printParentShipments(io: IOStreams, format: OutputFormat, order: OrderResponse, childIds: readonly string[]): void {
  const { children, main } = splitParent(order, childIds);
  const rows = [...children.map((s) => ['child', s] as const), ...(main ? [['main', main] as const] : [])];
  // Any further shipment the service lists is shown too, as `main`.
  for (const s of order.shipments) if (!childIds.includes(s.id) && s !== main) rows.push(['main', s]);
  printTable(
    io,
    format,
    [{ header: 'role', dropPriority: 0, minWidth: 6 }, ...SHIPMENT_COLUMNS],
    rows.map(([role, s]) => [role, ...shipmentRow(s, orderState(order.status))]),
  );
}

/**
 * The price of a parent order (AUD): `children (sum)` (the service's `summary_child_shipments`),
 * `main shipment` (its own total), then the parent's amount, insurance, GST and total.
 */
function printParentPrice(io: IOStreams, format: OutputFormat, order: OrderResponse, childIds: readonly string[]): void {
  const price = order.price;
  if (!price) return;
  const { main } = splitParent(order, childIds);
  const rows: string[][] = [];
  if (price.summary_child_shipments) rows.push(['children (sum)', price.summary_child_shipments.toString()]);
  if (main?.service?.price) rows.push(['main shipment', main.service.price.total.toString()]);
  rows.push(['amount', price.amount.toString()], ['insurance', price.insurance.toString()], ['GST', price.gst.toString()], ['total', price.total.toString()]);
  printTable(io, format, [{ header: 'price' }, { header: price.currency || 'AUD', align: 'right', atomic: true }], rows);
}

/** Prints a parent order: heading, children and main shipment, and (unless `price: false`) the price. */
export function printParentOrder(
  io: IOStreams,
  format: OutputFormat,
  order: OrderResponse,
  childIds: readonly string[],
  options: { price?: boolean } = {},
): void {
  io.out(orderHeading(io, format, order));
  printParentShipments(io, format, order, childIds);
  if (options.price !== false) printParentPrice(io, format, order, childIds);
}
