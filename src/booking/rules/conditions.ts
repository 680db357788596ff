/**
 * Whether a rule's conditions (`when`) hold for a shipment's facts. Every condition given must
 * hold; text is compared without regard to case; a `{not: …}` condition holds when the fact is
 * absent (an international delivery has no state, so `delivery_state: {not: WA}` holds for it).
 */
import type { ShipmentFacts } from './facts.js';
import type { Conditions } from './schema.js';

type Text = string | string[] | { not: string | string[] };
type Bounds = number | { gt?: number | undefined; gte?: number | undefined; lt?: number | undefined; lte?: number | undefined; eq?: number | undefined };

const list = (v: string | string[]): string[] => (Array.isArray(v) ? v : [v]);
const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** True when `fact` meets a text condition. */
function textHolds(cond: Text, fact: string | undefined): boolean {
  if (typeof cond === 'object' && !Array.isArray(cond)) return fact === undefined || !list(cond.not).some((v) => same(v, fact));
  return fact !== undefined && list(cond).some((v) => same(v, fact));
}

/** True when a list fact (tags) meets a text condition: has any of the values, or (`not`) none of them. */
function listHolds(cond: Text, facts: readonly string[]): boolean {
  if (typeof cond === 'object' && !Array.isArray(cond)) return !list(cond.not).some((v) => facts.some((f) => same(v, f)));
  return list(cond).some((v) => facts.some((f) => same(v, f)));
}

/** True when `postcode` is `pattern` (`"6000"`) or within its inclusive range (`"6700-6799"`). */
function postcodeMatches(pattern: string, postcode: string): boolean {
  const p = postcode.trim();
  const [lo, hi] = pattern.split('-').map((x) => x.trim());
  if (hi === undefined) return same(lo!, p);
  if (/^\d+$/.test(lo!) && /^\d+$/.test(hi) && /^\d+$/.test(p)) return Number(p) >= Number(lo) && Number(p) <= Number(hi);
  const up = p.toUpperCase();
  return up >= lo!.toUpperCase() && up <= hi.toUpperCase();
}

/** True when `postcode` meets a postcode condition. */
function postcodeHolds(cond: Text, postcode: string | undefined): boolean {
  if (typeof cond === 'object' && !Array.isArray(cond)) return postcode === undefined || !list(cond.not).some((v) => postcodeMatches(v, postcode));
  return postcode !== undefined && list(cond).some((v) => postcodeMatches(v, postcode));
}

/** True when `value` meets a number condition (`scale` turns the bounds into the fact's unit, e.g. 100 for AUD → cents). */
function numberHolds(cond: Bounds, value: number, scale = 1): boolean {
  const at = (b: number) => Math.round(b * scale * 1e6) / 1e6;
  // Weights sum floats (0.1 + 0.2): compared to a millionth, so 0.3 kg is 0.3 kg.
  const v = Math.round(value * 1e6) / 1e6;
  if (typeof cond === 'number') return v === at(cond);
  return (
    (cond.eq === undefined || v === at(cond.eq)) &&
    (cond.gt === undefined || v > at(cond.gt)) &&
    (cond.gte === undefined || v >= at(cond.gte)) &&
    (cond.lt === undefined || v < at(cond.lt)) &&
    (cond.lte === undefined || v <= at(cond.lte))
  );
}

/**
 * The first condition of `when` that does not hold for `facts` (its name, e.g. `weight_kg`), or
 * undefined when every one holds (always, for a rule without `when`).
 */
export function failedCondition(when: Conditions | undefined, facts: ShipmentFacts): string | undefined {
  if (when === undefined) return undefined;
  const checks: Array<[string, boolean | undefined]> = [
    ['delivery_country', when.delivery_country === undefined ? undefined : textHolds(when.delivery_country, facts.delivery_country)],
    ['delivery_state', when.delivery_state === undefined ? undefined : textHolds(when.delivery_state, facts.delivery_state)],
    ['delivery_postcode', when.delivery_postcode === undefined ? undefined : postcodeHolds(when.delivery_postcode, facts.delivery_postcode)],
    ['collection_country', when.collection_country === undefined ? undefined : textHolds(when.collection_country, facts.collection_country)],
    ['collection_state', when.collection_state === undefined ? undefined : textHolds(when.collection_state, facts.collection_state)],
    ['collection_postcode', when.collection_postcode === undefined ? undefined : postcodeHolds(when.collection_postcode, facts.collection_postcode)],
    ['weight_kg', when.weight_kg === undefined ? undefined : numberHolds(when.weight_kg, facts.weight_kg)],
    ['cubic_weight_kg', when.cubic_weight_kg === undefined ? undefined : numberHolds(when.cubic_weight_kg, facts.cubic_weight_kg)],
    ['packages', when.packages === undefined ? undefined : numberHolds(when.packages, facts.packages)],
    ['largest_dimension_cm', when.largest_dimension_cm === undefined ? undefined : numberHolds(when.largest_dimension_cm, facts.largest_dimension_cm)],
    ['value_aud', when.value_aud === undefined ? undefined : numberHolds(when.value_aud, facts.value_cents, 100)],
    ['lithium', when.lithium === undefined ? undefined : when.lithium === facts.lithium],
    ['sender', when.sender === undefined ? undefined : textHolds(when.sender, facts.sender)],
    ['collection_company', when.collection_company === undefined ? undefined : textHolds(when.collection_company, facts.collection_company)],
    ['tags', when.tags === undefined ? undefined : listHolds(when.tags, facts.tags)],
  ];
  return checks.find(([, holds]) => holds === false)?.[0];
}
