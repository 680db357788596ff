/**
 * Accept order and its payment object: interface document, "Accept order: PUT
 * /orders/{order_id}/accept/", laid out as docs/assumptions.md decides: `request.order` holds `id`,
 * `payment` and `options.digital_signature`; `request.options` holds `send_documents` and
 * `account_number`; `request.callback` the URL. `save` is sent under `credit_card`, and on input
 * also accepted under `options`.
 */
import * as z from 'zod';
import { describe } from './common.js';
import { toInputJsonSchema, withJsonSchema } from './jsonschema.js';
import { digitalSignature } from './shipment.js';

/** Payment types. */
export const PAYMENT_TYPES = ['credit_card', 'stored_card', 'credit'] as const;
/** A payment type of accept order: `credit_card`, `stored_card` or `credit`. */
export type PaymentType = (typeof PAYMENT_TYPES)[number];

export { luhnValid } from './luhn.js';
import { luhnValid } from './luhn.js';

/** True when an `MM/YY` expiry is a real month that has not ended before `now`. */
export function expiryValid(expire: string, now: Date = new Date()): 'ok' | 'format' | 'past' {
  const m = /^(\d{2})\/(\d{2})$/.exec(expire);
  if (!m) return 'format';
  const month = Number(m[1]);
  if (month < 1 || month > 12) return 'format';
  const year = 2000 + Number(m[2]);
  const endOfMonth = Date.UTC(year, month, 1); // first instant of the following month
  return endOfMonth <= now.getTime() ? 'past' : 'ok';
}

/** Card details for `credit_card`: number (Luhn), CVV (3 or 4 digits), holder name, `MM/YY` expiry not in the past. */
export function creditCardRequest(now: () => Date = () => new Date()) {
  return z.strictObject(
    {
      number: z
        .union([z.string(), z.number()], { error: (iss) => (iss.input === undefined ? 'required' : 'expected a card number') })
        .transform((v) => String(v).replace(/[\s-]/g, ''))
        .refine(luhnValid, { error: 'not a valid card number (12 to 19 digits passing the Luhn check)' }),
      cvv: withJsonSchema(
        z
          .union([z.string(), z.number()], { error: (iss) => (iss.input === undefined ? 'required' : 'expected a CVV') })
          .transform((v) => String(v).trim())
          .refine((v) => /^\d{3,4}$/.test(v), { error: 'must be 3 or 4 digits' }),
        {
          anyOf: [
            { type: 'string', pattern: '^\\s*\\d{3,4}\\s*$' },
            { type: 'integer', minimum: 100, maximum: 9999 },
          ],
        },
      ),
      holder_name: z
        .string({ error: (iss) => (iss.input === undefined ? 'required' : "expected the card holder's name as text") })
        .min(1, { error: 'must not be empty' })
        .max(100, { error: 'at most 100 characters' }),
      expire: withJsonSchema(
        z
          // Card fields never echo their content: a CVV or card number typed in the wrong place would be printed.
          .string({ error: (iss) => (iss.input === undefined ? 'required' : 'expected MM/YY as text') })
          .transform((v) => v.trim())
          .superRefine((v, ctx) => {
            const r = expiryValid(v, now());
            if (r === 'format') ctx.addIssue({ code: 'custom', message: 'expected MM/YY, two-digit month and year' });
            if (r === 'past') ctx.addIssue({ code: 'custom', message: 'the card has expired' });
          }),
        { type: 'string', pattern: '^\\s*(0[1-9]|1[0-2])/\\d{2}\\s*$', examples: ['08/29'] },
      ),
      save: z.boolean({ error: 'expected true or false' }).optional(),
    },
    { error: (iss) => (iss.input === undefined ? 'required for credit_card' : 'expected card details') },
  );
}
/** Card details as {@link creditCardRequest} reads them (a secret: never printed nor logged). */
export type CreditCardRequest = z.output<ReturnType<typeof creditCardRequest>>;

/** The payment object: `credit` needs nothing; `stored_card` a stored card id; `credit_card` card details. */
export function paymentRequest(now: () => Date = () => new Date()) {
  return z
    .strictObject(
      {
        type: z.enum(PAYMENT_TYPES, {
          error: (iss) => (iss.input === undefined ? 'required' : `must be one of credit_card, stored_card, credit (got ${describe(iss.input)})`),
        }),
        credit_card: withJsonSchema(z.unknown(), () => {
          const { $schema: _, ...card } = toInputJsonSchema(creditCardRequest(now));
          return { anyOf: [{ type: 'string', minLength: 1, description: 'A stored card id (stored_card).' }, card] };
        }).optional(),
        options: z.strictObject({ save: z.boolean({ error: 'expected true or false' }).optional() }).optional(),
      },
      { error: (iss) => (iss.input === undefined ? 'required' : 'expected a payment object') },
    )
    .transform((p, ctx) => {
      if (p.type !== 'credit_card') {
        // "save: optional, only for credit_card": never dropped without a word.
        const onCard = typeof p.credit_card === 'object' && p.credit_card !== null && 'save' in p.credit_card;
        const refuse = (path: PropertyKey[]) =>
          ctx.addIssue({ code: 'custom', path, message: `save is only for credit_card: a ${p.type} payment stores no card; remove it` });
        if (p.options?.save !== undefined) refuse(['options', 'save']);
        if (onCard) refuse(['credit_card', 'save']);
        if (p.options?.save !== undefined || onCard) return z.NEVER;
      }
      if (p.type === 'credit') return { type: 'credit' as const };
      if (p.type === 'stored_card') {
        const id = typeof p.credit_card === 'object' && p.credit_card !== null ? (p.credit_card as { id?: unknown }).id : p.credit_card;
        if (typeof id !== 'string' && typeof id !== 'number') {
          ctx.addIssue({ code: 'custom', path: ['credit_card'], message: 'required for stored_card: the stored card id' });
          return z.NEVER;
        }
        return { type: 'stored_card' as const, credit_card: String(id) };
      }
      const card = creditCardRequest(now).safeParse(p.credit_card);
      if (!card.success) {
        for (const issue of card.error.issues) ctx.addIssue({ ...issue, code: 'custom', path: ['credit_card', ...issue.path] } as never);
        return z.NEVER;
      }
      const save = card.data.save ?? p.options?.save;
      return { type: 'credit_card' as const, credit_card: { ...card.data, ...(save === undefined ? {} : { save }) } };
    });
}
/** The payment object as {@link paymentRequest} reads it, one member per payment type. */
export type PaymentRequest = z.output<ReturnType<typeof paymentRequest>>;

/** Body of accept order inside `request`. */
export function acceptRequest(now: () => Date = () => new Date()) {
  return z.strictObject(
    {
      order: z.strictObject(
        {
          id: z.union([z.string(), z.number()]).transform(String).optional(),
          payment: paymentRequest(now),
          options: z.strictObject({ digital_signature: digitalSignature.optional() }).optional(),
        },
        { error: (iss) => (iss.input === undefined ? 'required' : 'expected an order object') },
      ),
      options: z
        .strictObject({
          send_documents: z.boolean({ error: 'expected true or false' }).optional(),
          account_number: z.union([z.string(), z.number()]).transform(String).optional(),
        })
        .optional(),
      callback: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' }).optional(),
    },
    { error: (iss) => `expected an accept request (got ${describe(iss.input)})` },
  );
}
/** The body of accept order as {@link acceptRequest} reads it. */
export type AcceptRequest = z.output<ReturnType<typeof acceptRequest>>;
