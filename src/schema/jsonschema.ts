/**
 * JSON Schema (draft 2020-12) of the input side of the request schemas, for editors: the YAML
 * language server gives completion, hover descriptions and red squiggles from it. Generated from
 * the same zod schemas that validate files, with `z.toJSONSchema(schema, { io: 'input' })`.
 *
 * Where zod cannot see what a schema accepts (a preprocess that reads `"2000"` and `2000` alike,
 * a case-insensitive choice, a limit counted in characters by a refinement) the schema carries a
 * hint registered with {@link withJsonSchema}, which replaces zod's guess. Cross-field rules
 * (earliest before latest, the 7500 AUD total, `dropoff` leaving Australia) cannot be said in
 * JSON Schema: `shipbook validate` checks them.
 */
import * as z from 'zod';
import { shareWithStandIns, withoutStandIns } from './lazy.js';

/** A JSON Schema object, as plain JSON. */
export type JsonSchema = Record<string, unknown>;

/** JSON Schema to use instead of zod's for particular schema instances (input side). */
export const inputJsonSchemaHints = z.registry<{ jsonSchema: JsonSchema | (() => JsonSchema) }>();
shareWithStandIns(inputJsonSchemaHints);

/**
 * Registers the JSON Schema that describes what `schema` accepts on input (or a function that
 * builds it when first needed), and returns `schema` (the same instance, so it can be used inline).
 */
export function withJsonSchema<T extends z.ZodType>(schema: T, jsonSchema: JsonSchema | (() => JsonSchema)): T {
  inputJsonSchemaHints.add(schema, { jsonSchema });
  return schema;
}

/** Escapes a string for use in a regular expression. */
function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A regular expression (JSON Schema `pattern`, no flags) matching `word` in any case: `[Cc][Mm]`. */
export function anyCasePattern(word: string): string {
  return [...word]
    .map((ch) => {
      const lo = ch.toLowerCase();
      const up = ch.toUpperCase();
      if (lo === up) return ch === ' ' ? ' ' : escapeRegExp(ch);
      return `[${up}${lo}]`;
    })
    .join('');
}

/**
 * JSON Schema of a case-insensitive choice: the canonical spellings as `enum` (editors offer them
 * for completion) or any case of them, with surrounding blanks, as validation accepts.
 */
export function choiceJsonSchema(values: readonly string[], description?: string): JsonSchema {
  return {
    type: 'string',
    anyOf: [{ enum: [...values] }, { pattern: `^\\s*(${values.map(anyCasePattern).join('|')})\\s*$` }],
    ...(description ? { description } : {}),
  };
}

/**
 * Short descriptions of fields by name, shown by editors on hover. Applied wherever a property of
 * that name has no description of its own. Units: `cm` means centimetres and kilograms, `in`
 * inches and pounds; money is AUD.
 */
