/**
 * The choice of a service for one shipment under a rules file: pure, over the entries of a quote
 * (interface document, "Quote service entry": code, name, carrier, `global_mail`, price) and the
 * shipment's facts. Nothing else is known of a service: no transit time, no "fastest".
 *
 * Rules are read in order. Every rule whose conditions hold applies:
 * - `allow` and `deny` narrow the services still allowed (a later rule never brings one back);
 * - `set` sets service options (a later rule's value wins), `max_total` caps the order (the lowest wins);
 * - `prefer` and `choose` are tried in order, once the narrowing is done: the first that can be
 *   applied chooses; one that cannot (nothing it prefers is allowed, or it is dearer than its
 *   margin) is reported as not applied, with why, and the next one is tried;
 * - with no choice made, the cheapest allowed service is chosen.
 * A service code written in the order wins unless a rule removed it (an error naming the rule).
 */
import { aud, type Cents } from '../../schema/money.js';
import { oneLine } from '../../schema/shipment.js';
import { failedCondition } from './conditions.js';
import type { ShipmentFacts } from './facts.js';
import type { Rule } from './schema.js';

/** A quote entry as rules see it: only what the interface's quote carries. */
export interface RatedEntry {
  code: string;
  name: string;
  carrier: string;
  global_mail: boolean;
  /** The entry's `price.total`, AUD cents. */
  total_cents: Cents;
}

/** A service a rule removed, or that the booking path cannot use. */
interface Removal {
  code: string;
  carrier: string;
  /** The rule that removed it; absent for a service the booking path cannot use. */
  rule?: string;
  /** `deny`, `allow` (not among those allowed), or `path` (consolidated mail without its path). */
  by: 'deny' | 'allow' | 'path';
  /** Why, for `path`. */
  why?: string;
}

/** A `prefer` or `choose` rule that was tried and could not choose, and why. */
interface NotApplied {
  rule: string;
  why: string;
}

/** The service options rules set, and which rule set each. */
interface SetOptions {
  insurance?: { value: boolean; rule: string };
  send_documents?: { value: boolean; rule: string };
}

/** A service chosen for a shipment, and why. */
export interface Choice {
  ok: true;
  chosen: RatedEntry;
  /** The service that came closest: the cheapest allowed when another was preferred or written, else the next cheapest. */
  runner_up?: RatedEntry;
  /** The rule that chose; absent when the cheapest was taken by default or the order named the service. */
  rule?: string;
  how: 'written' | 'prefer' | 'choose' | 'cheapest';
  /** One line: `StarTrack Road Express 44.10 AUD: rule "…" prefers StarTrack within 10 % of the cheapest (Aramex … 41.20 AUD)`. */
  reason: string;
  /** The names of every rule whose conditions held, in order. */
  matched: string[];
  removed: Removal[];
  not_applied: NotApplied[];
  set: SetOptions;
  /** The lowest `max_total` of the rules that applied, and its rule. */
  max_total?: { cents: Cents; rule: string };
  /** The quote the choice was made from, cheapest first. */
  quote: RatedEntry[];
}

/** No service can be chosen: nothing is sent. */
export interface Refusal {
  ok: false;
  /** `written_removed`: the order's own code was denied (or not allowed) by `rule`; `none_left`: rules left no service; `not_offered`: the written code is not in the quote. */
  problem: 'written_removed' | 'none_left' | 'not_offered';
  rule?: string;
  code?: string;
  /** One line saying why, naming the rules. */
  reason: string;
  matched: string[];
  removed: Removal[];
  quote: RatedEntry[];
}

/** What {@link chooseService} decides. */
export type Decision = Choice | Refusal;

/** What {@link chooseService} is given. */
interface DecideInput {
  rules: readonly Rule[];
  facts: ShipmentFacts;
  /** Every entry of the shipment's quote. */
  entries: readonly RatedEntry[];
  /** The service code the order names, if any. */
  written?: string | undefined;
  /**
   * Whether consolidated-mail (`global_mail`) services can be booked for this shipment: they go by
   * shipment create, combine and accept, not by a plain order. When false, they are removed with
   * `why` (and a `prefer: {global_mail: true}` is reported as not applied).
   */
  globalMail: { usable: true } | { usable: false; why: string };
}

