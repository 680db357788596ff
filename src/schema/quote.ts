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

/** One end of a route as an address or a `--from`/`--to` flag gives it: country, postcode, city (suburb). */
interface RoutePlace {
  country?: unknown;
  postcode?: unknown;
  city?: unknown;
}

/**
 * The body of get quote (interface "Get quote") for a route and its packages, before it is
 * checked: the places' country, postcode and city as the `collection_…` and `delivery_…` fields,
 * the value of the goods and the insurance when given, in AUD. The caller checks it with
 * {@link quoteRequest} and reports problems in its own terms (a flag, a file's shipment).
 */
export function quoteRequestOf(route: { from: RoutePlace; to: RoutePlace; packages: unknown; value?: unknown; insurance?: unknown }): Record<string, unknown> {
  const { from, to } = route;
  return {
    collection_country: from.country,
    collection_postcode: from.postcode,
    collection_city: from.city,
    delivery_country: to.country,
    delivery_postcode: to.postcode,
    delivery_city: to.city,
    packages: route.packages,
    ...(route.value !== undefined ? { value: route.value } : {}),
    ...(route.insurance !== undefined ? { insurance: route.insurance } : {}),
    currency: 'AUD',
  };
}

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