const FIELD_DESCRIPTIONS: Readonly<Record<string, string>> = {
  transient_id: 'Your own id for the shipment, echoed in the response (at most 35 characters in create order).',
  service: 'The service: a code taken from a quote response (shipbook quote), and options.',
  code: 'A service code from a quote response, e.g. SB-DOM-ROAD.',
  collection_type: 'pickup (collected at the collection address in the pickup window) or dropoff (only for shipments leaving Australia).',
  collection: 'Where the parcel is collected; required with a pickup window for collection_type pickup.',
  delivery: 'Where the parcel goes.',
  first_name: 'First name (at most 35 characters in create order).',
  last_name: 'Last name (at most 35 characters in create order).',
  company: 'Company (at most 35 characters in create order).',
  email: 'E-mail address.',
  phone: 'Phone number.',
  country: 'Two-letter ISO 3166-1 country code, e.g. AU, US, GB.',
  postcode: 'Postcode.',
  city: 'City or suburb.',
  address_lines: 'One to three address lines; the first is required (each at most 35 characters in create order).',
  pickup: 'Pickup window: date (YYYY-MM-DD), earliest and latest time (HH:MM), earliest before latest.',
  date: 'Pickup date, ISO 8601 YYYY-MM-DD, or next (the next collection day after the cut-off, weekends and public holidays), today or tomorrow; shipbook sends the date.',
  time_earliest: 'Earliest pickup time, ISO 8601 (24-hour): HH:MM, HH:MM:SS, with a fraction or a UTC offset such as 09:00:00+10:00.',
  time_latest: 'Latest pickup time, ISO 8601 (24-hour) like time_earliest; after time_earliest (in UTC when both have an offset).',
  packages: 'The packages, at least one.',
  length: 'Length: centimetres with unit cm, inches with unit in; greater than 0.',
  width: 'Width: centimetres with unit cm, inches with unit in; greater than 0.',
  height: 'Height: centimetres with unit cm, inches with unit in; greater than 0.',
  weight: 'Weight: kilograms with unit cm, pounds with unit in; greater than 0.',
  unit: 'cm (centimetres and kilograms) or in (inches and pounds).',
  customs_information: 'Customs information: reason, tax status, lithium, items.',
  reason: 'Reason for export: Gift, Purchase, Sale, Sample, Return, Repair or Personal Effects (any case).',
  tax_status: 'Private or Company (any case).',
  lithium: 'Whether the shipment contains lithium products (required in create order).',
  items: 'The items, at least one; the total of quantity × value is at most 7500 AUD per shipment.',
  quantity: 'How many of this item: a whole number, at least 1.',
  value: 'Value in AUD, at most two decimals.',
  currency: 'Currency: only AUD is supported.',
  madein: 'Country of manufacture: two-letter ISO 3166-1 code in create order.',
  description: 'A short description (at most 35 characters in create order; customs description at most 512).',
  digital_signature: 'A PNG or JPG image, BASE64-encoded.',
  collection_country: 'Two-letter ISO 3166-1 country code where the parcel is collected.',
  collection_postcode: 'Postcode where the parcel is collected.',
  collection_city: 'City where the parcel is collected.',
  delivery_country: 'Two-letter ISO 3166-1 country code where the parcel goes.',
  delivery_postcode: 'Postcode where the parcel goes.',
  delivery_city: 'City where the parcel goes.',
  insurance: 'Insurance: an amount in AUD, or true to insure the declared value.',
  payment: 'Payment: type credit_card (card details), stored_card (a stored card id) or credit (credit account).',
  credit_card: 'Card details for credit_card, or the stored card id for stored_card.',
  number: 'Card number (passes the Luhn check). Never commit a real card.',
  cvv: 'Card verification number: 3 or 4 digits.',
  holder_name: 'Name on the card.',
  expire: 'Expiry MM/YY, not in the past.',
  save: 'Store the card for later (credit_card only).',
  send_documents: 'E-mail the tracking number and documents to the recipient and the order creator.',
  account_number: 'Carrier account number.',
  callback: 'An http(s) URL called when the order has been processed.',
  main_shipment: 'The shipment that carries the whole order to the place where it is split.',
};

/** Adds {@link FIELD_DESCRIPTIONS} to every property that has none, throughout `schema`. */
function describeFields(schema: unknown): void {
  if (Array.isArray(schema)) {
    for (const s of schema) describeFields(s);
    return;
  }
  if (schema === null || typeof schema !== 'object') return;
  const obj = schema as JsonSchema;
  const props = obj.properties;
  if (props !== null && typeof props === 'object' && !Array.isArray(props)) {
    for (const [name, prop] of Object.entries(props as Record<string, unknown>)) {
      const d = FIELD_DESCRIPTIONS[name];
      if (d && prop !== null && typeof prop === 'object' && !('description' in prop) && !('$ref' in prop)) {
        (prop as JsonSchema).description = d;
      }
    }
  }
  for (const value of Object.values(obj)) describeFields(value);
}

/**
 * The JSON Schema (draft 2020-12) of what `schema` accepts on input: zod's, with the hints of
 * {@link withJsonSchema} and the field descriptions. Objects that reject unknown fields say
 * `additionalProperties: false`, so editors flag a misspelt field.
 */
export function toInputJsonSchema(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(withoutStandIns(schema), {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
    override(ctx) {
      const hint = inputJsonSchemaHints.get(ctx.zodSchema as unknown as z.ZodType);
      if (!hint) return;
      const target = ctx.jsonSchema as JsonSchema;
      const description = target.description;
      for (const key of Object.keys(target)) delete target[key];
      const replacement = typeof hint.jsonSchema === 'function' ? hint.jsonSchema() : hint.jsonSchema;
      Object.assign(target, structuredClone(replacement));
      if (description !== undefined && target.description === undefined) target.description = description;
    },
  }) as JsonSchema;
  describeFields(json);
  return json;
}
