/**
 * Documents of the consolidated-mail flow (interface document, "What the service does": create
 * each shipment, combine them into a parent order, accept the parent as a regular order):
 *
 * - the consolidated booking of `shipbook book`: `{shipments: [shipment, …], main_shipment: shipment}`
 *   (request wrapper optional), each child in the create-shipment form and leaving Australia;
 * - the combine file of `shipbook shipment combine --file`: `{shipments: [id, …], main_shipment}`,
 *   where ids given on the command line replace the file's list;
 * - a single shipment document (`shipment create <file>`, `shipment combine --main <file>`), in any
 *   of the forms {@link shipmentDocument} reads.
 */
import * as z from 'zod';
import { lazySchema } from './lazy.js';
import { leavingAustraliaShipment } from './combine.js';
import { describe, text } from './common.js';
import { shipmentRequest, type ShipmentRequest } from './shipment.js';
import { isObject } from './object.js';

/**
 * The booking file of `shipbook book` for consolidated mail: the children and the main shipment.
 * Unknown top-level fields are errors: a misspelt `main_shipment` must not be found out only after
 * the children were created.
 */
export const consolidatedBooking = lazySchema(() =>
  z.strictObject(
    {
      shipments: z
        .array(leavingAustraliaShipment, {
          error: (iss) => (iss.input === undefined ? 'required' : `expected a list of shipments (got ${describe(iss.input)})`),
        })
        .min(1, { error: 'at least 1 shipment' }),
      main_shipment: shipmentRequest('shipment').optional(),
    },
    { error: (iss) => `expected a consolidated booking (got ${describe(iss.input)})` },
  ),
);
/** A consolidated-mail booking file as {@link consolidatedBooking} reads it: the children and the main shipment. */
export type ConsolidatedBooking = z.output<typeof consolidatedBooking>;

/** The combine file: shipment ids (optional, command-line ids replace them) and the main shipment; unknown fields are errors. */
export const combineFile = lazySchema(() =>
  z.strictObject(
    {
      shipments: z.array(text(), { error: (iss) => `expected a list of shipment ids (got ${describe(iss.input)})` }).optional(),
      main_shipment: shipmentRequest('shipment').optional(),
    },
    { error: (iss) => `expected a combine document (got ${describe(iss.input)})` },
  ),
);
/** A combine file as {@link combineFile} reads it: optional shipment ids and the main shipment. */
export type CombineFile = z.output<typeof combineFile>;

/**
 * True when a loaded document (request wrapper removed) is a consolidated booking rather than an
 * order: it has no `order`, and it has a `main_shipment` or a `shipments` list holding shipment
 * objects (not ids).
 */
export function isConsolidatedDocument(data: unknown): boolean {
  if (!isObject(data) || 'order' in data) return false;
  if ('main_shipment' in data) return true;
  return Array.isArray(data.shipments) && data.shipments.some(isObject);
}

/**
 * The schema that reads one shipment out of a document, by the document's form:
 *
 * - `{shipment: …}` — the create-shipment request form;
 * - `{main_shipment: …}` — a main file, a combine file or a consolidated booking (`shipments` is
 *   allowed beside it and read by its own kind; any other member is an error, as `validate` says);
 * - otherwise the document itself is the shipment.
 *
 * Field paths in problems keep the wrapper (`shipment.delivery.country`), so they point at the
 * right line. `shipment` is the schema of the shipment itself (default: the create-shipment form).
 */
export function shipmentDocument(
  data: unknown,
  shipment: z.ZodType<ShipmentRequest, unknown> = shipmentRequest('shipment'),
): z.ZodType<ShipmentRequest, unknown> {
  // Strict like the kinds registry: an unknown member beside the shipment is an error, never dropped.
  if (isObject(data) && 'shipment' in data) return z.strictObject({ shipment }).transform((d) => d.shipment);
  if (isObject(data) && 'main_shipment' in data) {
    return z.strictObject({ main_shipment: shipment, shipments: z.unknown().optional() }).transform((d) => d.main_shipment);
  }
  return shipment;
}
