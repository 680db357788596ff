/**
 * The HTTP client of the booking service, on undici. It wraps every body in `request`, sends the
 * auth header of the profile (docs/assumptions.md: `Authorization: Bearer <key>` by default) and
 * `User-Agent: shipbook/<version>`, unwraps the `message`/`code`/`result` envelope (interface
 * document, "Conventions" and "Errors"), and throws typed errors. A configured client is never
 * mutated.
 *
 * Design:
 *
 * - **What a call does** comes from the endpoint table (`endpoints.ts`): each typed wrapper names
 *   its endpoint; a call without one is safe only for GET.
 * - **Retries** are our own loop, not undici's `RetryAgent`: the decision needs the endpoint
 *   (safe or mutating), whether the request provably never left (see below) and a per-call
 *   policy (`retry: 'safe' | 'idempotent-accept' | 'never'`), none of which a dispatcher sees;
 *   `RetryAgent` also retries PUT by default and retries inside a body read that we cap and
 *   time ourselves. Attempts are bounded (`maxAttempts`, default 3), spaced by exponential
 *   backoff with full jitter (`retryBaseMs` 250 ms, doubling, at most 5 s), or by a 429/503's
 *   `Retry-After` (seconds or an HTTP date, at most 30 s).
 * - **Sent or not**: the client listens on undici's diagnostics channels
 *   (`undici:request:create`, `undici:client:sendHeaders`) to know whether the request of an
 *   attempt was written to a socket. A failure before that (connection refused, DNS, TLS, connect
 *   timeout) is {@link NetworkError} "cannot reach the service" with `sent: false`; after it,
 *   {@link AnswerLostError} says the request was sent and its answer lost and, for a mutating
 *   call, what may have happened and how to find out, never "try again".
 * - **A total deadline** (`timeoutMs`, default 60 s) is the budget of the whole call: every
 *   attempt, body included, and every wait between two attempts spend it; a retry whose wait would
 *   end past it is not made. An AbortSignal stops the attempt in flight at the deadline (undici's
 *   per-chunk timeouts do not stop a trickling body): {@link TimeoutError}, whose message gives the
 *   attempts made and the time they really took. A call given up after retries says the same.
 * - **A size cap** (`maxAnswerBytes`, default 8 MiB, far above any real answer): reading stops
 *   beyond it, {@link AnswerTooLargeError}; memory stays bounded.
 * - **Interrupts**: `signal` (per client, and per call) aborts the request in flight at once;
 *   {@link RequestInterruptedError} (exit 130) says whether it had been sent and what to run.
 * - **Dry run**: with `dryRun`, `call` validates the request (URL, JSON body), hands the redacted
 *   {@link PlannedRequest} to the sink and throws {@link DryRunHalt}; nothing is sent.
 *   {@link planRequest} builds the same record without a client, for the later steps of a flow
 *   (with a placeholder such as `<order id>` in the path).
 * - **Secrets**: the API key is registered for redaction by value (`redact.ts`); error messages
 *   and debug lines are redacted before they leave the client.
 */
import type { Dispatcher } from 'undici';
import type * as z from 'zod';
import { subscribe } from 'node:diagnostics_channel';
import {
  AnswerLostError,
  AnswerTooLargeError,
  ApiError,
  ConfigError,
  DryRunHalt,
  NetworkError,
  ProtocolError,
  RequestInterruptedError,
  ServiceCallError,
  ShipbookError,
  TimeoutError,
  type RequestFate,
} from '../errors.js';
import { endpointOf, mayRetry, type Endpoint, type EndpointName, type RetryPolicy } from './endpoints.js';
import { AUTHORIZATION_REQUIRED, missingKeyError } from './authorization.js';
import { SANDBOX_HEADER } from '../schema/announce.js';
import { envelope, fieldErrors, wrapRequest } from '../schema/envelope.js';
import { readLimited } from '../http/body.js';
import { safeParseHot } from '../schema/hot.js';
import { schemaProblems } from '../schema/issues.js';
import { Money } from '../schema/money.js';
import { maskSecret, redactText, redactValue, registerSecret } from './redact.js';


/** The version of shipbook, injected at build time (falls back to `dev` under vitest). */
export { VERSION } from '../version.js';
import { VERSION } from '../version.js';

