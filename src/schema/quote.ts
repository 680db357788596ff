/** Get quote: interface document, "Get quote: POST /quote/", "GET /quote/" and "Quote service entry". */
import { TEXT_LIMITS } from './limits.js';
import * as z from 'zod';
import { lazySchema } from './lazy.js';
import { amountInput, countryCode, currencyAud, describe, looseText, text, textLike, textOrEmpty } from './common.js';
import { Money } from './money.js';
import { packagesRequest } from './package.js';
import { priceResponse } from './price.js';

/**
 * `insurance` of a quote: a decimal amount in AUD ("Get quote": "decimal number, insurance
 * amount"), sent as a JSON number. One of the document's examples sends a boolean-looking string
 * instead, so `true`/`false` (booleans or text, any case) are accepted too and sent as that
 * example sends them: the strings `"true"`/`"false"`, read as "insure the declared value" and no
 * insurance.
 */
const quoteInsurance = lazySchema(() =>
  z.union([z.boolean(), z.number(), z.string()]).transform((v, ctx): Money | 'true' | 'false' => {
    if (typeof v === 'boolean') return v ? 'true' : 'false';
    if (typeof v === 'string' && /^(true|false)$/i.test(v.trim())) return v.trim().toLowerCase() === 'true' ? 'true' : 'false';
    const parsed = amountInput.safeParse(v);
    if (!parsed.success) {
      ctx.addIssue({ code: 'custom', message: `expected an insurance amount in AUD or true/false (got ${describe(v)})` });
      return z.NEVER;
    }
    return parsed.data;
  }),
);

/** Body of get quote inside `request`. Amounts are AUD; packages in `cm`/kg or `in`/lb. */
export const quoteRequest = lazySchema(() =>
  z.strictObject(
    {
      collection_country: countryCode,
      collection_postcode: textLike(TEXT_LIMITS.postcode),
      collection_city: text(TEXT_LIMITS.city),
      delivery_country: countryCode,
      delivery_postcode: textLike(TEXT_LIMITS.postcode),
      delivery_city: text(TEXT_LIMITS.city),
      packages: packagesRequest,
      insurance: quoteInsurance.optional(),
      value: amountInput.optional(),
      currency: currencyAud,
    },
    { error: (iss) => `expected a quote request (got ${describe(iss.input)})` },
  ),
);
/** The body of get quote as {@link quoteRequest} reads it (amounts AUD; packages in `cm`/kg or `in`/lb). */
export type QuoteRequest = z.output<typeof quoteRequest>;

/** A quote service entry: code, name (may hold line breaks), carrier, `global_mail`, price. */
export const quoteServiceEntry = lazySchema(() =>
  z.looseObject({
    code: looseText,
    name: textOrEmpty,
    carrier: textOrEmpty,
    global_mail: z
      .union([z.boolean(), z.string(), z.number()])
      .transform((v) => v === true || v === 1 || (typeof v === 'string' && /^(true|1|yes)$/i.test(v)))
      .default(false),
    price: priceResponse,
  }),
);
/** One service of a quote answer as {@link quoteServiceEntry} reads it (price as exact Money, AUD). */
export type QuoteServiceEntry = z.output<typeof quoteServiceEntry>;

/** `result` of get quote: `{services: [entry, …]}`. */
export const quoteResult = lazySchema(() => z.looseObject({ services: z.array(quoteServiceEntry).default([]) }));
