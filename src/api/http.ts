/**
 * The HTTP side of one attempt, on undici: sending the prepared request under a deadline and the
 * caller's signal, reading the answer up to a size cap, and knowing whether the request was
 * written to a socket (undici's diagnostics channels `undici:request:create` and
 * `undici:client:sendHeaders`, published synchronously). What a failure means for the call is
 * decided by the client with `outcome.ts`; here it is only classified ({@link AttemptFailure}).
 * Also the plumbing of the retries: linked signals, `Retry-After` (the sleep between attempts is src/sleep.ts's).
 */
import type { Agent as UndiciAgent, Dispatcher } from 'undici';
import type { IncomingHttpHeaders } from 'node:http';
import { subscribe } from 'node:diagnostics_channel';
import { readLimited } from '../http/body.js';
import type { PreparedRequest } from './request.js';
import { onAbort } from '../sleep.js';

/** Settings of the connection pool a client creates when none was injected. */
interface PoolSettings {
  /** Keep-alive connections per origin at most; default one per request in flight. */
  connections?: number;
  /** Time to establish a connection, ms. */
  connectTimeoutMs: number;
  /** Time to wait for the response headers, and between two chunks of the body, ms. */
  responseTimeoutMs: number;
}

/** Node.js's limit on the size of an answer's headers, bytes, when no option changes it (`--max-http-header-size`). */
const NODE_DEFAULT_MAX_HEADER_SIZE = 16384;

/**
 * The limit on an answer's headers that undici would take from node:http (`http.maxHeaderSize`),
 * bytes, when it is Node.js's default; undefined when `--max-http-header-size` is given (on the
 * command line or in NODE_OPTIONS), and undici reads it itself. Given to undici, it spares loading
 * node:http (its client and server) on the first request of every command.
 */
function nodeMaxHeaderSize(): number | undefined {
  // Node.js takes an option's words joined by dashes or underscores alike.
  const given = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((a) => /max[-_]http[-_]header[-_]size/.test(a));
  return given ? undefined : NODE_DEFAULT_MAX_HEADER_SIZE;
}

/**
 * The connection pool of one client: the injected dispatcher, or an undici `Agent` created on the
 * first request (undici is loaded then), shared by every call of the client.
 */
export class Pool {
  #dispatcher: Dispatcher | undefined;
  readonly #injected: boolean;
  readonly #settings: PoolSettings;

  constructor(settings: PoolSettings, dispatcher?: Dispatcher) {
    this.#settings = settings;
    this.#dispatcher = dispatcher;
    this.#injected = dispatcher !== undefined;
  }

  /** The dispatcher, created with `AgentClass` on first use. */
  dispatcher(AgentClass: typeof UndiciAgent): Dispatcher {
    this.#dispatcher ??= new AgentClass({
      connect: { timeout: this.#settings.connectTimeoutMs },
      ...(this.#settings.connections === undefined ? {} : { connections: this.#settings.connections }),
      headersTimeout: this.#settings.responseTimeoutMs,
      bodyTimeout: this.#settings.responseTimeoutMs,
      ...(nodeMaxHeaderSize() === undefined ? {} : { maxHeaderSize: nodeMaxHeaderSize() }),
    });
    return this.#dispatcher;
  }

  /** Closes the idle connections of a pool created here; an injected dispatcher is its owner's to close. */
  async close(): Promise<void> {
    if (!this.#injected) await this.#dispatcher?.close();
  }
}

/** The answer of one attempt: the HTTP status, the body as text, and a 429/503's `Retry-After` in ms. */
export interface AttemptAnswer {
  status: number;
  text: string;
  retryAfterMs: number | undefined;
}

/**
 * Why an attempt got no answer: the caller's signal aborted it (`interrupted`), its deadline passed
 * (`deadline`), the transport failed (`transport`: `cause` is undici's or the socket's error), or
 * the answer was larger than the cap (`too-large`). `sent`: whether the request had been written.
 */
export class AttemptFailure {
  constructor(
    readonly kind: 'interrupted' | 'deadline' | 'transport' | 'too-large',
    readonly sent: boolean,
    readonly cause: unknown,
  ) {}
}

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

/** undici's parts, once the first attempt has loaded them (and subscribed to its channels). */
let undiciModule: typeof import('../http/undici.js') | undefined;
async function loadUndici(): Promise<typeof import('../http/undici.js')> {
  const loaded = await import('../http/undici.js');
  subscribeChannels();
  undiciModule = loaded;
  return loaded;
}

/** One attempt's needs besides the request: the pool, the time left, the cap, the caller's signal. */
interface AttemptSettings {
  /** The client's connection pool. */
  pool: Pool;
  /** Time this attempt may take, body included, ms. */
  timeoutMs: number;
  /** Largest answer read, bytes. */
  limit: number;
  /** The caller's signal (Ctrl-C, SIGTERM, the call's own). */
  signal: AbortSignal | undefined;
  /** Told of the answer's status and headers as they arrive, before the body is read. */
  onHeaders: (status: number, headers: IncomingHttpHeaders) => void;
}

/**
 * The signal of one attempt, as undici takes it (an EventEmitter's `once`/`removeListener` of
 * `abort`, with `aborted` and `reason`): what an AbortController gives, without creating an
 * EventTarget for each request. Aborting it stops the request, or the reading of its body, with
 * `reason`.
 */
class AttemptSignal {
  aborted = false;
  reason: unknown = undefined;
  #listeners: Array<() => void> = [];

