/**
 * The profile a command runs with: base URL, API key, auth header, assumed paths and default
 * payment. The built-in profile `sandbox` needs no key and targets the in-process sandbox.
 */
import { DEFAULT_ORDER_PATHS, type OrderPaths } from '../api/orders.js';
import type { QuotePackageParams } from '../api/quote.js';
import type { PaymentType } from '../schema/payment.js';
import type { SenderAddress } from './schema.js';

/** Payment used by `book` when no payment flag is given. */
export interface DefaultPayment {
  type: PaymentType;
  /** Stored card id for `stored_card`. */
  storedCard?: string;
}

/** Everything a command needs to talk to one booking service. */
/** A profile's pickup settings, each when set; times are `HH:MM` local to the collection address. */
export interface PickupSettings {
  /** A pickup today is booked only before this time. */
  cutoff?: string;
  /** The window a pickup without times gets. */
  window?: { earliest: string; latest: string };
  /** Days the sender is closed, `YYYY-MM-DD`. */
  closed?: string[];
  /** The shortest window accepted, in minutes. */
  minWindowMinutes?: number;
}

export interface ResolvedProfile {
  /** Profile name, e.g. `sandbox`, `staging`, `production`. */
  name: string;
  /** Base URL, or undefined for the built-in sandbox started in-process. */
  baseUrl?: string;
  /** API key; undefined for the built-in sandbox (which uses its own key). */
  apiKey?: string;
  /** Auth header name (docs/assumptions.md default `Authorization`). */
  authHeader: string;
  /** Auth header value prefix (docs/assumptions.md default `Bearer `). */
  authPrefix: string;
  /** Assumed paths of fetch-order-data and cancel-order. */
  paths: OrderPaths;
  /** Names of the package parameters of `GET /quote/` (settings `quote-params.<field>`); undefined: the assumed defaults. */
  quoteParams?: QuotePackageParams;
  /** Total deadline of one request in ms (setting `timeout`, SHIPBOOK_TIMEOUT); undefined: the client's default (60 s). */
  requestTimeoutMs?: number;
  /** Requests per second at most (setting `rate`); undefined: as fast as the service accepts. */
  ratePerSecond?: number;
  /** The dock's pattern (setting `scan-pattern`: a regular expression, one capturing group) that extracts the tracking number from a label's barcode; undefined: the code is the tracking number. */
  scanPattern?: string;
  /**
   * Price caps of the profile (settings `max-total` and `budget`, AUD amounts as stored, checked by
   * the configuration's schema): `--max-total` and `--budget` override them.
   */
  caps?: { maxTotal?: string; budget?: string };
  /** Payment `book` uses without payment flags (the built-in sandbox: `credit`). */
  defaultPayment: DefaultPayment;
  /**
   * True when the target is a sandbox: the built-in one (no base URL), or a profile declared one
   * (setting `sandbox` true). A `SHIPBOOK_BASE_URL` override clears it.
   */
  sandbox: boolean;
  /**
   * Where the ledger of bookings is kept (setting `ledger`, or `SHIPBOOK_LEDGER`): `file` (the
   * default: in the state directory) or a PostgreSQL connection URL, shared by several machines.
   */
  ledger?: string;
  /** The service-selection rules file (setting `rules`); `--rules` and `SHIPBOOK_RULES` override it. */
  rules?: string;
  /**
   * Consolidated mail chosen by rules: settings `mail.main-shipment` (a file holding the main
   * shipment to the hub) and `mail.free-pickup` (the account combines without one), or their
   * variables `SHIPBOOK_MAIL_MAIN_SHIPMENT` and `SHIPBOOK_MAIL_FREE_PICKUP`, when set.
   */
  mail?: { mainShipment?: string; freePickup?: boolean };
  /**
   * Where each setting came from, for `auth status`: `profile` is `flag --profile`,
   * `env SHIPBOOK_PROFILE`, `config default-profile` or `built-in`; `baseUrl` and `apiKey` are
   * `config` or `env SHIPBOOK_BASE_URL` / `env SHIPBOOK_API_KEY`.
   */
  sources: Partial<Record<'baseUrl' | 'apiKey' | 'profile' | 'ledger', string>>;
  /** Saved sender addresses of the profile, by name (`shipbook config sender set`), the built-in sandbox's too. */
  senders?: Record<string, SenderAddress>;
  /** Settings `strict-addresses` and `normalize-phones`, when set (flags `--strict-addresses`, `--normalize-phones` win). */
  addresses?: { strict?: boolean; normalizePhones?: boolean };
  /**
   * Settings `pickup.cutoff`, `pickup.window`, `pickup.closed` and `pickup.min-window` (or their
   * variables `SHIPBOOK_PICKUP_*`), when set: what makes a collection day (see src/booking/pickup/).
   */
  pickup?: PickupSettings;
  /**
   * Settings `papers.catalogue` (a CSV or YAML product catalogue of tariff codes) and
   * `papers.signature` (the shipper's signature, a PNG or JPG file) of the customs papers, when set.
   */
  papers?: { catalogue?: string; signature?: string };
}

/** The built-in sandbox profile: no key, no base URL (started in-process), `credit` payment. */
export function builtinSandboxProfile(): ResolvedProfile {
  return {
    name: 'sandbox',
    authHeader: 'Authorization',
    authPrefix: 'Bearer ',
    paths: { ...DEFAULT_ORDER_PATHS },
    defaultPayment: { type: 'credit' },
    sandbox: true,
    sources: { profile: 'built-in' },
  };
}
