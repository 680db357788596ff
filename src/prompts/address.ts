/**
 * The address questions (collection and delivery): interface document, "Address object". Each
 * answer is checked by the field's own schema in `src/schema/address.ts` (35-character names
 * and lines in create order, an e-mail address, a known country), so a wrong answer gets the
 * message a file would get and is asked again in place.
 */
import type * as z from 'zod';
import { addressLines, deliveryRequest } from '../schema/address.js';
import type { ShipmentFormKind } from '../schema/common.js';
import { askText, problemOf, type PromptIO } from './ask.js';
import { countryChoices } from './countries.js';
import { addressProblems, localityKey, postcodesOfSuburb, suggestedLocality, suburbsOfPostcode } from '../address/checks.js';
import type { Choice } from '../prompter.js';

/** An address as files write it (the input form of the delivery/collection schema, without `pickup`). */
export type AddressInput = z.input<ReturnType<typeof deliveryRequest>>;

/**
 * Asks for a country by name from a searchable list ("new z" → New Zealand). Before anything is
 * typed only `proposed` is listed (an earlier answer, the sender's country for where goods were
 * made); without it the list is empty and Enter takes nothing, so no country is ever chosen by
 * pressing Enter at an alphabetical first entry.
 * @returns the ISO 3166-1 alpha-2 code
 */
export async function askCountry(io: PromptIO, message: string, proposed?: string): Promise<string> {
  const first = proposed === undefined ? undefined : countryChoices(proposed).find((c) => c.value === proposed.toUpperCase());
  return io.prompter.search<string>({
    message,
    source: (term) => (term.trim() === '' ? (first ? [first] : []) : countryChoices(term)),
    placeholder: '  type part of the name, e.g. "new z" for New Zealand',
    pageSize: 8,
  });
}

/** Options of {@link askAddress}. */
interface AskAddressOptions {
  /** Who the address is, as the questions name it: `Sender` or `Recipient`. */
  who: string;
  /** Which request the address goes into (the 35-character limits apply to `order`). */
  kind: ShipmentFormKind;
  /** The earlier answers (when changing the address from the summary): each is the default. */
  previous?: Partial<AddressInput>;
  /** The country proposed when there is no earlier answer (the sender's: the saved senders', or AU). */
  country?: string;
}

/** A suburb and postcode picked at the Australian suburb question. */
interface Locality {
  city: string;
  postcode: string;
}

/**
 * A locality as the value of a choice: text (`Parramatta\u00002150`), so that the choice a list
 * built again for the same term holds is the same value.
 */
function localityValue(city: string, postcode: string): string {
  return `${city}\u0000${postcode}`;
}

/** The choice that keeps what was typed, with the address checks' warning about it as its description. */
function asTyped(term: string, postcode: string): Choice<string> {
  const problem = addressProblems({ country: 'AU', postcode, city: term }).find((p) => p.field !== 'phone');
  return {
    name: `${term.trim()} (as typed)`,
    value: localityValue(term.trim(), postcode),
    ...(problem ? { description: `warning: ${problem.message}` } : {}),
  };
}

/**
 * The suburb of an Australian address, from the bundled reference of localities: the suburbs of
 * the typed postcode are the choices (filtered as the name is typed); a postcode the reference
 * does not have is said as a warning, and the postcodes of the suburb typed next are the choices
 * instead. What was typed can always be kept (the reference ages), with its warning shown beside it.
 * @returns the suburb and the postcode (changed when a suburb of another postcode was picked)
 */
