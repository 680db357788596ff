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
  addWithEscapes(s);
  const digits = s.replace(/[\s-]/g, '');
  if (digits !== s && /^\d+$/.test(digits)) addWithEscapes(digits);
}

/**
 * Adds a secret and the forms it takes inside JSON text: JSON-escaped (`"` `\\` and control
 * characters), and with `/` escaped as `\/` as PHP's json_encode writes it. Each form is masked
 * with the secret's own last four characters (see {@link maskSecret}).
 */
function addWithEscapes(s: string): void {
  registry.add(s);
  const json = JSON.stringify(s).slice(1, -1);
  for (const form of [json, json.replace(/\//g, '\\/')]) {
    if (form !== s) {
      registry.add(form);
      plainOf.set(form, s);
    }
  }
}

/** The plain secret of an escaped form in the registry (its mask shows the plain one's last characters). */
const plainOf = new Map<string, string>();

/** The mask of a registered form: `****` plus the last four characters of its plain secret. */
const maskOf = (form: string) => maskSecret(plainOf.get(form) ?? form);

/**
 * Scrubs text by value only: every registered secret of five characters or more (API key, card
 * numbers), in plain and JSON-escaped forms, becomes its mask wherever it stands. Shorter ones
 * (CVVs) and digit patterns are left to {@link redactText} and {@link scrubKnownValue}, which see
 * where a value stands: this runs on every line shipbook writes (tables, JSON text, files), where
 * `123` may be a line number or a price. JSON text stays JSON: a mask holds no quote or backslash.
 */
export function scrubKnown(text: string): string {
  text = maskSecretMembers(text);
  if (registry.size === 0) return text;
  let present: string[] | undefined;
  for (const s of registry) {
    if (s.length > 4 && text.includes(s)) (present ??= []).push(s);
  }
  if (present === undefined) return text;
  present.sort((a, b) => b.length - a.length);
  let out = text;
  for (const secret of present) out = out.split(secret).join(maskOf(secret));
  return out;
}

/**
 * A deep copy of a JSON value (a document about to be printed or written) with every registered
 * secret masked: in strings (a CVV only where it stands alone), and numbers that are a registered
 * secret (an echoed card number or CVV) replaced by a masked string.
 */
export function scrubKnownValue(value: unknown): unknown {
  if (registry.size === 0) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return scrubString(v);
    if (typeof v === 'number') return registry.has(String(v)) ? maskSecret(String(v)) : v;
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') {
      if (typeof (v as { toJSON?: unknown }).toJSON === 'function') return walk((v as { toJSON: () => unknown }).toJSON());
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) out[k] = walk(x);
      return out;
    }
    return v;
  };
  return walk(value);
}

/**
 * Masks the values of secret members written as text, whatever the secret: `"cvv":"482"`,
 * `\"cvv\": 482`, `cvv=482`, `cvc: 482` become `"cvv":"***"` and so on. A service that echoes a
 * request inside a string (a service name, a message) shows its members this way, and a CVV that
 * this run never registered (another run's, a file's) is still hidden.
 */
function maskSecretMembers(text: string): string {
  if (!/cv[cv]/i.test(text)) return text;
  return text.replace(SECRET_MEMBER, (_m, head: string) => `${head}***`);
}

/** A `cvv`/`cvc`/`cvv2`/`card_cvv` member with its value: the key and separator, then the value (quotes kept in the head). */
const SECRET_MEMBER = /(\b(?:card_)?(?:cvv2?|cvc)(?:\\?["'])?[ \t]*[:=][ \t]*(?:\\?["'])?)([^"'\\,;{}[\]\s]+)/gi;

/**
 * A cell of a table or of tab-separated output, scrubbed: secret members and long registered
 * secrets as in {@link scrubKnown}, card numbers by the Luhn check, and a short registered secret
 * (a CVV) where it stands as a word inside longer text. A cell that is only digits (a price, a
 * count) is not masked for being equal to a CVV.
 */
export function scrubCell(cell: string): string {
  let out = scrubKnown(cell);
  out = out.replace(/\b\d(?:[ -]?\d){12,18}\b/g, (run) => {
    const digits = run.replace(/\D/g, '');
    return luhnValid(digits) ? `****${digits.slice(-4)}` : run;
  });
  if (/^[\d.,\s]*$/.test(out)) return out;
  for (const s of registry) {
    if (s.length <= 4 && out.includes(s)) out = out.replace(new RegExp(`(?<![A-Za-z0-9.,])${escapeRegExp(s)}(?![A-Za-z0-9.,])`, 'g'), '****');
  }
  return out;
}

/** A string with every registered secret masked (short ones only where they stand alone, as a whole word). */
function scrubString(text: string): string {
  let out = scrubKnown(text);
  for (const s of registry) {
    if (s.length <= 4 && out.includes(s)) out = out.replace(new RegExp(`(?<![A-Za-z0-9.,])${escapeRegExp(s)}(?![A-Za-z0-9.,])`, 'g'), '****');
  }
  return out;
}

/** Forgets every registered secret (for tests that run several commands in one process). */
export function clearSecrets(): void {
  registry.clear();
  plainOf.clear();
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
      out = out.split(secret).join(maskOf(secret));
    }
  }
  return out.replace(/\b\d(?:[ -]?\d){12,18}\b/g, (run) => {
    const digits = run.replace(/\D/g, '');
    return luhnValid(digits) ? `****${digits.slice(-4)}` : run;
  });
}

