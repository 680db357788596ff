/**
 * Building blocks shared by the request and response schemas: limited strings, country codes,
 * decimal numbers, ISO 8601 dates and times, and the lenient readers for the response quirks
 * listed in the interface document.
 */
import * as z from 'zod';
import { lazySchema } from './lazy.js';
import countryCodeTable from 'i18n-iso-countries/codes.json' with { type: 'json' };
import { anyCasePattern, choiceJsonSchema, withJsonSchema } from './jsonschema.js';
import { suggestCountryCode } from './country-names.js';
import { Money, parseAmountInput, readCents } from './money.js';

/**
 * Which request the shipment form is used in. The interface document states several limits
 * only "in create order" (35-character names, `lithium` required, `madein` two-letter,
 * `service.options` a list); create shipment and `main_shipment` (`shipment`) differ.
 */
export type ShipmentFormKind = 'order' | 'shipment';

/** The length of `s` in characters (Unicode code points, as JSON Schema counts them), not UTF-16 units. */
export function charCount(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/**
 * A required, non-empty string with an optional maximum length in characters (code points),
 * reported as `at most N characters (got M)`.
 */
export function text(max?: number) {
  const s = z
    .string({ error: (iss) => (iss.input === undefined ? 'required' : `expected text (got ${describe(iss.input)})`) })
    .min(1, { error: 'must not be empty' });
  if (max === undefined) return s;
  return withJsonSchema(
    s.refine((v) => charCount(v) <= max, { error: (iss) => `at most ${max} characters (got ${charCount(iss.input as string)})`, abort: true }),
    { type: 'string', minLength: 1, maxLength: max },
  );
}

/**
 * An optional string with an optional maximum length in characters: missing, `null` or blank
 * (as fixture templates often leave it) reads as absent.
 */
export function optionalText(max?: number) {
  const inner = text(max);
  return withJsonSchema(
    z.preprocess((v) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v), inner.optional()),
    { anyOf: [{ type: 'string', ...(max === undefined ? {} : { maxLength: max }) }, { type: 'null' }] },
  ).optional();
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
  return withJsonSchema(
    z.preprocess((v) => (typeof v === 'number' && Number.isFinite(v) ? String(v) : v), text(max)),
    { type: ['string', 'number'], minLength: 1, ...(max === undefined ? {} : { maxLength: max }) },
  );
}

/** A row of i18n-iso-countries' code table: alpha-2, alpha-3, numeric. */
type CountryCodeRow = readonly [string, string, string];
let alpha2Codes: ReadonlySet<string> | undefined;
/**
 * The ISO 3166-1 alpha-2 codes of the i18n-iso-countries package, from its code table alone
 * (`codes.json`, 10 kB, built into the program: finding and reading the package's file at run time
 * cost every command that checks an address about a millisecond; the package's core, `index.js`,
 * also loads a diacritics library and its list of languages, which checking a code does not need).
 * The set is made on first use.
 */
function alpha2(): ReadonlySet<string> {
  alpha2Codes ??= new Set((countryCodeTable as unknown as readonly CountryCodeRow[]).map((row) => row[0]));
  return alpha2Codes;
}

/** True when `code` is an ISO 3166-1 alpha-2 country code (upper case), per i18n-iso-countries. */
export function isCountryCode(code: string): boolean {
  return /^[A-Z]{2}$/.test(code) && alpha2().has(code);
}

let countryCodes: readonly string[] | undefined;
/** Every ISO 3166-1 alpha-2 code known to i18n-iso-countries, upper case, sorted. */
function allCountryCodes(): readonly string[] {
  countryCodes ??= [...alpha2()].sort();
  return countryCodes;
}

/** A JSON Schema pattern that matches exactly the known codes, in any case, with blanks around. */
function countryCodePattern(): string {
  const byFirst = new Map<string, string[]>();
  for (const code of allCountryCodes()) byFirst.set(code[0]!, [...(byFirst.get(code[0]!) ?? []), code[1]!]);
  const alternatives = [...byFirst].map(([first, seconds]) => `${anyCasePattern(first)}[${seconds.join('')}${seconds.join('').toLowerCase()}]`);
  return `^\\s*(${alternatives.join('|')})\\s*$`;
}

