/**
 * The client of the booking service. It sends a call to an endpoint of the table
 * (`endpoints.ts`: method, path, safe or mutating, retry policy, answer schema) and returns the
 * checked `result` of the `message`/`code`/`result` envelope, or throws a typed error. A
 * configured client is never mutated. Its parts, one concern a module:
 *
 * - `base-url.ts`: which base URLs are accepted and how a path joins under one;
 * - `wire.ts`: request bodies in wire form (Money as JSON numbers, wrapped in `request`);
 * - `request.ts`: the request as sent (URL, headers with the auth header, body), built once a call;
 * - `dry-run.ts`: the redacted record of a request that is not sent;
 * - `http.ts`: one attempt on undici, under a deadline, with a size cap, knowing whether it was sent;
 * - `answer.ts`: the envelope, read once; `ApiError` and `ProtocolError`;
 * - `outcome.ts`: the one decision between safe and mutating: retries and the errors' wording;
 * - `pacer.ts`: the pace of every request of the run (a pause the service asks for with
 *   `Retry-After`, the requests in flight, `--rate`), shared by every client made from this one.
 *
 * Design:
 *
 * - **Retries** are our own loop, not undici's `RetryAgent`: the decision needs the endpoint
 *   (safe or mutating), whether the request provably never left (see below) and a per-call
 *   policy (`retry: 'safe' | 'idempotent-accept' | 'answered-create' | 'never'`), none of which a
 *   dispatcher sees; `RetryAgent` also retries PUT by default and retries inside a body read that
 *   we cap and time ourselves. Attempts are bounded (`maxAttempts`, default 3), spaced by
 *   exponential backoff with full jitter (`retryBaseMs` 250 ms, doubling, at most 5 s), or by a
 *   429/503's `Retry-After` (seconds or an HTTP date): the pacer then holds every request of the
 *   run until that time, this one's retry included. A 429 says the request was not processed, so
 *   its attempts do not count against `maxAttempts` (the call's deadline still bounds them).
 * - **Sent or not**: a failure before the request was written to a socket (connection refused,
 *   DNS, TLS, connect timeout) is {@link NetworkError} "cannot reach the service" with `sent:
 *   false`; after it, {@link AnswerLostError} says the request was sent and its answer lost and,
 *   for a mutating call, what may have happened and how to find out, never "try again".
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
 * - **Secrets**: the API key is registered for redaction by value (`redact.ts`); error messages
 *   and debug lines are redacted before they leave the client. Nothing is formatted for `--debug`
 *   unless it is on.
 */
import type { Dispatcher } from 'undici';
import {
  ApiError,
  DryRunHalt,
  RequestInterruptedError,
  ServiceCallError,
  ShipbookError,
  TimeoutError,
  type AnswerLostError,
  type AnswerTooLargeError,
  type NetworkError,
} from '../errors.js';
import { readAnswer, truncate, type AnswerEnvelope } from './answer.js';
import { AUTHORIZATION_REQUIRED, missingKeyError } from './authorization.js';
import { normaliseBaseUrl, urlUnder, type Query } from './base-url.js';
import { planRequest, plannedRecord, type PlanCall, type PlannedRequest } from './dry-run.js';
import type { EndpointName, ResultOf, RetryPolicy } from './endpoints.js';
import { AttemptFailure, linkSignals, Pool, sendAttempt, type AttemptAnswer } from './http.js';
import { deadlineError, interruptedError, mayRetry, tooLargeError, transportError } from './outcome.js';
import { maskSecret, redactText, redactValue, registerSecret } from './redact.js';
import { prepareRequest, type AuthSettings, type CallArgs, type PreparedRequest } from './request.js';
import { SANDBOX_HEADER } from '../schema/announce.js';
import { realSleep } from '../sleep.js';
import { Pacer, type PaceEvent, type PaceTicket } from './pacer.js';

export type { PlannedRequest } from './dry-run.js';
export type { PaceEvent } from './pacer.js';
/** How to find out what became of a mutating call whose answer is unknown (see `outcome.ts`). */
export { howToFindOut } from './outcome.js';

