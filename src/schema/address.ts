/**
 * Address object (collection and delivery) and Pickup object: interface document,
 * "Address object (collection and delivery)".
 */
import { TEXT_LIMITS } from './limits.js';
import * as z from 'zod';
import { lazySchema } from './lazy.js';
import {
  charCount,
  countryCode,
  describe,
  email,
  hasUtcOffset,
  isIsoTime,
  pickupDate,
  isoTime,
  looseText,
  optionalText,
  secondsOfDay,
  text,
  textLike,
  type ShipmentFormKind,
} from './common.js';
import { withJsonSchema } from './jsonschema.js';

/** Pickup window on a collection: ISO 8601 date, earliest and latest time; earliest before latest. */
export const pickupRequest = lazySchema(() =>
  z
    .strictObject(
      {
        date: pickupDate,
        time_earliest: isoTime,
        time_latest: isoTime,
      },
      { error: (iss) => (iss.input === undefined ? 'required' : `expected a pickup window: date, time_earliest, time_latest (got ${describe(iss.input)})`) },
    )
    .superRefine((p, ctx) => {
      // A time that is not ISO 8601 has its own message already: no second one about the order.
      if (!isIsoTime(p.time_earliest) || !isIsoTime(p.time_latest)) return;
      // Both with an offset: compared in UTC; otherwise as clock times of the same place.
      const inUtc = hasUtcOffset(p.time_earliest) && hasUtcOffset(p.time_latest);
      const at = (t: string) => (inUtc ? secondsOfDay(t) : secondsOfDay(t.replace(/(Z|[+-][\d:]+)$/, '')));
      if (at(p.time_earliest) >= at(p.time_latest)) {
        ctx.addIssue({
          code: 'custom',
          path: ['time_latest'],
          message: `must be after time_earliest (${p.time_earliest}, got ${p.time_latest})`,
        });
      }
    }),
);
/** A pickup window as {@link pickupRequest} reads it: ISO 8601 date, earliest and latest time. */
export type PickupRequest = z.output<typeof pickupRequest>;

/** Largest number of address lines (interface document, "Address object"). */
const MAX_ADDRESS_LINES = 3;

/**
 * Address lines: first line required, at most 3 lines; in create order each at most 35 characters.
 * Trailing empty lines (as the service pads them in responses) are dropped before sending.
 */
export function addressLines(kind: ShipmentFormKind) {
  const max = kind === 'order' ? 35 : undefined;
  let line = z.string({ error: (iss) => `expected text (got ${describe(iss.input)})` });
  if (max !== undefined) {
    line = line.refine((v) => charCount(v) <= max, { error: (iss) => `at most ${max} characters (got ${charCount(iss.input as string)})` });
  }
  const lineJson = { type: 'string', ...(max === undefined ? {} : { maxLength: max }) };
  const schema = z
    .array(line, {
      error: (iss) => (iss.input === undefined ? 'required' : `expected a list of address lines (got ${describe(iss.input)})`),
    })
    .superRefine((lines, ctx) => {
      const first = lines[0];
      if (first === undefined || (typeof first === 'string' && first.trim() === '')) {
        ctx.addIssue({ code: 'custom', path: [0], message: 'the first address line is required' });
      }
      if (lines.length > MAX_ADDRESS_LINES) {
        ctx.addIssue({ code: 'custom', path: [MAX_ADDRESS_LINES], message: `at most ${MAX_ADDRESS_LINES} address lines (got ${lines.length})` });
      }
    })
    .transform((lines) => {
      const out = [...lines];
      while (out.length > 1 && out[out.length - 1]!.trim() === '') out.pop();
      return out;
    });
  return withJsonSchema(schema, {
    type: 'array',
    minItems: 1,
    maxItems: MAX_ADDRESS_LINES,
    prefixItems: [{ ...lineJson, pattern: '\\S' }],
    items: lineJson,
  });
}

/** The fields common to collection and delivery, with the create-order 35-character limits when `kind` is `order`. */
export function addressShape(kind: ShipmentFormKind) {
  const limit = kind === 'order' ? 35 : TEXT_LIMITS.text;
  return {
    first_name: text(limit),
    last_name: text(limit),
    company: optionalText(limit),
    email,
    phone: textLike(TEXT_LIMITS.phone),
    country: countryCode,
    postcode: textLike(TEXT_LIMITS.postcode),
    city: text(TEXT_LIMITS.city),
    address_lines: addressLines(kind),
  };
}

/** Delivery address (request form). */
export function deliveryRequest(kind: ShipmentFormKind) {
  return z.strictObject(addressShape(kind), { error: (iss) => (iss.input === undefined ? 'required' : `expected an address (got ${describe(iss.input)})`) });
}

/** Collection address (request form): a delivery address plus `pickup`, whose need is decided by the shipment. */
export function collectionRequest(kind: ShipmentFormKind) {
  return z.strictObject(
    { ...addressShape(kind), pickup: pickupRequest.optional() },
    { error: (iss) => (iss.input === undefined ? 'required' : `expected an address (got ${describe(iss.input)})`) },
  );
}
/** A delivery address as {@link deliveryRequest} reads it (request form). */
export type AddressRequest = z.output<ReturnType<typeof deliveryRequest>>;
/** A collection address as {@link collectionRequest} reads it: a delivery address plus `pickup`. */
export type CollectionRequest = z.output<ReturnType<typeof collectionRequest>>;

/**
 * Address in a response: lenient. `address_lines` arrives padded to three entries with empty
 * strings and `pickup.date` as `<date>T00:00:00`; both are read back to their plain forms.
 */
export const addressResponse = lazySchema(() =>
  z.looseObject({
    first_name: z.string().optional(),
    last_name: z.string().optional(),
    company: z.string().nullish(),
    email: z.string().optional(),
    phone: looseText.optional(),
    country: z.string().optional(),
    postcode: looseText.optional(),
    city: z.string().optional(),
    address_lines: z
      .array(z.string().nullable())
      .transform((lines) => lines.map((l) => l ?? '').filter((l, i) => i === 0 || l.trim() !== ''))
      .optional(),
    pickup: z
      .looseObject({
        date: z
          .string()
          .transform((d) => d.replace(/T.*$/, ''))
          .optional(),
        time_earliest: z.string().optional(),
        time_latest: z.string().optional(),
      })
      .nullish(),
  }),
);
