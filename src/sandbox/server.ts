/**
 * The sandbox's HTTP server (node:http): routing, JSON bodies wrapped in `request`, credentials,
 * and the envelope. Interface document, "Conventions" (bodies wrapped in `request`; responses
 * `{message, code, result}`), "Authentication" and "Errors"; docs/assumptions.md "authorization scheme"
 * and "error codes and bodies".
 *
 * Every answer is an envelope whose `code` equals the HTTP status:
 *
 * | status | when |
 * |---|---|
 * | 200/201 | the handler's reply, `message` `OK` |
 * | 400 | malformed JSON, no `request` object, or a schema problem (`result.errors: [{field, message}]`) |
 * | 401 | missing credentials on a route that requires them, or wrong credentials |
 * | 404 | unknown path, or unknown id (from a handler) |
 * | 405 | known path, other method (`Allow` header lists the methods) |
 * | 409 | wrong state (from a handler) |
 * | 413 | body larger than {@link MAX_BODY_BYTES} |
 * | 415 | a body declared as something other than JSON |
 * | 429 | beyond `--rate-limit` (`Retry-After: 1`) |
 * | 500 | anything a handler throws that is not a {@link SandboxHttpError}, or a corrupt state file |
 * | 500/503 | a fault injected by `--fail-rate` (nothing processed) |
 * | 503 | the on-disk state is held by another process for too long (`Retry-After: 1`) |
 * | 507 | the on-disk state cannot be written (disk full) |
 *
 * With `--reset-rate` some connections are closed without an answer, before or after processing.
 *
 * Routes come from `routes/index.ts` (one line per route module); see {@link Route}.
 */
import { readLimitedBody, type LimitedBody } from '../http/body.js';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { answerMalformed } from '../http/server.js';
import { MAX_REQUEST_BYTES } from '../schema/limits.js';
import { SandboxHttpError, type HttpMethod, type Route, type RouteReply, type RouteRequest, type SandboxContext } from './http.js';
import { ROUTES } from './routes/index.js';
import { SANDBOX_HEADER, SANDBOX_HEADER_VALUE } from '../schema/announce.js';
import { StoreBusyError, StoreCorruptError, StoreFullError } from './store/index.js';
import { isObject } from '../schema/object.js';
import { sameSecret } from '../http/secret.js';

/** Largest request body accepted: 1 MiB. Larger bodies get a 413 envelope. */
export const MAX_BODY_BYTES = MAX_REQUEST_BYTES;
// A body is drained up to 8 × the limit so the 413 reaches the client; past that the connection is
// closed after it (src/http/body.ts, readLimitedBody).

/** A route with its pattern compiled to a regular expression. */
interface CompiledRoute {
  route: Route;
  regex: RegExp;
  names: string[];
}

/** Compiles `:name` patterns; a trailing slash is optional when matching; a parameter is one non-empty segment. */
function compileRoutes(routes: readonly Route[]): CompiledRoute[] {
  return routes.map((route) => {
    const names: string[] = [];
    const trimmed = route.pattern.replace(/\/+$/, '');
    const source = trimmed
      .split('/')
      .map((segment) => {
        if (segment.startsWith(':')) {
          names.push(segment.slice(1));
          return '([^/]+)';
        }
        return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      })
      .join('/');
    return { route, regex: new RegExp(`^${source}/?$`), names };
  });
}

/** The route for a method and path, its decoded parameters, or the methods allowed on the path. */
function matchRoute(
  compiled: readonly CompiledRoute[],
  method: string,
  path: string,
): { route: Route; params: Record<string, string> } | { allowed: string[] } | undefined {
  let allowed: string[] | undefined;
  for (const c of compiled) {
    const m = c.regex.exec(path);
    if (!m) continue;
    if (c.route.method !== method) {
      allowed ??= [];
      if (!allowed.includes(c.route.method)) allowed.push(c.route.method);
      continue;
    }
    const params: Record<string, string> = {};
    try {
      for (let i = 0; i < c.names.length; i++) params[c.names[i]!] = decodeURIComponent(m[i + 1] ?? '');
    } catch {
      continue; // a malformed %-escape cannot name anything
    }
    return { route: c.route, params };
  }
  return allowed === undefined ? undefined : { allowed };
}

