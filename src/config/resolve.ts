/**
 * Choosing the profile for a run, and the settings it runs with.
 *
 * Profile name: `--profile`, then `SHIPBOOK_PROFILE`, then `default-profile` in the configuration
 * file, then the built-in `sandbox`. Single settings are then overridden by `SHIPBOOK_BASE_URL`,
 * `SHIPBOOK_API_KEY`, `SHIPBOOK_TIMEOUT` and `SHIPBOOK_LEDGER`, which let CI run with nothing stored. Defaults for what a profile
 * leaves out: header `Authorization`, prefix `Bearer ` (docs/assumptions.md "authorization scheme"), the
 * assumed order paths of docs/assumptions.md, payment `credit`.
 */
import { DEFAULT_ORDER_PATHS } from '../api/orders.js';
import { normaliseBaseUrl } from '../api/base-url.js';
import { DEFAULT_QUOTE_PACKAGE_PARAMS } from '../api/quote.js';
import { ConfigError, cmd, placeholder } from '../errors.js';
import { builtinSandboxProfile, type PickupSettings, type ResolvedProfile } from './profile.js';
import { BUILTIN_PROFILE, durationMs, ledgerSettingProblem, nameProblem, ratePerSecond, type ConfigData } from './schema.js';
import { closedDaysOf, clockMinutes, pickupWindowOf } from './pickup-settings.js';
import { ConfigStore } from './store.js';

/** Inputs of the choice: the `--profile` flag, the environment and the stored configuration. */
interface ResolveInput {
  profileFlag?: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Contents of the configuration file (empty when there is none). */
  config?: ConfigData;
}

/** The chosen profile name and where the choice came from. */
export interface ProfileChoice {
  name: string;
  /** `flag --profile`, `env SHIPBOOK_PROFILE`, `config default-profile` or `built-in`. */
  source: string;
}

function nonEmpty(value: string | undefined): string | undefined {
  const v = value?.trim();
  return v ? v : undefined;
}

/**
 * The variables that choose the service a run books on. A CI system sets a variable to the empty
 * string when the secret behind it is missing; taking that as "not set" would book on the built-in
 * sandbox (or another profile) and report success, so an empty value is an error instead.
 */
const TARGET_VARIABLES = ['SHIPBOOK_API_KEY', 'SHIPBOOK_BASE_URL', 'SHIPBOOK_PROFILE'] as const;

/**
 * Refuses variables of {@link TARGET_VARIABLES} that are set but empty (or only white space).
 * @throws ConfigError (exit 4) naming every such variable and asking whether a CI secret is missing
 */
function checkEmptyVariables(env: Readonly<Record<string, string | undefined>>): void {
  const empty = TARGET_VARIABLES.filter((name) => env[name] !== undefined && env[name]!.trim() === '');
  if (empty.length === 0) return;
  const names = empty.join(' and ');
  const plural = empty.length > 1;
  throw new ConfigError(`${names} ${plural ? 'are' : 'is'} set but empty: is a CI secret missing? Nothing was sent`, {
    suggestion: [
      `Give ${plural ? 'them values' : 'it a value'} (in CI: check that the secret exists and is passed to this job), or unset ${plural ? 'them' : 'it'} (`,
      { unset: empty },
      ') to use the configured profile, or the built-in sandbox when nothing is configured.',
    ],
  });
}

/**
 * Picks the profile name (flag, then `SHIPBOOK_PROFILE`, then `default-profile`, then `sandbox`).
 * @throws ConfigError (exit 4) for an empty target variable ({@link checkEmptyVariables})
 */
export function chooseProfileName(input: Pick<ResolveInput, 'profileFlag' | 'env' | 'config'>): ProfileChoice {
  checkEmptyVariables(input.env);
  if (input.profileFlag !== undefined) return { name: input.profileFlag.trim(), source: 'flag --profile' };
  const fromEnv = nonEmpty(input.env.SHIPBOOK_PROFILE);
  if (fromEnv) return { name: fromEnv, source: 'env SHIPBOOK_PROFILE' };
  const fromConfig = input.config?.['default-profile'];
  if (fromConfig) return { name: fromConfig, source: 'config default-profile' };
  return { name: BUILTIN_PROFILE, source: 'built-in' };
}