/** Settings of a client; everything but `baseUrl` has a default. */
export interface ApiClientOptions {
  /** Base URL of the service, e.g. `https://api.example.com/v1/`. `http://` only on loopback. */
  baseUrl: string;
  /** API key; sent as `<authPrefix><apiKey>` in `authHeader` when present. */
  apiKey?: string;
  /** Header name for the key (default `Authorization`). */
  authHeader?: string;
  /** Value prefix before the key (default `Bearer `). */
  authPrefix?: string;
  /**
   * Keep-alive connections to the service at most (undici's pool per origin); a request beyond
   * waits for one to be free. Default: one per request in flight. A batch sets its concurrency.
   */
  connections?: number;
  /** Time to establish a connection, ms (default 10 000). */
  connectTimeoutMs?: number;
  /** Time to wait for the response headers, and between two chunks of the body, ms (default 30 000). */
  responseTimeoutMs?: number;
  /**
   * Total deadline of one call, ms (default 60 000, {@link DEFAULT_TIMEOUT_MS}): its attempts,
   * bodies included, and the backoff between them all fit in it. Comes from `--request-timeout`,
   * `SHIPBOOK_TIMEOUT` or the profile's `timeout` setting.
   */
  timeoutMs?: number;
  /** Largest answer read, bytes (default 8 MiB, {@link DEFAULT_MAX_ANSWER_BYTES}). */
  maxAnswerBytes?: number;
  /** Attempts of a retried call, at least 1 (default 3). */
  maxAttempts?: number;
  /** First backoff delay, ms (default 250; doubles per attempt, at most 5 000, full jitter). */
  retryBaseMs?: number;
  /**
   * Aborts every request of this client (Ctrl-C, SIGTERM): the request in flight stops at once and
   * the call throws {@link RequestInterruptedError}.
   */
  signal?: AbortSignal;
  /**
   * Dry-run mode: nothing is sent. Each call validates its request, passes the redacted
   * {@link PlannedRequest} to this sink and throws {@link DryRunHalt}.
   */
  dryRun?: (planned: PlannedRequest) => void;
  /** Sleep used between retries (tests replace it); rejects when `signal` aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Random number in [0, 1) for the jitter (tests replace it). */
  random?: () => number;
  /** Receives one redacted line per request and response when `--debug` is on. */
  debug?: (line: string) => void;
  /** Injectable transport (tests, proxies). */
  dispatcher?: Dispatcher;
  /**
   * Told of every answer as it arrives, before its body is read: the endpoint, the HTTP status,
   * and whether it carries the announcement of a `shipbook sandbox` server (`shipbook-sandbox`).
   */
  onAnswer?: (answer: AnswerNotice) => void;
  /** The hint of the refusal of an operation that requires authorization when there is no key (see `authorization.ts`). */
  missingKeySuggestion?: string;
}

/** What {@link ApiClientOptions.onAnswer} is told of one answer. */
export interface AnswerNotice {
  endpoint: EndpointName;
  /** The HTTP status. */
  status: number;
  /** True when the answer announces a `shipbook sandbox` server. */
  sandbox: boolean;
}

/** True for host names that stay on this machine: `localhost`, 127.0.0.0/8, `::1`. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

/**
 * Checks and normalises a base URL: must be `https://`, or `http://` on a loopback host; ends
 * with `/` so relative paths join under it.
 * @throws ConfigError (exit 4) for a malformed URL or plain http to another host.
 */
export function normaliseBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`"${raw}" is not a valid base URL`, { suggestion: 'Give a full URL such as https://api.example.com/' });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ConfigError(`base URL must use https:// (got ${url.protocol}//)`);
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new ConfigError(`plain http:// is refused for ${url.hostname}: API keys and card details would travel unencrypted`, {
      suggestion: `Use https://${url.host}${url.pathname}`,
    });
  }
  if (url.username || url.password) throw new ConfigError('the base URL must not contain a user name or password');
  url.search = '';
  url.hash = '';
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url.toString();
}

/** Converts request bodies to their wire form: {@link Money} → a JSON number with two decimals. */
export function toWire(value: unknown): unknown {
  if (value instanceof Money) return value.toNumber();
  if (Array.isArray(value)) return value.map(toWire);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = toWire(v);
    return out;
  }
  return value;
}