async function askAuLocality(io: PromptIO, who: string, postcode: string, citySchema: z.ZodType, previous?: string): Promise<Locality> {
  const suburbs = suburbsOfPostcode(postcode);
  if (suburbs.length === 0) {
    const problem = addressProblems({ country: 'AU', postcode }).find((p) => p.field === 'postcode');
    if (problem) io.say(`warning: ${problem.message}`);
  }
  for (;;) {
    const value = await io.prompter.search<string>({
      message: `${who} city`,
      source: (term) => {
        const key = localityKey(term);
        if (suburbs.length > 0) {
          // Exact name first, then names starting with what was typed, then names holding it;
          // before anything is typed, the earlier answer first.
          const wanted = key === '' && previous !== undefined ? localityKey(previous) : key;
          const rank = (name: string) => (name === wanted ? 0 : name.startsWith(wanted) ? 1 : 2);
          const shown = suburbs
            .filter((s) => key === '' || localityKey(s.name).includes(key))
            .sort((a, b) => rank(localityKey(a.name)) - rank(localityKey(b.name)))
            .map((s) => ({ name: `${s.name} ${s.state} ${postcode}`, value: localityValue(s.name, postcode) }));
          const exact = suburbs.some((s) => localityKey(s.name) === key);
          // An earlier answer kept as typed stays the default (Enter keeps it), not the first suburb.
          if (key === '' && previous !== undefined && !suburbs.some((s) => localityKey(s.name) === wanted)) return [asTyped(previous, postcode), ...shown];
          if (key === '' || exact) return shown;
          // A misspelt name matches nothing as typed: the locality it probably is comes first,
          // by the rule files and flags follow (nearest within the postcode, then elsewhere).
          const guess = shown.length === 0 ? suggestedLocality(postcode, term) : undefined;
          const suggestion = guess ? [{ name: `${guess.name} ${guess.state} ${guess.postcode}`, value: localityValue(guess.name, guess.postcode) }] : [];
          return [...suggestion, ...shown, asTyped(term, postcode)];
        }
        if (key === '') return previous ? [asTyped(previous, postcode)] : [];
        const places = postcodesOfSuburb(term).map((p) => ({ name: `${p.name} ${p.state} ${p.postcode}`, value: localityValue(p.name, p.postcode) }));
        return [...places, asTyped(term, postcode)];
      },
      ...(suburbs.length > 0 ? {} : { placeholder: '  type the suburb: its postcodes are offered, e.g. Parramatta' }),
      pageSize: 8,
    });
    const [city = '', code = postcode] = value.split('\u0000');
    const picked = { city, postcode: code };
    const problem = problemOf(citySchema, picked.city);
    if (problem === true) return picked;
    io.say(`${who} city: ${problem}`);
  }
}

/**
 * Asks for a whole address: first and last name, company (optional), e-mail, phone, country
 * (searchable), postcode, city and one to three address lines.
 * @returns the address as a file would hold it; `company` only when given
 */
export async function askAddress(io: PromptIO, o: AskAddressOptions): Promise<AddressInput> {
  const shape = deliveryRequest(o.kind).shape;
  const prev = o.previous ?? {};
  const was = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : undefined);
  const field = (key: keyof typeof shape, label: string) => askText(io, { message: `${o.who} ${label}`, schema: shape[key], default: was(prev[key]) });
  const first_name = await field('first_name', 'first name');
  const last_name = await field('last_name', 'last name');
  const company = await askText(io, { message: `${o.who} company (optional, Enter to skip)`, schema: shape.company, default: was(prev.company) });
  const email = await field('email', 'e-mail');
  const phone = await field('phone', 'phone');
  const country = await askCountry(io, `${o.who} country (type to search)`, was(prev.country) ?? o.country);
  let postcode = await field('postcode', 'postcode');
  let city: string;
  if (country === 'AU') ({ city, postcode } = await askAuLocality(io, o.who, postcode, shape.city, was(prev.city)));
  else {
    for (const p of addressProblems({ country, postcode })) io.say(`warning: ${p.message}`);
    city = await field('city', 'city');
  }
  // Said once the country is known (the phone is asked before it); never a reason to ask again.
  for (const p of addressProblems({ country, phone })) io.say(`warning: ${p.message}`);
  const linesSchema = addressLines(o.kind);
  const prevLines = Array.isArray(prev.address_lines) ? prev.address_lines.map(String) : [];
  const lines = [await askText(io, { message: `${o.who} address line 1`, schema: linesSchema, convert: (t) => [t], default: prevLines[0] })];
  for (let i = 1; i < 3; i++) {
    const line = await io.prompter.input({
      message: `${o.who} address line ${i + 1} (optional, Enter to skip)`,
      default: prevLines[i],
      validate: (t) => (t.trim() === '' ? true : problemOf(linesSchema, [...lines, t.trim()], [i])),
    });
    if (line.trim() === '') break;
    lines.push(line.trim());
  }
  return {
    first_name,
    last_name,
    ...(company === '' ? {} : { company }),
    email,
    phone,
    country,
    postcode,
    city,
    address_lines: lines,
  };
}

/** One line for an address: `Priya Raman, Harbour Homewares Pty Ltd, Unit 4, 18 Bourke Road, Alexandria 2015 AU`. */
export function addressLine(a: Partial<Record<string, unknown>>): string {
  const lines = Array.isArray(a.address_lines) ? a.address_lines.filter((l): l is string => typeof l === 'string' && l.trim() !== '') : [];
  const str = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');
  return [`${str(a.first_name)} ${str(a.last_name)}`.trim(), str(a.company), ...lines, `${str(a.city)} ${str(a.postcode)} ${str(a.country)}`.trim()]
    .filter((part) => part !== '')
    .join(', ');
}
