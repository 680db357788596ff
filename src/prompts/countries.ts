/**
 * Country names for the searchable country questions (delivery and collection country, where an
 * item was made). Names come from i18n-iso-countries with ONE language (English) registered:
 * the package's own entry point registers all 78 languages, so this module reads its core and
 * `langs/en.json` directly. Codes are ISO 3166-1 alpha-2, as the interface document wants them.
 */
import { createRequire } from 'node:module';
import type { Choice } from '../prompter.js';
import { suggestCountryCode } from '../schema/country-names.js';

type CountriesCore = {
  registerLocale(locale: unknown): void;
  getNames(lang: string, options: { select: 'all' }): Record<string, string[]>;
};

/** A country: its ISO 3166-1 alpha-2 code, its English name and the other names it is known by. */
interface Country {
  code: string;
  name: string;
  /** Other English names and abbreviations, e.g. `UK`, `Great Britain` for GB. */
  aliases: string[];
}

let table: readonly Country[] | undefined;

/** Every country with its English name, sorted by name (loaded on first use). */
function countryList(): readonly Country[] {
  if (table) return table;
  const require = createRequire(import.meta.url);
  const core = require('i18n-iso-countries/index.js') as CountriesCore;
  core.registerLocale(require('i18n-iso-countries/langs/en.json'));
  const names = core.getNames('en', { select: 'all' });
  table = Object.entries(names)
    .map(([code, [name, ...aliases]]) => ({ code: code.toUpperCase(), name: name ?? code, aliases }))
    .sort((a, b) => a.name.localeCompare(b.name, 'en'));
  return table;
}

/** Lower case without accents, so "Cote" finds "Côte d'Ivoire". */
function fold(s: string): string {
  return s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * Countries matching what was typed, best first: the exact code (`nz`), then names that start
 * with the term (`new z` → New Zealand), then names with a word that starts with it, then names
 * that contain it; aliases count as names (`uk` → United Kingdom). An empty term lists them all.
 */
export function searchCountries(term: string): Country[] {
  const t = fold(term.trim());
  if (t === '') return [...countryList()];
  const scored: Array<{ c: Country; score: number }> = [];
  for (const c of countryList()) {
    let score = Infinity;
    if (c.code.toLowerCase() === t) score = 0;
    for (const n of [c.name, ...c.aliases].map(fold)) {
      if (n === t) score = Math.min(score, 0);
      else if (n.startsWith(t)) score = Math.min(score, 1);
      else if (n.split(/[\s,()'-]+/).some((w) => w.startsWith(t))) score = Math.min(score, 2);
      else if (n.includes(t)) score = Math.min(score, 3);
    }
    if (score < Infinity) scored.push({ c, score });
  }
  return scored.sort((a, b) => a.score - b.score || a.c.name.localeCompare(b.c.name, 'en')).map((s) => s.c);
}

/**
 * The choices of a country question for a typed term: `New Zealand (NZ)`, valued by code. A term
 * that finds nothing (`Austrlia`) offers the country it probably means, said as such.
 */
export function countryChoices(term: string): Array<Choice<string>> {
  const found = searchCountries(term).map((c) => ({ name: `${c.name} (${c.code})`, value: c.code }));
  if (found.length > 0 || term.trim() === '') return found;
  const hint = suggestCountryCode(term);
  const country = hint === undefined ? undefined : countryList().find((c) => c.code === hint);
  return country === undefined ? [] : [{ name: `${country.name} (${country.code})`, value: country.code, description: `did you mean ${country.code}?` }];
}