/** Default total deadline of one call, its retries and their answers included: 60 s. */
export const DEFAULT_TIMEOUT_MS = 60_000;
/** Default cap on the size of an answer read: 8 MiB (real answers are a few KiB). */
export const DEFAULT_MAX_ANSWER_BYTES = 8 * 1024 * 1024;
const DEFAULT_MAX_ATTEMPTS = 3;
const MAX_BACKOFF_MS = 5_000;
const MAX_RETRY_AFTER_MS = 30_000;

/** Per-call settings that the typed wrappers accept as an optional last parameter. */
export interface RequestOptions {
  /** Retry policy of this call (default `safe`): see {@link RetryPolicy}. */
  retry?: RetryPolicy;
  /** Aborts this call (besides the client's own signal). */
  signal?: AbortSignal;
  /**
   * A shorter total deadline for this call, retries included, ms (e.g. what remains of a wait, so
   * a hung poll cannot outlast `--timeout`); the client's own `timeoutMs` still applies when shorter.
   */
  timeoutMs?: number;
}

/** One call: method, path relative to the base URL, optional body (wrapped in `request`) or query. */
export interface CallOptions<T> extends RequestOptions {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  /** Schema of `result`; the response is rejected as {@link ProtocolError} when it does not fit. */
  result: z.ZodType<T>;
  /** The endpoint in the table of `endpoints.ts`; without it GET is safe and anything else mutating. */
  endpoint?: EndpointName;
  /** Told the envelope's `message` of a successful answer (redacted), e.g. the reason a fetched order failed. */
  onMessage?: (message: string) => void;
}

/**
 * A request as it would be sent, redacted: what dry-run reports. Headers hold the auth header as
 * `<prefix>****abcd`; the body is the wire form (in `request`) with card number and CVV masked.
 */
export interface PlannedRequest {
  /** Endpoint name (`createOrder` …, or `custom`). */
  endpoint: string;
  /** `true` when the endpoint changes nothing at the service. */
  safe: boolean;
  method: 'GET' | 'POST' | 'PUT';
  /** Full URL, query included. */
  url: string;
  headers: Record<string, string>;
  /** The JSON body, redacted; absent for GET. */
  body?: unknown;
}

/** What {@link planRequest} needs of a client's settings. */
export type PlanTarget = Pick<ApiClientOptions, 'baseUrl' | 'apiKey' | 'authHeader' | 'authPrefix'>;

interface Prepared {
  url: string;
  endpoint: Endpoint;
  headers: Record<string, string>;
  payload: string | undefined;
}

