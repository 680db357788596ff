/**
 * How `--dry-run` shows the requests it did not send: method and URL, the
 * headers (the API key already masked by the client as `****abcd`), and the JSON body (card
 * number and CVV already masked), in the order they would have been sent. Every line passes
 * through redactText once more, so a secret the client did not know of is masked too.
 */
import type { PlannedRequest } from '../api/client.js';
import { redactText } from '../api/redact.js';

/** The dry-run result as data (`--json`, `--output yaml|ndjson`): `{dry_run: true, sent: false, requests}`. */
export function plannedRequestsData(requests: readonly PlannedRequest[]): Record<string, unknown> {
  return {
    dry_run: true,
    sent: false,
    requests: requests.map((r) => ({
      endpoint: r.endpoint,
      method: r.method,
      url: r.url,
      headers: r.headers,
      ...(r.body === undefined ? {} : { body: r.body }),
    })),
  };
}

/**
 * The requests as text for people, like HTTP messages: `# request 1 of 1 (createOrder, not sent)`,
 * `POST https://…/orders/`, one `name: value` line per header, a blank line, the body as indented JSON.
 */
export function renderPlannedRequests(requests: readonly PlannedRequest[]): string {
  const blocks = requests.map((req, i) => {
    const lines = [`# request ${i + 1} of ${requests.length} (${req.endpoint}, not sent)`, `${req.method} ${req.url}`];
    for (const [k, v] of Object.entries(req.headers)) lines.push(`${k}: ${v}`);
    if (req.body !== undefined) lines.push('', JSON.stringify(req.body, null, 2));
    return lines.join('\n');
  });
  return `${redactText(blocks.join('\n\n'))}\n`;
}