/** Settings of a client; everything but `baseUrl` has a default. */
interface ApiClientOptions extends AuthSettings {
  /** Base URL of the service, e.g. `https://api.example.com/v1/`. `http://` only on loopback. */
  baseUrl: string;
  /**
   * Keep-alive connections to the service at most (undici's pool per origin), and so the ceiling
   * of the pacer's requests in flight; a request beyond waits for its turn. Default: one per
   * request in flight, up to the pacer's own ceiling. A batch sets one per order slot
   * (`batchConnections` in src/booking/batch/slots.ts).
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
  /**
   * Requests per second at most (`--rate`, the profile's `rate`), from the first request; default:
   * as fast as the service accepts. Read when the client creates its pacer.
   */
  rate?: number;
  /** The pacer shared with the client this one was made from; default: a new one (see `pacer.ts`). */
  pacer?: Pacer;
  /**
   * Told the envelope of every successful answer as it came (redacted), its `result` unparsed:
   * what `shipbook api` prints.
   */
  onEnvelope?: (envelope: AnswerEnvelope) => void;
}

/** What {@link ApiClientOptions.onAnswer} is told of one answer. */
export interface AnswerNotice {
  endpoint: EndpointName;
  /** The HTTP status. */
  status: number;
  /** True when the answer announces a `shipbook sandbox` server. */
  sandbox: boolean;
}

/** Default total deadline of one call, its retries and their answers included: 60 s. */
const DEFAULT_TIMEOUT_MS = 60_000;
/** Default cap on the size of an answer read: 8 MiB (real answers are a few KiB). */
const DEFAULT_MAX_ANSWER_BYTES = 8 * 1024 * 1024;
const DEFAULT_MAX_ATTEMPTS = 3;
const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
const DEFAULT_RESPONSE_TIMEOUT_MS = 30_000;
const MAX_BACKOFF_MS = 5_000;
const MAX_RETRY_AFTER_MS = 30_000;

/** Per-call settings that the typed wrappers accept as an optional last parameter. */
export interface RequestOptions {
  /** Retry policy of this call (default: the endpoint's, `safe`): see {@link RetryPolicy}. */
  retry?: RetryPolicy;
  /** Aborts this call (besides the client's own signal). */
  signal?: AbortSignal;
  /**
   * A shorter total deadline for this call, retries included, ms (e.g. what remains of a wait, so
   * a hung poll cannot outlast `--timeout`); the client's own `timeoutMs` still applies when shorter.
   */
  timeoutMs?: number;
}

/** {@link RequestOptions} of {@link ApiClient.call}, and what it tells of a successful answer. */
interface CallOptions extends RequestOptions {
  /** Told the envelope's `message` of a successful answer (redacted), e.g. the reason a fetched order failed. */
  onMessage?: (message: string) => void;
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
  readonly #pool: Pool;
  /** False for a client made with `withOptions` that shares its parent's pool: the parent closes it. */
  readonly #ownsPool: boolean;
  readonly #secrets: ReadonlyArray<string | undefined>;

  /**
   * `shared.pool`: the connection pool of the client this one is made from (`withOptions` with
   * the same connection settings), so a client that differs only in its signal opens no connection of its own.
   * @throws ConfigError when the base URL is malformed or plain http to a remote host.
   */
  constructor(options: ApiClientOptions, shared?: { pool: Pool }) {
    this.baseUrl = normaliseBaseUrl(options.baseUrl);
    // One pacer for the run: every client made from this one with `withOptions` shares it.
    const pacer = options.pacer ?? new Pacer({ ...(options.connections !== undefined ? { ceiling: options.connections } : {}), ratePerSecond: options.rate });
    this.#options = Object.freeze({ ...options, pacer });
    this.#ownsPool = shared === undefined;
    this.#pool =
      shared?.pool ??
      new Pool(
        {
          connections: options.connections,
          connectTimeoutMs: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
          responseTimeoutMs: options.responseTimeoutMs ?? DEFAULT_RESPONSE_TIMEOUT_MS,
        },
        options.dispatcher,
      );
    this.#secrets = [options.apiKey];
    registerSecret(options.apiKey);
  }

