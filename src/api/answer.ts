/**
 * Reading an answer of the service (interface document, "Conventions" and "Errors"): the
 * `message`/`code`/`result` envelope is parsed once, an error envelope or a non-2xx status
 * becomes {@link ApiError}, and `result` is checked against the endpoint's schema. Whatever of
 * the service's text an error quotes is scrubbed of secrets first.
 */
import { ApiError, ProtocolError } from '../errors.js';
import { envelope, fieldErrors } from '../schema/envelope.js';
import { safeParseHot } from '../schema/hot.js';
import { schemaProblems } from '../schema/issues.js';
import { fateOf, outcomeOf } from './outcome.js';
import { redactAnswer, redactText } from './redact.js';
import type { PreparedRequest } from './request.js';

/** `text` cut to `max` characters (with `…`), for text already scrubbed of secrets. */
export function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** One answer to read: its HTTP status, body text and `Retry-After` (ms). */
interface RawAnswer {
  status: number;
  text: string;
  retryAfterMs: number | undefined;
}

/**
 * The checked `result` of the answer to `p`; `onMessage`, when given, is told the envelope's
 * `message` (redacted). `secrets` (the API key) are scrubbed from whatever the errors quote.
 * @throws ApiError for an error envelope, or a non-2xx status without one (401/403 → exit 4, else 3)
 * @throws ProtocolError (exit 5) for a 2xx that is not the envelope, or a `result` that does not
 *   fit the endpoint's schema (for a mutating call, its suggestion says it may have taken effect)
 */
export function readAnswer(
  p: PreparedRequest,
  answer: RawAnswer,
  secrets: ReadonlyArray<string | undefined>,
  onMessage?: (message: string) => void,
  onEnvelope?: (envelope: AnswerEnvelope) => void,
): unknown {
  const { status, text, retryAfterMs } = answer;
  const { method } = p;
  const url = p.url;
  let json: unknown;
  // An empty or blank body is no JSON: JSON.parse throws for it, so it needs no copy to detect.
  if (text.length > 0) {
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  }
  const env = readEnvelope(json);
  const ok = status >= 200 && status < 300;
  if (!env.success) {
    if (!ok) {
      // Scrubbed before it is cut: a secret cut in half would no longer be recognised.
      const snippet = truncate(redactText(text.replace(/\s+/g, ' ').trim(), secrets), 120);
      throw new ApiError({ status, message: `the service answered HTTP ${status}${snippet ? `: ${snippet}` : ''}`, method, url, retryAfterMs });
    }
    throw new ProtocolError(`the service answered HTTP ${status} without the message/code/result envelope (${method} ${url})`, {
      suggestion: 'Check that the base URL points at the booking service API.',
      fate: fateOf(p, true),
    });
  }
  const { code, message, result } = env.data;
  if (!ok || code < 200 || code >= 300) {
    const errors = fieldErrors.parse((result as { errors?: unknown } | undefined)?.errors);
    throw new ApiError({
      status: ok ? code : status,
      envelopeCode: code,
      message: redactText(message || `the service answered code ${code}`, secrets),
      fieldErrors: errors.map((e) => ({ field: redactText(e.field ?? '', secrets), message: redactText(e.message ?? '', secrets) })),
      method,
      url,
      retryAfterMs,
    });
  }
  const parsed = safeParseHot(p.endpoint.result, result);
  if (!parsed.success) {
    const first = schemaProblems(parsed.error, ['result']).slice(0, 3);
    const outcome = outcomeOf(p, true);
    throw new ProtocolError(`the service's answer has an unexpected shape: ${first.map((q) => `${q.path} ${q.message}`).join('; ')} (${method} ${url})`, {
      suggestion: outcome.changed === 'unknown' ? [`${capitalise(outcome.note)}. `, ...outcome.suggestion] : undefined,
      fate: fateOf(p, true),
    });
  }
  // A message shorter than the shortest secret (`OK`, empty) has nothing to scrub.
  if (onMessage) onMessage(message.length < 3 ? message : redactText(message, secrets));
  // A request typed by hand is shown as the service answered it: the envelope, its result as it came (redacted the same way).
  if (onEnvelope) onEnvelope({ message: message.length < 3 ? message : redactText(message, secrets), code, result: redactAnswer(result) });
  // The one redaction of answers: nothing after this point (flows, ledger, reports, formatters) sees a card number, CVV or key the service echoed.
  return redactAnswer(parsed.data);
}

/** A successful answer's envelope as it came (`message`, `code`, `result`), secrets redacted. */
export interface AnswerEnvelope {
  message: string;
  code: number;
  result: unknown;
}

/**
 * The envelope of `json` as {@link envelope} reads it. The common form (an object whose `code` is
 * an integer and whose `message` is text, null or absent) is taken as it stands, with the same
 * `message`, `code` and `result` the schema gives; anything else goes through the schema.
 */
function readEnvelope(json: unknown): ReturnType<typeof envelope.safeParse> {
  if (typeof json === 'object' && json !== null && !Array.isArray(json)) {
    const { message, code, result } = json as { message?: unknown; code?: unknown; result?: unknown };
    if (Number.isSafeInteger(code) && (typeof message === 'string' || message === null || message === undefined)) {
      // Only these three members are read (the schema's loose object would also copy the others).
      return { success: true, data: { message: message ?? '', code: code as number, result } } as ReturnType<typeof envelope.safeParse>;
    }
  }
  return safeParseHot(envelope, json);
}
