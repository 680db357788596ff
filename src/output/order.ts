/**
 * How orders, prices and shipments are shown: a heading with the order id and status, a price
 * table (amount, insurance, GST, total in AUD) and a shipments table with tracking numbers.
 */
import { printable } from './printable.js';
import type { IOStreams } from '../io.js';
import type { OutputFormat } from './format.js';
import type { OrderResponse } from '../schema/order.js';
import type { Price } from '../schema/price.js';
import { oneLine, trackingNumberOf, type ShipmentResponse } from '../schema/shipment.js';
import { orderStatusWord } from '../schema/status.js';
import { orderState, shipmentState, stateShown, type State } from './state.js';
import { printTable, type Column } from './table.js';
import { paint } from './style.js';

/** The price rows: amount, insurance, GST, total, and the children's sum when present (AUD). */
export function printPrice(io: IOStreams, format: OutputFormat, price: Price | undefined): void {
  if (!price) return;
  const rows: string[][] = [
    ['amount', price.amount.toString()],
    ['insurance', price.insurance.toString()],
    ['GST', price.gst.toString()],
    ['total', price.total.toString()],
  ];
  if (price.summary_child_shipments) rows.push(['children (sum)', price.summary_child_shipments.toString()]);
  printTable(io, format, [{ header: 'price' }, { header: price.currency || 'AUD', align: 'right', atomic: true }], rows);
}

/** The columns of a shipment row: id, transient id, service, destination, status, tracking number, total (AUD). */
export const SHIPMENT_COLUMNS: Column[] = [
  // Ids, statuses, tracking numbers and amounts are never split; narrow terminals lose ref, then
  // the service, then the destination.
  { header: 'shipment', atomic: true },
  { header: 'ref', atomic: true, dropPriority: 1 },
  { header: 'service', dropPriority: 2, minWidth: 10 },
  { header: 'deliver to', dropPriority: 3, minWidth: 10 },
  { header: 'status', atomic: true },
  { header: 'tracking number', atomic: true },
  { header: 'total AUD', align: 'right', atomic: true, dropPriority: 4 },
];

/**
 * The cells of one shipment under {@link SHIPMENT_COLUMNS}; `—` while no tracking number is assigned.
 * The status is the documented state (src/output/state.ts): the order's state unless the
 * shipment's own status is final, so one table never says `new` and `pending` for one state.
 */
export function shipmentRow(s: ShipmentResponse, order?: State): string[] {
  return [
    s.id,
    s.transient_id ?? '',
    oneLine(s.service?.name) || String(s.service?.code ?? ''),
    [s.delivery?.city, s.delivery?.country].filter(Boolean).join(', '),
    stateShown(shipmentState(s.status, order), s.status),
    trackingNumberOf(s) ?? '—',
    s.service?.price ? s.service.price.total.toString() : '',
  ];
}

/** One line per shipment: id, transient id, service, state, tracking number, price total; `order` is their order's state. */
export function printShipments(io: IOStreams, format: OutputFormat, shipments: ShipmentResponse[], order?: State): void {
  printTable(
    io,
    format,
    SHIPMENT_COLUMNS,
    shipments.map((s) => shipmentRow(s, order)),
  );
}

/** The heading line of an order, on stdout (it is data): `Order ORD-… pending` in a table, `order\tORD-…\tpending` otherwise. */
export function orderHeading(io: IOStreams, format: OutputFormat, order: OrderResponse): string {
  const word = orderStatusWord(order.status);
  const colour = word === 'processed' ? 'green' : word === 'failed' || word === 'cancelled' ? 'red' : word === 'unknown' ? 'yellow' : 'cyan';
  // The id and status come from the service: shown, never obeyed; a status of no list as it came.
  const id = printable(order.id);
  const shown = printable(stateShown(word, order.status));
  return format === 'table' ? `Order ${paint(io, 'bold', id)}  ${paint(io, colour, shown)}\n` : `order\t${id}\t${shown}\n`;
}

/** Prints an order: heading, price table, shipments table. */
export function printOrder(io: IOStreams, format: OutputFormat, order: OrderResponse, options: { price?: boolean } = {}): void {
  io.out(orderHeading(io, format, order));
  if (options.price !== false) printPrice(io, format, order.price);
  printShipments(io, format, order.shipments, orderState(order.status));
}

/**
 * The service's reason for an order whose booking did not end processed (failed or cancelled), as
 * the wait reports it: `booking of order ORD-… failed: no driver available (order status failed)`.
 */
export function orderEndedLine(order: OrderResponse, reason: string): string {
  const word = orderStatusWord(order.status);
  return `booking of order ${printable(order.id)} ${word === 'failed' ? 'failed' : `ended ${word}`}: ${printable(reason)} (order status ${printable(String(order.status))})`;
}