/** `StarTrack Road Express 44.10 AUD`. */
function entryLabel(e: RatedEntry): string {
  return `${[e.carrier, oneLine(e.name)].filter((p) => p !== '').join(' ')} ${aud(e.total_cents)}`;
}

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
const list = (v: string | string[] | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** True when an entry is one an `allow`/`deny` names. */
function selects(sel: { carrier?: string | string[] | undefined; service?: string | string[] | undefined }, e: RatedEntry): boolean {
  return list(sel.carrier).some((c) => same(c, e.carrier)) || list(sel.service).some((c) => same(c, e.code));
}

/** Cheapest first, then by code: the order every list of a decision follows. */
function cheapestFirst(entries: readonly RatedEntry[]): RatedEntry[] {
  return [...entries].sort((a, b) => a.total_cents - b.total_cents || a.code.localeCompare(b.code));
}

type Preference = NonNullable<Rule['prefer']>;

/** `StarTrack`, `service SB-DOM-ROAD`, `consolidated mail`. */
function preferred(p: Preference): string {
  return p.carrier ?? (p.service !== undefined ? `service ${p.service}` : 'consolidated mail');
}

/** ` within 10 % of the cheapest`, ` within 5.00 AUD of the cheapest`, or `` (any price). */
function margin(p: Preference): string {
  const parts = [...(p.within_percent !== undefined ? [`${p.within_percent} %`] : []), ...(p.within_aud !== undefined ? [aud(p.within_aud)] : [])];
  return parts.length === 0 ? '' : ` within ${parts.join(' and ')} of the cheapest`;
}

/** True when `e` is within the preference's margin of `cheapest` (every margin given must hold). */
function withinMargin(p: Preference, e: RatedEntry, cheapest: RatedEntry): boolean {
  const over = e.total_cents - cheapest.total_cents;
  if (p.within_percent !== undefined && over * 100 > cheapest.total_cents * p.within_percent + 1e-9) return false;
  if (p.within_aud !== undefined && over > p.within_aud) return false;
  return true;
}

/** The entries a preference names. */
function prefers(p: Preference, e: RatedEntry): boolean {
  if (p.carrier !== undefined) return same(p.carrier, e.carrier);
  if (p.service !== undefined) return same(p.service, e.code);
  return e.global_mail;
}

/** The words of the removals, grouped by rule: `rule "x" denied A, B; rule "y" allowed only …`. */
function removalWords(removed: readonly Removal[]): string {
  const groups = new Map<string, string[]>();
  for (const r of removed) {
    const key = r.rule !== undefined ? `rule "${r.rule}" ${r.by === 'deny' ? 'denies' : 'does not allow'}` : (r.why ?? 'not usable');
    const codes = groups.get(key) ?? [];
    codes.push(`${r.code} (${r.carrier})`);
    groups.set(key, codes);
  }
  return [...groups].map(([k, codes]) => `${k}: ${codes.join(', ')}`).join('; ');
}

/**
 * Chooses the service of one shipment under `rules` (see the module's description).
 * Pure: the same input gives the same decision.
 */
export function chooseService(input: DecideInput): Decision {
  const quote = cheapestFirst(input.entries);
  const removed: Removal[] = [];
  const matched: string[] = [];
  const set: SetOptions = {};
  let maxTotal: { cents: Cents; rule: string } | undefined;
  const choosers: Rule[] = [];
  let allowed = quote;
  if (!input.globalMail.usable) {
    const why = input.globalMail.why;
    for (const e of allowed.filter((x) => x.global_mail)) removed.push({ code: e.code, carrier: e.carrier, by: 'path', why });
    allowed = allowed.filter((x) => !x.global_mail);
  }
  const written = input.written !== undefined ? quote.find((e) => same(e.code, input.written!)) : undefined;
  for (const rule of input.rules) {
    if (failedCondition(rule.when, input.facts) !== undefined) continue;
    matched.push(rule.name);
    if (rule.deny) {
      for (const e of allowed.filter((x) => selects(rule.deny!, x))) removed.push({ code: e.code, carrier: e.carrier, rule: rule.name, by: 'deny' });
      allowed = allowed.filter((x) => !selects(rule.deny!, x));
    }
    if (rule.allow) {
      for (const e of allowed.filter((x) => !selects(rule.allow!, x))) removed.push({ code: e.code, carrier: e.carrier, rule: rule.name, by: 'allow' });
      allowed = allowed.filter((x) => selects(rule.allow!, x));
    }
    if (rule.set?.insurance !== undefined) set.insurance = { value: rule.set.insurance, rule: rule.name };
    if (rule.set?.send_documents !== undefined) set.send_documents = { value: rule.set.send_documents, rule: rule.name };
    if (rule.max_total !== undefined && (maxTotal === undefined || rule.max_total < maxTotal.cents)) maxTotal = { cents: rule.max_total, rule: rule.name };
    if (rule.prefer !== undefined || rule.choose !== undefined) choosers.push(rule);
  }
  const common = { matched, removed, set, ...(maxTotal ? { max_total: maxTotal } : {}), quote };
  if (input.written !== undefined) {
    if (written === undefined) {
      return {
        ok: false,
        problem: 'not_offered',
        code: input.written,
        reason: `service ${input.written} is not in the quote for this shipment; offered: ${quote.map((e) => e.code).join(', ') || 'none'}`,
        matched,
        removed,
        quote,
      };
    }
    const gone = removed.find((r) => r.code === written.code);
    if (gone !== undefined) {
      const why =
        gone.rule !== undefined ? `rule "${gone.rule}" ${gone.by === 'deny' ? 'denies' : 'does not allow'} it` : (gone.why ?? 'it cannot be booked this way');
      return {
        ok: false,
        problem: 'written_removed',
        code: written.code,
        ...(gone.rule !== undefined ? { rule: gone.rule } : {}),
        reason: `the order names ${written.code} (${written.carrier}), but ${why}`,
        matched,
        removed,
        quote,
      };
    }
    const runnerUp = allowed.find((e) => e !== written);
    return {
      ok: true,
      chosen: written,
      ...(runnerUp ? { runner_up: runnerUp } : {}),
      how: 'written',
      reason: `${entryLabel(written)}: named in the order${runnerUp ? ` (${runnerUp === allowed[0] ? 'cheapest allowed' : 'next'}: ${entryLabel(runnerUp)})` : ''}`,
      not_applied: [],
      ...common,
    };
  }
  if (allowed.length === 0) {
    return {
      ok: false,
      problem: 'none_left',
      reason: quote.length === 0 ? 'the quote offers no service for this shipment' : `no service is left: ${removalWords(removed)}`,
      matched,
      removed,
      quote,
    };
  }
  const notApplied: NotApplied[] = [];
  const cheapest = allowed[0]!;
  const next = allowed[1];
  // What rules removed is said after the choice (a service the booking path cannot use is only in the data).
  const byRules = removed.filter((r) => r.rule !== undefined);
  const notes = () =>
    (notApplied.length === 0 ? '' : `; not applied: ${notApplied.map((n) => `rule "${n.rule}" (${n.why})`).join('; ')}`) +
    (byRules.length === 0 ? '' : `; ${removalWords(byRules)}`);
  for (const rule of choosers) {
    if (rule.choose === 'cheapest') {
      return {
        ok: true,
        chosen: cheapest,
        ...(next ? { runner_up: next } : {}),
        rule: rule.name,
        how: 'choose',
        reason: `${entryLabel(cheapest)}: rule "${rule.name}" chooses the cheapest allowed${next ? ` (next: ${entryLabel(next)})` : ''}${notes()}`,
        not_applied: notApplied,
        ...common,
      };
    }
    const p = rule.prefer!;
    const candidate = allowed.find((e) => prefers(p, e));
    if (candidate === undefined) {
      const blocked = quote.filter((e) => prefers(p, e));
      const why =
        blocked.length === 0
          ? `the quote has no ${preferred(p)} service`
          : `${preferred(p)} is not allowed: ${removalWords(removed.filter((r) => blocked.some((b) => b.code === r.code)))}`;
      notApplied.push({ rule: rule.name, why });
      continue;
    }
    if (!withinMargin(p, candidate, cheapest)) {
      notApplied.push({
        rule: rule.name,
        why: `${entryLabel(candidate)} is more than${margin(p)
          .replace(/^ within/, '')
          .replace(/ of the cheapest$/, '')} above the cheapest (${entryLabel(cheapest)})`,
      });
      continue;
    }
    const runnerUp = candidate === cheapest ? next : cheapest;
    const shown = runnerUp === undefined ? '' : ` (${candidate === cheapest ? 'next: ' : ''}${entryLabel(runnerUp)})`;
    return {
      ok: true,
      chosen: candidate,
      ...(runnerUp ? { runner_up: runnerUp } : {}),
      rule: rule.name,
      how: 'prefer',
      reason: `${entryLabel(candidate)}: rule "${rule.name}" prefers ${preferred(p)}${margin(p)}${shown}${notes()}`,
      not_applied: notApplied,
      ...common,
    };
  }
  return {
    ok: true,
    chosen: cheapest,
    ...(next ? { runner_up: next } : {}),
    how: 'cheapest',
    reason: `${entryLabel(cheapest)}: the cheapest allowed${next ? ` (next: ${entryLabel(next)})` : ''}${notes()}`,
    not_applied: notApplied,
    ...common,
  };
}
