/**
 * Address checks that the interface document does not make (it shows no address validation):
 * Australian postcode, suburb and state against the bundled reference of localities, phone numbers
 * for the address's country, and the postcode format of other countries. Each problem is a
 * warning with the fix; `--strict-addresses` makes them errors (src/input/validate.ts). The
 * reference data is loaded on the first address checked (load.ts).
 */
import { addressReference } from './load.js';
import type { AuPostcode } from './reference.js';

/** The fields of an address the checks read (collection, delivery, a quote's route). */
interface AddressInput {
  /** ISO 3166-1 alpha-2, upper case. */
  country: string;
  postcode?: string;
  city?: string;
  phone?: string;
  address_lines?: readonly string[];
}

/** The field a problem is about: the warning points at it. */
type AddressField = 'postcode' | 'city' | 'phone' | 'address_lines';

/** One problem of an address: the field and the message with the fix. */
interface AddressProblem {
  field: AddressField;
  message: string;
}

/** Australian states and territories, as postal addresses abbreviate them. */
const AU_STATES = ['ACT', 'NSW', 'NT', 'QLD', 'SA', 'TAS', 'VIC', 'WA'] as const;
const STATE_AT_END = new RegExp(`^(.*?)[\\s,]+(${AU_STATES.join('|')})\\.?(?:[\\s,]+\\d{4})?\\s*$`, 'i');

/** Abbreviations read as one word: `St Kilda` is `Saint Kilda`, `Mt Eliza` is `Mount Eliza`. */
const WORD_FORMS: Readonly<Record<string, string>> = { SAINT: 'ST', MOUNT: 'MT', PT: 'PORT', STH: 'SOUTH', NTH: 'NORTH' };

/** A locality name compared regardless of case, spacing, punctuation and the abbreviations above. */
export function localityKey(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/[.'\u2019`]/g, '')
    .split(/[\s,\-/]+/)
    .filter((w) => w !== '')
    .map((w) => WORD_FORMS[w] ?? w)
    .join(' ');
}

/** Words of locality names that are abbreviations, kept in upper case (`Perth GPO`, `Parramatta CBD BC`). */
const UPPER_WORDS = new Set(['GPO', 'LPO', 'DC', 'BC', 'CBD', 'MC', 'PO', 'ANU', 'RAAF', 'HMAS', 'UNSW', 'UQ', 'ADF']);

/** `PARRAMATTA WESTFIELD` → `Parramatta Westfield`, `PERTH GPO` → `Perth GPO` (the data is in upper case). */
export function localityTitle(name: string): string {
  return name
    .split(' ')
    .map((w) => (UPPER_WORDS.has(w) ? w : w.toLowerCase().replace(/(^|[-(])(\p{L})/gu, (_, sep: string, c: string) => sep + c.toUpperCase())))
    .join(' ');
}

/** `Melbourne VIC` or `Melbourne, Vic.` → the name and the state; a city without one → the city. */
function splitState(text: string): { name: string; state?: string } {
  // Only the end of a long text is read (the state is at its end): the pattern stays linear.
  const head = text.length > 80 ? text.slice(0, -80) : '';
  const m = STATE_AT_END.exec(text.slice(head.length));
  const name = head + (m?.[1] ?? '');
  return m && name.trim() !== '' ? { name: name.trim(), state: m[2]!.toUpperCase() } : { name: text.trim() };
}

/** One place of the reference: a locality at a postcode, in a state. */
interface Place {
  name: string;
  postcode: string;
  state: string;
}

let byName: Map<string, Place[]> | undefined;

/** Every place named `key` (a {@link localityKey}), over the whole reference (index built on first use). */
function placesNamed(key: string): readonly Place[] {
  if (byName === undefined) {
    byName = new Map();
    for (const e of addressReference().auPostcodes()) {
      for (const name of e.names) {
        const k = localityKey(name);
        const list = byName.get(k);
        const place = { name, postcode: e.postcode, state: e.state };
        if (list) list.push(place);
        else byName.set(k, [place]);
      }
    }
  }
  return byName.get(key) ?? [];
}

/** Edit distance (insertions, deletions, substitutions, adjacent swaps), or `max + 1` once over `max`. */
function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2]! + 1);
      row.push(d);
      if (d < best) best = d;
    }
    if (best > max) return max + 1;
    prev2 = prev;
    prev = row;
  }
  return prev[b.length]!;
}

/** How many edits a misspelt name of this length may have. */
function tolerance(key: string): number {
  return key.length <= 4 ? 1 : key.length <= 8 ? 2 : 3;
}