/** Names of the stored profiles, sorted, followed by the built-in one: for error messages. */
export function profileNames(config: ConfigData | undefined): string[] {
  return [...Object.keys(config?.profiles ?? {}).sort(), `${BUILTIN_PROFILE} (built-in)`];
}

/** The profile's pickup settings (`pickup.*`), when it has any; the stored values were checked by the schema. */
function pickupSettingsOf(stored: { cutoff?: string; window?: string; closed?: string; 'min-window'?: string } | undefined): Pick<ResolvedProfile, 'pickup'> {
  if (stored === undefined) return {};
  const pickup: PickupSettings = {};
  if (stored.cutoff !== undefined) pickup.cutoff = stored.cutoff.trim().padStart(5, '0');
  if (stored.window !== undefined) pickup.window = pickupWindowOf(stored.window);
  if (stored.closed !== undefined) pickup.closed = closedDaysOf(stored.closed);
  if (stored['min-window'] !== undefined) pickup.minWindowMinutes = Math.round(durationMs(stored['min-window'])! / 60_000);
  return { pickup };
}

/**
 * The pickup variables of the environment, over the profile's settings: `SHIPBOOK_PICKUP_CUTOFF`,
 * `SHIPBOOK_PICKUP_WINDOW`, `SHIPBOOK_PICKUP_CLOSED` (the built-in sandbox's profile stores no
 * setting, so these are how a run on it sets them).
 * @throws ConfigError (exit 4) for a value that is not a time, a window or a list of dates
 */
function applyPickupVariables(profile: ResolvedProfile, env: Readonly<Record<string, string | undefined>>): void {
  const cutoff = nonEmpty(env.SHIPBOOK_PICKUP_CUTOFF);
  const window = nonEmpty(env.SHIPBOOK_PICKUP_WINDOW);
  const closed = env.SHIPBOOK_PICKUP_CLOSED;
  if (cutoff === undefined && window === undefined && closed === undefined) return;
  const pickup: PickupSettings = { ...profile.pickup };
  if (cutoff !== undefined) {
    if (clockMinutes(cutoff) === undefined)
      throw new ConfigError(`SHIPBOOK_PICKUP_CUTOFF "${cutoff}" is not a time HH:MM`, { suggestion: 'For example SHIPBOOK_PICKUP_CUTOFF=14:00.' });
    pickup.cutoff = cutoff.padStart(5, '0');
  }
  if (window !== undefined) {
    pickup.window = pickupWindowOf(window);
    if (pickup.window === undefined)
      throw new ConfigError(`SHIPBOOK_PICKUP_WINDOW "${window}" is not a window HH:MM-HH:MM`, {
        suggestion: 'For example SHIPBOOK_PICKUP_WINDOW=09:00-15:00.',
      });
  }
  if (closed !== undefined) {
    pickup.closed = closedDaysOf(closed);
    if (pickup.closed === undefined)
      throw new ConfigError('SHIPBOOK_PICKUP_CLOSED holds something that is not a date YYYY-MM-DD', {
        suggestion: 'For example SHIPBOOK_PICKUP_CLOSED=2026-12-24,2026-12-31.',
      });
  }
  profile.pickup = pickup;
}

/** The profile's address settings (`strict-addresses`, `normalize-phones`), when it has any. */
function addressSettingsOf(stored: { 'strict-addresses'?: string; 'normalize-phones'?: string }): Pick<ResolvedProfile, 'addresses'> {
  const strict = stored['strict-addresses'];
  const normalize = stored['normalize-phones'];
  if (strict === undefined && normalize === undefined) return {};
  return {
    addresses: {
      ...(strict !== undefined ? { strict: strict === 'true' } : {}),
      ...(normalize !== undefined ? { normalizePhones: normalize === 'true' } : {}),
    },
  };
}

/**
 * Resolves the profile of this run from the flag, the environment and the stored configuration.
 * @throws ConfigError (exit 4) when a target variable is set but empty, the chosen profile's name is
 *   not valid, it does not exist or has no base URL, `SHIPBOOK_TIMEOUT` is not a duration, or a base
 *   URL is refused (plain http:// to a host other than loopback).
 */
