/**
 * The response envelope and the callback body: interface document, "Conventions", "Errors" and
 * "Events". Every response (and every callback) has `message`, `code` and `result`.
 */
import * as z from 'zod';
import { lazySchema } from './lazy.js';
import { orderResponse } from './order.js';

/** The envelope, read leniently: `code` as a number or numeric string; `result` any object. */
export const envelope = lazySchema(() =>
  z.looseObject({
    message: z
      .string()
      .nullish()
      .transform((m) => m ?? ''),
    code: z.union([z.number().int(), z.string().regex(/^\d+$/).transform(Number)]),
    result: z.unknown().optional(),
  }),
);

/** Field errors in an error envelope's `result.errors` (docs/assumptions.md), read from any shape we can. */
export const fieldErrors = lazySchema(() =>
  z.array(z.looseObject({ field: z.union([z.string(), z.number()]).transform(String).optional(), message: z.string().optional() })).catch([]),
);

/** Wraps a body in the top-level `request` object every request uses. */
export function wrapRequest<T>(body: T): { request: T } {
  return { request: body };
}

/**
 * The callback body: an envelope with `result.order` (`id`, `status` `processed`, `shipments[]`
 * with `id` and `tracking_number`). It can also report errors (a `code` other than 200).
 */
export const callbackBody = lazySchema(() =>
  envelope.extend({
    result: z.looseObject({ order: orderResponse.optional() }).nullish(),
  }),
);
/** A callback body as {@link callbackBody} reads it: the envelope with `result.order`. */
export type CallbackBody = z.output<typeof callbackBody>;

/**
 * Reads a callback body. A success (`code` 2xx) must carry a well-formed `result.order`; an error
 * callback uses the ordinary error envelope ("Errors": the same envelope reports errors), so its
 * `result` may be anything (`{}`, field errors, an order without an id): then only `code` and
 * `message` are kept, with `result.order` when it fits the order form.
 */
export function parseCallbackBody(raw: unknown): ReturnType<typeof callbackBody.safeParse> {
  const parsed = callbackBody.safeParse(raw);
  if (parsed.success) return parsed;
  const plain = envelope.safeParse(raw);
  if (!plain.success || (plain.data.code >= 200 && plain.data.code < 300)) return parsed;
  // The order's id and status are kept when they are text: the callback still names its order.
  const order = (plain.data.result as { order?: { id?: unknown; status?: unknown } } | null | undefined)?.order;
  const named =
    typeof order?.id === 'string' && order.id !== ''
      ? { order: { id: order.id, ...(typeof order.status === 'string' ? { status: order.status } : {}) } }
      : null;
  return callbackBody.safeParse({ code: plain.data.code, message: plain.data.message, result: named });
}