/**
 * The nearest name to `key` among `candidates` within the tolerance, else `undefined`. Of names
 * equally near, a place with a delivery-area postcode comes before a post-office-box one, then
 * the lower postcode (`Sydny` → Sydney 2000, never Sydney 1001).
 */
function nearest<T extends { name: string; postcode: string }>(key: string, candidates: Iterable<T>): T | undefined {
  const max = tolerance(key);
  let best: { item: T; d: number; box: boolean } | undefined;
  for (const item of candidates) {
    const d = distance(key, localityKey(item.name), max);
    if (d > max) continue;
    const box = isBoxPostcode(item.postcode);
    const better = best === undefined || d < best.d || (d === best.d && (box !== best.box ? !box : Number(item.postcode) < Number(best.item.postcode)));
    if (better) best = { item, d, box };
  }
  return best?.item;
}

/** Every place of the reference, for the search of a misspelt name. */
function* allPlaces(): Generator<Place> {
  placesNamed('');
  for (const list of byName!.values()) yield* list;
}

/**
 * Postcodes of post office boxes and large-volume receivers (1000–1999, 8000–9999): shown only
 * when a place has no other.
 */
function isBoxPostcode(code: string): boolean {
  return /^[189]/.test(code);
}

/** `3000, 3001, 3004` → `3000–3001, 3004`, street postcodes only when there are any; at most `max` items, then `…`. */
function postcodeRanges(codes: readonly string[], max = 5): string {
  const all = [...new Set(codes)].sort();
  const street = all.filter((c) => !isBoxPostcode(c));
  const sorted = street.length > 0 ? street : all;
  const more = sorted.length < all.length ? ' …' : '';
  const runs: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && Number(sorted[j + 1]) === Number(sorted[j]) + 1) j++;
    runs.push(i === j ? sorted[i]! : `${sorted[i]}\u2013${sorted[j]}`);
    i = j + 1;
  }
  return runs.length > max ? `${runs.slice(0, max).join(', ')} …` : `${runs.join(', ')}${more}`;
}

/**
 * Words of names that are post offices, delivery centres and shopping centres rather than
 * localities people live in (`Perth GPO`, `City Delivery Centre`, `Parramatta Westfield`).
 */
const FACILITY_WORDS = /\b(?:GPO|LPO|DC|BC|MC|PO|DELIVERY CENTRE|MAIL CENTRE|WESTFIELD|SHOPPINGWORLD|SHOPPING CENTRE|PARLIAMENT HOUSE)\b/;

/**
 * The names of a postcode (upper case, as the reference has them), the main locality first: a
 * name that is not a post office or shopping centre, then the name that the reference gives the
 * most postcodes in its state (Sydney has 148, Barangaroo 1), then alphabetical (post offices:
 * the shortest name first). `2000` → Sydney,
 * Haymarket, Sydney South …; `2150` → Parramatta, Harris Park …
 */
