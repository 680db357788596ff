/**
 * Parsing the short forms typed on the command line: places (`AU:2000:Sydney`), packages
 * (`30x20x15cm:2.5kg`, `12x8x6in:5lb`), durations (`5s`, `2m`, `500ms`), ports and http(s) URLs.
 */
import { UsageError } from '../errors.js';
import { shellWord, type Hint } from '../errors.js';
import { isCountryCode } from '../schema/common.js';
import { suggestCountryCode } from '../schema/country-names.js';

/** A place from `--from`/`--to`: `COUNTRY:POSTCODE:CITY`. */
interface Place {
  country: string;
  postcode: string;
  city: string;
}

/**
 * Parses `AU:2000:Sydney` (the city may contain spaces and colons). The country is an ISO 3166-1
 * alpha-2 code; another form of a country (`AUS`, `Australia`, `Austrlia`) is refused with the
 * code it probably means.
 * @throws UsageError (exit 2) naming the flag when the form or the country code is wrong.
 */
export function parsePlace(flag: string, value: string): Place {
  const m = /^\s*([^:]*?)\s*:\s*([^:]+?)\s*:\s*(.+?)\s*$/.exec(value);
  if (!m || !/^[\p{L} .'-]+$/u.test(m[1]!)) {
    throw new UsageError(`${flag} "${value}" is not COUNTRY:POSTCODE:CITY`, { suggestion: `For example ${flag} AU:2000:Sydney` });
  }
  const country = m[1]!.toUpperCase();
  if (!isCountryCode(country)) {
    const hint = suggestCountryCode(m[1]!);
    const fixed: Hint = [`${flag} `, shellWord(`${hint ?? 'AU'}:${m[2]}:${m[3]}`)];
    throw new UsageError(
      `${flag} "${value}": unknown country code "${m[1]}"${hint ? ` (did you mean ${hint}?)` : ' (ISO 3166-1 alpha-2, e.g. AU, NZ, GB, US)'}`,
      { suggestion: ['For example ', ...fixed] },
    );
  }
  return { country, postcode: m[2]!, city: m[3]! };
}

/** A package from `--package`: dimensions and weight in `cm`/kg or `in`/lb. */
interface PackageSpec {
  length: number;
  width: number;
  height: number;
  weight: number;
  unit: 'cm' | 'in';
}

/**
 * Parses `LxWxH<cm|in>:<weight><kg|lb>`, e.g. `30x20x15cm:2.5kg` or `12x8x6in:5lb`.
 * Centimetres go with kilograms and inches with pounds (interface document, "Conventions").
 * @throws UsageError (exit 2) when the form or the unit pair is wrong.
 */
export function parsePackageSpec(value: string): PackageSpec {
  const m = /^\s*(\d+(?:\.\d+)?)\s*x\s*(\d+(?:\.\d+)?)\s*x\s*(\d+(?:\.\d+)?)\s*(cm|in)\s*:\s*(\d+(?:\.\d+)?)\s*(kg|lb|lbs)\s*$/i.exec(value);
  const example = 'For example --package 30x20x15cm:2.5kg or --package 12x8x6in:5lb';
  if (!m) throw new UsageError(`--package "${value}" is not LxWxH<cm|in>:<weight><kg|lb>`, { suggestion: example });
  const unit = m[4]!.toLowerCase() as 'cm' | 'in';
  const weightUnit = m[6]!.toLowerCase().replace('lbs', 'lb');
  if ((unit === 'cm') !== (weightUnit === 'kg')) {
    throw new UsageError(`--package "${value}" mixes units: cm goes with kg, in goes with lb`, { suggestion: example });
  }
  const [length, width, height, weight] = [m[1], m[2], m[3], m[5]].map(Number) as [number, number, number, number];
  for (const [name, n] of Object.entries({ length, width, height, weight })) {
    if (!(n > 0)) throw new UsageError(`--package "${value}": ${name} must be greater than 0`, { suggestion: example });
  }
  return { length, width, height, weight, unit };
}

/**
 * Parses a duration: `500ms`, `5s`, `2m`, `1h`, or a bare number of seconds.
 * @returns milliseconds
 * @throws UsageError (exit 2) naming the flag.
 */
export function parseDuration(flag: string, value: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/i.exec(value);
  if (!m) throw new UsageError(`${flag} "${value}" is not a duration`, { suggestion: `For example ${flag} 5s, ${flag} 2m or ${flag} 500ms` });
  const n = Number(m[1]);
  const unit = (m[2] ?? 's').toLowerCase();
  const ms = unit === 'ms' ? n : unit === 's' ? n * 1000 : unit === 'm' ? n * 60_000 : n * 3_600_000;
  if (!(ms > 0)) throw new UsageError(`${flag} must be greater than 0`);
  return Math.round(ms);
}

/**
 * Parses `--rate`: requests per second (`30`, `30/s`, `0.5/s`) or per minute (`600/m`).
 * @throws UsageError (exit 2) for anything else, or 0
 */
export function parseRate(flag: string, value: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(?:\/\s*(s|m))?\s*$/i.exec(value);
  const n = m ? Number(m[1]) / ((m[2] ?? 's').toLowerCase() === 'm' ? 60 : 1) : Number.NaN;
  if (!(n > 0)) throw new UsageError(`${flag} "${value}" is not a pace`, { suggestion: `For example ${flag} 30/s, or ${flag} 600/m for a limit per minute.` });
  return n;
}

/** A TCP port from text: digits only, 0-65535 (0 = any free port); `undefined` otherwise. The one port parser of the flags. */
export function portNumber(text: string): number | undefined {
  if (!/^\d{1,5}$/.test(text)) return undefined;
  const port = Number(text);
  return port <= 65535 ? port : undefined;
}

/**
 * Parses a `--port` style flag with {@link portNumber}.
 * @throws UsageError (exit 2): `--port must be a port number 0-65535 (got "…")`
 */
export function parsePortFlag(flag: string, value: string): number {
  const port = portNumber(value);
  if (port === undefined) throw new UsageError(`${flag} must be a port number 0-65535 (got "${value}")`);
  return port;
}

/** What is wrong with a URL given on the command line, by {@link checkHttpUrl}. */
type UrlProblem = 'not_a_url' | 'not_http' | 'credentials';

/**
 * The one URL check of the flags: an absolute `http:` or `https:` URL, without a user name or
 * password. Returns the parsed URL, or the problem (callers word the message for their flag).
 */
export function checkHttpUrl(text: string): { url: URL } | { problem: UrlProblem; protocol?: string } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { problem: 'not_a_url' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { problem: 'not_http', protocol: url.protocol };
  if (url.username || url.password) return { problem: 'credentials' };
  return { url };
}
