/**
 * What a change of rules would have cost: the orders the ledger recorded with the rules' choice
 * (each shipment's quote as the service answered it at booking, and the facts the rules saw),
 * decided again under two rule sets, with no network. Prices are the recorded quote's totals.
 */
import { formatCents, readCents, type Cents } from '../../schema/money.js';
import { isObject } from '../../schema/object.js';
import type { JournalRecord } from '../../ledger/index.js';
import { chooseService, type RatedEntry } from './decide.js';
import type { ShipmentFacts } from './facts.js';
import type { RuleSet } from './load.js';

/** One shipment of a recorded order, as `rules diff` decides it again. */
interface RecordedShipment {
  facts: ShipmentFacts;
  quote: RatedEntry[];
  /** The code the order named itself, when it did. */
  written?: string;
}

/** An order the ledger recorded with the rules' choice. */
interface RecordedOrder {
  /** The document's identity in the ledger. */
  id: string;
  order_id: string;
  /** ISO time of its create. */
  time: string;
  shipments: RecordedShipment[];
}

/** The orders created at or after `since` (ms since the epoch) whose create carries the rules' choice; `skipped`: those recorded without the facts to decide again (older records). */
async function recordedOrders(records: AsyncIterable<JournalRecord>, since: number | undefined): Promise<{ orders: RecordedOrder[]; skipped: number }> {
  const orders = new Map<string, RecordedOrder>();
  let skipped = 0;
  for await (const r of records) {
    if (r.event !== 'created' || r.order_id === undefined || r.service_choice === undefined) continue;
    if (since !== undefined && Date.parse(r.t) < since) continue;
    const shipments = r.service_choice.map(recordedShipment);
    if (shipments.some((s) => s === undefined)) {
      skipped++;
      continue;
    }
    orders.set(r.order_id, { id: r.id, order_id: r.order_id, time: r.t, shipments: shipments as RecordedShipment[] });
  }
  return { orders: [...orders.values()], skipped };
}

/** A shipment's recorded choice read back, or undefined when it lacks the facts or a quote entry is unreadable. */
function recordedShipment(c: unknown): RecordedShipment | undefined {
  if (!isObject(c) || !isObject(c.facts) || !Array.isArray(c.quote)) return undefined;
  const quote: RatedEntry[] = [];
  for (const e of c.quote) {
    if (!isObject(e) || typeof e.code !== 'string' || typeof e.total !== 'string') return undefined;
    const cents = readCents(e.total);
    if (cents === undefined) return undefined;
    quote.push({
      code: e.code,
      name: typeof e.name === 'string' ? e.name : '',
      carrier: typeof e.carrier === 'string' ? e.carrier : '',
      global_mail: e.global_mail === true,
      total_cents: cents,
    });
  }
  const written = c.how === 'written' && typeof c.service === 'string' ? c.service : undefined;
  return { facts: c.facts as unknown as ShipmentFacts, quote, ...(written !== undefined ? { written } : {}) };
}

/** A shipment's service under one rule set, or why none. */
type Priced = { code: string; carrier: string; cents: Cents; rule?: string } | { refused: string };

/** Decides a recorded shipment under `rules` as an order document is decided (consolidated mail not bookable as an order). */
function priceUnder(rules: RuleSet, s: RecordedShipment): Priced {
  const d = chooseService({
    rules: rules.rules,
    facts: s.facts,
    entries: s.quote,
    written: s.written,
    globalMail: { usable: false, why: 'consolidated mail is booked with shipment create and combine, not as a plain order' },
  });
  if (!d.ok) return { refused: d.reason };
  return { code: d.chosen.code, carrier: d.chosen.carrier, cents: d.chosen.total_cents, ...(d.rule !== undefined ? { rule: d.rule } : {}) };
}

/** Shipments and their total on one service, AUD as a decimal string. */
interface Side {
  shipments: number;
  total: string;
}

