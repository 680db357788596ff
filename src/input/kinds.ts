/**
 * The kinds of input document shipbook reads, in one registry: each with its zod schema (the
 * body inside `request`, interface document, "Endpoints"), a detector that recognises it from
 * its content, and the shorter forms files may use. `shipbook validate` detects the kind (or
 * takes `--kind`), `shipbook schema <kind>` prints its JSON Schema, and the commands that send a
 * document load it through {@link KINDS} so that all three agree.
 *
 * Adding a kind is one entry in {@link KINDS}: a name, a summary, the command that sends it, its
 * schema and its detector (the first kind whose detector matches wins, so put a kind before any
 * kind whose detector would also match it).
 */
import * as z from 'zod';
import { combineRequest, createShipmentRequest } from '../schema/combine.js';
import { consolidatedBooking, isConsolidatedDocument } from '../schema/consolidated.js';
import { toInputJsonSchema, type JsonSchema } from '../schema/jsonschema.js';
import { createOrderRequest } from '../schema/order.js';
import { acceptRequest } from '../schema/payment.js';
import { quoteRequest } from '../schema/quote.js';
import { shipmentRequest } from '../schema/shipment.js';
import { isObject } from '../schema/object.js';
import { PAYMENT_SHORTHAND, wrappedShorthand, type Shorthand } from './shorthand.js';

/** A kind of input document. */
export interface DocumentKind {
  /** Shown in `--kind`, `shipbook schema <kind>`, `validate` output. */
  readonly name: string;
  /** What the file is, one line. */
  readonly summary: string;
  /** The command that sends such a file, e.g. `shipbook order create <file>`. */
  readonly usedBy: string;
  /** The zod schema of the document (the body inside `request`). `now` is the clock (card expiry). */
  schema(now: () => Date): z.ZodType;
  /** True when a document (request wrapper removed) looks like this kind. */
  detect(data: Record<string, unknown>): boolean;
  /** A shorter form files may use (optional). */
  readonly shorthand?: Shorthand;
}

/** Fields only a shipment has (to recognise a bare shipment). */
const SHIPMENT_FIELDS = ['collection_type', 'customs_information', 'delivery', 'collection', 'service', 'transient_id'];
const isBareShipment = (d: Record<string, unknown>) => !('order' in d) && !('shipments' in d) && !('main_shipment' in d) && SHIPMENT_FIELDS.some((f) => f in d);

/**
 * Every kind, in detection order. Each schema is the one the command that sends the file uses,
 * so `validate` passes exactly the files those commands accept.
 */
export const KINDS = {
  quote: {
    name: 'quote',
    summary: 'a quote request: route and packages (POST /quote/)',
    usedBy: 'shipbook quote <file>',
    schema: () => quoteRequest,
    detect: (d) =>
      Object.keys(d).some((k) => (k.startsWith('collection_') || k.startsWith('delivery_')) && k !== 'collection_type') ||
      ('packages' in d && !('order' in d) && !('shipment' in d) && !('shipments' in d) && !isBareShipment(d)),
  },
  order: {
    name: 'order',
    summary: 'an order: {order: {shipments: […]}} (POST /orders/)',
    usedBy: 'shipbook order create <file>, shipbook book <file>',
    schema: () => createOrderRequest,
    detect: (d) => isObject(d.order) && !('payment' in d.order),
  },
  accept: {
    name: 'accept',
    summary: 'an acceptance with payment: {order: {payment: …}} (PUT /orders/{order_id}/accept/)',
    usedBy: 'shipbook order accept <id> --payment-file <file>, shipbook book --payment-file <file>',
    schema: (now) => acceptRequest(now),
    detect: (d) => (isObject(d.order) && 'payment' in d.order) || ('payment' in d && !('order' in d)),
    shorthand: PAYMENT_SHORTHAND,
  },
  shipment: {
    name: 'shipment',
    summary: 'a consolidated-mail shipment: {shipment: …} or the shipment itself (POST /shipments/)',
    usedBy: 'shipbook shipment create <file>',
    schema: () => createShipmentRequest.strict(),
    detect: (d) => isObject(d.shipment) || isBareShipment(d),
    shorthand: wrappedShorthand('shipment', isBareShipment),
  },
  combine: {
    name: 'combine',
    summary: 'a combination: {shipments: [ids], main_shipment: …} (PUT /shipments/)',
    usedBy: 'shipbook shipment combine --file <file>',
    schema: () => combineRequest.strict(),
    detect: (d) => Array.isArray(d.shipments) && d.shipments.length > 0 && d.shipments.every((s) => typeof s === 'string' || typeof s === 'number'),
  },
  main: {
    name: 'main',
    summary: 'a main shipment for combine: {main_shipment: …}, the shipment that carries the parcels to the hub',
    usedBy: 'shipbook shipment combine <ids…> --main <file>',
    schema: () => z.strictObject({ main_shipment: shipmentRequest('shipment') }),
    detect: (d) => 'main_shipment' in d && !('shipments' in d),
  },
  consolidated: {
    name: 'consolidated',
    summary: 'a consolidated-mail booking: {shipments: [shipment, …], main_shipment: …} (POST /shipments/ each, PUT /shipments/, accept)',
    usedBy: 'shipbook book <file>',
    schema: () => consolidatedBooking,
    detect: (d) => isConsolidatedDocument(d),
  },
} as const satisfies Record<string, DocumentKind>;

