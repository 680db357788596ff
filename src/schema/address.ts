/**
 * Address object (collection and delivery) and Pickup object: interface document,
 * "Address object (collection and delivery)".
 */
import { z } from 'zod';
import { countryCode, describe, email, isoDate, isoTime, looseText, secondsOfDay, text, textLike, type ShipmentFormKind } from './common.js';

/** Pickup window on a collection: ISO 8601 date, earliest and latest time; earliest before latest. */
export const pickupRequest = z
  .object({
    date: isoDate,
    time_earliest: isoTime,
    time_latest: isoTime,
  })
  .superRefine((p, ctx) => {
    if (secondsOfDay(p.time_earliest) >= secondsOfDay(p.time_latest)) {
      ctx.addIssue({
        code: 'custom',
        path: ['time_latest'],
        message: `must be after time_earliest (${p.time_earliest}, got ${p.time_latest})`,
      });
    }
  });
export type PickupRequest = z.output<typeof pickupRequest>;

/**
 * Address lines: first line required, at most 3 lines; in create order each at most 35 characters.
 * Trailing empty lines (as the service pads them in responses) are dropped before sending.
 */
export function addressLines(kind: ShipmentFormKind) {
  const line = z.string({ error: (iss) => `expected text (got ${describe(iss.input)})` }).max(35, {
    error: (iss) => `at most 35 characters (got ${String((iss.input as string).length)})`,
  });
  return z
    .array(kind === 'order' ? line : z.string({ error: (iss) => `expected text (got ${describe(iss.input)})` }), {
      error: (iss) => (iss.input === undefined ? 'required' : `expected a list of address lines (got ${describe(iss.input)})`),
    })
    .transform((lines) => {
      const out = [...lines];
      while (out.length > 1 && out[out.length - 1]!.trim() === '') out.pop();
      return out;
    })
    .superRefine((lines, ctx) => {
      if (lines.length === 0 || lines[0]!.trim() === '') {
        ctx.addIssue({ code: 'custom', path: [0], message: 'the first address line is required' });
      }
      if (lines.length > 3) ctx.addIssue({ code: 'custom', message: `at most 3 address lines (got ${lines.length})` });
    });
}

/** The fields common to collection and delivery, with the create-order 35-character limits when `kind` is `order`. */
function addressShape(kind: ShipmentFormKind) {
  const limit = kind === 'order' ? 35 : undefined;
  return {
    first_name: text(limit),
    last_name: text(limit),
    company: text(limit).optional(),
    email,
    phone: textLike(),
    country: countryCode,
    postcode: textLike(),
    city: text(),
    address_lines: addressLines(kind),
  };
}

/** Delivery address (request form). */
export function deliveryRequest(kind: ShipmentFormKind) {
  return z.object(addressShape(kind), { error: (iss) => (iss.input === undefined ? 'required' : `expected an address (got ${describe(iss.input)})`) });
}

/** Collection address (request form): a delivery address plus `pickup`, whose need is decided by the shipment. */
export function collectionRequest(kind: ShipmentFormKind) {
  return z.object(
    { ...addressShape(kind), pickup: pickupRequest.optional() },
    { error: (iss) => (iss.input === undefined ? 'required' : `expected an address (got ${describe(iss.input)})`) },
  );
}
export type AddressRequest = z.output<ReturnType<typeof deliveryRequest>>;
export type CollectionRequest = z.output<ReturnType<typeof collectionRequest>>;

/**
 * Address in a response: lenient. `address_lines` arrives padded to three entries with empty
 * strings and `pickup.date` as `<date>T00:00:00`; both are read back to their plain forms.
 */
export const addressResponse = z.looseObject({
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
      date: z.string().transform((d) => d.replace(/T.*$/, '')).optional(),
      time_earliest: z.string().optional(),
      time_latest: z.string().optional(),
    })
    .nullish(),
});
export type AddressResponse = z.output<typeof addressResponse>;