  /** Adds a listener of `abort`, called once. */
  once(_event: 'abort', listener: () => void): this {
    this.#listeners.push(listener);
    return this;
  }

  /** The same as {@link once}: undici checks that the signal has `on`. */
  on(event: 'abort', listener: () => void): this {
    return this.once(event, listener);
  }

  /** Removes a listener added with {@link once}. */
  removeListener(_event: 'abort', listener: () => void): this {
    const i = this.#listeners.indexOf(listener);
    if (i !== -1) this.#listeners.splice(i, 1);
    return this;
  }

  /** Aborts with `reason` (the first time only), telling every listener. */
  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listeners = this.#listeners;
    this.#listeners = [];
    for (const listener of listeners) listener();
  }
}

/**
 * Sends `p` once and reads its answer.
 * @throws AttemptFailure when no answer was read (see its `kind`)
 */
export async function sendAttempt(p: PreparedRequest, s: AttemptSettings): Promise<AttemptAnswer> {
  const userSignal = s.signal;
  if (userSignal?.aborted) throw new AttemptFailure('interrupted', false, userSignal.reason);
  // One signal per attempt, aborted by the deadline or by the caller's signal (linked by hand:
  // AbortSignal.any costs more per request than the rest of the client, on Node.js 20).
  const deadline = new AttemptSignal();
  const timer = setTimeout(() => deadline.abort(new Error('deadline')), s.timeoutMs);
  // Through the signal's one listener (src/sleep.ts): a run's requests add no listener each.
  const unlisten = userSignal === undefined ? undefined : onAbort(userSignal, () => deadline.abort(userSignal.reason));
  const state: AttemptState = { sent: false };
  try {
    // undici is loaded on first use (commands that never call the service start faster), then kept.
    const { Agent, request } = undiciModule ?? (await loadUndici());
    const dispatcher = s.pool.dispatcher(Agent);
    creating = state;
    let pending: ReturnType<typeof request>;
    try {
      pending = request(p.url, { method: p.method, headers: p.headers, body: p.payload, dispatcher, signal: deadline });
    } finally {
      creating = undefined;
    }
    const res = await pending;
    state.sent = true; // an answer came: whatever the channels said, the request was sent
    const status = res.statusCode;
    s.onHeaders(status, res.headers);
    const retryAfterMs = parseRetryAfter(res.headers['retry-after']);
    const answer = await readLimited(res.body, s.limit, s.limit, Number(res.headers['content-length']));
    if ('tooLarge' in answer) {
      res.body.destroy();
      throw new AttemptFailure('too-large', true, undefined);
    }
    return { status, text: answer.text, retryAfterMs };
  } catch (err) {
    if (err instanceof AttemptFailure) throw err;
    if (userSignal?.aborted) throw new AttemptFailure('interrupted', state.sent, err);
    if (deadline.aborted) throw new AttemptFailure('deadline', state.sent, err);
    throw new AttemptFailure('transport', state.sent, err);
  } finally {
    clearTimeout(timer);
    unlisten?.();
  }
}

/**
 * A signal that aborts, with the same reason, when any of `signals` does; `unlink` removes its
 * listeners once the call is over (AbortSignal.any keeps its sources until garbage collection).
 */
export function linkSignals(signals: AbortSignal[]): { signal: AbortSignal; unlink: () => void } {
  const controller = new AbortController();
  const already = signals.find((s) => s.aborted);
  if (already) {
    controller.abort(already.reason);
    return { signal: controller.signal, unlink: () => {} };
  }
  const unlisten = signals.map((s) => onAbort(s, () => controller.abort(s.reason)));
  return { signal: controller.signal, unlink: () => unlisten.forEach((u) => u()) };
}

/** `Retry-After` as ms: delta seconds or an HTTP date; undefined when absent or malformed. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (!v) return undefined;
  if (/^\s*\d+\s*$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
