/**
 * The reference data of the address checks, with the libraries that read it: the Australian
 * localities (au-localities.data.ts), phone numbers (libphonenumber-js, its "min" metadata) and
 * the postcode patterns of other countries (postcode-validator). Heavy to load compared with the
 * rest of a start (about 0.4 MB of data and code), so the built program keeps it in a chunk of its
 * own (dist/chunks/addresses.cjs) that `addressReference()` (load.ts) loads on first use, when an
 * address is checked.
 */
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/min';
import { postcodeValidator, postcodeValidatorExistsForCountry } from 'postcode-validator';
import { AU_LOCALITIES, AU_LOCALITIES_SOURCE } from './au-localities.data.js';

/** Where the Australian localities come from (package, version and date), for docs and `--debug`. */
export const auSource = AU_LOCALITIES_SOURCE;

/** One postcode and state with the localities it serves, names in upper case as the data has them. */
export interface AuPostcode {
  postcode: string;
  state: string;
  names: readonly string[];
}

/** Where each line of {@link AU_LOCALITIES} starts (the lines are sorted by postcode), built on first use. */
let starts: Int32Array | undefined;
/** The entries of the postcodes asked for so far. */
const parsed = new Map<string, AuPostcode[]>();

function lineStarts(): Int32Array {
  if (starts !== undefined) return starts;
  let count = 1;
  for (let at = AU_LOCALITIES.indexOf('\n'); at !== -1; at = AU_LOCALITIES.indexOf('\n', at + 1)) count++;
  starts = new Int32Array(count);
  let n = 0;
  starts[n++] = 0;
  for (let at = AU_LOCALITIES.indexOf('\n'); at !== -1; at = AU_LOCALITIES.indexOf('\n', at + 1)) starts[n++] = at + 1;
  return starts;
}

/** The entry on line `i`: `2150 NSW HARRIS PARK|PARRAMATTA|…`. */
function entryAt(i: number): AuPostcode {
  const all = lineStarts();
  const start = all[i]!;
  const end = i + 1 < all.length ? all[i + 1]! - 1 : AU_LOCALITIES.length;
  const line = AU_LOCALITIES.slice(start, end);
  const space = line.indexOf(' ', 5);
  return { postcode: line.slice(0, 4), state: line.slice(5, space), names: line.slice(space + 1).split('|') };
}

/**
 * The entries of an Australian postcode (usually one; a postcode on a state border has one per
 * state), or an empty list when the postcode does not exist. Found by a binary search over the
 * sorted lines; only the lines of the postcodes asked for are split.
 */
export function auPostcode(postcode: string): readonly AuPostcode[] {
  const known = parsed.get(postcode);
  if (known !== undefined) return known;
  const all = lineStarts();
  let lo = 0;
  let hi = all.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (AU_LOCALITIES.slice(all[mid]!, all[mid]! + 4) < postcode) lo = mid + 1;
    else hi = mid;
  }
  const found: AuPostcode[] = [];
  for (let i = lo; i < all.length && AU_LOCALITIES.startsWith(postcode, all[i]!) && AU_LOCALITIES[all[i]! + 4] === ' '; i++) found.push(entryAt(i));
  if (/^\d{4}$/.test(postcode)) parsed.set(postcode, found);
  return found;
}

/** Every entry, in postcode order (for the search by name, on a warning's path only). */
export function* auPostcodes(): Generator<AuPostcode> {
  const all = lineStarts();
  for (let i = 0; i < all.length; i++) yield entryAt(i);
}

/** A phone number as libphonenumber-js reads it for a country. */
export interface PhoneReading {
  /** False when it cannot be a number (wrong length, letters) for the country it belongs to. */
  possible: boolean;
  /** True when it is a number of an allocated range (libphonenumber-js's "min" metadata). */
  valid: boolean;
  /** The number in E.164 (`+61412555019`), when it could be parsed. */
  e164?: string;
  /** Why it is not possible: `TOO_SHORT`, `TOO_LONG`, `INVALID_COUNTRY`, `INVALID_LENGTH`, `NOT_A_NUMBER`. */
  reason?: string;
}

/** Reads `phone` as a number of `country` (ISO 3166-1 alpha-2), or of the country its `+` prefix names. */
export function readPhone(phone: string, country: string): PhoneReading {
  const known = /^[A-Z]{2}$/.test(country);
  let parsed: ReturnType<typeof parsePhoneNumberFromString>;
  try {
    parsed = parsePhoneNumberFromString(phone, known ? (country as CountryCode) : undefined);
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined) return { possible: false, valid: false, reason: known || phone.trim().startsWith('+') ? 'NOT_A_NUMBER' : 'INVALID_COUNTRY' };
  const possible = parsed.isPossible();
  return { possible, valid: possible && parsed.isValid(), e164: parsed.number, ...(possible ? {} : { reason: 'INVALID_LENGTH' }) };
}

/**
 * Whether `postcode` has the format of `country`'s postcodes (postcode-validator's patterns, about
 * 190 countries), or `undefined` when the package has no pattern for the country.
 */
export function postcodeFits(postcode: string, country: string): boolean | undefined {
  if (!postcodeValidatorExistsForCountry(country)) return undefined;
  return postcodeValidator(postcode, country);
}
