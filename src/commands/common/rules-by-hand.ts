/**
 * The guided booking under rules, when the person overrides the rules' choice at the summary
 * ("change the service"): the services offered are those the rules allow (a service a rule removed
 * is never offered), and the service chosen by hand is recorded with the reason `chosen by hand
 * over rule "…"`, the rules' own choice kept as the runner-up.
 */
import { aud } from '../../schema/money.js';
import type { QuoteServiceEntry } from '../../schema/quote.js';
import { oneLine } from '../../schema/shipment.js';
import { ValidationError } from '../../errors.js';
import { decideOrder, decisionRecord, ratedEntry, type RuleSet, type ServiceChoice } from '../../booking/index.js';

/** One shipment's choice as the guided booking keeps it: the record for the ledger and the rules' cap. */
type Decided = { record: ServiceChoice['records'][number]; maxTotal?: { cents: number; rule: string } };

/** `StarTrack Road Express 44.10 AUD`. */
function label(e: Pick<QuoteServiceEntry, 'carrier' | 'name'> & { cents: number }): string {
  return `${[e.carrier, oneLine(e.name)].filter((p) => p !== '').join(' ')} ${aud(e.cents)}`;
}

/**
 * The services of a quote the rules allow for `shipment`, and how a service picked from them by
 * hand is recorded.
 * @throws ValidationError (exit 2) when the rules leave the shipment no service; nothing is sent
 */
export function byHandChoice(
  rules: RuleSet,
  o: { tags: string[]; shipment: unknown; services: QuoteServiceEntry[]; file: string; path: string },
): { allowed: QuoteServiceEntry[]; decided(chosen: QuoteServiceEntry): Decided } {
  const decision = decideOrder(rules, { tags: o.tags, order: { shipments: [o.shipment] } }, { quotes: [o.services.map(ratedEntry)] });
  const d = decision.shipments[0]!;
  if (!d.ok)
    throw new ValidationError(
      [{ file: o.file, path: o.path, message: d.reason, severity: 'error' }],
      `not sent: the rules of ${rules.file} leave it no service`,
    );
  const removed = new Set(d.removed.map((r) => r.code));
  const facts = decision.facts[0]!;
  const cap = d.max_total ? { maxTotal: d.max_total } : {};
  return {
    allowed: o.services.filter((e) => !removed.has(e.code)),
    decided(chosen) {
      // The rules' own service picked again: their choice, as they made it.
      if (chosen.code === d.chosen.code) return { record: { ...decisionRecord(d), facts }, ...cap };
      const entry = ratedEntry(chosen);
      const over = d.rule !== undefined ? `rule "${d.rule}"` : "the rules' choice";
      const reason = `${label({ ...chosen, cents: entry.total_cents })}: chosen by hand over ${over} (the rules chose ${label({ ...d.chosen, cents: d.chosen.total_cents })})`;
      return { record: { ...decisionRecord({ ...d, chosen: entry, runner_up: d.chosen }), how: 'by_hand', reason, facts }, ...cap };
    },
  };
}
