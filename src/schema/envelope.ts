/**
 * The response envelope and the callback body: interface document, "Conventions", "Errors" and
 * "Events". Every response (and every callback) has `message`, `code` and `result`.
 */
import * as z from 'zod';
import { orderResponse } from './order.js';

/** The envelope, read leniently: `code` as a number or numeric string; `result` any object. */
export const envelope = z.looseObject({
  message: z.string().nullish().transform((m) => m ?? ''),
  code: z.union([z.number().int(), z.string().regex(/^\d+$/).transform(Number)]),
  result: z.unknown().optional(),
});
export type Envelope = z.output<typeof envelope>;

/** Field errors in an error envelope's `result.errors` (PRODUCT.md), read from any shape we can. */
export const fieldErrors = z
  .array(z.looseObject({ field: z.union([z.string(), z.number()]).transform(String).optional(), message: z.string().optional() }))
  .catch([]);

/** Wraps a body in the top-level `request` object every request uses. */
export function wrapRequest<T>(body: T): { request: T } {
  return { request: body };
}

/**
 * The callback body: an envelope with `result.order` (`id`, `status` `processed`, `shipments[]`
 * with `id` and `tracking_number`). It can also report errors (a `code` other than 200).
 */
export const callbackBody = envelope.extend({
  result: z.looseObject({ order: orderResponse.optional() }).nullish(),
});
export type CallbackBody = z.output<typeof callbackBody>;