/** The name of a kind: `quote`, `order`, `accept`, `shipment`, `combine`, `main`, `consolidated`. */
export type KindName = keyof typeof KINDS;

/** The validated value of a document of kind `K` (wire-ready). */
export type KindValue<K extends KindName> = z.output<ReturnType<(typeof KINDS)[K]['schema']>>;

/** Every kind name, in detection order. */
export const KIND_NAMES = Object.keys(KINDS) as KindName[];

/** True when `name` is a kind. */
export function isKindName(name: string): name is KindName {
  return Object.hasOwn(KINDS, name);
}

/**
 * The kind a mistyped name most likely means (`orders` → `order`, `Quote` → `quote`, `consolidate`
 * → `consolidated`): case-insensitive, a plural `s`, or a prefix of at least 4 letters; undefined when none fits.
 */
export function suggestKind(name: string): KindName | undefined {
  const n = name.trim().toLowerCase();
  if (n === '') return undefined;
  const singular = n.endsWith('s') ? n.slice(0, -1) : n;
  for (const k of KIND_NAMES) if (k === n || k === singular) return k;
  if (n.length >= 4) for (const k of KIND_NAMES) if (k.startsWith(n) || n.startsWith(k)) return k;
  return undefined;
}

/** The kind of a document (request wrapper removed) by its content, or `undefined` when none matches. */
export function detectKind(data: unknown): KindName | undefined {
  if (!isObject(data)) return undefined;
  return KIND_NAMES.find((name) => (KINDS[name] as DocumentKind).detect(data));
}

/** The `$schema` member a JSON file may hold to name its JSON Schema (ignored when reading). */
const SCHEMA_MEMBER: JsonSchema = { type: 'string', description: 'The JSON Schema of this file, for editors; shipbook ignores it.' };

/**
 * The JSON Schema (draft 2020-12) of a file of kind `name`, for editors: the document bare, in
 * the `request` wrapper, or in its short form, generated from the kind's zod schema (input side).
 */
export function kindJsonSchema(name: KindName): JsonSchema {
  const def = KINDS[name] as DocumentKind;
  const { $schema: _, $defs, ...body } = toInputJsonSchema(def.schema(() => new Date(0)));
  if (body.type === 'object') body.properties = { $schema: SCHEMA_MEMBER, ...(body.properties as object) };
  const ref = `#/$defs/${name}`;
  const alternatives: JsonSchema[] = [
    { $ref: ref },
    {
      type: 'object',
      properties: { $schema: SCHEMA_MEMBER, request: { $ref: ref } },
      required: ['request'],
      additionalProperties: false,
    },
  ];
  if (def.shorthand) alternatives.push(def.shorthand.jsonSchema(body, ref));
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: `shipbook ${name} file`,
    description: `${def.summary[0]!.toUpperCase()}${def.summary.slice(1)}; read by ${def.usedBy}. The request wrapper is optional. Generated by "shipbook schema ${name}"; limits that span fields (7500 AUD per shipment, pickup times, dropoff) are checked by "shipbook validate".`,
    anyOf: alternatives,
    $defs: { ...($defs as object | undefined), [name]: body },
  };
}
