/**
 * How `--dry-run` shows the requests it did not send (issue 14 item 5): method and URL, the
 * headers with the API key redacted, and the JSON body with card numbers and CVVs redacted, in
 * the order they would have been sent.
 */
import { maskSecret, redactText, redactValue } from '../api/redact.js';

/** One request a dry run would have sent. */
export interface PlannedRequest {
  method: string;
  /** Absolute URL. */
  url: string;
  /** Header names and values as they would be sent (the auth header carries the key). */
  headers: Record<string, string>;
  /** The JSON body as it would be sent, when there is one. */
  body?: unknown;
}

const AUTH_NAMES = /^(authorization|x-api-key|api-key|proxy-authorization)$/i;

/**
 * The headers with every secret masked: the auth header (by name, or because it contains the
 * key) shows its prefix and `****abcd`.
 */
export function redactHeaders(headers: Record<string, string>, secrets: ReadonlyArray<string | undefined> = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const secret = secrets.find((s) => s && s.length >= 3 && value.includes(s));
    if (secret) out[name] = value.split(secret).join(maskSecret(secret));
    else if (AUTH_NAMES.test(name)) {
      const m = /^(\S+\s+)?(\S+)$/.exec(value);
      out[name] = m ? `${m[1] ?? ''}${maskSecret(m[2])}` : maskSecret(value);
    } else out[name] = value;
  }
  return out;
}

/** A request as data for `--json`/YAML output: `{method, url, headers, body}`, redacted. */
export function plannedRequestData(req: PlannedRequest, secrets: ReadonlyArray<string | undefined> = []): Record<string, unknown> {
  return {
    method: req.method,
    url: req.url,
    headers: redactHeaders(req.headers, secrets),
    ...(req.body === undefined ? {} : { body: redactValue(req.body) }),
  };
}

/**
 * The requests as text for people, like an HTTP message:
 * `POST https://…/orders/`, one `Name: value` line per header, a blank line, the body as indented JSON.
 * Every line also passes through {@link redactText} (card-like digit runs, the listed secrets).
 */
export function renderPlannedRequests(requests: PlannedRequest[], secrets: ReadonlyArray<string | undefined> = []): string {
  const blocks = requests.map((req, i) => {
    const data = plannedRequestData(req, secrets);
    const lines = [`# request ${i + 1} of ${requests.length} (not sent)`, `${req.method} ${req.url}`];
    for (const [k, v] of Object.entries(data.headers as Record<string, string>)) lines.push(`${k}: ${v}`);
    if (data.body !== undefined) lines.push('', JSON.stringify(data.body, null, 2));
    return lines.join('\n');
  });
  return `${redactText(blocks.join('\n\n'), secrets)}\n`;
}
