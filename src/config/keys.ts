/**
 * The settings a user reads and writes with `shipbook config get/set/unset/list`, with their
 * meaning, default and example (the settings table of docs/configuration.md lists the same). Every
 * setting but `default-profile` belongs to a profile; each maps to a member of the stored
 * profile (see {@link storedProfile}), e.g. `paths.fetch-order` → `profiles.<name>.paths["fetch-order"]`.
 */
import { DEFAULT_ORDER_PATHS } from '../api/orders.js';
import { maskSecret, redactUrlPassword } from '../api/redact.js';
import { DEFAULT_QUOTE_PACKAGE_PARAMS } from '../api/quote.js';
import { BUILTIN_PROFILE, QUOTE_PARAM_FIELDS, type ConfigData, type StoredProfile } from './schema.js';

/** One setting. */
export interface SettingKey {
  /** Name on the command line, e.g. `paths.fetch-order`. */
  key: string;
  /** `global` (the file) or `profile` (the active profile). */
  scope: 'global' | 'profile';
  /** What it means, one line. */
  meaning: string;
  /** The value used when the setting is absent (for `config get/list`); undefined when there is none. */
  fallback?: string;
  /** An example value. */
  example: string;
  /** Shown only as `****abcd`, and never taken as a command-line argument. */
  secret?: boolean;
  /** The environment variable that overrides it, if any. */
  env?: string;
  /** How the value is shown when part of it is secret (a URL's password masked); the value as it is when absent. */
  show?: (value: string) => string;
}

