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

let byPostcode: Map<string, AuPostcode[]> | undefined;

/**
 * The entries of an Australian postcode (usually one; a postcode on a state border has one per
 * state), or an empty list when the postcode does not exist. The index is built on first use
 * (about 3,200 entries; their names are split when first asked for).
 */
export function auPostcode(postcode: string): readonly AuPostcode[] {
  if (byPostcode === undefined) {
    byPostcode = new Map();
    let start = 0;
    while (start < AU_LOCALITIES.length) {
      let end = AU_LOCALITIES.indexOf('\n', start);
      if (end === -1) end = AU_LOCALITIES.length;
      const line = AU_LOCALITIES.slice(start, end);
      start = end + 1;
      const code = line.slice(0, 4);
      const space = line.indexOf(' ', 5);
      const state = line.slice(5, space);
      const rest = line.slice(space + 1);
      let names: readonly string[] | undefined;
      const entry: AuPostcode = {
        postcode: code,
        state,
        get names() {
          return (names ??= rest.split('|'));
        },
      };
      const list = byPostcode.get(code);
      if (list) list.push(entry);
      else byPostcode.set(code, [entry]);
    }
  }
  return byPostcode.get(postcode) ?? [];
}

/** Every entry, in postcode order (for the search by name). */
export function auPostcodes(): IterableIterator<AuPostcode[]> {
  auPostcode('');
  return byPostcode!.values();
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
