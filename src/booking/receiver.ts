/**
 * The callback receiver: a small node:http server that takes the processing callback of the
 * interface document ("Events": an HTTP POST of an ordinary `message`/`code`/`result` envelope
 * with `result.order` holding `id`, `status` and `shipments[]` with `tracking_number`).
 *
 * The service signs nothing (docs/assumptions.md, "callback retries and signing"), so the receiver
 * protects itself with an unguessable path: `<basePath>/<token>`, the token being 24 random bytes
 * in base64url (32 characters). It answers, always with a JSON envelope:
 *
 * | status | when |
 * |---|---|
 * | 200 `{"code":200,"message":"OK"}` | a valid callback the owner accepts (also a repeated one: the service retries) |
 * | 400 | malformed JSON, or a body that is not the callback envelope |
 * | 404 | any path other than the token path |
 * | 405 | the token path with a method other than POST (`Allow: POST`) |
 * | 409 (or what the owner says) | a valid callback the owner refuses, e.g. for another order |
 * | 413 | a body larger than {@link MAX_CALLBACK_BYTES} (1 MiB) |
 *
 * Every refusal is reported through `onProblem` (on the token path summarised per interval, so a
 * flood of bad requests cannot flood the terminal) and never stops the server. It binds to
 * 127.0.0.1 unless told otherwise.
 */
import { redactAnswer, redactAnswerText, redactText } from '../api/redact.js';
import { readLimitedBody } from '../http/body.js';
import { answerMalformed, closeServer, listenOn, sendJson, urlHost } from '../http/server.js';

import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseCallbackBody, type CallbackBody } from '../schema/envelope.js';
import { schemaProblems } from '../schema/issues.js';
import { sameSecret } from '../http/secret.js';

/** Largest callback body accepted: 1 MiB. Larger bodies get 413. */
const MAX_CALLBACK_BYTES = 1024 * 1024;
// An oversized body is drained up to 8 × the limit so the 413 reaches the sender; past that the
// connection is closed after it (src/http/body.ts, readLimitedBody).

/** A new unguessable token for a receiver path: 24 random bytes, base64url (32 characters). */
export function newCallbackToken(): string {
  return randomBytes(24).toString('base64url');
}

/** Characters a token given by the user may use (kept to what needs no escaping in a URL path). */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{16,128}$/;

/** A valid callback as received. */
export interface ReceivedCallback {
  /** The parsed envelope (interface document, "Events"). */
  body: CallbackBody;
  /** The JSON as it arrived (for forwarding and `--json` output). */
  raw: unknown;
  /** The raw bytes as they arrived. */
  text: string;
  /** `result.order.id`, when the body carries an order. */
  orderId?: string;
  /** When it arrived. */
  receivedAt: Date;
  /** The peer address, e.g. `127.0.0.1`. */
  remote: string;
}

/** The owner's answer to a valid callback: accept it (200), or refuse it with a status and reason. */
export type CallbackVerdict = { accepted: true } | { accepted: false; status: number; message: string };

/** A request the receiver refused, reported to its owner. */
export interface ReceiverProblem {
  /** The HTTP status answered: 400, 404, 405, 409, 413 … */
  status: number;
  /** What was wrong, for people, e.g. `malformed JSON (Unexpected token …)`. Never contains the token. */
  reason: string;
  method: string;
  remote: string;
  /** False for requests that did not use the token path (404): noise from scanners, typos. */
  onTokenPath: boolean;
  /**
   * Set on the one problem per interval that stands for the token-path refusals not reported
   * one by one (see {@link CallbackReceiverOptions.refusalSummaryMs}): the sentence to show, e.g.
   * `249 more requests in the last 10 s: 400 ×249`.
   */
  summary?: string;
}