/** The headers of every envelope besides its length, as the flat list `writeHead` takes (built once). */
const PLAIN_HEADERS: readonly string[] = ['content-type', 'application/json; charset=utf-8', 'cache-control', 'no-store'];
/** The same, announcing the sandbox (option `announce`), so its output is never taken for the real service's. */
const ANNOUNCED_HEADERS: readonly string[] = [...PLAIN_HEADERS, SANDBOX_HEADER, SANDBOX_HEADER_VALUE];

/** The headers of every envelope of this sandbox. */
function envelopeHeaders(ctx: SandboxContext): readonly string[] {
  return ctx.options.announce ? ANNOUNCED_HEADERS : PLAIN_HEADERS;
}

/**
 * Answers whose bodies are written at the end of the event-loop turn that produced them (its check
 * phase), together. A client with many connections open (a batch, a load generator) is then woken
 * once for the answers of a turn instead of once per answer, and reads them in one go: on a
 * 2-core machine that took the sandbox from about 27,000 to 35,000 `POST /quote/` a second at 32
 * connections. An answer waits at most for the other requests read in the same turn.
 * One pair of lists for the process: each answer knows its own connection.
 */
let unsent: ServerResponse[] = [];
/** The bodies of {@link unsent}, index for index (two lists: no object per answer). */
let unsentBodies: string[] = [];

/** Writes every answer of this turn; one that cannot be written closes its connection and spoils no other. */
function sendAnswers(): void {
  const answers = unsent;
  const bodies = unsentBodies;
  unsent = [];
  unsentBodies = [];
  for (let i = 0; i < answers.length; i++) {
    const res = answers[i]!;
    const body = bodies[i]!;
    if (res.destroyed) continue;
    try {
      res.end(body);
    } catch {
      res.destroy();
    }
  }
}

/** Writes the envelope `{message, code, result}` with HTTP status = `code`, the `base` headers and `headers` besides. */
function writeEnvelope(res: ServerResponse, base: readonly string[], status: number, message: string, result: unknown, headers?: Record<string, string>): void {
  if (res.headersSent || res.destroyed) return;
  writeAnswer(res, base, status, JSON.stringify({ message, code: status, result: result ?? {} }), headers);
}

/** The opening of a `200 OK` envelope's JSON, up to its `result`. */
const OK_OPENING = '{"message":"OK","code":200,"result":';

/**
 * Writes the envelope of a reply whose `result` is already JSON text: the text `JSON.stringify`
 * gives for `{message, code, result}`, without parsing the result again.
 */
function writeEnvelopeJson(res: ServerResponse, base: readonly string[], status: number, message: string, resultJson: string): void {
  if (res.headersSent || res.destroyed) return;
  const opening = status === 200 && message === 'OK' ? OK_OPENING : `{"message":${JSON.stringify(message)},"code":${status},"result":`;
  writeAnswer(res, base, status, `${opening}${resultJson}}`);
}

/** Writes the head of an answer now and queues its body for the end of this turn (see {@link unsent}). */
function writeAnswer(res: ServerResponse, base: readonly string[], status: number, body: string, headers?: Record<string, string>): void {
  const list = ['content-length', String(Buffer.byteLength(body)), ...base];
  if (headers !== undefined) for (const name of Object.keys(headers)) list.push(name, headers[name]!);
  res.writeHead(status, list);
  if (unsent.length === 0) setImmediate(sendAnswers);
  unsent.push(res);
  unsentBodies.push(body);
}

/**
 * Unwraps the JSON body read from `req`: the content of `request`, or `undefined` for an empty
 * optional body. Synchronous (the caller awaits the reading alone: one promise less per request).
 * @throws SandboxHttpError 413 (too large), 400 (empty when required, malformed JSON, no `request`
 *   object), 415 (declared as something other than JSON)
 */
