/**
 * One order under the rules: the decision of each shipment from its quote, and the document with
 * the choices written in.
 */
import type { QuoteServiceEntry } from '../../schema/quote.js';
import { isObject } from '../../schema/object.js';
import { chooseService, type Decision, type RatedEntry } from './decide.js';
import { senderOf, shipmentFacts, type ShipmentFacts } from './facts.js';
import type { RuleSet } from './load.js';

/** A quote entry as rules see it: code, name, carrier, `global_mail` and the total in cents. */
export function ratedEntry(e: QuoteServiceEntry): RatedEntry {
  return { code: e.code, name: e.name, carrier: e.carrier, global_mail: e.global_mail, total_cents: e.price.total.cents };
}

/** The tags given with an order: a top-level `tags:` (a text or a list of texts) beside `order:`. */
export function documentTags(data: unknown): string[] {
  if (!isObject(data)) return [];
  const t = data.tags;
  if (typeof t === 'string')
    return t
      .split(',')
      .map((x) => x.trim())
      .filter((x) => x !== '');
  return Array.isArray(t) ? t.filter((x): x is string => typeof x === 'string').map((x) => x.trim()) : [];
}

/** The shipments of an order document (`{order: {shipments: […]}}`), or none. */
export function orderShipments(data: unknown): unknown[] {
  return isObject(data) && isObject(data.order) && Array.isArray(data.order.shipments) ? data.order.shipments : [];
}

/** The decision for each shipment of an order, and what holds for the whole order. */
export interface OrderDecision {
  /** True when every shipment has a service. */
  ok: boolean;
  shipments: Decision[];
  /** The facts each shipment was decided on (same index): recorded, so the choice can be decided again offline. */
  facts: ShipmentFacts[];
  /** The lowest `max_total` any shipment's rules set, and its rule. */
  max_total?: { cents: number; rule: string };
}

/**
 * Chooses the service of every shipment of an order document.
 * @param o.written the document as written (before saved senders were resolved), for the sender name and the codes it names; defaults to `document`
 * @param o.quotes each shipment's quote entries (same index as the shipments)
 * @param o.globalMail whether consolidated mail can be booked for these shipments, and why not
 */
export function decideOrder(
  rules: RuleSet,
  document: unknown,
  o: { quotes: ReadonlyArray<readonly RatedEntry[]>; written?: unknown; globalMail?: { usable: true } | { usable: false; why: string } },
): OrderDecision {
  const shipments = orderShipments(document);
  const written = orderShipments(o.written ?? document);
  const tags = documentTags(o.written ?? document);
  const facts = shipments.map((s, i) => {
    const raw = written[i];
    return shipmentFacts(s, { sender: senderOf(isObject(raw) ? raw.collection : undefined), tags });
  });
  const decisions = shipments.map((s, i) => {
    const raw = written[i];
    const code = isObject(raw) && isObject(raw.service) && typeof raw.service.code === 'string' ? raw.service.code : undefined;
    return chooseService({
      rules: rules.rules,
      facts: facts[i]!,
      entries: o.quotes[i] ?? [],
      written: code,
      globalMail: o.globalMail ?? { usable: false, why: 'consolidated mail is booked with shipment create and combine, not as a plain order' },
    });
  });
  let max: { cents: number; rule: string } | undefined;
  for (const d of decisions) if (d.ok && d.max_total && (max === undefined || d.max_total.cents < max.cents)) max = d.max_total;
  return { ok: decisions.every((d) => d.ok), shipments: decisions, facts, ...(max ? { max_total: max } : {}) };
}

/**
 * The document with each shipment's chosen service written in (`service.code`, and the
 * `insurance` option where a rule set it), as create order sends it. A copy; the input is not changed.
 */
export function applyDecision(document: unknown, decision: OrderDecision): unknown {
  const copy = structuredClone(document);
  orderShipments(copy).forEach((s, i) => {
    const d = decision.shipments[i];
    if (!isObject(s) || d === undefined || !d.ok) return;
    const service = isObject(s.service) ? s.service : {};
    service.code = d.chosen.code;
    const insurance = d.set.insurance;
    if (insurance !== undefined) {
      const options = Array.isArray(service.options) ? (service.options as unknown[]).filter((x) => x !== 'insurance') : [];
      service.options = insurance.value ? [...options, 'insurance'] : options;
    }
    s.service = service;
  });
  return copy;
}