/** Every setting, in the order `config list` shows them. */
export const SETTING_KEYS: readonly SettingKey[] = [
  {
    key: 'default-profile',
    scope: 'global',
    meaning: 'profile used when neither --profile nor SHIPBOOK_PROFILE is given',
    fallback: BUILTIN_PROFILE,
    example: 'production',
  },
  {
    key: 'base-url',
    scope: 'profile',
    meaning: 'base URL of the booking service; https:// (plain http:// only on loopback)',
    example: 'https://api.example.com/v1/',
    env: 'SHIPBOOK_BASE_URL',
  },
  {
    key: 'api-key',
    scope: 'profile',
    meaning: 'API key, stored by `shipbook auth login` (never as a command-line argument); shown as ****abcd',
    example: '(use shipbook auth login)',
    secret: true,
    env: 'SHIPBOOK_API_KEY',
  },
  { key: 'auth-header', scope: 'profile', meaning: 'name of the header that carries the key', fallback: 'Authorization', example: 'X-Api-Key' },
  {
    key: 'auth-prefix',
    scope: 'profile',
    meaning: 'text before the key in that header (may be empty)',
    fallback: 'Bearer ',
    example: '"Token " or ""',
  },
  {
    key: 'sandbox',
    scope: 'profile',
    meaning: 'true when the base URL is a sandbox (e.g. a `shipbook sandbox` server): output is marked as sandbox output, nothing is really booked',
    fallback: 'false',
    example: 'true',
  },
  {
    key: 'ledger',
    scope: 'profile',
    meaning:
      'where the ledger of bookings is kept: file (in the state directory) or a PostgreSQL URL shared by several machines (docs/shared-ledger.md), without its password (PGPASSWORD or ~/.pgpass; never as an argument)',
    fallback: 'file',
    example: 'postgresql://shipbook@db.example.com/shipbook?sslmode=require',
    env: 'SHIPBOOK_LEDGER',
    show: redactUrlPassword,
  },
  {
    key: 'strict-addresses',
    scope: 'profile',
    meaning:
      'true: the address checks (Australian postcode, suburb and state, phone numbers, postcode formats) are errors, not warnings: exit 2, nothing sent (as --strict-addresses)',
    fallback: 'false',
    example: 'true',
  },
  {
    key: 'normalize-phones',
    scope: 'profile',
    meaning: 'true: phone numbers are sent in E.164, e.g. +61412555019 (as --normalize-phones)',
    fallback: 'false',
    example: 'true',
  },
  {
    key: 'timeout',
    scope: 'profile',
    meaning: 'total deadline of one request to the service, answer included (a request still running then is reported as a timeout)',
    fallback: '60s',
    example: '30s',
    env: 'SHIPBOOK_TIMEOUT',
  },
  {
    key: 'max-total',
    scope: 'profile',
    meaning:
      'the most one order may cost (AUD): an order whose exact total is above it is cancelled before acceptance, exit 9 (as --max-total, which overrides it)',
    fallback: 'none',
    example: '60',
  },
  {
    key: 'budget',
    scope: 'profile',
    meaning:
      'the most one run (a book, a batch) may spend (AUD): no accept leaves that would pass it; the orders left are cancelled and reported, exit 9 (as --budget, which overrides it)',
    fallback: 'none',
    example: '500',
  },
  {
    key: 'scan-pattern',
    scope: 'profile',
    meaning:
      'the dock (`shipbook dock`): a regular expression with one capturing group that extracts the tracking number from a label barcode carrying more; the whole code must match',
    fallback: 'none (the code is the tracking number)',
    example: "'420\\d{5}(SBX\\d{10})'",
  },
  {
    key: 'rules',
    scope: 'profile',
    meaning:
      'a rules file (YAML or JSON) that chooses the service of orders that name none and checks those that do (docs/rules.md; as --rules, which overrides it)',
    fallback: 'none',
    example: 'rules/shipping.yaml',
    env: 'SHIPBOOK_RULES',
  },
  {
    key: 'mail.main-shipment',
    scope: 'profile',
    meaning:
      "consolidated mail chosen by rules (prefer global_mail): a file holding the main shipment that carries the parcels to the hub, sent with each combine; without a collection, each group's own collection and pickup are used (docs/rules.md)",
    fallback: 'none',
    example: 'fixtures/shipments/main-to-hub.yaml',
    env: 'SHIPBOOK_MAIL_MAIN_SHIPMENT',
  },
  {
    key: 'mail.free-pickup',
    scope: 'profile',
    meaning: 'true: the account has the free-pickup option, so consolidated mail chosen by rules is combined without a main shipment (docs/rules.md)',
    fallback: 'false',
    example: 'true',
    env: 'SHIPBOOK_MAIL_FREE_PICKUP',
  },
  {
    key: 'rate',
    scope: 'profile',
    meaning:
      'requests per second at most to the service, for a service whose limit is known (over it, --rate); without it shipbook learns the pace from 429 answers',
    fallback: 'none',
    example: '30/s',
  },
  {
    key: 'pickup.cutoff',
    scope: 'profile',
    meaning: 'a pickup today is booked only before this time, local to the collection address; after it the next collection day is the next working day',
    fallback: '14:00',
    example: '12:30',
    env: 'SHIPBOOK_PICKUP_CUTOFF',
  },
  {
    key: 'pickup.window',
    scope: 'profile',
    meaning: 'the window (time_earliest-time_latest) a pickup written without times gets, local to the collection address',
    fallback: '09:00-15:00',
    example: '08:00-16:00',
    env: 'SHIPBOOK_PICKUP_WINDOW',
  },
  {
    key: 'pickup.closed',
    scope: 'profile',
    meaning: 'days the sender is closed besides weekends and public holidays (no collection day), YYYY-MM-DD separated by commas',
    fallback: 'none',
    example: '2026-12-24,2026-12-31',
    env: 'SHIPBOOK_PICKUP_CLOSED',
  },
  {
    key: 'pickup.min-window',
    scope: 'profile',
    meaning: 'the shortest pickup window accepted (a shorter one is an error)',
    fallback: '2h',
    example: '90m',
  },
  {
    key: 'papers.catalogue',
    scope: 'profile',
    meaning:
      'the product catalogue of the customs papers: a CSV or YAML file mapping an item (description, sku or tag) to its tariff (HS) code and default origin; the codes are printed, never sent',
    fallback: 'none',
    example: '/srv/shipping/catalogue.csv',
  },
  {
    key: 'papers.signature',
    scope: 'profile',
    meaning: "the shipper's signature drawn on the commercial invoice (a PNG or JPG file) when the order gave no options.digital_signature",
    fallback: 'none',
    example: '/srv/shipping/signature.png',
  },
  {
    key: 'paths.fetch-order',
    scope: 'profile',
    meaning: 'path of fetch-order-data (GET), relative to the base URL; {order_id} is replaced',
    fallback: DEFAULT_ORDER_PATHS.fetchOrder,
    example: 'v2/orders/{order_id}/',
  },
  {
    key: 'paths.cancel-order',
    scope: 'profile',
    meaning: 'path of cancel-order (PUT), relative to the base URL; {order_id} is replaced',
    fallback: DEFAULT_ORDER_PATHS.cancelOrder,
    example: 'v2/orders/{order_id}/cancel/',
  },
  {
    key: 'paths.fetch-credit-cards',
    scope: 'profile',
    meaning: 'path of fetch-credit-card (GET), relative to the base URL: the stored cards of the account',
    fallback: DEFAULT_ORDER_PATHS.fetchCreditCards,
    example: 'v2/credit-cards/',
  },
  {
    key: 'paths.fetch-service-data',
    scope: 'profile',
    meaning: 'path of fetch-service-data (GET), relative to the base URL; {service_code} is replaced',
    fallback: DEFAULT_ORDER_PATHS.fetchServiceData,
    example: 'v2/services/{service_code}/',
  },
  ...QUOTE_PARAM_FIELDS.map((field): SettingKey => ({
    key: `quote-params.${field}`,
    scope: 'profile',
    meaning: `name of the GET /quote/ query parameter that carries the package's ${field} (not shown in the interface document)`,
    fallback: DEFAULT_QUOTE_PACKAGE_PARAMS[field],
    example: `package_${field}`,
  })),
  {
    key: 'payment.type',
    scope: 'profile',
    meaning: 'payment `book` and `order accept` use without payment flags: credit or stored_card',
    fallback: 'credit',
    example: 'stored_card',
  },
  {
    key: 'payment.stored-card',
    scope: 'profile',
    meaning: 'stored card id for payment.type stored_card (a card saved by the service, never card details)',
    example: 'card_visa_4242',
  },
];