/**
 * A connection URL with its password masked (`postgresql://clerk:****@db.example/shipbook`), for
 * every place it is shown (settings, messages, `doctor`, `--debug`); text that is not a URL with a
 * password comes back as it is. The password is also registered ({@link registerSecret}), so an
 * error message echoing it elsewhere is masked too.
 */
export function redactUrlPassword(url: string): string {
  const m = /^([a-z][a-z0-9+.-]*:\/\/[^:@/?#]*):([^@/?#]*)@/i.exec(url);
  if (m === null) return url;
  let password = m[2]!;
  try {
    password = decodeURIComponent(password);
  } catch {
    // shown masked whatever it is
  }
  registerSecret(password);
  registerSecret(m[2]);
  return `${m[1]}:****@${url.slice(m[0].length)}`;
}

/** Members whose value is a verification code, shown as `***` wherever they stand in an answer. */
const VERIFICATION_KEY = /^(?:card_?)?(?:cvv2?|cvc2?|cv2|csc|security_?code)$/i;
/** Members whose value is a card number, shown as `****` and its last four digits. */
const CARD_NUMBER_KEY = /^(?:card_?)?(?:number|num|pan)$|^card$/i;
/** Members whose value is a credential (an API key, a password, a token). */
const CREDENTIAL_KEY = /^(?:api_?key|x-api-key|password|passwd|secret|token|access_token|authorization)$/i;
/**
 * Members that identify what the service made (order and shipment ids, the client's transient
 * ids, tracking numbers): the flows need them exactly as they came, so only a secret this run
 * registered is masked in them, never a digit run for looking like a card number.
 */
const IDENTIFIER_KEY = /^(?:id|transient_id|tracking_number|order_id|shipment_id)$/;

/** A 13–19 digit number (or digits between spaces or dashes) that passes the Luhn check: a card number. */
function cardNumberMasked(text: string): string {
  // Shorter than 13 characters, a text holds no run of 13 digits: most of an answer's texts.
  if (text.length < 13) return text;
  return text.replace(/(?<![\d])\d(?:[ -]?\d){12,18}(?![\d])/g, (run) => {
    const digits = run.replace(/\D/g, '');
    return luhnValid(digits) ? `****${digits.slice(-4)}` : run;
  });
}

/**
 * The text of an answer (a callback body as received) with card numbers (Luhn), `cvv` members
 * and registered secrets masked as {@link redactAnswer} masks them; JSON text stays JSON.
 */
export function redactAnswerText(text: string): string {
  return cardNumberMasked(scrubKnown(text));
}

/** What a member's name says of its value, for {@link redactAnswer} (in the order it tests them). */
type KeyKind = 'identifier' | 'verification' | 'card' | 'credential' | 'other';

/** Each member name's kind, found once: an answer's names repeat in every answer of a batch. */
const keyKinds = new Map<string, KeyKind>();

function keyKindOf(key: string): KeyKind {
  let kind = keyKinds.get(key);
  if (kind === undefined) {
    kind = IDENTIFIER_KEY.test(key)
      ? 'identifier'
      : VERIFICATION_KEY.test(key)
        ? 'verification'
        : CARD_NUMBER_KEY.test(key)
          ? 'card'
          : CREDENTIAL_KEY.test(key)
            ? 'credential'
            : 'other';
    // A service could send any names; past a few thousand, they are tested each time.
    if (keyKinds.size < 4096) keyKinds.set(key, kind);
  }
  return kind;
}

/**
 * The one redaction of an answer of the service (and of a callback body), applied as it is read,
 * before any flow, ledger, report or formatter sees it: a deep copy of the JSON value in which,
 * whatever the member's name and however deep it stands,
 * - a verification code (`cvv`, `cvc`, `card_cvv`, `security_code` …) becomes `***`;
 * - a card number (`number`, `card_number`, `pan` with 8 or more digits) becomes `****4444`;
 * - a credential (`api_key`, `password`, `token`, `authorization` …) becomes `****abcd`;
 * - in every other string, a 13–19 digit run passing the Luhn check becomes `****4444`, a
 *   `cvv: 123` written as text becomes `cvv: ***`, and each secret this run registered
 *   ({@link registerSecret}) its mask; a number that is a card number becomes the masked string.
 * Identifiers (`id`, `transient_id`, `tracking_number`) are left as they came except for a
 * registered secret. Objects that are not plain (Money, dates) are kept as they are.
 */
export function redactAnswer<T>(value: T): T {
  const walk = (v: unknown, key: string): unknown => {
    if (typeof v === 'string' || typeof v === 'number') {
      const s = String(v);
      const kind = keyKindOf(key);
      if (kind === 'identifier') return typeof v === 'string' ? scrubKnown(v) : v;
      if (kind === 'verification') return s.trim() === '' ? v : '***';
      if (kind === 'card' && s.replace(/\D/g, '').length >= 8) return `****${s.replace(/\D/g, '').slice(-4)}`;
      if (kind === 'credential') return s.trim() === '' ? v : maskSecret(s);
      if (typeof v === 'number') {
        if (!Number.isSafeInteger(v)) return v;
        const masked = cardNumberMasked(s);
        return masked !== s || (s.length > 4 && registry.has(s)) ? maskSecret(s) : v;
      }
      return cardNumberMasked(scrubKnown(v));
    }
    if (Array.isArray(v)) return v.map((x) => walk(x, key));
    if (v !== null && typeof v === 'object') {
      const proto = Object.getPrototypeOf(v) as unknown;
      if (proto !== Object.prototype && proto !== null) return v;
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) out[k] = walk(x, k);
      return out;
    }
    return v;
  };
  return walk(value, '') as T;
}
