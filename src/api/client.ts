/**
 * The HTTP client of the booking service, on undici. It wraps every body in `request`, sends the
 * auth header of the profile (PRODUCT.md: `Authorization: Bearer <key>` by default) and
 * `User-Agent: shipbook/<version>`, unwraps the `message`/`code`/`result` envelope (interface
 * document, "Conventions" and "Errors"), and throws typed errors: {@link ApiError},
 * {@link NetworkError}, {@link TimeoutError}, {@link ProtocolError}. A configured client is never
 * mutated.
 */
import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import { ApiError, ConfigError, NetworkError, ProtocolError, TimeoutError } from '../errors.js';
import { envelope, fieldErrors, wrapRequest } from '../schema/envelope.js';
import { schemaProblems } from '../schema/issues.js';
import { Money } from '../schema/money.js';
import { redactText, redactValue } from './redact.js';

declare const SHIPBOOK_VERSION: string;
/** The version of shipbook, injected at build time (falls back to `dev` under vitest). */
export const VERSION: string = typeof SHIPBOOK_VERSION === 'string' ? SHIPBOOK_VERSION : 'dev';

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
  /** Time to establish a connection, ms (default 10 000). */
  connectTimeoutMs?: number;
  /** Time to wait for the response headers and body, ms (default 30 000). */
  responseTimeoutMs?: number;
  /** Receives one redacted line per request and response when `--debug` is on. */
  debug?: (line: string) => void;
  /** Injectable transport (tests, proxies). */
  dispatcher?: Dispatcher;
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

/** One call: method, path relative to the base URL, optional body (wrapped in `request`) or query. */
export interface CallOptions<T> {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  /** Schema of `result`; the response is rejected as {@link ProtocolError} when it does not fit. */
  result: z.ZodType<T>;
}

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

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
  }

  /** Closes idle connections (so a one-shot command exits promptly). */
  async close(): Promise<void> {
    if (!this.#options.dispatcher) await this.#dispatcher?.close();
  }

  /** The full URL of a path relative to the base URL. */
  urlOf(path: string, query?: CallOptions<unknown>['query']): string {
    const url = new URL(path.replace(/^\//, ''), this.baseUrl);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    return url.toString();
  }

  #log(line: string): void {
    const secrets = [this.#options.apiKey];
    this.#options.debug?.(redactText(line, secrets));
  }

  /**
   * Sends one request and returns the envelope's `result`, checked against `call.result`.
   * @throws ApiError for an error envelope or a non-2xx status (401/403 → exit 4, else exit 3)
   * @throws NetworkError when the service cannot be reached, TimeoutError when it does not answer
   * @throws ProtocolError when the answer is not the envelope or its `result` has the wrong shape
   */
  async call<T>(call: CallOptions<T>): Promise<T> {
    const url = this.urlOf(call.path, call.query);
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': `shipbook/${VERSION}`,
    };
    const { apiKey, authHeader = 'Authorization', authPrefix = 'Bearer ' } = this.#options;
    if (apiKey) headers[authHeader.toLowerCase()] = `${authPrefix}${apiKey}`;
    let payload: string | undefined;
    if (call.body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(wrapRequest(toWire(call.body)));
    }
    this.#log(`> ${call.method} ${url}`);
    if (apiKey) this.#log(`> ${authHeader}: ${authPrefix}****${apiKey.length > 8 ? apiKey.slice(-4) : ''}`);
    if (payload) this.#log(`> ${JSON.stringify(redactValue(JSON.parse(payload)))}`);

    const started = Date.now();
    let status: number;
    let text: string;
    try {
      // undici is loaded on first use: commands that never call the service start faster.
      const { Agent, request } = await import('undici');
      this.#dispatcher ??= new Agent({
        connect: { timeout: this.#options.connectTimeoutMs ?? 10_000 },
        headersTimeout: this.#options.responseTimeoutMs ?? 30_000,
        bodyTimeout: this.#options.responseTimeoutMs ?? 30_000,
      });
      const res = await request(url, { method: call.method, headers, body: payload, dispatcher: this.#dispatcher });
      status = res.statusCode;
      text = await res.body.text();
    } catch (err) {
      throw this.#transportError(err, call.method, url);
    }
    this.#log(`< ${status} (${Date.now() - started} ms) ${text.length > 4000 ? `${text.slice(0, 4000)}…` : text}`);
    return this.#unwrap(call, status, text, url);
  }

  #transportError(err: unknown, method: string, url: string): Error {
    const code = (err as { code?: string })?.code ?? '';
    const causeCode = (err as { cause?: { code?: string } })?.cause?.code ?? '';
    const what = `${method} ${new URL(url).origin}`;
    if (TIMEOUT_CODES.has(code) || TIMEOUT_CODES.has(causeCode)) {
      return new TimeoutError(`the service did not answer in time (${what})`, {
        cause: err,
        suggestion: 'Try again; if it keeps happening, check the base URL and your network.',
      });
    }
    const reason = causeCode || code || (err instanceof Error ? err.message : String(err));
    return new NetworkError(`cannot reach the service at ${new URL(url).origin} (${reason})`, {
      cause: err,
      suggestion: 'Check the base URL ("shipbook config get base-url" or SHIPBOOK_BASE_URL) and your network.',
    });
  }

  #unwrap<T>(call: CallOptions<T>, status: number, text: string, url: string): T {
    let json: unknown;
    try {
      json = text.trim() === '' ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    const env = envelope.safeParse(json);
    const ok = status >= 200 && status < 300;
    if (!env.success) {
      if (!ok) {
        const snippet = text.replace(/\s+/g, ' ').trim().slice(0, 120);
        throw new ApiError({ status, message: `the service answered HTTP ${status}${snippet ? `: ${snippet}` : ''}`, method: call.method, url });
      }
      throw new ProtocolError(`the service answered HTTP ${status} without the message/code/result envelope`, {
        suggestion: 'Check that the base URL points at the booking service API.',
      });
    }
    const { code, message, result } = env.data;
    if (!ok || code < 200 || code >= 300) {
      const errors = fieldErrors.parse((result as { errors?: unknown } | undefined)?.errors);
      throw new ApiError({
        status: ok ? code : status,
        envelopeCode: code,
        message: message || `the service answered code ${code}`,
        fieldErrors: errors.map((e) => ({ field: e.field ?? '', message: e.message ?? '' })),
        method: call.method,
        url,
      });
    }
    const parsed = call.result.safeParse(result);
    if (!parsed.success) {
      const first = schemaProblems(parsed.error, ['result']).slice(0, 3);
      throw new ProtocolError(
        `the service's answer has an unexpected shape: ${first.map((p) => `${p.path} ${p.message}`).join('; ')}`,
      );
    }
    return parsed.data;
  }
}
