/**
 * "Did you mean AU?" for a country written another way: an ISO 3166-1 alpha-3 code (`AUS`), an
 * English name or alias (`Australia`, `Great Britain`), a misspelt name (`Austrlia`), or a code
 * people often use for a country whose ISO code differs (`UK`). The names come from
 * i18n-iso-countries (English only), read on the first question: only a wrong country pays for them.
 */
import { createRequire } from 'node:module';
import countryCodeTable from 'i18n-iso-countries/codes.json' with { type: 'json' };
import { editDistance } from './edit-distance.js';

/** Codes people often write for a country whose ISO 3166-1 code differs. */
const COUNTRY_CODE_MIXUPS: Readonly<Record<string, string>> = { UK: 'GB', EN: 'GB', EL: 'GR' };

/** Lower case, without accents, dots or extra blanks: `U.S.A.` → `usa`, `Côte` → `cote`. */
function fold(s: string): string {
  return s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/[.]/g, '').replace(/\s+/g, ' ').trim();
}

let names: Array<{ code: string; name: string }> | undefined;

/** Every English name and alias with its alpha-2 code, folded. */
function countryNames(): Array<{ code: string; name: string }> {
  if (names !== undefined) return names;
  const require = createRequire(import.meta.url);
  const en = require('i18n-iso-countries/langs/en.json') as { countries: Record<string, string | string[]> };
  names = Object.entries(en.countries).flatMap(([code, n]) => (Array.isArray(n) ? n : [n]).map((name) => ({ code, name: fold(name) })));
  return names;
}

/**
 * The ISO 3166-1 alpha-2 code `written` probably means, or `undefined` when nothing is close
 * enough (or two countries are equally close). `written` is what was typed, any case.
 */
export function suggestCountryCode(written: string): string | undefined {
  const upper = written.trim().toUpperCase();
  const mixup = COUNTRY_CODE_MIXUPS[upper];
  if (mixup !== undefined) return mixup;
  if (/^[A-Z]{3}$/.test(upper)) {
    const row = (countryCodeTable as unknown as ReadonlyArray<readonly [string, string, string]>).find((r) => r[1] === upper);
    if (row !== undefined) return row[0];
  }
  const t = fold(written);
  if (t.length < 3) return undefined;
  const all = countryNames();
  const exact = all.find((n) => n.name === t);
  if (exact !== undefined) return exact.code;
  const allowed = t.length <= 5 ? 1 : t.length <= 10 ? 2 : 3;
  // Equally near names are told apart by the letters kept in order: a letter left out (`Austrlia`)
  // is a commoner slip than one added, so Australia (all 8 kept) wins over Austria (7).
  let best: { code: string; d: number; kept: number } | undefined;
  let tie = false;
  for (const n of all) {
    if (Math.abs(n.name.length - t.length) > allowed) continue;
    const d = editDistance(t, n.name);
    if (d > allowed) continue;
    const kept = commonSubsequence(t, n.name);
    if (best === undefined || d < best.d || (d === best.d && kept > best.kept)) {
      best = { code: n.code, d, kept };
      tie = false;
    } else if (d === best.d && kept === best.kept && n.code !== best.code) tie = true;
  }
  return best !== undefined && !tie ? best.code : undefined;
}

/** The length of the longest common subsequence of `a` and `b`. */
function commonSubsequence(a: string, b: string): number {
  let prev = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    const row = [0];
    for (let j = 1; j <= b.length; j++) row.push(a[i - 1] === b[j - 1] ? prev[j - 1]! + 1 : Math.max(prev[j]!, row[j - 1]!));
    prev = row;
  }
  return prev[b.length]!;
}
