/**
 * What a failed call means, decided in one place: whether it may be repeated ({@link mayRetry}),
 * and whether it may have changed something at the service ({@link outcomeOf}). A safe endpoint
 * (a read, or the quote that only prices) changes nothing; a mutating one that provably never
 * left this machine changed nothing either; any other mutating call whose answer is unknown may
 * have taken effect, and its error says what and how to find out, never "try again".
 *
 * The typed errors of the client's failures are worded here from that decision: the request
 * interrupted, late, lost, or answered with more than the client reads.
 */
import {
  AnswerLostError,
  AnswerTooLargeError,
  ApiError,
  NetworkError,
  RequestInterruptedError,
  TimeoutError,
  cmd,
  placeholder,
  type Hint,
  type RequestFate,
} from '../errors.js';
import type { Endpoint, RetryPolicy } from './endpoints.js';

/** HTTP 507: the service cannot store what the request needs (its disk is full). */
const INSUFFICIENT_STORAGE = 507;

/**
 * True for failures that may pass on their own: the service could not be reached, its answer
 * was lost or late, HTTP 5xx (500, 502, 503, 504) or 429. Not: 4xx refusals, 507 (the service
 * cannot store anything: a full disk does not pass in seconds), protocol errors, answers too
 * large, interrupts.
 */
export function isTransientFailure(err: unknown): err is Error {
  if (err instanceof NetworkError || err instanceof TimeoutError) return true;
  if (err instanceof ApiError) return err.status === 429 || (err.status >= 500 && err.status <= 599 && err.status !== INSUFFICIENT_STORAGE);
  return false;
}

/**
 * Whether a failed attempt of `endpoint` may be repeated under `policy`: a transient failure of
 * a safe call; of a mutating call only when its request provably never left (`sent` false), when
 * the caller chose `idempotent-accept`, or, with `answered-create`, when the service answered.
 */
export function mayRetry(err: unknown, endpoint: Endpoint, policy: RetryPolicy): boolean {
  if (policy === 'never' || !isTransientFailure(err)) return false;
  if (endpoint.safe || policy === 'idempotent-accept') return true;
  if (policy === 'answered-create' && err instanceof ApiError) return true;
  // A mutating call: only what provably never reached the service.
  return (err instanceof NetworkError && !(err instanceof AnswerLostError) && !err.sent) || (err instanceof TimeoutError && !err.sent);
}

/** How to find out what became of a mutating call whose answer is unknown. Never "try again". */
export function howToFindOut(endpoint: Endpoint, path: string): Hint {
  const orderId = /^orders\/([^/]+)\//.exec(path.replace(/^\//, ''))?.[1];
  const id = orderId ? decodeURIComponent(orderId) : undefined;
  switch (endpoint.name) {
    case 'createOrder':
      return [
        'Do not create it again yet: look for it in the service\'s list of orders (or ask its operator); once you have its id, "',
        cmd('order', 'get', placeholder('order-id')),
        '" shows its state.',
      ];
    case 'createShipment':
    case 'combineShipments':
      return ["Do not send it again yet: look for it in the service's list of shipments and orders (or ask its operator) first."];
    default:
      return id ? ['Find out with: ', cmd('order', 'get', id)] : ['Check its state at the service before sending it again.'];
  }
}

/** One call as its failures name it: the endpoint, the full URL and the path relative to the base URL. */
export interface FailedCall {
  endpoint: Endpoint;
  /** Full URL, query included. */
  url: string;
  /** `url` relative to the base URL (what {@link howToFindOut} reads an order id from). */
  path: string;
}

/**
 * What a failed call may have done at the service: nothing (`changed: false`: a safe endpoint, or
 * a request that provably never left), or, for a mutating call that was sent, perhaps its effect
 * (`note`, e.g. "the order may have been created") with how to find out (`suggestion`).
 */
type Outcome = { changed: false } | { changed: 'unknown'; note: string; suggestion: Hint };

/** The one decision between safe and mutating: see {@link Outcome}. */
export function outcomeOf(call: FailedCall, sent: boolean): Outcome {
  if (call.endpoint.safe || !sent) return { changed: false };
  return { changed: 'unknown', note: call.endpoint.effect ?? 'it may have taken effect', suggestion: howToFindOut(call.endpoint, call.path) };
}

/** The {@link RequestFate} that the errors of `call` carry. */
export function fateOf(call: FailedCall, sent: boolean): RequestFate {
  const { name, method, path, safe } = call.endpoint;
  return { sent, endpoint: { name, method, path, safe } };
}

/** The error of a call interrupted by its signal (Ctrl-C, SIGTERM): exit 130. */
export function interruptedError(call: FailedCall, sent: boolean, cause: unknown): RequestInterruptedError {
  const what = `${call.endpoint.title} (${call.endpoint.method} ${call.url})`;
  const fate = fateOf(call, sent);
  const outcome = outcomeOf(call, sent);
  if (outcome.changed === 'unknown') {
    return new RequestInterruptedError(`interrupted after the ${what} request was sent: its outcome is unknown, ${outcome.note}`, {
      cause,
      suggestion: outcome.suggestion,
      fate,
    });
  }
  const message = sent
    ? `interrupted while waiting for the answer to ${what}; it changes nothing at the service`
    : `interrupted before the ${what} request was sent: nothing was changed by it`;
  return new RequestInterruptedError(message, { cause, fate });
}