/** The setting named `key`, or undefined. */
export function findSetting(key: string): SettingKey | undefined {
  return SETTING_KEYS.find((s) => s.key === key);
}

/** Member path of a profile setting inside a stored profile: `paths.fetch-order` → `['paths', 'fetch-order']`. */
function settingPath(key: string): [string] | [string, string] {
  const dot = key.indexOf('.');
  return dot < 0 ? [key] : [key.slice(0, dot), key.slice(dot + 1)];
}

/** The stored value of a profile setting, or undefined. */
export function getStored(profile: StoredProfile | undefined, key: string): string | undefined {
  if (!profile) return undefined;
  const [a, b] = settingPath(key);
  const first = (profile as Record<string, unknown>)[a];
  const value = b === undefined ? first : (first as Record<string, unknown> | undefined)?.[b];
  return typeof value === 'string' ? value : undefined;
}

/** A copy of `profile` with `key` set to `value` (or removed when `value` is undefined; empty groups dropped). */
export function withStored(profile: StoredProfile | undefined, key: string, value: string | undefined): StoredProfile {
  const next = structuredClone(profile ?? {}) as Record<string, unknown>;
  const [a, b] = settingPath(key);
  if (b === undefined) {
    if (value === undefined) delete next[a];
    else next[a] = value;
  } else {
    const group = { ...((next[a] as Record<string, unknown> | undefined) ?? {}) };
    if (value === undefined) delete group[b];
    else group[b] = value;
    if (Object.keys(group).length === 0) delete next[a];
    else next[a] = group;
  }
  return next as StoredProfile;
}

/** A setting's value as shipbook would use it, and where it comes from. */
interface EffectiveValue {
  /** The value (secrets masked), or undefined when there is none. */
  value: string | undefined;
  /** `config`, `env <NAME>`, `default`, `built-in` or `not set`. */
  source: string;
}

/**
 * The effective value of a setting for profile `profileName`: the environment override, the
 * stored value, the default. Secrets come back masked (`****abcd`).
 */
export function effectiveValue(
  setting: SettingKey,
  profileName: string,
  config: ConfigData,
  env: Readonly<Record<string, string | undefined>>,
): EffectiveValue {
  const show = (v: string) => (setting.secret ? maskSecret(v) : (setting.show?.(v) ?? v));
  if (setting.scope === 'global') {
    const stored = config['default-profile'];
    return stored !== undefined ? { value: stored, source: 'config' } : { value: setting.fallback, source: 'default' };
  }
  const fromEnv = setting.env ? env[setting.env]?.trim() : undefined;
  if (fromEnv) return { value: show(fromEnv), source: `env ${setting.env}` };
  if (profileName === BUILTIN_PROFILE) {
    // The built-in profile talks to the built-in sandbox, unless SHIPBOOK_BASE_URL names a service.
    if (setting.key === 'sandbox') {
      return env.SHIPBOOK_BASE_URL?.trim() ? { value: 'false', source: 'env SHIPBOOK_BASE_URL' } : { value: 'true', source: 'built-in (the built-in sandbox)' };
    }
    if (setting.key === 'base-url') return { value: undefined, source: 'built-in (sandbox started in-process)' };
    if (setting.key === 'api-key') return { value: undefined, source: 'built-in (none needed)' };
    return setting.fallback !== undefined ? { value: setting.fallback, source: 'built-in' } : { value: undefined, source: 'not set' };
  }
  const stored = getStored(config.profiles?.[profileName], setting.key);
  if (stored !== undefined) return { value: show(stored), source: 'config' };
  return setting.fallback !== undefined ? { value: setting.fallback, source: 'default' } : { value: undefined, source: 'not set' };
}