function namesMainFirst(entry: AuPostcode): string[] {
  const weight = (name: string) => placesNamed(localityKey(name)).filter((p) => p.state === entry.state).length;
  const ranked = entry.names.map((name) => ({ name, facility: FACILITY_WORDS.test(name), weight: weight(name) }));
  // Of post offices equally known, the shortest name (`Perth GPO` before `City Delivery Centre`).
  const shorter = (a: (typeof ranked)[number], b: (typeof ranked)[number]) => (a.facility && b.facility ? a.name.length - b.name.length : 0);
  ranked.sort((a, b) => Number(a.facility) - Number(b.facility) || b.weight - a.weight || shorter(a, b) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return ranked.map((r) => r.name);
}

/** `WA (Perth, City Delivery Centre …)`: a postcode's state and its first two names, the main locality first. */
function describePostcode(entries: readonly AuPostcode[]): string {
  return entries
    .map((e) => {
      const names = namesMainFirst(e);
      return `${e.state} (${names.slice(0, 2).map(localityTitle).join(', ')}${names.length > 2 ? ' …' : ''})`;
    })
    .join(' and ');
}

/** `Melbourne VIC is 3000–3001, 3004, 8001 …`, one part per state (only `state`'s when it has the name). */
function describePlaces(places: readonly Place[], state: string | undefined): string {
  const inState = state === undefined ? [] : places.filter((p) => p.state === state);
  const shown = inState.length > 0 ? inState : places;
  const states = [...new Set(shown.map((p) => p.state))].sort();
  return states
    .map((s) => {
      const here = shown.filter((p) => p.state === s);
      return `${localityTitle(here[0]!.name)} ${s} is ${postcodeRanges(here.map((p) => p.postcode))}`;
    })
    .join('; ');
}

/** The state written after the city or at the end of the last address line, if any. */
function writtenState(city: string, lines: readonly string[] | undefined): { state?: string; field: AddressField } {
  const inCity = splitState(city).state;
  if (inCity !== undefined) return { state: inCity, field: 'city' };
  const last = lines?.filter((l) => typeof l === 'string' && l.trim() !== '').at(-1);
  const inLines = last === undefined ? undefined : splitState(last).state;
  return inLines === undefined ? { field: 'city' } : { state: inLines, field: 'address_lines' };
}

/** Results of {@link auProblems} by their input: a batch repeats the same few addresses. */
const auCache = new Map<string, AddressProblem[]>();
const AU_CACHE_MAX = 20_000;

/** The problems of an Australian postcode, suburb and state. */
function auProblems(postcode: string, city: string, lines: readonly string[] | undefined): AddressProblem[] {
  const cacheKey = `${postcode}\u0000${city}\u0000${lines?.join('\u0000') ?? ''}`;
  const cached = auCache.get(cacheKey);
  if (cached !== undefined) return cached;
  const found = findAuProblems(postcode.trim(), city, lines);
  if (auCache.size >= AU_CACHE_MAX) auCache.clear();
  auCache.set(cacheKey, found);
  return found;
}

function findAuProblems(postcode: string, city: string, lines: readonly string[] | undefined): AddressProblem[] {
  if (!/^\d{4}$/.test(postcode)) return [{ field: 'postcode', message: `postcode "${postcode}" is not an Australian postcode (4 digits, e.g. 2000)` }];
  const { name } = splitState(city);
  const { state, field: stateField } = writtenState(city, lines);
  const key = localityKey(name);
  const entries = addressReference().auPostcode(postcode);
  if (entries.length === 0) {
    const places = placesNamed(key);
    const fix = places.length > 0 ? `; ${describePlaces(places, state)}` : '';
    return [{ field: 'postcode', message: `postcode ${postcode} does not exist in Australia${fix}` }];
  }
  if (key === '') return [];
  const here = entries.filter((e) => e.names.some((n) => localityKey(n) === key));
  if (here.length > 0) {
    if (state === undefined || here.some((e) => e.state === state)) return [];
    return [{ field: stateField, message: `state ${state} does not match: ${localityTitle(name)} ${postcode} is ${here[0]!.state}` }];
  }
  const guess = suggestedLocality(postcode, name);
  // A name one or two letters from a locality of the postcode is that locality misspelt, even when
  // a place elsewhere has the name as typed (Paramatta 2150 is Parramatta, not the SA town).
  const places = placesNamed(key);
  if (guess !== undefined && guess.postcode === postcode) {
    const elsewhere = places.length > 0 ? ` (${describePlaces(places, state)})` : '';
    return [{ field: 'city', message: `"${name}" is not a locality of postcode ${postcode}: did you mean ${guess.name} ${guess.postcode}?${elsewhere}` }];
  }
  if (places.length > 0) {
    return [{ field: 'postcode', message: `postcode ${postcode} is ${describePostcode(entries)}; ${describePlaces(places, state)}` }];
  }
  if (guess !== undefined) {
    return [{ field: 'city', message: `"${name}" is not a locality of postcode ${postcode}: did you mean ${guess.name} ${guess.postcode}?` }];
  }
  return [{ field: 'city', message: `"${name}" is not a locality of postcode ${postcode}, which is ${describePostcode(entries)}` }];
}

/**
 * The locality a name that is not one of `postcode`'s probably is: the nearest name (a few letters
 * apart) among the postcode's own localities first, else among every locality of the reference,
 * delivery-area postcodes before post office boxes. `undefined` when none is near, or when the
 * name is one of the postcode's. Files, flags and the guided booking all suggest by this rule.
 */
export function suggestedLocality(postcode: string, city: string): { name: string; postcode: string; state: string } | undefined {
  const key = localityKey(splitState(city).name);
  if (key === '') return undefined;
  const entries = /^\d{4}$/.test(postcode.trim()) ? addressReference().auPostcode(postcode.trim()) : [];
  if (entries.some((e) => e.names.some((n) => localityKey(n) === key))) return undefined;
  const atPostcode = entries.flatMap((e) => e.names.map((n) => ({ name: n, postcode: e.postcode, state: e.state })));
  const found = nearest(key, atPostcode) ?? (placesNamed(key).length > 0 ? undefined : nearest(key, allPlaces()));
  return found && { ...found, name: localityTitle(found.name) };
}

/** Postcode examples for the message of a postcode in the wrong format. */
const POSTCODE_EXAMPLES: Readonly<Record<string, string>> = {
  GB: 'SW1A 1AA',
  US: '12345 or 12345-6789',
  NZ: '1010',
  CA: 'K1A 0B1',
  JP: '100-0005',
  DE: '10115',
  FR: '75001',
  NL: '1012 AB',
  IE: 'D02 X285',
  SG: '018956',
  IN: '110001',
  CN: '100000',
  IT: '00184',
  ES: '28013',
};

/**
 * The problems of one address: for AU, postcode/suburb/state against the reference of localities;
 * for another country, the postcode format (when postcode-validator has a pattern for it); for
 * all, the phone number read for the country. An empty list when nothing is wrong.
 */
export function addressProblems(address: AddressInput): AddressProblem[] {
  const out: AddressProblem[] = [];
  const { country } = address;
  const postcode = address.postcode?.trim();
  if (postcode !== undefined && postcode !== '') {
    if (country === 'AU') out.push(...auProblems(postcode, address.city ?? '', address.address_lines));
    else if (addressReference().postcodeFits(postcode.toUpperCase(), country) === false) {
      const example = POSTCODE_EXAMPLES[country];
      out.push({ field: 'postcode', message: `postcode "${postcode}" is not in the format of ${country} postcodes${example ? ` (e.g. ${example})` : ''}` });
    }
  }
  const phone = address.phone?.trim();
  if (phone !== undefined && phone !== '') out.push(...phoneProblems(phone, country));
  return out;
}

/** Results of {@link phoneProblems} by country and number: a batch repeats the same senders' numbers. */
const phoneCache = new Map<string, AddressProblem[]>();

/** The problems of a phone number read for `country` (none, or one). */
function phoneProblems(phone: string, country: string): AddressProblem[] {
  const cacheKey = `${country}\u0000${phone}`;
  const cached = phoneCache.get(cacheKey);
  if (cached !== undefined) return cached;
  const out: AddressProblem[] = [];
  const reading = addressReference().readPhone(phone, country);
  const whose = phone.startsWith('+') ? '' : ` for ${country}`;
  if (!reading.possible) {
    const why = reading.reason === 'NOT_A_NUMBER' || reading.reason === 'INVALID_COUNTRY' ? '' : ' (wrong number of digits)';
    out.push({
      field: 'phone',
      message: `phone "${phone}" is not a possible phone number${whose}${why}; write it with its country code, e.g. +61 412 555 019`,
    });
  } else if (!reading.valid) {
    out.push({ field: 'phone', message: `phone "${phone}" is not a phone number in use${whose} (no such range of numbers)` });
  }
  if (phoneCache.size >= AU_CACHE_MAX) phoneCache.clear();
  phoneCache.set(cacheKey, out);
  return out;
}

/** `phone` in E.164 (`+61412555019`) when it can be read as a number of `country`, otherwise as it is. */
export function e164Phone(phone: string, country: string): string {
  const reading = addressReference().readPhone(phone, country);
  return reading.possible && reading.e164 !== undefined ? reading.e164 : phone;
}

/**
 * The suburbs of an Australian postcode (title case, with their state), the main locality first
 * (`2000` → Sydney, then Haymarket …), for the guided booking's choices.
 */
export function suburbsOfPostcode(postcode: string): Array<{ name: string; state: string }> {
  if (!/^\d{4}$/.test(postcode.trim())) return [];
  return addressReference()
    .auPostcode(postcode.trim())
    .flatMap((e) => namesMainFirst(e).map((n) => ({ name: localityTitle(n), state: e.state })));
}

/**
 * The postcodes of an Australian suburb (any case, abbreviations read), delivery-area postcodes
 * before post office boxes, for the guided booking's choices.
 */
export function postcodesOfSuburb(suburb: string): Array<{ postcode: string; state: string; name: string }> {
  return [...placesNamed(localityKey(splitState(suburb).name))]
    .sort((a, b) => Number(isBoxPostcode(a.postcode)) - Number(isBoxPostcode(b.postcode)) || Number(a.postcode) - Number(b.postcode))
    .map((p) => ({ postcode: p.postcode, state: p.state, name: localityTitle(p.name) }));
}