  /** The clients made by {@link withOptions} with nothing but another signal, by signal (a batch asks for one per order). */
  #bySignal: { signal: AbortSignal | undefined; client: ApiClient } | undefined;

  /** A new client with some options replaced (e.g. a dry-run sink, a signal); this one is unchanged. */
  withOptions(options: Partial<ApiClientOptions>): ApiClient {
    const keys = Object.keys(options);
    if (keys.length === 1 && keys[0] === 'signal') {
      // The same signal as the last time: the same client (a client is never mutated).
      if (this.#bySignal?.signal !== options.signal || this.#bySignal === undefined)
        this.#bySignal = { signal: options.signal, client: new ApiClient({ ...this.#options, signal: options.signal }, { pool: this.#pool }) };
      return this.#bySignal.client;
    }
    // The pace stays the run's: a batch's `connections` becomes the ceiling of the shared pacer.
    if (options.connections !== undefined && options.pacer === undefined) this.#pacer.setCeiling(options.connections);
    // The same connection settings: the same pool, which the client that opened it closes.
    const samePool = !(['connections', 'connectTimeoutMs', 'responseTimeoutMs', 'dispatcher'] as const).some((k) => k in options);
    return new ApiClient({ ...this.#options, ...options }, samePool ? { pool: this.#pool } : undefined);
  }

  get #pacer(): Pacer {
    return this.#options.pacer!;
  }

  /**
   * Subscribes to the run's pace: when the service asks to wait (`paused`, with until when) and
   * when requests leave again (`resumed`). Returns the function that unsubscribes.
   */
  onPace(listener: (event: PaceEvent) => void): () => void {
    return this.#pacer.subscribe(listener);
  }

  /** True when this client sends nothing (dry-run mode). */
  get dryRun(): boolean {
    return this.#options.dryRun !== undefined;
  }

  /** Closes idle connections (so a one-shot command exits promptly); a client sharing its parent's pool leaves that to the parent. */
  async close(): Promise<void> {
    if (this.#ownsPool) await this.#pool.close();
  }

  /** The full URL of a path relative to the base URL. */
  urlOf(path: string, query?: Query): string {
    return urlUnder(this.baseUrl, path, query);
  }

  /** The redacted record of a call, as dry-run reports it; sends nothing. */
  plan(call: PlanCall): PlannedRequest {
    return planRequest({ ...this.#options, baseUrl: this.baseUrl }, call);
  }

  #log(line: string): void {
    this.#options.debug?.(redactText(line, this.#secrets));
  }

  /**
   * Calls endpoint `name` of the table (`endpoints.ts`), retried as the endpoint and
   * `options.retry` allow, and returns the envelope's `result`, checked against the endpoint's schema.
   * @throws ApiError for an error envelope or a non-2xx status (401/403 → exit 4, else exit 3)
   * @throws NetworkError (`sent: false`) when the service cannot be reached; AnswerLostError when
   *   the request was sent and its answer lost; TimeoutError past the deadline; AnswerTooLargeError
   *   beyond `maxAnswerBytes` (all exit 5, with `sent` and `endpoint`)
   * @throws RequestInterruptedError (exit 130) when the client's or the call's signal aborts
   * @throws ProtocolError when the answer is not the envelope or its `result` has the wrong shape
   * @throws DryRunHalt in dry-run mode, after the sink has the planned request
   * @throws ConfigError (exit 4) without a key for an operation that requires authorization; nothing is sent
   */
  async call<N extends EndpointName>(name: N, args: CallArgs<N> = {}, options: CallOptions = {}): Promise<ResultOf<N>> {
    const prepared = prepareRequest(this.#options, this.baseUrl, name, args);
    if (!this.#options.apiKey && AUTHORIZATION_REQUIRED.has(name)) throw missingKeyError(prepared.endpoint);
    if (this.#options.dryRun) {
      const planned = plannedRecord(this.#options, prepared);
      this.#options.dryRun(planned);
      throw new DryRunHalt(`dry run: would send ${prepared.method} ${planned.url}`, planned);
    }
    const own = this.#options.signal;
    const link = own === undefined || options.signal === undefined || options.signal === own ? undefined : linkPair(own, options.signal);
    const userSignal = link?.signal ?? own ?? options.signal;
    try {
      return (await this.#callWithRetries(prepared, options, userSignal)) as ResultOf<N>;
    } catch (err) {
      throw caseHint(err, args.params);
    } finally {
      link?.release();
    }
  }

  async #callWithRetries(p: PreparedRequest, options: CallOptions, userSignal: AbortSignal | undefined): Promise<unknown> {
    const policy = options.retry ?? p.endpoint.retry;
    const maxAttempts = Math.max(1, this.#options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS);
    const sleep = this.#options.sleep ?? realSleep;
    const random = this.#options.random ?? Math.random;
    // One budget for the whole call: every attempt and every wait between two attempts spend it.
    const budget: CallBudget = {
      budgetMs: Math.max(1, Math.min(this.#options.timeoutMs ?? DEFAULT_TIMEOUT_MS, options.timeoutMs ?? Number.POSITIVE_INFINITY)),
      started: Date.now(),
      attempts: 0,
    };
    let refused = 0;
    for (;;) {
      budget.attempts++;
      try {
        return await this.#attempt(p, options, userSignal, budget);
      } catch (err) {
        // A 429 was not processed: it spends the deadline, not an attempt.
        if (err instanceof ApiError && err.status === 429) refused++;
        if (budget.attempts - refused >= maxAttempts || !mayRetry(err, p.endpoint, policy)) throw gaveUp(err, budget);
        const backoff = Math.min(MAX_BACKOFF_MS, (this.#options.retryBaseMs ?? 250) * 2 ** Math.max(0, budget.attempts - refused - 1));
        const paused = err instanceof ApiError && (err.retryAfterMs !== undefined || err.status === 429);
        // A Retry-After is waited out by the pacer, which holds every request of the run until then.
        const delay = paused ? 0 : Math.round(random() * backoff);
        const wait = paused ? Math.min(MAX_RETRY_AFTER_MS, Math.max(0, this.#pacer.pausedUntil - Date.now())) : delay;
        // A wait that would end past the deadline is not taken: the call ends with this failure now.
        if (Date.now() - budget.started + wait >= budget.budgetMs) throw gaveUp(err, budget);
        if (this.#options.debug)
          this.#log(
            `retrying ${p.method} ${p.url} in ${wait} ms (attempt ${budget.attempts + 1}${refused > 0 ? `, ${refused} refused with 429` : ''}): ${(err as Error).message}`,
          );
        if (!paused) {
          try {
            await sleep(delay, userSignal);
          } catch {
            throw interruptedError(p, err instanceof ServiceCallError ? err.sent : true, err);
          }
        }
      }
    }
  }

  async #attempt(p: PreparedRequest, options: CallOptions, userSignal: AbortSignal | undefined, budget: CallBudget): Promise<unknown> {
    // Nothing is formatted for --debug unless it is on: the body's redacted copy costs more than sending it.
    const debug = this.#options.debug !== undefined;
    let ticket: PaceTicket;
    try {
      ticket = await this.#pacer.acquire(userSignal);
    } catch (err) {
      throw interruptedError(p, false, err);
    }
    // The deadline counts from when the first attempt may leave, not from the queue before it.
    if (budget.attempts === 1) budget.started = Date.now();
    if (debug) this.#logRequest(p);
    const started = Date.now();
    let answer: AttemptAnswer;
    try {
      answer = await sendAttempt(p, {
        pool: this.#pool,
        // What is left of the call's budget after the attempts and waits before this one.
        timeoutMs: Math.max(1, budget.budgetMs - (Date.now() - budget.started)),
        limit: this.#options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES,
        signal: userSignal,
        onHeaders: (status, headers) => this.#options.onAnswer?.({ endpoint: p.endpoint.name, status, sandbox: headers[SANDBOX_HEADER] !== undefined }),
      });
    } catch (err) {
      ticket.done({ kind: 'other' });
      throw this.#failure(p, err, budget);
    }
    ticket.done(
      answer.status === 429 || answer.status === 503
        ? { kind: 'limited', status: answer.status, ...(answer.retryAfterMs !== undefined ? { retryAfterMs: answer.retryAfterMs } : {}) }
        : { kind: 'ok' },
    );
    if (debug) this.#log(`< ${answer.status} (${Date.now() - started} ms) ${truncate(redactText(answer.text, this.#secrets), 4000)}`);
    return readAnswer(p, answer, this.#secrets, options.onMessage, this.#options.onEnvelope);
  }

  /** The typed error of an attempt that got no answer (see {@link AttemptFailure}). */
  #failure(p: PreparedRequest, err: unknown, budget: CallBudget): unknown {
    if (!(err instanceof AttemptFailure)) return err;
    switch (err.kind) {
      case 'interrupted':
        return interruptedError(p, err.sent, err.cause);
      case 'deadline':
        return deadlineError(p, err.sent, budget.budgetMs, attemptsText(budget), err.cause);
      case 'too-large':
        return tooLargeError(p, this.#options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES);
      case 'transport':
        return transportError(p, err.cause, err.sent, this.#options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS);
    }
  }

  /** The `--debug` lines of a request: method and URL, the auth header masked, the body redacted. */
  #logRequest(p: PreparedRequest): void {
    this.#log(`> ${p.method} ${p.url}`);
    const { apiKey, authHeader = 'Authorization', authPrefix = 'Bearer ' } = this.#options;
    if (apiKey) this.#log(`> ${authHeader}: ${authPrefix}${maskSecret(apiKey)}`);
    if (p.payload) this.#log(`> ${JSON.stringify(redactValue(JSON.parse(p.payload)))}`);
  }
}

/** A signal linked to two others by {@link linkPair}, with the calls using it. */
interface PairLink {
  signal: AbortSignal;
  unlink: () => void;
  users: number;
}

/** The links of {@link linkPair} in use, by their two signals. */
const pairLinks = new WeakMap<AbortSignal, Map<AbortSignal, PairLink>>();

/**
 * A signal that aborts when `a` or `b` does (with its reason), shared by the calls under way with
 * the same two signals (a batch's polls: the client's and the wait's), and unlinked when the last
 * of them calls `release`: one listener on each signal per pair in use, not one per call.
 */
function linkPair(a: AbortSignal, b: AbortSignal): { signal: AbortSignal; release: () => void } {
  let byB = pairLinks.get(a);
  if (byB === undefined) pairLinks.set(a, (byB = new Map()));
  let link = byB.get(b);
  if (link === undefined) {
    link = { ...linkSignals([a, b]), users: 0 };
    byB.set(b, link);
  }
  link.users++;
  const used = link;
  const links = byB;
  return {
    signal: used.signal,
    release() {
      if (--used.users > 0) return;
      used.unlink();
      links.delete(b);
    },
  };
}

/**
 * The last failure of a call that was tried more than once, its message completed with the
 * number of attempts and the time they took (a timeout says both already).
 */
function gaveUp(err: unknown, budget: CallBudget): unknown {
  if (err instanceof ApiError) err.attempts = budget.attempts;
  if (budget.attempts > 1 && err instanceof ShipbookError && !(err instanceof TimeoutError) && !(err instanceof RequestInterruptedError)) {
    err.message = `${err.message} (${attemptsText(budget)})`;
  }
  return err;
}

/**
 * A 404 for an id written partly in lower case: ids are case-sensitive (a real service's ids are
 * opaque, so nothing is changed or retried), and the hint names the upper-case spelling, which is
 * how the sandbox writes its ids.
 */
function caseHint(err: unknown, params: Readonly<Record<string, string>> | undefined): unknown {
  if (!(err instanceof ApiError) || err.status !== 404 || params === undefined) return err;
  const id = Object.values(params).find((v) => v !== v.toUpperCase());
  if (id === undefined) return err;
  return new ApiError({
    status: err.status,
    ...(err.envelopeCode === undefined ? {} : { envelopeCode: err.envelopeCode }),
    message: err.message,
    fieldErrors: err.fieldErrors,
    method: err.method,
    url: err.url,
    suggestion: `Ids are case-sensitive: did you mean ${id.toUpperCase()}?`,
  });
}