/** A shipment whose service (or price) differs between the two rule sets. */
interface ChangedShipment {
  id: string;
  order_id: string;
  /** 1-based, within its order. */
  shipment: number;
  old: { service: string; total: string; rule?: string } | { refused: string };
  new: { service: string; total: string; rule?: string } | { refused: string };
}

/** What {@link rulesDiff} finds: per service and in total, under each rule set, and the change (new − old, AUD). */
export interface RulesDiff {
  old: string;
  new: string;
  /** ISO time of the earliest create looked at, when `--since` was given. */
  since?: string;
  orders: number;
  shipments: number;
  /** Orders recorded with a choice but without the facts to decide again. */
  skipped: number;
  services: Array<{ service: string; carrier: string; old: Side; new: Side; change: string }>;
  total: { old: string; new: string; change: string };
  /** Shipments whose service one rule set refuses: left out of the totals of both. */
  refused: number;
  changed: ChangedShipment[];
}

/** `+12.30`, `-4.10`, `0.00`. */
function signed(cents: number): string {
  return cents > 0 ? `+${formatCents(cents)}` : cents < 0 ? `-${formatCents(-cents)}` : formatCents(0);
}

/**
 * Re-prices the orders `records` hold (created at or after `since`, ms since the epoch) under the
 * rule sets `oldRules` and `newRules`, from the quotes recorded at booking. A shipment one rule
 * set leaves no service (or whose written code it denies) is counted in `refused`, listed in
 * `changed`, and left out of both totals, so that the totals compare the same shipments.
 * Services are listed by code; amounts are AUD decimal strings.
 */
export async function rulesDiff(records: AsyncIterable<JournalRecord>, oldRules: RuleSet, newRules: RuleSet, since?: number): Promise<RulesDiff> {
  const { orders, skipped } = await recordedOrders(records, since);
  const services = new Map<string, { carrier: string; old: { n: number; c: number }; new: { n: number; c: number } }>();
  const side = (code: string, carrier: string) => {
    let s = services.get(code);
    if (s === undefined) services.set(code, (s = { carrier, old: { n: 0, c: 0 }, new: { n: 0, c: 0 } }));
    return s;
  };
  let shipments = 0;
  let refused = 0;
  let oldTotal = 0;
  let newTotal = 0;
  const changed: ChangedShipment[] = [];
  const shown = (p: Priced) => ('refused' in p ? p : { service: p.code, total: formatCents(p.cents), ...(p.rule !== undefined ? { rule: p.rule } : {}) });
  for (const o of orders) {
    o.shipments.forEach((s, i) => {
      shipments++;
      const a = priceUnder(oldRules, s);
      const b = priceUnder(newRules, s);
      const differs = 'refused' in a || 'refused' in b || a.code !== b.code || a.cents !== b.cents;
      if (differs) changed.push({ id: o.id, order_id: o.order_id, shipment: i + 1, old: shown(a), new: shown(b) });
      if ('refused' in a || 'refused' in b) {
        refused++;
        return;
      }
      const x = side(a.code, a.carrier).old;
      x.n++;
      x.c += a.cents;
      const y = side(b.code, b.carrier).new;
      y.n++;
      y.c += b.cents;
      oldTotal += a.cents;
      newTotal += b.cents;
    });
  }
  return {
    old: oldRules.file,
    new: newRules.file,
    ...(since !== undefined ? { since: new Date(since).toISOString() } : {}),
    orders: orders.length,
    shipments,
    skipped,
    services: [...services]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([code, s]) => ({
        service: code,
        carrier: s.carrier,
        old: { shipments: s.old.n, total: formatCents(s.old.c) },
        new: { shipments: s.new.n, total: formatCents(s.new.c) },
        change: signed(s.new.c - s.old.c),
      })),
    total: { old: formatCents(oldTotal), new: formatCents(newTotal), change: signed(newTotal - oldTotal) },
    refused,
    changed,
  };
}
