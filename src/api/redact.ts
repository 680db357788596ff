/**
 * Redaction of secrets in anything shipbook may print or log (including `--debug`): API keys,
 * card numbers and CVVs are never shown in full.
 */
import { luhnValid } from '../schema/payment.js';

/** Shows only the last four characters of a secret: `****abcd`. Short secrets are fully hidden. */
export function maskSecret(secret: string | undefined): string {
  if (!secret) return '(none)';
  return secret.length <= 8 ? '****' : `****${secret.slice(-4)}`;
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
      } else {
        out[k] = redactValue(v, k);
      }
    }
    return out;
  }
  return value;
}


/**
 * Scrubs text before it is printed: every listed secret (API key, card number, CVV) becomes
 * `****` plus its last four characters (CVVs and short secrets wholly hidden), and any 13–19
 * digit run that passes the Luhn check is masked as a card number.
 */
export function redactText(text: string, secrets: ReadonlyArray<string | undefined> = []): string {
  let out = text;
  for (const secret of secrets) {
    if (!secret || secret.length < 3) continue;
    out = out.split(secret).join(maskSecret(secret));
  }
  return out.replace(/\b\d(?:[ -]?\d){12,18}\b/g, (run) => {
    const digits = run.replace(/\D/g, '');
    return luhnValid(digits) ? `****${digits.slice(-4)}` : run;
  });
}