export function resolveProfile(input: ResolveInput): ResolvedProfile {
  const choice = chooseProfileName(input);
  const { name } = choice;
  let profile: ResolvedProfile;
  if (name === BUILTIN_PROFILE) {
    profile = builtinSandboxProfile();
    profile.sources.profile = choice.source === 'built-in' ? 'built-in' : choice.source;
    const senders = input.config?.sandbox?.senders;
    if (senders !== undefined) profile.senders = { ...senders };
  } else {
    const problem = nameProblem(name, 'profile');
    if (problem) throw new ConfigError(`profile name "${name}" (${choice.source}) is not valid: ${problem}`);
    const stored = input.config?.profiles?.[name];
    if (!stored) {
      throw new ConfigError(`profile "${name}" (${choice.source}) does not exist`, {
        suggestion: [
          `Profiles: ${profileNames(input.config).join(', ')}. Create it with: `,
          { argv: ['auth', 'login'], profile: name },
          ...(choice.source === 'config default-profile'
            ? [', or choose another default: ', cmd('config', 'set', 'default-profile', placeholder('name'))]
            : []),
        ],
      });
    }
    profile = {
      name,
      baseUrl: stored['base-url'] === undefined ? undefined : normaliseBaseUrl(stored['base-url']),
      apiKey: stored['api-key'],
      authHeader: stored['auth-header'] ?? 'Authorization',
      authPrefix: stored['auth-prefix'] ?? 'Bearer ',
      ...(stored.timeout !== undefined ? { requestTimeoutMs: durationMs(stored.timeout) } : {}),
      ...(stored.rate !== undefined ? { ratePerSecond: ratePerSecond(stored.rate) } : {}),
      ...(stored['scan-pattern'] !== undefined ? { scanPattern: stored['scan-pattern'] } : {}),
      ...(stored['max-total'] !== undefined || stored.budget !== undefined
        ? {
            caps: {
              ...(stored['max-total'] !== undefined ? { maxTotal: stored['max-total'] } : {}),
              ...(stored.budget !== undefined ? { budget: stored.budget } : {}),
            },
          }
        : {}),
      paths: {
        fetchOrder: stored.paths?.['fetch-order'] ?? DEFAULT_ORDER_PATHS.fetchOrder,
        cancelOrder: stored.paths?.['cancel-order'] ?? DEFAULT_ORDER_PATHS.cancelOrder,
        fetchCreditCards: stored.paths?.['fetch-credit-cards'] ?? DEFAULT_ORDER_PATHS.fetchCreditCards,
        fetchServiceData: stored.paths?.['fetch-service-data'] ?? DEFAULT_ORDER_PATHS.fetchServiceData,
      },
      ...(stored['quote-params'] !== undefined ? { quoteParams: { ...DEFAULT_QUOTE_PACKAGE_PARAMS, ...stored['quote-params'] } } : {}),
      defaultPayment: {
        type: stored.payment?.type ?? 'credit',
        ...(stored.payment?.['stored-card'] !== undefined ? { storedCard: stored.payment['stored-card'] } : {}),
      },
      sandbox: stored.sandbox === 'true',
      ...(stored.ledger !== undefined ? { ledger: stored.ledger } : {}),
      ...(stored.rules !== undefined ? { rules: stored.rules } : {}),
      ...(stored.mail !== undefined && Object.keys(stored.mail).length > 0
        ? {
            mail: {
              ...(stored.mail['main-shipment'] !== undefined ? { mainShipment: stored.mail['main-shipment'] } : {}),
              ...(stored.mail['free-pickup'] !== undefined ? { freePickup: stored.mail['free-pickup'] === 'true' } : {}),
            },
          }
        : {}),
      ...addressSettingsOf(stored),
      ...pickupSettingsOf(stored.pickup),
      ...(stored.papers !== undefined && Object.keys(stored.papers).length > 0 ? { papers: { ...stored.papers } } : {}),
      sources: {
        profile: choice.source,
        ...(stored['base-url'] !== undefined ? { baseUrl: 'config' } : {}),
        ...(stored['api-key'] !== undefined ? { apiKey: 'config' } : {}),
        ...(stored.ledger !== undefined ? { ledger: 'config' } : {}),
      },
      senders: { ...(stored.senders ?? {}) },
    };
  }
  applyPickupVariables(profile, input.env);
  const timeout = nonEmpty(input.env.SHIPBOOK_TIMEOUT);
  if (timeout !== undefined) {
    const ms = durationMs(timeout);
    if (ms === undefined)
      throw new ConfigError(`SHIPBOOK_TIMEOUT "${timeout}" is not a duration`, { suggestion: 'For example SHIPBOOK_TIMEOUT=30s, 2m or 500ms.' });
    profile.requestTimeoutMs = ms;
  }
  const ledger = nonEmpty(input.env.SHIPBOOK_LEDGER);
  if (ledger !== undefined) {
    const problem = ledgerSettingProblem(ledger);
    if (problem !== undefined)
      throw new ConfigError(`SHIPBOOK_LEDGER ${problem}`, {
        suggestion: 'For example SHIPBOOK_LEDGER=file, or SHIPBOOK_LEDGER=postgresql://shipbook@db.example.com/shipbook.',
      });
    profile.ledger = ledger;
    profile.sources.ledger = 'env SHIPBOOK_LEDGER';
  }
  const rules = nonEmpty(input.env.SHIPBOOK_RULES);
  if (rules !== undefined) profile.rules = rules;
  applyMailVariables(profile, input.env);
  const baseUrl = nonEmpty(input.env.SHIPBOOK_BASE_URL);
  const apiKey = nonEmpty(input.env.SHIPBOOK_API_KEY);
  if (baseUrl) {
    profile.baseUrl = normaliseBaseUrl(baseUrl);
    profile.sandbox = false;
    profile.sources.baseUrl = 'env SHIPBOOK_BASE_URL';
  }
  if (apiKey) {
    profile.apiKey = apiKey;
    profile.sources.apiKey = 'env SHIPBOOK_API_KEY';
  }
  if (!profile.baseUrl && name !== BUILTIN_PROFILE) {
    throw new ConfigError(`profile "${name}" has no base URL`, {
      suggestion: `Log in: shipbook --profile ${name} auth login, or set one: shipbook --profile ${name} config set base-url https://…, or set SHIPBOOK_BASE_URL.`,
    });
  }
  return profile;
}