/** How a receiver is started. */
interface CallbackReceiverOptions {
  /** Interface to bind. Default `127.0.0.1` (loopback). */
  host?: string;
  /** TCP port. Default 0: a random free port. */
  port?: number;
  /** Path prefix before the token, e.g. `/sb` (from `--public-url https://hooks.example.com/sb`). Default empty. */
  basePath?: string;
  /** The secret path segment. Default: {@link newCallbackToken}. */
  token?: string;
  /** Body limit in bytes. Default {@link MAX_CALLBACK_BYTES}. */
  maxBodyBytes?: number;
  /** Decides on each valid callback. Must not throw (a throw is answered 500 and reported). */
  onCallback(callback: ReceivedCallback): CallbackVerdict;
  /**
   * Told about refused requests: every one off the token path; on the token path (where a flood
   * would otherwise print a line per request) the first three of each status per interval, then
   * one problem with `summary` per interval for the rest.
   */
  onProblem?(problem: ReceiverProblem): void;
  /** The interval of that summary, ms (default {@link REFUSAL_INTERVAL_MS}); 0 reports every refusal one by one. */
  refusalSummaryMs?: number;
  /** Time allowed for a request's headers, ms. Default {@link RECEIVER_HEADERS_TIMEOUT_MS}. */
  headersTimeoutMs?: number;
  /** Time allowed for a whole request, body included, ms. Default {@link RECEIVER_REQUEST_TIMEOUT_MS}. */
  requestTimeoutMs?: number;
}

/** A callback's headers must arrive within 10 s (answered 408 and closed otherwise). */
const RECEIVER_HEADERS_TIMEOUT_MS = 10_000;
/** A whole callback request must arrive within 30 s. */
const RECEIVER_REQUEST_TIMEOUT_MS = 30_000;

/**
 * Refused requests, summarised: the first `perStatus` refusals of each HTTP status in an
 * interval are printed as lines, the others are counted and printed as one line per interval
 * (`refused 2,056 more requests in the last 10 s: 404 ×2,000, 413 ×56`), so a scan or an attack
 * cannot flood the terminal. {@link flush} prints what is counted (at each interval and at exit).
 */
export class RefusalLog {
  private readonly shown = new Map<number, number>();
  private readonly suppressed = new Map<number, number>();
  /** @param perStatus how many refusals of one status are printed in full per interval (default 1) */
  constructor(
    private readonly print: (line: string) => void,
    private readonly intervalLabel: string,
    private readonly perStatus = 1,
  ) {}
  /** Prints the refusal, or counts it if `perStatus` with the same status were printed in this interval. */
  add(status: number, line: string): void {
    const shown = this.shown.get(status) ?? 0;
    if (shown < this.perStatus) {
      this.shown.set(status, shown + 1);
      this.print(line);
      return;
    }
    this.suppressed.set(status, (this.suppressed.get(status) ?? 0) + 1);
  }
  /** Ends the interval: prints one line with the counts of what was not printed, if any. */
  flush(): void {
    this.shown.clear();
    if (this.suppressed.size === 0) return;
    const total = [...this.suppressed.values()].reduce((a, b) => a + b, 0);
    const parts = [...this.suppressed.entries()].sort(([a], [b]) => a - b).map(([status, n]) => `${status} ×${n.toLocaleString('en-US')}`);
    this.suppressed.clear();
    this.print(`${total.toLocaleString('en-US')} more request${total === 1 ? '' : 's'} ${this.intervalLabel}: ${parts.join(', ')}`);
  }
}

/** Token-path refusals of one status a receiver reports in full per interval (a few distinct reasons stay visible). */
const REFUSALS_SHOWN = 3;

/** How often {@link RefusalLog} summarises: every 10 s. */
export const REFUSAL_INTERVAL_MS = 10_000;

/** A running receiver. */
export interface CallbackReceiver {
  /** The address it is bound to, e.g. `127.0.0.1`. */
  host: string;
  /** The port it listens on. */
  port: number;
  /** The path callbacks must be POSTed to: `<basePath>/<token>`. */
  path: string;
  /** The secret segment of {@link path}. */
  token: string;
  /** `http://<host>:<port><path>`: the URL on this machine (a wildcard host shown as loopback). */
  localUrl: string;
  /** Stops listening and drops open connections. Idempotent. */
  close(): Promise<void>;
}