/** A two-letter ISO 3166-1 country code, any case on input, sent in upper case. */
export const countryCode = lazySchema(() =>
  z
    .string({ error: (iss) => (iss.input === undefined ? 'required' : `expected a two-letter country code (got ${describe(iss.input)})`) })
    .superRefine((raw, ctx) => {
      const code = raw.trim().toUpperCase();
      if (!/^[A-Z]{2}$/.test(code)) {
        const hint = suggestCountryCode(raw);
        ctx.addIssue({ code: 'custom', message: `expected a two-letter country code (got ${describe(raw)}${hint ? `; did you mean ${hint}?` : ''})` });
      } else if (!isCountryCode(code)) {
        const hint = suggestCountryCode(code);
        ctx.addIssue({
          code: 'custom',
          message: `unknown country code ${describe(raw)} (${hint ? `did you mean ${hint}?` : 'ISO 3166-1 alpha-2, e.g. AU, US, GB'})`,
        });
      }
    })
    .transform((s) => s.trim().toUpperCase()),
);
withJsonSchema(countryCode, () => ({ type: 'string', pattern: countryCodePattern(), examples: ['AU', 'NZ', 'US', 'GB'] }));

/** A positive decimal number (a dimension or weight), as a JSON number or a decimal string. */
export const positiveDecimal = lazySchema(() =>
  z.preprocess(
    (v) => (typeof v === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v),
    z
      .number({ error: (iss) => (iss.input === undefined ? 'required' : `expected a number (got ${describe(iss.input)})`) })
      .refine((n) => Number.isFinite(n), { error: (iss) => `expected a finite number (got ${String(iss.input)})`, abort: true })
      .refine((n) => n > 0, { error: (iss) => `must be greater than 0 (got ${String(iss.input)})` }),
  ),
);
withJsonSchema(positiveDecimal, {
  anyOf: [
    { type: 'number', exclusiveMinimum: 0 },
    { type: 'string', pattern: '^\\s*(\\d*[1-9]\\d*(\\.\\d+)?|\\d+\\.\\d*[1-9]\\d*)\\s*$' },
  ],
});

/** An integer quantity of at least 1. */
export const quantity = lazySchema(() =>
  z
    .number({ error: (iss) => (iss.input === undefined ? 'required' : `expected a whole number (got ${describe(iss.input)})`) })
    .int({ error: (iss) => `must be a whole number (got ${String(iss.input)})` })
    .min(1, { error: (iss) => `at least 1 (got ${String(iss.input)})` }),
);
withJsonSchema(quantity, { type: 'integer', minimum: 1 });

/**
 * An AUD amount typed by a user: a number or decimal string, at least 0, at most two decimals.
 * Parsed to {@link Money} (exact cents).
 */
export const amountInput = lazySchema(() =>
  z
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
    }),
);
withJsonSchema(amountInput, {
  anyOf: [
    { type: 'number', minimum: 0 },
    { type: 'string', pattern: '^\\s*\\+?\\d+(\\.\\d{0,2}0*)?\\s*$' },
  ],
});

/** The currency of an item or quote: only AUD is supported (interface document, "Conventions"). */
export const currencyAud = lazySchema(() =>
  z
    .string({ error: (iss) => (iss.input === undefined ? 'required' : `expected a currency code (got ${describe(iss.input)})`) })
    .transform((s) => s.trim().toUpperCase())
    .refine((s) => s === 'AUD', { error: (iss) => `only AUD is supported (got ${describe(iss.input)})` }),
);
withJsonSchema(currencyAud, choiceJsonSchema(['AUD']));

/** Package unit: `cm` (centimetres and kilograms) or `in` (inches and pounds), any case on input. */
export const packageUnit = lazySchema(
  () =>
    z
      .string({ error: (iss) => (iss.input === undefined ? 'required' : `expected cm or in (got ${describe(iss.input)})`) })
      .transform((s) => s.trim().toLowerCase())
      .refine((s): s is 'cm' | 'in' => s === 'cm' || s === 'in', {
        error: (iss) => `must be cm (centimetres, kilograms) or in (inches, pounds) (got ${describe(iss.input)})`,
      }) as unknown as z.ZodType<'cm' | 'in', string>,
);
withJsonSchema(packageUnit, choiceJsonSchema(['cm', 'in']));