/** Inputs of {@link loadProfile}. */
interface LoadProfileInput {
  profileFlag?: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Receives permission warnings (one line each, once per run). */
  warn: (line: string) => void;
  /** The store to read (default: from the environment). */
  store?: ConfigStore;
}

/**
 * Reads the configuration file and resolves the profile of this run.
 * @throws ConfigError (exit 4) for an unreadable, corrupt or invalid file, and as {@link resolveProfile}.
 */
export function loadProfile(input: LoadProfileInput): ResolvedProfile {
  const store = input.store ?? ConfigStore.fromEnv(input.env);
  const snapshot = store.load(input.warn);
  return resolveProfile({ profileFlag: input.profileFlag, env: input.env, config: snapshot.data });
}

/**
 * `SHIPBOOK_MAIL_MAIN_SHIPMENT` and `SHIPBOOK_MAIL_FREE_PICKUP` over the profile's `mail.*` settings.
 * @throws ConfigError (exit 4) when `SHIPBOOK_MAIL_FREE_PICKUP` is neither true nor false
 */
function applyMailVariables(profile: ResolvedProfile, env: Readonly<Record<string, string | undefined>>): void {
  const main = nonEmpty(env.SHIPBOOK_MAIL_MAIN_SHIPMENT);
  const free = nonEmpty(env.SHIPBOOK_MAIL_FREE_PICKUP);
  if (free !== undefined && free !== 'true' && free !== 'false')
    throw new ConfigError(`SHIPBOOK_MAIL_FREE_PICKUP "${free}" is neither true nor false`, { suggestion: 'For example SHIPBOOK_MAIL_FREE_PICKUP=true.' });
  if (main === undefined && free === undefined) return;
  profile.mail = { ...profile.mail, ...(main !== undefined ? { mainShipment: main } : {}), ...(free !== undefined ? { freePickup: free === 'true' } : {}) };
}