/** Normalises a base path: leading `/`, no trailing `/`; `''` for the root. */
function normaliseBasePath(path: string | undefined): string {
  const trimmed = (path ?? '').replace(/\/+$/, '');
  if (trimmed === '') return '';
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

/**
 * True when `pathname` is the token path: `<basePath>/<token>`, or `/<token>` alone (so that a
 * reverse proxy that strips the public prefix still reaches it). A trailing `/` is allowed.
 */
export function isTokenPath(pathname: string, basePath: string, token: string): boolean {
  const p = pathname.replace(/\/+$/, '');
  const candidates = basePath === '' ? [`/${token}`] : [`${basePath}/${token}`, `/${token}`];
  let match = false;
  for (const c of candidates) if (sameSecret(p, c)) match = true;
  return match;
}

function answer(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  sendJson(res, status, { code: status, message }, headers);
}

/**
 * Starts a receiver (see the module documentation for what it answers).
 * Resolves once it listens; rejects when it cannot bind (e.g. `EADDRINUSE`, `EACCES`).
 */
export async function startCallbackReceiver(options: CallbackReceiverOptions): Promise<CallbackReceiver> {
  const host = options.host ?? '127.0.0.1';
  const basePath = normaliseBasePath(options.basePath);
  const token = options.token ?? newCallbackToken();
  const limit = options.maxBodyBytes ?? MAX_CALLBACK_BYTES;
  const tell = (problem: ReceiverProblem) => {
    try {
      options.onProblem?.(problem);
    } catch {
      // a reporter never brings the receiver down
    }
  };
  const summaryMs = options.refusalSummaryMs ?? REFUSAL_INTERVAL_MS;
  let latest: ReceiverProblem | undefined;
  const refusals =
    summaryMs > 0
      ? new RefusalLog(
          (line) => {
            // The first of a status is reported as it is; the summary line stands for the rest.
            if (latest !== undefined && line === latest.reason) tell(latest);
            else tell({ status: 0, reason: line, method: '', remote: '', onTokenPath: true, summary: line });
          },
          `refused on the callback path in the last ${summaryMs / 1000} s`,
          REFUSALS_SHOWN,
        )
      : undefined;
  const summariser = refusals === undefined ? undefined : setInterval(() => refusals.flush(), summaryMs);
  summariser?.unref();
  const report = (problem: ReceiverProblem) => {
    if (refusals === undefined || !problem.onTokenPath) return tell(problem);
    latest = problem;
    refusals.add(problem.status, problem.reason);
    latest = undefined;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const method = (req.method ?? 'GET').toUpperCase();
    const remote = req.socket.remoteAddress ?? '?';
    let pathname: string;
    try {
      pathname = new URL(req.url ?? '/', 'http://receiver.invalid').pathname;
    } catch {
      pathname = '';
    }
    if (!isTokenPath(pathname, basePath, token)) {
      answer(res, 404, 'Not Found');
      // The path is not echoed: a near miss (the token plus a suffix) would print the token.
      report({ status: 404, reason: 'not the callback path', method, remote, onTokenPath: false });
      req.resume();
      return;
    }
    if (method !== 'POST') {
      answer(res, 405, `method ${method} not allowed; callbacks are POSTed`, { allow: 'POST' });
      report({ status: 405, reason: `${method} instead of POST`, method, remote, onTokenPath: true });
      req.resume();
      return;
    }
    const body = await readLimitedBody(req, limit);
    if ('tooLarge' in body) {
      answer(res, 413, `body too large: at most ${limit} bytes`, body.drained ? {} : { connection: 'close' });
      report({ status: 413, reason: `body larger than ${limit} bytes`, method, remote, onTokenPath: true });
      return;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(body.text);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      answer(res, 400, 'malformed JSON');
      report({ status: 400, reason: `malformed JSON (${redactText(why).slice(0, 120)})`, method, remote, onTokenPath: true });
      return;
    }
    const parsed = parseCallbackBody(raw);
    if (!parsed.success) {
      const problems = schemaProblems(parsed.error)
        .slice(0, 3)
        .map((p) => `${p.path || 'body'} ${p.message}`)
        .join('; ');
      answer(res, 400, `not a callback envelope: ${problems}`);
      report({ status: 400, reason: `not a callback envelope: ${problems}`, method, remote, onTokenPath: true });
      return;
    }
    // Callbacks are answers too: redacted once, before the booking flow or `callback listen` sees them.
    const cb = redactAnswer(parsed.data);
    const success = cb.code >= 200 && cb.code < 300;
    const orderId = cb.result?.order?.id;
    if (success && orderId === undefined) {
      answer(res, 400, 'not a callback envelope: result.order is required');
      report({ status: 400, reason: 'not a callback envelope: result.order is required', method, remote, onTokenPath: true });
      return;
    }
    const received: ReceivedCallback = { body: cb, raw: redactAnswer(raw), text: redactAnswerText(body.text), receivedAt: new Date(), remote };
    if (orderId !== undefined) received.orderId = orderId;
    let verdict: CallbackVerdict;
    try {
      verdict = options.onCallback(received);
    } catch (err) {
      answer(res, 500, 'the receiver could not handle the callback');
      report({ status: 500, reason: err instanceof Error ? err.message : String(err), method, remote, onTokenPath: true });
      return;
    }
    if (verdict.accepted) {
      answer(res, 200, 'OK');
    } else {
      answer(res, verdict.status, verdict.message);
      report({ status: verdict.status, reason: verdict.message, method, remote, onTokenPath: true });
    }
  };

  // Node checks these timeouts every `connectionsCheckingInterval` (30 s by default), so a 10 s
  // header timeout was enforced after up to 40 s: checked every second instead.
  const headersTimeout = options.headersTimeoutMs ?? RECEIVER_HEADERS_TIMEOUT_MS;
  const requestTimeout = options.requestTimeoutMs ?? RECEIVER_REQUEST_TIMEOUT_MS;
  // node:http is loaded only when a receiver starts: every command that reaches the booking room
  // (validate too) would otherwise load it at start.
  const { createServer } = await import('node:http');
  const server = createServer(
    { requestTimeout, headersTimeout, keepAliveTimeout: 2_000, connectionsCheckingInterval: Math.min(1_000, headersTimeout) },
    (req, res) => {
      handle(req, res).catch(() => {
        answer(res, 400, 'the request could not be read');
      });
    },
  );
  server.on('clientError', (err, socket) => answerMalformed(socket, undefined, err));

  const port = await listenOn(server, options.port ?? 0, host);
  const path = `${basePath}/${token}`;
  let closing: Promise<void> | undefined;
  return {
    host,
    port,
    path,
    token,
    localUrl: `http://${urlHost(host)}:${port}${path}`,
    close() {
      if (summariser !== undefined) {
        clearInterval(summariser);
        refusals?.flush();
      }
      closing ??= closeServer(server);
      return closing;
    },
  };
}

/**
 * The URL to give the service: the public URL (`--public-url`) with `/<token>` appended to its
 * path (query kept), or the receiver's own URL when there is no public one.
 */
export function publicCallbackUrl(receiver: Pick<CallbackReceiver, 'localUrl' | 'token'>, publicBase?: string): string {
  if (publicBase === undefined) return receiver.localUrl;
  const url = new URL(publicBase);
  url.pathname = `${normaliseBasePath(url.pathname)}/${receiver.token}`;
  url.hash = '';
  return url.toString();
}

/** A URL with its token replaced by its first four characters and `…`, for messages. */
export function maskToken(url: string, token: string): string {
  return url.split(token).join(`${token.slice(0, 4)}…`);
}