/** True when `s` is a real calendar date `YYYY-MM-DD`. */
function isIsoDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

/**
 * An ISO 8601 calendar date `YYYY-MM-DD`. A response-style `YYYY-MM-DDT00:00:00` is accepted and
 * read as its date (interface document, "Pickup object").
 */
function isoDateSchema() {
  return z
    .string({ error: (iss) => (iss.input === undefined ? 'required' : `expected a date YYYY-MM-DD (got ${describe(iss.input)})`) })
    .transform((s) => s.trim().replace(/T00:00(:00(\.0+)?)?Z?$/, ''))
    .refine(isIsoDate, { error: (iss) => `expected an ISO 8601 date YYYY-MM-DD (got ${describe(iss.input)})` });
}
const ISO_DATE_PATTERN = '\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])(T00:00(:00(\\.0+)?)?Z?)?';
export const isoDate = lazySchema(isoDateSchema);
withJsonSchema(isoDate, {
  type: 'string',
  pattern: `^\\s*${ISO_DATE_PATTERN}\\s*$`,
  examples: ['2026-12-01'],
});

/**
 * A pickup date as an input file writes it: an ISO 8601 date, or `next` (the next collection day),
 * `today` or `tomorrow`, which shipbook turns into a date before the schema sees the document
 * (src/input/pickup.ts); on the wire, only the date. The two differ only in their JSON Schema.
 */
export const pickupDate = lazySchema(isoDateSchema);
withJsonSchema(pickupDate, {
  type: 'string',
  pattern: `^\\s*(${ISO_DATE_PATTERN}|${['next', 'today', 'tomorrow'].map(anyCasePattern).join('|')})\\s*$`,
  examples: ['next', '2026-12-01'],
});

/**
 * ISO 8601 time of day in the extended format: `HH:MM`, with optional seconds and a decimal
 * fraction, and an optional UTC designator `Z` or offset `±HH`, `±HH:MM` (`09:00`, `09:00:00`,
 * `09:00:00.5`, `09:00:00+10:00`, `23:30Z`).
 */
const ISO_TIME = /^([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(?:[.,](\d+))?)?(Z|[+-](?:[01]\d|2[0-3])(?::?[0-5]\d)?)?$/;

/** True when `s` is an ISO 8601 time of day in the extended format (see {@link isoTime}). */
export function isIsoTime(s: string): boolean {
  return ISO_TIME.test(s);
}

/**
 * An ISO 8601 time of day (24-hour) in the extended format: `HH:MM`, `HH:MM:SS`, with a fraction
 * of a second and a UTC offset (`09:00:00+10:00`). The basic format without colons (`0900`) is
 * refused with a message that shows the extended form. Sent as written (trimmed).
 */
export const isoTime = lazySchema(() =>
  z
    .string({
      error: (iss) => {
        if (iss.input === undefined) return 'required';
        // YAML reads an unquoted 0900 as the number 900: show the time it was probably meant to be.
        const digits =
          typeof iss.input === 'number' && Number.isInteger(iss.input) && iss.input >= 0 && iss.input <= 2359 ? String(iss.input).padStart(4, '0') : undefined;
        return `expected a time HH:MM (got ${describe(iss.input)})${digits ? `; write it with colons: ${digits.slice(0, 2)}:${digits.slice(2)}` : ''}`;
      },
    })
    .transform((s) => s.trim())
    .refine(isIsoTime, {
      error: (iss) => {
        const basic = typeof iss.input === 'string' ? /^\s*(\d{2})(\d{2})(\d{2})?\s*$/.exec(iss.input) : null;
        // ISO 8601 once allowed 24:00 for the end of a day (its 2019 edition dropped it); a
        // service may read it as the next day's 00:00, so it is refused with the time that is meant.
        const endOfDay = typeof iss.input === 'string' && /^\s*24:00(:00)?\s*$/.test(iss.input);
        const hint = basic
          ? `; write it with colons: ${basic[1]}:${basic[2]}${basic[3] ? `:${basic[3]}` : ''}`
          : endOfDay
            ? '; 24:00 is not taken for the end of the day: write 23:59'
            : '';
        return `expected an ISO 8601 time such as 09:00, 09:00:00 or 09:00:00+10:00 (got ${describe(iss.input)})${hint}`;
      },
    }),
);
withJsonSchema(isoTime, {
  type: 'string',
  pattern: '^\\s*([01]\\d|2[0-3]):[0-5]\\d(:[0-5]\\d([.,]\\d+)?)?(Z|[+-]([01]\\d|2[0-3])(:?[0-5]\\d)?)?\\s*$',
  examples: ['09:00', '17:00', '09:00:00+10:00'],
});

/**
 * Seconds since midnight of an ISO 8601 time (see {@link isoTime}), fraction included; with a UTC
 * offset, counted in UTC (`09:00+10:00` is 23:00 of the day before, so -3600). `NaN` for text
 * that is not such a time.
 */
export function secondsOfDay(time: string): number {
  const m = ISO_TIME.exec(time.trim());
  if (!m) return Number.NaN;
  let seconds = Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3] ?? 0) + Number(`0.${m[4] ?? '0'}`);
  const zone = m[5];
  if (zone !== undefined && zone !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    seconds -= sign * (Number(digits.slice(0, 2)) * 3600 + Number(digits.slice(2) || 0) * 60);
  }
  return seconds;
}