function urlOfBase(baseUrl: string, path: string, query?: CallOptions<unknown>['query']): string {
  const url = new URL(path.replace(/^\//, ''), baseUrl);
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
  return url.toString();
}

function prepare(target: PlanTarget, baseUrl: string, call: Omit<CallOptions<unknown>, 'result'>): Prepared {
  const url = urlOfBase(baseUrl, call.path, call.query);
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': `shipbook/${VERSION}` };
  const { apiKey, authHeader = 'Authorization', authPrefix = 'Bearer ' } = target;
  if (apiKey) headers[authHeader.toLowerCase()] = `${authPrefix}${apiKey}`;
  let payload: string | undefined;
  if (call.body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(wrapRequest(toWire(call.body)));
  }
  return { url, endpoint: endpointOf(call.endpoint, call.method, call.path), headers, payload };
}

function redactedRecord(target: PlanTarget, p: Prepared, method: PlannedRequest['method']): PlannedRequest {
  const headers = { ...p.headers };
  const { apiKey, authHeader = 'Authorization', authPrefix = 'Bearer ' } = target;
  if (apiKey) headers[authHeader.toLowerCase()] = `${authPrefix}${maskSecret(apiKey)}`;
  return {
    endpoint: p.endpoint.name,
    safe: p.endpoint.safe,
    method,
    url: redactText(p.url, [apiKey]),
    headers,
    ...(p.payload !== undefined ? { body: redactValue(JSON.parse(p.payload)) } : {}),
  };
}

/**
 * Plans a request without a client and without sending: the same redacted record a dry-run client
 * reports. For multi-step flows, later steps put a placeholder where an id is not known yet
 * (`path: 'orders/<order id>/accept/'`; the placeholder is kept readable in the URL).
 * @throws ConfigError (exit 4) for a malformed base URL; TypeError when the body is not JSON-serialisable
 */
export function planRequest(target: PlanTarget, call: Omit<CallOptions<unknown>, 'result'>): PlannedRequest {
  const baseUrl = normaliseBaseUrl(target.baseUrl);
  const record = redactedRecord(target, prepare(target, baseUrl, call), call.method);
  return { ...record, url: record.url.replace(/%3C([^/]*?)%3E/gi, (_m, inner: string) => `<${decodeURIComponent(inner)}>`) };
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Quotes a value for a POSIX shell when it needs it, so hints can be pasted. */
function shellQuote(value: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/** How to find out what became of a mutating call whose answer is unknown. Never "try again". */
export function howToFindOut(endpoint: Endpoint, path: string): string {
  const orderId = /^orders\/([^/]+)\//.exec(path.replace(/^\//, ''))?.[1];
  const id = orderId ? decodeURIComponent(orderId) : undefined;
  switch (endpoint.name) {
    case 'createOrder':
      return 'Do not create it again yet: look for it in the service\'s list of orders (or ask its operator); once you have its id, "shipbook order get <order-id>" shows its state.';
    case 'createShipment':
    case 'combineShipments':
      return 'Do not send it again yet: look for it in the service\'s list of shipments and orders (or ask its operator) first.';
    default:
      return id
        ? `Find out with: shipbook order get ${shellQuote(id)}`
        : 'Check its state at the service before sending it again.';
  }
}

/** Error codes of failures before anything was written: the request provably never left. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN',
  'ENETDOWN', 'EADDRNOTAVAIL', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_INVALID_ARG',
]);
const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|SELF_SIGNED|DEPTH_ZERO|ERR_OSSL)/;

// Which undici requests have written their headers: the request objects undici creates for our
// calls are tagged through the diagnostics channels (published synchronously by undici).
interface AttemptState {
  sent: boolean;
}
let creating: AttemptState | undefined;
const attempts = new WeakMap<object, AttemptState>();
let channelsSubscribed = false;
function subscribeChannels(): void {
  if (channelsSubscribed) return;
  channelsSubscribed = true;
  subscribe('undici:request:create', (message) => {
    const req = (message as { request?: object }).request;
    if (req && creating) attempts.set(req, creating);
  });
  subscribe('undici:client:sendHeaders', (message) => {
    const req = (message as { request?: object }).request;
    const state = req ? attempts.get(req) : undefined;
    if (state) state.sent = true;
  });
}

/**
 * A signal that aborts, with the same reason, when any of `signals` does; `unlink` removes its
 * listeners once the call is over (AbortSignal.any keeps its sources until garbage collection).
 */
function linkSignals(signals: AbortSignal[]): { signal: AbortSignal; unlink: () => void } {
  const controller = new AbortController();
  const already = signals.find((s) => s.aborted);
  if (already) {
    controller.abort(already.reason);
    return { signal: controller.signal, unlink: () => {} };
  }
  const onAbort = (event: Event) => controller.abort((event.target as AbortSignal).reason);
  for (const s of signals) s.addEventListener('abort', onAbort, { once: true });
  return { signal: controller.signal, unlink: () => signals.forEach((s) => s.removeEventListener('abort', onAbort)) };
}

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** `Retry-After` as ms: delta seconds or an HTTP date; undefined when absent or malformed. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (!v) return undefined;
  if (/^\s*\d+\s*$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The time budget of one call, shared by its attempts and the waits between them. */
interface CallBudget {
  /** The call's whole deadline, ms: the client's `timeoutMs` or the call's own when shorter. */
  budgetMs: number;
  /** When the first attempt started (`Date.now()`). */
  started: number;
  /** Attempts made so far, the current one included. */
  attempts: number;
}

/** `1 attempt in 0.4 s`, `3 attempts in 60.1 s`: what a call spent, for its final error. */
function attemptsText(budget: CallBudget): string {
  const elapsed = (Date.now() - budget.started) / 1000;
  return `${budget.attempts} attempt${budget.attempts === 1 ? '' : 's'} in ${elapsed.toFixed(1)} s`;
}

/** A configured client of the booking service. Immutable: `withOptions` returns a new one. */
export class ApiClient {
  readonly baseUrl: string;
  readonly #options: Readonly<ApiClientOptions>;
  #dispatcher: Dispatcher | undefined;

  /** @throws ConfigError when the base URL is malformed or plain http to a remote host. */
  constructor(options: ApiClientOptions) {
    this.baseUrl = normaliseBaseUrl(options.baseUrl);
    this.#options = Object.freeze({ ...options });
    this.#dispatcher = options.dispatcher;
    registerSecret(options.apiKey);
  }

  /** A new client with some options replaced (e.g. a dry-run sink, a signal); this one is unchanged. */
  withOptions(options: Partial<ApiClientOptions>): ApiClient {
    return new ApiClient({ ...this.#options, ...options });
  }

  /** True when this client sends nothing (dry-run mode). */
  get dryRun(): boolean {
    return this.#options.dryRun !== undefined;
  }

  /** Closes idle connections (so a one-shot command exits promptly). */
  async close(): Promise<void> {
    if (!this.#options.dispatcher) await this.#dispatcher?.close();
  }

  /** The full URL of a path relative to the base URL. */
  urlOf(path: string, query?: CallOptions<unknown>['query']): string {
    return urlOfBase(this.baseUrl, path, query);
  }

  /** The redacted record of a call, as dry-run reports it; sends nothing. */
  plan(call: Omit<CallOptions<unknown>, 'result'>): PlannedRequest {
    return planRequest({ ...this.#options, baseUrl: this.baseUrl }, call);
  }

  #log(line: string): void {
    this.#options.debug?.(redactText(line, [this.#options.apiKey]));
  }

  /**
   * Sends one request (retried as the endpoint and `call.retry` allow) and returns the envelope's
   * `result`, checked against `call.result`.
   * @throws ApiError for an error envelope or a non-2xx status (401/403 → exit 4, else exit 3)
   * @throws NetworkError (`sent: false`) when the service cannot be reached; AnswerLostError when
   *   the request was sent and its answer lost; TimeoutError past the deadline; AnswerTooLargeError
   *   beyond `maxAnswerBytes` (all exit 5, with `sent` and `endpoint`)
   * @throws RequestInterruptedError (exit 130) when the client's or the call's signal aborts
   * @throws ProtocolError when the answer is not the envelope or its `result` has the wrong shape
   * @throws DryRunHalt in dry-run mode, after the sink has the planned request
   * @throws ConfigError (exit 4) without a key for an operation that requires authorization; nothing is sent
   */
  async call<T>(call: CallOptions<T>): Promise<T> {
    const prepared = prepare(this.#options, this.baseUrl, call);
    if (!this.#options.apiKey && AUTHORIZATION_REQUIRED.has(prepared.endpoint.name)) throw missingKeyError(prepared.endpoint, this.#options.missingKeySuggestion);
    if (this.#options.dryRun) {
      const planned = redactedRecord(this.#options, prepared, call.method);
      this.#options.dryRun(planned);
      throw new DryRunHalt(`dry run: would send ${call.method} ${planned.url}`, planned);
    }
    const signals = [this.#options.signal, call.signal].filter((s): s is AbortSignal => s !== undefined);
    const linked = signals.length > 1 ? linkSignals(signals) : undefined;
    const userSignal = linked ? linked.signal : signals[0];
    try {
      return await this.#callWithRetries(call, prepared, userSignal);
    } finally {
      linked?.unlink();
    }
  }

  async #callWithRetries<T>(call: CallOptions<T>, prepared: Prepared, userSignal: AbortSignal | undefined): Promise<T> {
    const policy = call.retry ?? 'safe';
    const maxAttempts = Math.max(1, this.#options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS);
    const sleep = this.#options.sleep ?? defaultSleep;
    const random = this.#options.random ?? Math.random;
    // One budget for the whole call: every attempt and every wait between two attempts spend it.
    const budget: CallBudget = {
      budgetMs: Math.max(1, Math.min(this.#options.timeoutMs ?? DEFAULT_TIMEOUT_MS, call.timeoutMs ?? Number.POSITIVE_INFINITY)),
      started: Date.now(),
      attempts: 0,
    };
    for (;;) {
      budget.attempts++;
      try {
        return await this.#attempt(call, prepared, userSignal, budget);
      } catch (err) {
        if (budget.attempts >= maxAttempts || !mayRetry(err, prepared.endpoint, policy)) throw this.#gaveUp(err, budget);
        const backoff = Math.min(MAX_BACKOFF_MS, (this.#options.retryBaseMs ?? 250) * 2 ** (budget.attempts - 1));
        const retryAfter = err instanceof ApiError ? err.retryAfterMs : undefined;
        const delay = retryAfter !== undefined ? Math.min(retryAfter, MAX_RETRY_AFTER_MS) : Math.round(random() * backoff);
        // A wait that would end past the deadline is not taken: the call ends with this failure now.
        if (Date.now() - budget.started + delay >= budget.budgetMs) throw this.#gaveUp(err, budget);
        this.#log(`retrying ${call.method} ${prepared.url} in ${delay} ms (attempt ${budget.attempts + 1} of ${maxAttempts}): ${(err as Error).message}`);
        try {
          await sleep(delay, userSignal);
        } catch {
          throw this.#interrupted(prepared, err instanceof ServiceCallError ? err.sent : true, err);
        }
      }
    }
  }

  /**
   * The last failure of a call that was tried more than once, its message completed with the
   * number of attempts and the time they took (a timeout says both already).
   */
  #gaveUp(err: unknown, budget: CallBudget): unknown {
    if (budget.attempts > 1 && err instanceof ShipbookError && !(err instanceof TimeoutError) && !(err instanceof RequestInterruptedError)) {
      err.message = `${err.message} (${attemptsText(budget)})`;
    }
    return err;
  }

  #fate(p: Prepared, sent: boolean): RequestFate {
    const { name, method, path, safe } = p.endpoint;
    return { sent, endpoint: { name, method, path, safe } };
  }

  /** What to say of a mutating call whose outcome is unknown: its effect and how to find out. */
  #unknownOutcome(p: Prepared): { note: string; suggestion: string } {
    const path = p.url.slice(this.baseUrl.length);
    return { note: `${p.endpoint.effect ?? 'it may have taken effect'}`, suggestion: howToFindOut(p.endpoint, path) };
  }

  #interrupted(p: Prepared, sent: boolean, cause: unknown): RequestInterruptedError {
    const what = `${p.endpoint.title} (${p.endpoint.method} ${p.url})`;
    if (!sent) {
      return new RequestInterruptedError(`interrupted before the ${what} request was sent: nothing was changed by it`, {
        cause,
        fate: this.#fate(p, false),
      });
    }
    if (p.endpoint.safe) {
      return new RequestInterruptedError(`interrupted while waiting for the answer to ${what}; it changes nothing at the service`, {
        cause,
        fate: this.#fate(p, true),
      });
    }
    const { note, suggestion } = this.#unknownOutcome(p);
    return new RequestInterruptedError(
      `interrupted after the ${what} request was sent: its outcome is unknown, ${note}`,
      { cause, suggestion, fate: this.#fate(p, true) },
    );
  }

  async #attempt<T>(call: CallOptions<T>, p: Prepared, userSignal: AbortSignal | undefined, budget: CallBudget): Promise<T> {
    const { url, headers, payload } = p;
    // Nothing is formatted for --debug unless it is on: the body's redacted copy costs more than sending it.
    const debug = this.#options.debug !== undefined;
    if (debug) {
      this.#log(`> ${call.method} ${url}`);
      const { apiKey, authHeader = 'Authorization', authPrefix = 'Bearer ' } = this.#options;
      if (apiKey) this.#log(`> ${authHeader}: ${authPrefix}${maskSecret(apiKey)}`);
      if (payload) this.#log(`> ${JSON.stringify(redactValue(JSON.parse(payload)))}`);
    }
    if (userSignal?.aborted) throw this.#interrupted(p, false, userSignal.reason);

    // What is left of the call's budget after the attempts and waits before this one.
    const timeoutMs = Math.max(1, budget.budgetMs - (Date.now() - budget.started));
    const limit = this.#options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
    // One controller per attempt, aborted by the deadline or by the caller's signal (linked by
    // hand: AbortSignal.any costs more per request than the rest of the client, on Node.js 20).
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new Error('deadline')), timeoutMs);
    const onUserAbort = () => deadline.abort(userSignal?.reason);
    userSignal?.addEventListener('abort', onUserAbort, { once: true });
    const signal = deadline.signal;
    const state: AttemptState = { sent: false };
    const started = Date.now();
    let status: number;
    let text: string;
    let retryAfterMs: number | undefined;
    try {
      // undici is loaded on first use: commands that never call the service start faster.
      const { Agent, request } = await import('../http/undici.js');
      subscribeChannels();
      this.#dispatcher ??= new Agent({
        connect: { timeout: this.#options.connectTimeoutMs ?? 10_000 },
        ...(this.#options.connections === undefined ? {} : { connections: this.#options.connections }),
        headersTimeout: this.#options.responseTimeoutMs ?? 30_000,
        bodyTimeout: this.#options.responseTimeoutMs ?? 30_000,
      });
      creating = state;
      let pending: ReturnType<typeof request>;
      try {
        pending = request(url, { method: call.method, headers, body: payload, dispatcher: this.#dispatcher, signal });
      } finally {
        creating = undefined;
      }
      const res = await pending;
      state.sent = true; // an answer came: whatever the channels said, the request was sent
      status = res.statusCode;
      this.#options.onAnswer?.({ endpoint: p.endpoint.name, status, sandbox: res.headers[SANDBOX_HEADER] !== undefined });
      retryAfterMs = parseRetryAfter(res.headers['retry-after']);
      const answer = await readLimited(res.body, limit, limit, Number(res.headers['content-length']));
      if ('tooLarge' in answer) {
        res.body.destroy();
        throw this.#tooLarge(p, limit);
      }
      text = answer.text;
    } catch (err) {
      if (err instanceof AnswerTooLargeError) throw err;
      if (userSignal?.aborted) throw this.#interrupted(p, state.sent, err);
      if (deadline.signal.aborted) throw this.#deadline(p, state.sent, budget, err);
      throw this.#transportError(err, p, state.sent);
    } finally {
      clearTimeout(timer);
      userSignal?.removeEventListener('abort', onUserAbort);
    }
    if (debug) this.#log(`< ${status} (${Date.now() - started} ms) ${truncate(redactText(text, [this.#options.apiKey]), 4000)}`);
    return this.#unwrap(call, p, status, text, retryAfterMs);
  }

  #tooLarge(p: Prepared, limit: number): AnswerTooLargeError {
    const mib = (limit / (1024 * 1024)).toFixed(limit % (1024 * 1024) === 0 ? 0 : 1);
    const base = `the service's answer is too large: more than ${mib} MiB (${p.endpoint.method} ${p.url}); reading stopped`;
    if (p.endpoint.safe) {
      return new AnswerTooLargeError(base, limit, {
        suggestion: 'Check that the base URL points at the booking service API.',
        fate: this.#fate(p, true),
      });
    }
    const { note, suggestion } = this.#unknownOutcome(p);
    return new AnswerTooLargeError(`${base}; the request was sent and answered, so ${note}`, limit, { suggestion, fate: this.#fate(p, true) });
  }

  #deadline(p: Prepared, sent: boolean, budget: CallBudget, cause: unknown): TimeoutError {
    const { budgetMs } = budget;
    const secs = budgetMs % 1000 === 0 ? `${budgetMs / 1000} s` : `${budgetMs} ms`;
    const what = `${p.endpoint.method} ${p.url}; ${attemptsText(budget)}`;
    if (p.endpoint.safe || !sent) {
      return new TimeoutError(`the service did not answer within ${secs} (${what})${sent ? '' : '; the request was not sent'}`, {
        cause,
        suggestion: 'Try again; if it keeps happening, check the base URL and your network, or allow more time with --request-timeout.',
        fate: this.#fate(p, sent),
      });
    }
    const { note, suggestion } = this.#unknownOutcome(p);
    return new TimeoutError(
      `the service did not answer within ${secs} (${what}): the request was sent and its answer did not come, so ${note}`,
      { cause, suggestion, fate: this.#fate(p, true) },
    );
  }

  #transportError(err: unknown, p: Prepared, sentByChannel: boolean): Error {
    const code = (err as { code?: string })?.code ?? '';
    const causeCode = (err as { cause?: { code?: string } })?.cause?.code ?? '';
    const origin = new URL(p.url).origin;
    const reason = causeCode || code || (err instanceof Error ? err.message : String(err));
    const provablyUnsent = !sentByChannel && [code, causeCode].some((c) => NOT_SENT_CODES.has(c) || TLS_CODE.test(c));
    if (code === 'UND_ERR_CONNECT_TIMEOUT' || causeCode === 'UND_ERR_CONNECT_TIMEOUT') {
      return new TimeoutError(`cannot reach the service at ${origin}: no connection within ${(this.#options.connectTimeoutMs ?? 10_000) / 1000} s; the request was not sent`, {
        cause: err,
        suggestion: 'Check the base URL ("shipbook config get base-url" or SHIPBOOK_BASE_URL) and your network.',
        fate: this.#fate(p, false),
      });
    }
    if (provablyUnsent) {
      return new NetworkError(`cannot reach the service at ${origin} (${reason})`, {
        cause: err,
        suggestion: 'Check the base URL ("shipbook config get base-url" or SHIPBOOK_BASE_URL) and your network.',
        fate: this.#fate(p, false),
      });
    }
    const what = `${p.endpoint.method} ${p.url}`;
    const timeout = ['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT'].includes(code) || ['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT'].includes(causeCode);
    const lost = timeout ? 'the service stopped answering' : 'the connection closed before the answer came';
    // Headers never written (per undici's channels) but no code that proves it: say what we know.
    const head = sentByChannel ? 'the request was sent but its answer was lost' : 'the connection failed while the request was being sent, so it may have reached the service';
    if (p.endpoint.safe) {
      return new AnswerLostError(`${head}: ${lost} (${what}, ${reason}); it changes nothing at the service`, {
        cause: err,
        suggestion: 'Try again; if it keeps happening, check the base URL and your network.',
        fate: this.#fate(p, true),
      });
    }
    const { note, suggestion } = this.#unknownOutcome(p);
    return new AnswerLostError(`${head}: ${lost} (${what}, ${reason}), so ${note}`, {
      cause: err,
      suggestion,
      fate: this.#fate(p, true),
    });
  }

  #unwrap<T>(call: CallOptions<T>, p: Prepared, status: number, text: string, retryAfterMs: number | undefined): T {
    const url = p.url;
    let json: unknown;
    try {
      json = text.trim() === '' ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    const env = safeParseHot(envelope, json);
    const ok = status >= 200 && status < 300;
    if (!env.success) {
      if (!ok) {
        // Scrubbed before it is cut: a secret cut in half would no longer be recognised.
        const snippet = truncate(redactText(text.replace(/\s+/g, ' ').trim(), [this.#options.apiKey]), 120);
        throw new ApiError({ status, message: `the service answered HTTP ${status}${snippet ? `: ${snippet}` : ''}`, method: call.method, url, retryAfterMs });
      }
      throw new ProtocolError(`the service answered HTTP ${status} without the message/code/result envelope (${call.method} ${url})`, {
        suggestion: 'Check that the base URL points at the booking service API.',
        fate: this.#fate(p, true),
      });
    }
    const { code, message, result } = env.data;
    if (!ok || code < 200 || code >= 300) {
      const errors = fieldErrors.parse((result as { errors?: unknown } | undefined)?.errors);
      const secrets = [this.#options.apiKey];
      throw new ApiError({
        status: ok ? code : status,
        envelopeCode: code,
        message: redactText(message || `the service answered code ${code}`, secrets),
        fieldErrors: errors.map((e) => ({ field: redactText(e.field ?? '', secrets), message: redactText(e.message ?? '', secrets) })),
        method: call.method,
        url,
        retryAfterMs,
      });
    }
    const parsed = safeParseHot(call.result, result);
    if (!parsed.success) {
      const first = schemaProblems(parsed.error, ['result']).slice(0, 3);
      throw new ProtocolError(
        `the service's answer has an unexpected shape: ${first.map((q) => `${q.path} ${q.message}`).join('; ')} (${call.method} ${url})`,
        {
          suggestion: p.endpoint.safe ? undefined : `${capitalise(p.endpoint.effect ?? 'it may have taken effect')}. ${howToFindOut(p.endpoint, url.slice(this.baseUrl.length))}`,
          fate: this.#fate(p, true),
        },
      );
    }
    call.onMessage?.(redactText(message, [this.#options.apiKey]));
    return parsed.data;
  }
}

/** `text` cut to `max` characters (with `…`), for text already scrubbed of secrets. */
function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
