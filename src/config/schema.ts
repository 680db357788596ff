/**
 * The contents of the configuration file (`config.json`, see {@link configFilePath}), checked
 * with zod every time it is read and before it is written, so a hand-edited file with a typo is
 * reported (file, field path, problem) rather than half-used.
 *
 * The file's keys are the names `shipbook config get/set` uses:
 *
 * ```json
 * {
 *   "version": 1,
 *   "default-profile": "production",
 *   "profiles": {
 *     "production": {
 *       "base-url": "https://api.example.com/",
 *       "api-key": "sk_live_…",
 *       "auth-header": "Authorization",
 *       "auth-prefix": "Bearer ",
 *       "sandbox": "false",
 *       "paths": { "fetch-order": "orders/{order_id}/", "cancel-order": "orders/{order_id}/cancel/" },
 *       "payment": { "type": "stored_card", "stored-card": "card_visa_4242" },
 *       "senders": { "warehouse": { "first_name": "Priya", … } }
 *     }
 *   },
 *   "sandbox": { "senders": { "warehouse": { … } } }
 * }
 * ```
 *
 * Card numbers and CVVs have no place here: shipbook never stores card details.
 */
import * as z from 'zod';
import { normaliseBaseUrl } from '../api/base-url.js';
import { lazySchema } from '../schema/lazy.js';
import { clockMinutes, closedDaysOf, pickupWindowOf } from './pickup-settings.js';
import { parseAmountInput } from '../schema/money.js';
import { addressShape } from '../schema/address.js';
import { describe } from '../schema/common.js';
import { ShipbookError } from '../errors.js';

/** The built-in profile: the in-process sandbox. Reserved: no stored profile may use the name. */
export const BUILTIN_PROFILE = 'sandbox';
/** The profile `auth login` writes when no profile is chosen and none is the default. */
export const DEFAULT_LOGIN_PROFILE = 'default';
/** Version of the file layout written by this shipbook. */
export const CONFIG_VERSION = 1;

/** Profile and sender names: a letter or digit, then letters, digits, `_` or `-`; at most 40. */
const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/;
/** An HTTP header name (RFC 9110 token). */
export const HEADER_NAME_PATTERN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Default payment types a profile may hold (`credit_card` needs card details, which are never stored). */
const DEFAULT_PAYMENT_TYPES = ['credit', 'stored_card'] as const;

/** Why a name is not a valid profile or sender name, or undefined when it is. */
export function nameProblem(name: string, what: 'profile' | 'sender'): string | undefined {
  if (!NAME_PATTERN.test(name)) {
    return `${what} names are 1-40 letters, digits, "_" or "-", starting with a letter or digit (got ${describe(name)})`;
  }
  if (what === 'profile' && name === BUILTIN_PROFILE) return `"${BUILTIN_PROFILE}" is the built-in profile and cannot be stored or changed`;
  return undefined;
}

/**
 * Why a value of the `ledger` setting is refused, or undefined: `file`, or a `postgres://` /
 * `postgresql://` URL with a host (never echoing the value: it may hold a password).
 */
