/**
 * The base URL of the booking service: what is accepted (https://, or http:// on this machine
 * only, so API keys and card details never travel unencrypted) and how a path joins under it.
 */
import { ConfigError } from '../errors.js';

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

/** Query parameters of a call; undefined values are left out. */
export type Query = Record<string, string | number | boolean | undefined>;

/**
 * A relative path that WHATWG URL parsing appends to a base ending in `/` as it stands: letters,
 * digits, `-`, `_`, `~`, `%` and `/`, not starting with `/` (no dot segment, no scheme, no query).
 */
const PLAIN_RELATIVE = /^(?!\/)[A-Za-z0-9\-_~%/]*$/;

/** The full URL of `path` (relative; a leading `/` is ignored) under a normalised `baseUrl`, with `query`. */
export function urlUnder(baseUrl: string, path: string, query?: Query): string {
  const relative = path.startsWith('/') ? path.slice(1) : path;
  // A batch builds thousands of these: a plain path joins by concatenation, as parsing would.
  if (query === undefined && PLAIN_RELATIVE.test(relative)) return `${baseUrl}${relative}`;
  const url = new URL(relative, baseUrl);
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
  return url.toString();
}
