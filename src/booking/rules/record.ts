/**
 * A decision as machine-readable outputs carry it (`--json`, the JSON and CSV reports, the ledger):
 * plain JSON, amounts as two-decimal AUD strings (never a binary float), the quote it was made
 * from with every entry and price.
 */
import { formatCents } from '../../schema/money.js';
import type { Decision, RatedEntry } from './decide.js';
import type { ShipmentFacts } from './facts.js';

/** A quote entry in records: `{code, name, carrier, global_mail, total}` with `total` as `"44.10"`. */
interface EntryRecord {
  code: string;
  name: string;
  carrier: string;
  global_mail: boolean;
  total: string;
}

/** A decision in records (see {@link decisionRecord}). */
interface DecisionRecord {
  /** The chosen service's code; absent when no service could be chosen. */
  service?: string;
  chosen?: EntryRecord;
  runner_up?: EntryRecord;
  /** The rule that chose, when one did. */
  rule?: string;
  /** `written`, `prefer`, `choose`, `cheapest`, or the refusal's problem (`written_removed`, `none_left`, `not_offered`). */
  how: string;
  reason: string;
  matched: string[];
  removed: Array<{ code: string; carrier: string; rule?: string; by: string; why?: string }>;
  not_applied?: Array<{ rule: string; why: string }>;
  set?: { insurance?: boolean; send_documents?: boolean };
  max_total?: { total: string; rule: string };
  quote: EntryRecord[];
}

/** An entry with its total as an AUD string. */
function entryRecord(e: RatedEntry): EntryRecord {
  return { code: e.code, name: e.name, carrier: e.carrier, global_mail: e.global_mail, total: formatCents(e.total_cents) };
}

/** The record of a decision. */
export function decisionRecord(d: Decision): DecisionRecord {
  if (!d.ok) {
    return {
      how: d.problem,
      ...(d.rule !== undefined ? { rule: d.rule } : {}),
      reason: d.reason,
      matched: d.matched,
      removed: d.removed,
      quote: d.quote.map(entryRecord),
    };
  }
  const set: { insurance?: boolean; send_documents?: boolean } = {};
  if (d.set.insurance) set.insurance = d.set.insurance.value;
  if (d.set.send_documents) set.send_documents = d.set.send_documents.value;
  return {
    service: d.chosen.code,
    chosen: entryRecord(d.chosen),
    ...(d.runner_up ? { runner_up: entryRecord(d.runner_up) } : {}),
    ...(d.rule !== undefined ? { rule: d.rule } : {}),
    how: d.how,
    reason: d.reason,
    matched: d.matched,
    removed: d.removed,
    ...(d.not_applied.length > 0 ? { not_applied: d.not_applied } : {}),
    ...(Object.keys(set).length > 0 ? { set } : {}),
    ...(d.max_total ? { max_total: { total: formatCents(d.max_total.cents), rule: d.max_total.rule } } : {}),
    quote: d.quote.map(entryRecord),
  };
}

/** A shipment's decision as the ledger keeps it: the record, and the shipment's facts the rules saw. */
export type LedgerDecision = DecisionRecord & { facts?: ShipmentFacts };

/**
 * What service-selection rules decided for one order document, carried with it to the booking:
 * each shipment's decision as recorded (written on the order's `created` record in the ledger as
 * `service_choice`), and the lowest `max_total` of the rules that applied (AUD cents), which caps
 * that order alone.
 */
export interface ServiceChoice {
  /** Each shipment's decision, with the facts it was decided on (what `rules diff` decides again from). */
  records: LedgerDecision[];
  maxTotal?: { cents: number; rule: string };
}
