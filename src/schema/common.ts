/**
 * Building blocks shared by the request and response schemas: limited strings, country codes,
 * decimal numbers, ISO 8601 dates and times, and the lenient readers for the response quirks
 * listed in the interface document.
 */
import { z } from 'zod';
import countries from 'i18n-iso-countries';
import { Money, parseAmountInput, readCents } from './money.js';

/**
 * Which request the shipment form is used in. The interface document states several limits
 * only "in create order" (35-character names, `lithium` required, `madein` two-letter,
 * `service.options` a list); create shipment and `main_shipment` (`shipment`) differ.
 */
export type ShipmentFormKind = 'order' | 'shipment';

/** A required, non-empty string with an optional maximum length, reported as `at most N characters (got M)`. */
export function text(max?: number) {
  let s = z.string({ error: (iss) => (iss.input === undefined ? 'required' : `expected text (got ${describe(iss.input)})`) });
  s = s.min(1, { error: 'must not be empty' });
  if (max !== undefined) {
    s = s.max(max, { error: (iss) => `at most ${max} characters (got ${String((iss.input as string).length)})` });
  }
  return s;
}

/** A short description of a value for error messages: its type, or the value if it is short. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return value.length > 20 ? `"${value.slice(0, 17)}..."` : `"${value}"`;
  return String(value);
}

/** Text that may be written as a number in YAML (postcodes, phone numbers): read as a string. */
export function textLike(max?: number) {
  return z.preprocess((v) => (typeof v === 'number' && Number.isFinite(v) ? String(v) : v), text(max));
}

/** True when `code` is an ISO 3166-1 alpha-2 country code (upper case), per i18n-iso-countries. */
export function isCountryCode(code: string): boolean {
  return /^[A-Z]{2}$/.test(code) && countries.isValid(code);
}

/** A two-letter ISO 3166-1 country code, any case on input, sent in upper case. */
export const countryCode = z
  .string({ error: (iss) => (iss.input === undefined ? 'required' : `expected a two-letter country code (got ${describe(iss.input)})`) })
  .transform((s) => s.trim().toUpperCase())
  .refine((s) => /^[A-Z]{2}$/.test(s), { error: (iss) => `expected a two-letter country code (got ${describe(iss.input)})` })
  .refine((s) => isCountryCode(s), { error: (iss) => `unknown country code ${describe(iss.input)} (ISO 3166-1 alpha-2, e.g. AU, US, GB)` });

/** A positive decimal number (a dimension or weight), as a JSON number or a decimal string. */
export const positiveDecimal = z.preprocess(
  (v) => (typeof v === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v),
  z
    .number({ error: (iss) => (iss.input === undefined ? 'required' : `expected a number (got ${describe(iss.input)})`) })
    .refine((n) => Number.isFinite(n) && n > 0, { error: (iss) => `must be greater than 0 (got ${String(iss.input)})` }),
);

/** An integer quantity of at least 1. */
export const quantity = z
  .number({ error: (iss) => (iss.input === undefined ? 'required' : `expected a whole number (got ${describe(iss.input)})`) })
  .int({ error: (iss) => `must be a whole number (got ${String(iss.input)})` })
  .min(1, { error: (iss) => `at least 1 (got ${String(iss.input)})` });

/**
 * An AUD amount typed by a user: a number or decimal string, at least 0, at most two decimals.
 * Parsed to {@link Money} (exact cents).
 */
export const amountInput = z
  .union([z.number(), z.string()], { error: (iss) => (iss.input === undefined ? 'required' : `expected an amount (got ${describe(iss.input)})`) })
  .transform((v, ctx) => {
    const parsed = parseAmountInput(v);
    if ('problem' in parsed) {
      ctx.addIssue({ code: 'custom', message: parsed.problem });
      return z.NEVER;
    }
    if (parsed.cents < 0) {
      ctx.addIssue({ code: 'custom', message: `must not be negative (got ${String(v)})` });
      return z.NEVER;
    }
    return new Money(parsed.cents);
  });