/** The error of an answer larger than `limit` bytes (the request was sent and answered). */
export function tooLargeError(call: FailedCall, limit: number): AnswerTooLargeError {
  const mib = (limit / (1024 * 1024)).toFixed(limit % (1024 * 1024) === 0 ? 0 : 1);
  const base = `the service's answer is too large: more than ${mib} MiB (${call.endpoint.method} ${call.url}); reading stopped`;
  const fate = fateOf(call, true);
  const outcome = outcomeOf(call, true);
  if (outcome.changed === 'unknown') {
    return new AnswerTooLargeError(`${base}; the request was sent and answered, so ${outcome.note}`, limit, { suggestion: outcome.suggestion, fate });
  }
  return new AnswerTooLargeError(base, limit, { suggestion: 'Check that the base URL points at the booking service API.', fate });
}

/**
 * The error of a call past its total deadline of `budgetMs`; `spent` says the attempts and the
 * time they took (`3 attempts in 60.1 s`).
 */
export function deadlineError(call: FailedCall, sent: boolean, budgetMs: number, spent: string, cause: unknown): TimeoutError {
  const secs = budgetMs % 1000 === 0 ? `${budgetMs / 1000} s` : `${budgetMs} ms`;
  const what = `${call.endpoint.method} ${call.url}; ${spent}`;
  const fate = fateOf(call, sent);
  const outcome = outcomeOf(call, sent);
  if (outcome.changed === 'unknown') {
    return new TimeoutError(`the service did not answer within ${secs} (${what}): the request was sent and its answer did not come, so ${outcome.note}`, {
      cause,
      suggestion: outcome.suggestion,
      fate,
    });
  }
  return new TimeoutError(`the service did not answer within ${secs} (${what})${sent ? '' : '; the request was not sent'}`, {
    cause,
    suggestion: 'Try again; if it keeps happening, check the base URL and your network, or allow more time with --request-timeout.',
    fate,
  });
}

/** Error codes of failures before anything was written: the request provably never left. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_NONAME',
  'EAI_FAIL',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENETDOWN',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_INVALID_ARG',
]);
const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|SELF_SIGNED|DEPTH_ZERO|ERR_OSSL)/;
const TIMEOUT_CODES = ['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT'];
const CHECK_BASE_URL: Hint = ['Check the base URL ("', cmd('config', 'get', 'base-url'), '" or SHIPBOOK_BASE_URL) and your network.'];

/**
 * The error of a transport failure `err` (undici's, or the socket's): a connect timeout or a code
 * that proves the request never left is "cannot reach the service" (`sent` false); anything else
 * is an answer lost, which for a mutating call may have taken effect. `sentByChannel` is whether
 * undici reported the request's headers written; `connectTimeoutMs` words the connect timeout.
 */
export function transportError(call: FailedCall, err: unknown, sentByChannel: boolean, connectTimeoutMs: number): Error {
  const code = (err as { code?: string })?.code ?? '';
  const causeCode = (err as { cause?: { code?: string } })?.cause?.code ?? '';
  const origin = new URL(call.url).origin;
  const reason = causeCode || code || (err instanceof Error ? err.message : String(err));
  const provablyUnsent = !sentByChannel && [code, causeCode].some((c) => NOT_SENT_CODES.has(c) || TLS_CODE.test(c));
  if (code === 'UND_ERR_CONNECT_TIMEOUT' || causeCode === 'UND_ERR_CONNECT_TIMEOUT') {
    return new TimeoutError(`cannot reach the service at ${origin}: no connection within ${connectTimeoutMs / 1000} s; the request was not sent`, {
      cause: err,
      suggestion: CHECK_BASE_URL,
      fate: fateOf(call, false),
    });
  }
  if (provablyUnsent) {
    return new NetworkError(`cannot reach the service at ${origin} (${reason})`, { cause: err, suggestion: CHECK_BASE_URL, fate: fateOf(call, false) });
  }
  const what = `${call.endpoint.method} ${call.url}`;
  const timeout = TIMEOUT_CODES.includes(code) || TIMEOUT_CODES.includes(causeCode);
  const lost = timeout ? 'the service stopped answering' : 'the connection closed before the answer came';
  // Headers never written (per undici's channels) but no code that proves it: say what we know.
  const head = sentByChannel
    ? 'the request was sent but its answer was lost'
    : 'the connection failed while the request was being sent, so it may have reached the service';
  const fate = fateOf(call, true);
  const outcome = outcomeOf(call, true);
  if (outcome.changed === 'unknown') {
    return new AnswerLostError(`${head}: ${lost} (${what}, ${reason}), so ${outcome.note}`, { cause: err, suggestion: outcome.suggestion, fate });
  }
  return new AnswerLostError(`${head}: ${lost} (${what}, ${reason}); it changes nothing at the service`, {
    cause: err,
    suggestion: 'Try again; if it keeps happening, check the base URL and your network.',
    fate,
  });
}