/** True when an ISO 8601 time carries a UTC designator or offset. */
export function hasUtcOffset(time: string): boolean {
  return ISO_TIME.exec(time.trim())?.[5] !== undefined;
}

/**
 * Why an address that looks like one is refused, for the message: the rules shipbook adds to the
 * interface document's "E-mail address" (docs/assumptions.md): ASCII only, and a domain with a dot.
 */
function emailRule(input: unknown): string {
  if (typeof input !== 'string' || !/^[^@\s]+@[^@\s]+$/.test(input.trim())) return '';
  if (/[^\x00-\x7f]/.test(input)) return ': only ASCII characters are taken (no é, ü, ñ …)';
  if (!input.trim().split('@')[1]!.includes('.')) return ': its domain has no dot (write the full domain, e.g. example.com.au)';
  return '';
}

/** An e-mail address (ASCII, with a dot in its domain: see {@link emailRule}). */
export const email = lazySchema(() =>
  z
    .string({ error: (iss) => (iss.input === undefined ? 'required' : `expected an e-mail address (got ${describe(iss.input)})`) })
    .transform((s) => s.trim())
    .pipe(z.email({ error: (iss) => `not an e-mail address (got ${describe(iss.input)})${emailRule(iss.input)}` })),
);
withJsonSchema(email, { type: 'string', format: 'email' });

/** Case-insensitive choice of one of `values`, sent in the canonical spelling given. */
export function choice<const T extends readonly [string, ...string[]]>(values: T, what: string) {
  const byKey = new Map(values.map((v) => [v.toLowerCase(), v] as const));
  const schema = z.string({ error: (iss) => (iss.input === undefined ? 'required' : `expected ${what} (got ${describe(iss.input)})`) }).transform((s, ctx) => {
    const found = byKey.get(s.trim().toLowerCase());
    if (found === undefined) {
      ctx.addIssue({ code: 'custom', message: `must be one of ${values.join(', ')} (got ${describe(s)})` });
      return z.NEVER;
    }
    return found as T[number];
  });
  return withJsonSchema(schema, choiceJsonSchema(values));
}

// ---- Response readers: the quirks are read, not rejected (interface document). ----

/** A price member as the service sends it: a number or a decimal string, read exactly into {@link Money}. */
export const moneyResponse = lazySchema(() =>
  z.union([z.number(), z.string()]).transform((v, ctx) => {
    const cents = readCents(v);
    if (cents === undefined) {
      ctx.addIssue({ code: 'custom', message: `not a decimal amount (got ${describe(v)})` });
      return z.NEVER;
    }
    return new Money(cents);
  }),
);

/** A text the service may leave out or send as null (a service's name, its carrier), read as '' then. */
export const textOrEmpty = lazySchema(() =>
  z
    .string()
    .nullish()
    .transform((v) => v ?? ''),
);

/** A string the service may send as a number (postcodes, ids). */
export const looseText = lazySchema(() => z.union([z.string(), z.number()]).transform((v) => String(v)));