/** The currency of an item or quote: only AUD is supported (interface document, "Conventions"). */
export const currencyAud = z
  .string({ error: (iss) => (iss.input === undefined ? 'required' : `expected a currency code (got ${describe(iss.input)})`) })
  .transform((s) => s.trim().toUpperCase())
  .refine((s) => s === 'AUD', { error: (iss) => `only AUD is supported (got ${describe(iss.input)})` });

/** Package unit: `cm` (centimetres and kilograms) or `in` (inches and pounds), any case on input. */
export const packageUnit = z
  .string({ error: (iss) => (iss.input === undefined ? 'required' : `expected cm or in (got ${describe(iss.input)})`) })
  .transform((s) => s.trim().toLowerCase())
  .refine((s): s is 'cm' | 'in' => s === 'cm' || s === 'in', {
    error: (iss) => `must be cm (centimetres, kilograms) or in (inches, pounds) (got ${describe(iss.input)})`,
  }) as unknown as z.ZodType<'cm' | 'in', string>;

/** True when `s` is a real calendar date `YYYY-MM-DD`. */
export function isIsoDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

/**
 * An ISO 8601 calendar date `YYYY-MM-DD`. A response-style `YYYY-MM-DDT00:00:00` is accepted and
 * read as its date (interface document, "Pickup object").
 */
export const isoDate = z
  .string({ error: (iss) => (iss.input === undefined ? 'required' : `expected a date YYYY-MM-DD (got ${describe(iss.input)})`) })
  .transform((s) => s.trim().replace(/T00:00(:00(\.0+)?)?Z?$/, ''))
  .refine(isIsoDate, { error: (iss) => `expected an ISO 8601 date YYYY-MM-DD (got ${describe(iss.input)})` });

/** An ISO 8601 time of day `HH:MM` or `HH:MM:SS` (24-hour). */
export const isoTime = z
  .string({ error: (iss) => (iss.input === undefined ? 'required' : `expected a time HH:MM (got ${describe(iss.input)})`) })
  .transform((s) => s.trim())
  .refine((s) => /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/.test(s), {
    error: (iss) => `expected an ISO 8601 time HH:MM or HH:MM:SS (got ${describe(iss.input)})`,
  });

/** Seconds since midnight of an `HH:MM[:SS]` time. */
export function secondsOfDay(time: string): number {
  const [h, m, s] = time.split(':').map(Number);
  return (h ?? 0) * 3600 + (m ?? 0) * 60 + (s ?? 0);
}

/** An e-mail address. */
export const email = z
  .string({ error: (iss) => (iss.input === undefined ? 'required' : `expected an e-mail address (got ${describe(iss.input)})`) })
  .transform((s) => s.trim())
  .pipe(z.email({ error: (iss) => `not an e-mail address (got ${describe(iss.input)})` }));

/** Case-insensitive choice of one of `values`, sent in the canonical spelling given. */
export function choice<const T extends readonly [string, ...string[]]>(values: T, what: string) {
  const byKey = new Map(values.map((v) => [v.toLowerCase(), v] as const));
  return z
    .string({ error: (iss) => (iss.input === undefined ? 'required' : `expected ${what} (got ${describe(iss.input)})`) })
    .transform((s, ctx) => {
      const found = byKey.get(s.trim().toLowerCase());
      if (found === undefined) {
        ctx.addIssue({ code: 'custom', message: `must be one of ${values.join(', ')} (got ${describe(s)})` });
        return z.NEVER;
      }
      return found as T[number];
    });
}

// ---- Response readers: the quirks are read, not rejected (interface document). ----

/** A price member as the service sends it: a number or a decimal string, read exactly into {@link Money}. */
export const moneyResponse = z.union([z.number(), z.string()]).transform((v, ctx) => {
  const cents = readCents(v);
  if (cents === undefined) {
    ctx.addIssue({ code: 'custom', message: `not a decimal amount (got ${describe(v)})` });
    return z.NEVER;
  }
  return new Money(cents);
});

/** A string the service may send as a number (postcodes, ids). */
export const looseText = z.union([z.string(), z.number()]).transform((v) => String(v));