function requestBodyOf(req: IncomingMessage, res: ServerResponse, mode: 'required' | 'optional', body: LimitedBody): unknown {
  if ('tooLarge' in body) {
    if (!body.drained) res.setHeader('connection', 'close');
    throw new SandboxHttpError(413, `request body too large: at most ${MAX_BODY_BYTES} bytes (1 MiB)`);
  }
  if (body.text.trim() === '') {
    if (mode === 'optional') return undefined;
    throw new SandboxHttpError(400, 'request body required: a JSON object with a top-level "request" object', {
      errors: [{ field: 'request', message: 'required' }],
    });
  }
  // a body declared as something other than JSON is refused (415), not guessed at.
  const declared = req.headers['content-type'];
  const type = declared === undefined || declared === 'application/json' ? '' : declared.split(';')[0]!.trim().toLowerCase();
  if (type !== '' && type !== 'application/json' && !/^application\/[a-z0-9.+-]*\+json$/.test(type)) {
    throw new SandboxHttpError(415, `unsupported content type ${JSON.stringify(type)}: send the body as application/json`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.text);
  } catch (err) {
    throw new SandboxHttpError(400, `malformed JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!isObject(parsed) || !Object.hasOwn(parsed, 'request')) {
    throw new SandboxHttpError(400, 'the body must be wrapped in a top-level "request" object: {"request": {…}}', {
      errors: [{ field: 'request', message: 'required: wrap the body in a top-level "request" object' }],
    });
  }
  if (!isObject(parsed.request)) {
    throw new SandboxHttpError(400, '"request" must be an object', { errors: [{ field: 'request', message: 'expected an object' }] });
  }
  return parsed.request;
}

/** How to send credentials, for the 401 messages. */
function credentialsHint(authHeader: string, authPrefix: string): string {
  return `send the header ${authHeader}: ${authPrefix}<api key>`;
}

/**
 * Checks credentials (docs/assumptions.md "authorization scheme"): the header `options.authHeader` holding
 * `options.authPrefix` + a non-empty token (the prefix compared case-insensitively), equal to
 * `options.apiKey` when one is configured. Throws 401 when required and missing or wrong, or when
 * optional, present and wrong under a configured key. Returns whether valid credentials came.
 */
function checkAuth(req: IncomingMessage, ctx: SandboxContext, required: boolean): boolean {
  const { authHeader, authPrefix, apiKey } = ctx.options;
  const raw = req.headers[authHeader];
  const value = Array.isArray(raw) ? raw[0] : raw;
  const present = typeof value === 'string' && value.trim() !== '';
  if (!present) {
    if (required) throw new SandboxHttpError(401, `missing credentials: ${credentialsHint(authHeader, authPrefix)}`);
    return false;
  }
  const hasPrefix = value.slice(0, authPrefix.length).toLowerCase() === authPrefix.toLowerCase();
  const token = hasPrefix ? value.slice(authPrefix.length).trim() : '';
  const valid = token !== '' && (apiKey === undefined || sameSecret(token, apiKey));
  if (!valid && (required || apiKey !== undefined)) {
    throw new SandboxHttpError(401, hasPrefix && token !== '' ? 'invalid API key' : `malformed credentials: ${credentialsHint(authHeader, authPrefix)}`);
  }
  return valid;
}

/** A plain request target: a path of letters, digits, `_`, `-` and `/` (not `//…`), and a query of visible ASCII without `#`. */
const PLAIN_TARGET = /^\/(?!\/)[\w\-/]*(\?[\x21-\x22\x24-\x7e]*)?$/;

/**
 * The path and query of a request target, as WHATWG URL parsing gives them. A plain target (the
 * usual case) is split as it is, since parsing would change nothing in it; any other (dot
 * segments, %-escapes, an absolute URL) goes through `new URL`. The query is parsed when first
 * read, once.
 * @throws SandboxHttpError 400 for a target that is not a URL
 */
export function requestTarget(raw: string): RequestTarget {
  if (PLAIN_TARGET.test(raw)) {
    const q = raw.indexOf('?');
    // The search with its '?', which URLSearchParams drops (a second one is data).
    return q === -1 ? new PlainTarget(raw, '') : new PlainTarget(raw.slice(0, q), raw.slice(q));
  }
  let url: URL;
  try {
    url = new URL(raw, 'http://sandbox.invalid');
  } catch {
    throw new SandboxHttpError(400, 'malformed request URL');
  }
  return { pathname: url.pathname, query: () => url.searchParams };
}

/** A request target as {@link requestTarget} reads it: the path, and the query parsed when first read. */
interface RequestTarget {
  readonly pathname: string;
  query(): URLSearchParams;
}

/** A plain target, split as it is; its query parsed on first read, once (one object per request, no closures). */
class PlainTarget implements RequestTarget {
  private parsed: URLSearchParams | undefined;
  constructor(
    readonly pathname: string,
    private readonly search: string,
  ) {}
  query(): URLSearchParams {
    return (this.parsed ??= new URLSearchParams(this.search));
  }
}

/** The request a handler receives: one class for every request, its query parsed when first read. */
class SandboxRequest implements RouteRequest {
  readonly path: string;
  constructor(
    readonly method: HttpMethod,
    private readonly target: RequestTarget,
    readonly params: Record<string, string>,
    readonly body: unknown,
    readonly authenticated: boolean,
  ) {
    this.path = target.pathname;
  }
  get query(): URLSearchParams {
    return this.target.query();
  }
}

/** No fault injected (the sandbox without `--fail-rate`, `--rate-limit` or `--reset-rate`). */
const NO_FAULT = { kind: 'none' } as const;

/**
 * What a request is about, for seeded faults (src/sandbox/faults.ts): its operation and the
 * content of the order or shipments it concerns, with the ids the sandbox assigned replaced by
 * that content (ids depend on the order in which requests arrived; content does not).
 */
function faultKey(ctx: SandboxContext, route: Route, params: Readonly<Record<string, string>>, body: unknown): string {
  const contentOf = (id: string): string => {
    const order = ctx.state.orders.get(id);
    const shipments = order ? order.shipmentIds : [id];
    return shipments.map((s) => JSON.stringify(ctx.state.shipments.get(s)?.request ?? s)).join(',');
  };
  const about = params.order_id === undefined ? '' : contentOf(params.order_id);
  const content = body === undefined ? '' : JSON.stringify(body).replace(/\b(?:ORD|SHP)-[A-Z0-9]+\b/g, contentOf);
  return `${route.method} ${route.pattern} ${about} ${content}`;
}

/** Handles one request to its envelope; never throws. Returns the status written. */
async function handle(req: IncomingMessage, res: ServerResponse, ctx: SandboxContext, compiled: readonly CompiledRoute[]): Promise<number> {
  try {
    const url = requestTarget(req.url ?? '/');
    const method = req.method ?? 'GET'; // upper case: Node's HTTP parser takes no other method names
    const match = matchRoute(compiled, method, url.pathname);
    if (match === undefined) throw new SandboxHttpError(404, `no such operation: ${method} ${url.pathname}`);
    if ('allowed' in match) {
      throw new SandboxHttpError(405, `method ${method} not allowed on ${url.pathname}; allowed: ${match.allowed.join(', ')}`, {
        headers: { allow: match.allowed.join(', ') },
      });
    }
    const { route, params } = match;
    const authenticated = checkAuth(req, ctx, route.auth);
    const mode = route.body ?? (route.method === 'GET' || route.method === 'DELETE' ? 'none' : 'required');
    let body: unknown;
    if (mode !== 'none') {
      let read: LimitedBody;
      try {
        read = await readLimitedBody(req, MAX_BODY_BYTES);
      } catch {
        throw new SandboxHttpError(400, 'the request body could not be read');
      }
      body = requestBodyOf(req, res, mode, read);
    }
    const request = new SandboxRequest(route.method, url, params, body, authenticated);
    const fault = ctx.faults?.active
      ? ctx.faults.decide(url.pathname, ctx.faults.faults.seed === undefined ? url.pathname : faultKey(ctx, route, params, body))
      : NO_FAULT;
    if (ctx.faults?.faults.latencyMs) await new Promise((r) => setTimeout(r, ctx.faults!.faults.latencyMs));
    if (fault.kind === 'rate-limited') throw new SandboxHttpError(429, 'too many requests (sandbox --rate-limit)', { headers: { 'retry-after': '1' } });
    if (fault.kind === 'fail') throw new SandboxHttpError(fault.status, `simulated service fault (sandbox --fail-rate): nothing was processed`);
    if (fault.kind === 'reset-before') {
      req.socket.destroy();
      return 0;
    }
    // A route that reads no state answers without the store's transaction, and without waiting a
    // turn of the event loop when its handler answers at once (a quote).
    const answer = route.stateful === false ? route.handler(request, ctx) : ctx.state.store.transaction(() => route.handler(request, ctx));
    const reply: RouteReply = answer instanceof Promise ? await answer : answer;
    if (fault.kind === 'reset-after') {
      // Processed, and the answer is lost: the client cannot know the order exists.
      req.socket.destroy();
      return 0;
    }
    const status = reply.status ?? 200;
    if ('resultJson' in reply) writeEnvelopeJson(res, envelopeHeaders(ctx), status, reply.message ?? 'OK', reply.resultJson);
    else writeEnvelope(res, envelopeHeaders(ctx), status, reply.message ?? 'OK', reply.result);
    return status;
  } catch (err) {
    if (err instanceof SandboxHttpError) {
      const result = { ...(err.errors === undefined ? {} : { errors: err.errors }), ...err.result };
      writeEnvelope(res, envelopeHeaders(ctx), err.status, err.message, result, err.headers);
      return err.status;
    }
    if (err instanceof StoreCorruptError) {
      writeEnvelope(res, envelopeHeaders(ctx), 500, `${err.message}; run "shipbook sandbox reset" to start again from nothing`, { state_file: err.path });
      return 500;
    }
    if (err instanceof StoreFullError) {
      // Insufficient Storage: not a passing fault that a retry or a poll would get past.
      writeEnvelope(res, envelopeHeaders(ctx), 507, `${err.message}; free space there (or point SHIPBOOK_STATE_DIR elsewhere) and try again`, {
        state_dir: err.dir,
      });
      return 507;
    }
    if (err instanceof StoreBusyError) {
      writeEnvelope(res, envelopeHeaders(ctx), 503, err.message, { state_dir: err.dir }, { 'retry-after': '1' });
      return 503;
    }
    ctx.options.log(`sandbox internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    writeEnvelope(res, envelopeHeaders(ctx), 500, 'internal sandbox error', {});
    return 500;
  }
}

/**
 * Creates (does not start) the sandbox HTTP server over `routes` (default: every route module).
 * Each handled request is logged as one line: `POST /orders/ 200 (12 ms)` — method, path without
 * query, status, duration; never headers or bodies.
 */
export function createSandboxServer(ctx: SandboxContext, routes: readonly Route[] = ROUTES): Server {
  const compiled = compileRoutes(routes);
  const log = ctx.options.logRequests ? ctx.options.log : undefined;
  // Checked every second (Node's default of 30 s let a 10 s header timeout run to 40 s).
  const server = createServer(
    { requestTimeout: 30_000, headersTimeout: 10_000, connectionsCheckingInterval: 1_000, keepAliveTimeout: ctx.options.keepAliveMs },
    (req, res) => {
      if (log === undefined) {
        void handle(req, res, ctx, compiled);
        return;
      }
      const started = performance.now();
      void handle(req, res, ctx, compiled).then((status) => {
        let path = req.url ?? '/';
        const q = path.indexOf('?');
        if (q >= 0) path = path.slice(0, q);
        log(`${req.method ?? '?'} ${path} ${status} (${Math.round(performance.now() - started)} ms)`);
      });
    },
  );
  server.on('clientError', (err, socket) => {
    answerMalformed(
      socket,
      (status: number) => ({ message: status === 408 ? 'request timeout' : 'malformed HTTP request', code: status, result: {} }),
      err,
      ctx.options.announce ? { [SANDBOX_HEADER]: SANDBOX_HEADER_VALUE } : {},
    );
  });
  return server;
}
