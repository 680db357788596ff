/**
 * Redaction of secrets in anything shipbook may print or log (including `--debug`): API keys,
 * card numbers and CVVs are never shown in full.
 *
 * Two ways, both applied by {@link redactText} and {@link redactValue}: by pattern (JSON members
 * named `cvv`, `number`, `api_key` …; digit runs passing the Luhn check) and by value: the
 * per-run registry of secrets this run has read ({@link registerSecret}: the API client registers
 * its key, `buildAcceptRequest` each card number and CVV), so a service that echoes the request
 * in its error message cannot make a CVV reach the terminal, a `--json` error body or `--debug`.
 */
import { luhnValid } from '../schema/luhn.js';

/** Shows only the last four characters of a secret: `****abcd`. Short secrets are fully hidden. */
export function maskSecret(secret: string | undefined): string {
  if (!secret) return '(none)';
  return secret.length <= 8 ? '****' : `****${secret.slice(-4)}`;
}

/** The per-run registry of secrets (one process is one run; tests call {@link clearSecrets}). */
const registry = new Set<string>();

/**
 * Registers a secret this run knows (API key, card number, CVV), to be masked wherever it appears
 * in printed text. Numbers are registered as their digits; a card number also without its spaces
 * or dashes. Values shorter than 3 characters are ignored (they would mask ordinary text).
 */
export function registerSecret(value: string | number | null | undefined): void {
  if (value === null || value === undefined) return;
  const s = String(value).trim();
  if (s.length < 3) return;
  registry.add(s);
  const digits = s.replace(/[\s-]/g, '');
  if (digits !== s && /^\d+$/.test(digits)) registry.add(digits);
}

/** Forgets every registered secret (for tests that run several commands in one process). */
export function clearSecrets(): void {
  registry.clear();
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const SECRET_KEYS = /^(cvv|cvc|cvv2|number|card_number|api_?key|password|secret|token|authorization)$/i;

/**
 * A deep copy of a JSON value with secret members replaced: `cvv` fully, card `number` down to
 * its last four digits, keys and tokens as `****abcd`.
 */
export function redactValue(value: unknown, parentKey = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => redactValue(v, parentKey));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (k === 'callback' && typeof v === 'string') {
        // The receiver's URL holds an unguessable token: show only its first characters.
        out[k] = v.replace(/[A-Za-z0-9_-]{16,}/g, (token) => `${token.slice(0, 4)}…`);
      } else if (SECRET_KEYS.test(k) && (typeof v === 'string' || typeof v === 'number')) {
        const s = String(v);
        if (/^cvv|cvc/i.test(k)) out[k] = '***';
        else if (/number/i.test(k)) out[k] = s.length > 4 ? `****${s.slice(-4)}` : '****';
        else out[k] = maskSecret(s);
      } else if (typeof v === 'string') {
        out[k] = redactText(v);
      } else {
        out[k] = redactValue(v, k);
      }
    }
    return out;
  }
  if (typeof value === 'string') return redactText(value);
  return value;
}

/**
 * Scrubs text before it is printed: every listed or registered secret (API key, card number,
 * CVV) becomes `****` plus its last four characters (CVVs and short secrets wholly hidden), and
 * any 13–19 digit run that passes the Luhn check is masked as a card number. Secrets of up to 4
 * characters (a CVV) are masked only where they stand alone, not inside a longer number or word.
 */
export function redactText(text: string, secrets: ReadonlyArray<string | undefined> = []): string {
  let out = text;
  // Only the secrets that occur in the text, longest first (most texts hold none: no work).
  const present: string[] = [];
  for (const s of [...secrets, ...registry]) if (s && s.length >= 3 && text.includes(s) && !present.includes(s)) present.push(s);
  present.sort((a, b) => b.length - a.length);
  for (const secret of present) {
    if (secret.length <= 4) {
      out = out.replace(new RegExp(`(?<![A-Za-z0-9])${escapeRegExp(secret)}(?![A-Za-z0-9])`, 'g'), '****');
    } else {
      out = out.split(secret).join(maskSecret(secret));
    }
  }
  return out.replace(/\b\d(?:[ -]?\d){12,18}\b/g, (run) => {
    const digits = run.replace(/\D/g, '');
    return luhnValid(digits) ? `****${digits.slice(-4)}` : run;
  });
}