export function ledgerSettingProblem(value: string): string | undefined {
  if (value === 'file') return undefined;
  if (!/^postgres(ql)?:\/\//i.test(value)) return 'must be file or a postgresql:// URL (e.g. postgresql://user@host/db)';
  try {
    const url = new URL(value);
    if (url.hostname === '') return 'the PostgreSQL URL names no host';
  } catch {
    return 'is not a URL (a password with @, : or / must be percent-encoded)';
  }
  return undefined;
}

/**
 * A PostgreSQL URL of the `ledger` setting without its password (in the user part,
 * `postgresql://user:secret@host/db`, or as a `password=` query parameter), or undefined when it
 * holds none (`file`, a URL without a password, or an empty one). Percent-encoding is kept as given.
 */
export function ledgerUrlWithoutPassword(value: string): string | undefined {
  if (!/^postgres(ql)?:\/\//i.test(value)) return undefined;
  let out = value;
  const m = /^([a-z][a-z0-9+.-]*:\/\/[^:@/?#]*):([^@/?#]*)@/i.exec(out);
  const inUser = m !== null && m[2] !== '';
  if (m !== null) out = `${m[1]}@${out.slice(m[0].length)}`;
  const q = out.indexOf('?');
  let inQuery = false;
  if (q !== -1) {
    const kept = out
      .slice(q + 1)
      .split('&')
      .filter((pair) => {
        const [name, given] = pair.split('=');
        const isPassword = /^password$/i.test(decodeURIComponentSafe(name ?? '')) && (given ?? '') !== '';
        inQuery ||= isPassword;
        return !/^password$/i.test(decodeURIComponentSafe(name ?? ''));
      });
    out = out.slice(0, q) + (kept.length > 0 ? `?${kept.join('&')}` : '');
  }
  return inUser || inQuery ? out : undefined;
}

/** `decodeURIComponent`, or the text as it is when it is not valid percent-encoding. */
function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Why a path template of fetch-order-data or cancel-order is not usable, or undefined. */
function orderPathProblem(template: string): string | undefined {
  if (!template.includes('{order_id}')) return 'must contain {order_id}, e.g. orders/{order_id}/';
  if (/^[a-z][a-z0-9+.-]*:/i.test(template) || template.startsWith('//')) return 'must be a path relative to the base URL, not a full URL';
  if (/[\s?#]/.test(template)) return 'must not contain spaces, "?" or "#"';
  return undefined;
}

/**
 * Why a path template of fetch-credit-card (`placeholder` undefined) or fetch-service-data
 * (`{service_code}`) is not usable, or undefined.
 */
function referencedPathProblem(template: string, placeholder?: string): string | undefined {
  if (placeholder !== undefined && !template.includes(placeholder)) return `must contain ${placeholder}, e.g. services/${placeholder}/`;
  if (/^[a-z][a-z0-9+.-]*:/i.test(template) || template.startsWith('//')) return 'must be a path relative to the base URL, not a full URL';
  if (/[\s?#]/.test(template)) return 'must not contain spaces, "?" or "#"';
  return undefined;
}

/** Why a base URL is refused (the rules of {@link normaliseBaseUrl}), or undefined. */
export function baseUrlProblem(raw: string): string | undefined {
  try {
    normaliseBaseUrl(raw);
    return undefined;
  } catch (err) {
    return err instanceof ShipbookError ? err.message : String(err);
  }
}

const textValue = lazySchema(() => z.string({ error: 'expected text' }).min(1, { error: 'must not be empty' }));

const baseUrl = lazySchema(() =>
  textValue.superRefine((v, ctx) => {
    const problem = baseUrlProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
);

const orderPath = lazySchema(() =>
  textValue.superRefine((v, ctx) => {
    const problem = orderPathProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
);

const cardsPath = lazySchema(() =>
  textValue.superRefine((v, ctx) => {
    const problem = referencedPathProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
);

const servicePath = lazySchema(() =>
  textValue.superRefine((v, ctx) => {
    const problem = referencedPathProblem(v, '{service_code}');
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
);

/** A sender address: the collection address of an order (35-character limits) without `pickup`. */
export const senderAddress = lazySchema(() =>
  z.strictObject(
    {
      ...addressShape('order'),
      // The sender's own pickup days (src/booking/pickup/): over the profile's pickup.* settings for
      // the collections that name this sender. Never sent: taken off when a document names the sender.
      cutoff: z
        .string({ error: 'expected a time' })
        .refine((v) => clockMinutes(v) !== undefined, { error: 'must be a time HH:MM such as 14:00' })
        .optional(),
      pickup_window: z
        .string({ error: 'expected a window' })
        .refine((v) => pickupWindowOf(v) !== undefined, { error: 'must be a window HH:MM-HH:MM such as 09:00-15:00, the end after the start' })
        .optional(),
      closed: z
        .array(
          z.string({ error: 'expected a date' }).refine((v) => closedDaysOf(v)?.length === 1, { error: 'must be a date YYYY-MM-DD' }),
          { error: 'expected a list of dates YYYY-MM-DD' },
        )
        .optional(),
    },
    { error: (iss) => (iss.input === undefined ? 'required' : `expected an address (got ${describe(iss.input)})`) },
  ),
);
/** A sender address as written in the configuration file (before parsing). */
export type SenderAddress = z.input<typeof senderAddress>;

const senderName = lazySchema(() =>
  z.string().superRefine((v, ctx) => {
    const problem = nameProblem(v, 'sender');
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
);

/** Why a `scan-pattern` is refused (not a regular expression, or not exactly one capturing group), or undefined. */
export function scanPatternProblem(pattern: string): string | undefined {
  try {
    const groups = new RegExp(`${pattern}|`).exec('')!.length - 1;
    return groups === 1 ? undefined : `it has ${groups} capturing groups, not one`;
  } catch (err) {
    return (err as Error).message;
  }
}

/** A pace as the `rate` setting and `--rate` take it: a number of requests per second (`30`, `30/s`) or per minute (`600/m`). */
const RATE_PATTERN = /^\s*(\d+(?:\.\d+)?)\s*(?:\/\s*(s|m))?\s*$/i;

/** Requests per second of a pace matching {@link RATE_PATTERN}, or undefined (also for 0). */
export function ratePerSecond(text: string): number | undefined {
  const m = RATE_PATTERN.exec(text);
  if (!m) return undefined;
  const n = Number(m[1]) / ((m[2] ?? 's').toLowerCase() === 'm' ? 60 : 1);
  return n > 0 ? n : undefined;
}

/** A duration as the `timeout` setting takes it: a number and `ms`, `s`, `m` or `h` (seconds when no unit). */
const DURATION_PATTERN = /^\s*\d+(?:\.\d+)?\s*(ms|s|m|h)?\s*$/i;

/** Milliseconds of a duration matching {@link DURATION_PATTERN}, or undefined (also for 0). */
export function durationMs(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/i.exec(text);
  if (!m) return undefined;
  const n = Number(m[1]);
  const unit = (m[2] ?? 's').toLowerCase();
  const ms = Math.round(unit === 'ms' ? n : unit === 's' ? n * 1000 : unit === 'm' ? n * 60_000 : n * 3_600_000);
  return ms > 0 ? ms : undefined;
}

/** A price cap as the `max-total` and `budget` settings take it: an amount in AUD above 0, at most two decimals. */
const capAmount = lazySchema(() =>
  z.string({ error: 'expected an amount' }).refine(
    (v) => {
      const parsed = parseAmountInput(v);
      return 'cents' in parsed && parsed.cents > 0;
    },
    { error: 'must be an amount in AUD above 0, at most two decimals, such as 50 or 49.95' },
  ),
);

/** Package fields whose `GET /quote/` parameter names are settings (`quote-params.<field>`). */
export const QUOTE_PARAM_FIELDS = ['length', 'width', 'height', 'weight', 'unit'] as const;

/** A query parameter name: letters, digits and `_ - . [ ]`, as a service's parameter names go. */
const quoteParamName = lazySchema(() =>
  z.string({ error: 'expected text' }).regex(/^[A-Za-z0-9_.[\]-]{1,64}$/, { error: 'must be a query parameter name: letters, digits, _ - . [ ] (at most 64)' }),
);

/** One stored profile: every member optional; defaults apply at resolution (see resolve.ts). */
export const storedProfile = lazySchema(() =>
  z
    .strictObject(
      {
        'base-url': baseUrl.optional(),
        // Never echo the value of a key in an error message.
        'api-key': z
          .string({ error: 'expected text' })
          .min(1, { error: 'must not be empty' })
          .refine((v) => !/\s/.test(v), { error: 'must not contain spaces or line breaks' })
          .optional(),
        'auth-header': z.string({ error: 'expected text' }).regex(HEADER_NAME_PATTERN, { error: 'must be an HTTP header name, e.g. Authorization' }).optional(),
        'auth-prefix': z
          .string({ error: 'expected text' })
          .regex(/^[^\r\n]*$/, { error: 'must not contain line breaks' })
          .optional(),
        // A profile whose base URL is a `shipbook sandbox` (or another simulator): its output is marked
        // as sandbox output, never taken for real bookings. Text, as `shipbook config set` writes every value.
        sandbox: z.enum(['true', 'false'], { error: 'must be true or false' }).optional(),
        // Where the ledger of bookings is kept: the file in the state directory, or a PostgreSQL server.
        ledger: z
          .string({ error: 'expected text' })
          .refine((v) => ledgerSettingProblem(v) === undefined, { error: 'must be file or a postgresql:// URL (e.g. postgresql://user@host/db)' })
          .optional(),
        // Address checks (src/address/): warnings become errors; phone numbers sent in E.164.
        'strict-addresses': z.enum(['true', 'false'], { error: 'must be true or false' }).optional(),
        'normalize-phones': z.enum(['true', 'false'], { error: 'must be true or false' }).optional(),
        timeout: z.string({ error: 'expected a duration' }).regex(DURATION_PATTERN, { error: 'must be a duration such as 60s, 2m or 500ms' }).optional(),
        // Price caps every booking of the profile holds to (src/booking/limits.ts), unless a flag gives another.
        'max-total': capAmount.optional(),
        budget: capAmount.optional(),
        // A label barcode that carries more than the tracking number: the dock extracts it with this pattern's one group.
        'scan-pattern': z
          .string({ error: 'expected a regular expression' })
          .refine((v) => scanPatternProblem(v) === undefined, {
            error: 'must be a regular expression with one capturing group ( … ) around the tracking number',
          })
          .optional(),
        // The service-selection rules file (src/booking/rules/), read when a booking needs it.
        rules: z.string({ error: 'expected a file name' }).trim().min(1, { error: 'must not be empty' }).optional(),
        rate: z
          .string({ error: 'expected a pace' })
          .refine((v) => ratePerSecond(v) !== undefined, { error: 'must be requests per second such as 30/s, or per minute such as 600/m' })
          .optional(),
        // Consolidated mail chosen by rules (src/booking/mail/): the saved main shipment, or the free-pickup option.
        mail: z
          .strictObject(
            {
              'main-shipment': z.string({ error: 'expected a file' }).trim().min(1, { error: 'must not be empty' }).optional(),
              'free-pickup': z.enum(['true', 'false'], { error: 'must be true or false' }).optional(),
            },
            { error: 'expected an object' },
          )
          .optional(),
        // The customs papers (src/booking/papers/): the product catalogue and the shipper's signature image.
        papers: z
          .strictObject(
            {
              catalogue: z
                .string({ error: 'expected a file' })
                .refine((v) => /\.(csv|ya?ml|json)$/i.test(v.trim()), { error: 'must be a .csv, .yaml, .yml or .json file' })
                .optional(),
              signature: z
                .string({ error: 'expected a file' })
                .refine((v) => /\.(png|jpe?g)$/i.test(v.trim()), { error: 'must be a .png, .jpg or .jpeg image file' })
                .optional(),
            },
            { error: 'expected an object' },
          )
          .optional(),
        pickup: z
          .strictObject(
            {
              cutoff: z
                .string({ error: 'expected a time' })
                .refine((v) => clockMinutes(v) !== undefined, { error: 'must be a time HH:MM such as 14:00' })
                .optional(),
              window: z
                .string({ error: 'expected a window' })
                .refine((v) => pickupWindowOf(v) !== undefined, { error: 'must be a window HH:MM-HH:MM such as 09:00-15:00, the end after the start' })
                .optional(),
              closed: z
                .string({ error: 'expected dates' })
                .refine((v) => closedDaysOf(v) !== undefined, { error: 'must be dates YYYY-MM-DD separated by commas, such as 2026-12-24,2026-12-31' })
                .optional(),
              'min-window': z
                .string({ error: 'expected a duration' })
                .refine((v) => /^\s*\d+(?:\.\d+)?\s*(m|h)\s*$/i.test(v) && (durationMs(v) ?? 0) > 0, {
                  error: 'must be a duration in minutes or hours, such as 2h or 90m',
                })
                .optional(),
            },
            { error: 'expected an object' },
          )
          .optional(),
        paths: z
          .strictObject(
            {
              'fetch-order': orderPath.optional(),
              'cancel-order': orderPath.optional(),
              'fetch-credit-cards': cardsPath.optional(),
              'fetch-service-data': servicePath.optional(),
            },
            { error: 'expected an object' },
          )
          .optional(),
        'quote-params': z
          .strictObject(
            Object.fromEntries(QUOTE_PARAM_FIELDS.map((f) => [f, quoteParamName.optional()])) as Record<
              (typeof QUOTE_PARAM_FIELDS)[number],
              z.ZodOptional<typeof quoteParamName>
            >,
            { error: 'expected an object' },
          )
          .optional(),
        payment: z
          .strictObject(
            {
              type: z.enum(DEFAULT_PAYMENT_TYPES, { error: 'must be credit or stored_card' }).optional(),
              'stored-card': textValue.optional(),
            },
            { error: 'expected an object' },
          )
          .optional(),
        senders: z.record(senderName, senderAddress, { error: 'expected an object of named addresses' }).optional(),
      },
      { error: 'expected an object' },
    )
    .superRefine((p, ctx) => {
      if (p.payment?.type === 'stored_card' && p.payment['stored-card'] === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['payment', 'stored-card'],
          message: 'required when payment.type is stored_card (the id of a card stored by the service)',
        });
      }
    }),
);
/** One stored profile as written in the configuration file (before parsing; every member optional). */
export type StoredProfile = z.input<typeof storedProfile>;

/** The whole configuration file. */
export const configFile = lazySchema(() =>
  z
    .strictObject(
      {
        version: z.literal(CONFIG_VERSION, { error: `must be ${CONFIG_VERSION}` }).optional(),
        'default-profile': z.string({ error: 'expected text' }).optional(),
        profiles: z.record(z.string(), storedProfile, { error: 'expected an object of named profiles' }).optional(),
        // The built-in profile is not stored, and none of its settings can change; the sender
        // addresses saved while it is active are the user's own data, kept here.
        sandbox: z
          .strictObject(
            { senders: z.record(senderName, senderAddress, { error: 'expected an object of named addresses' }).optional() },
            { error: 'expected an object' },
          )
          .optional(),
      },
      { error: 'expected an object' },
    )
    .superRefine((file, ctx) => {
      for (const name of Object.keys(file.profiles ?? {})) {
        const problem = nameProblem(name, 'profile');
        if (problem) ctx.addIssue({ code: 'custom', path: ['profiles', name], message: problem });
      }
    }),
);

/** The configuration as stored (input form: kept exactly as written, sender addresses included). */
export interface ConfigData {
  version?: typeof CONFIG_VERSION;
  'default-profile'?: string;
  profiles?: Record<string, StoredProfile>;
  /** What is kept for the built-in profile: only its saved senders. */
  sandbox?: { senders?: Record<string, SenderAddress> };
}

/** The saved senders of `profile` in `data` (the built-in profile's are kept apart from the stored profiles). */
export function storedSenders(data: ConfigData, profile: string): Record<string, SenderAddress> | undefined {
  return profile === BUILTIN_PROFILE ? data.sandbox?.senders : data.profiles?.[profile]?.senders;
}

/** Replaces the saved senders of `profile` in `data` (none left: the entry is removed). */
export function setStoredSenders(data: ConfigData, profile: string, senders: Record<string, SenderAddress>): void {
  const empty = Object.keys(senders).length === 0;
  if (profile === BUILTIN_PROFILE) {
    if (empty) delete data.sandbox;
    else data.sandbox = { senders };
    return;
  }
  data.profiles ??= {};
  const p = (data.profiles[profile] ??= {});
  if (empty) delete p.senders;
  else p.senders = senders;
}
