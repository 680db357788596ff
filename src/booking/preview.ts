/**
 * The cost preview of a batch (`book --preview`, and its alias `book --dry-run --quote`, the GitHub
 * Action's `mode: preview`): every order read and checked as a batch reads it (its services chosen
 * by the rules when the run has rules), each shipment priced at the service it would be booked
 * with, totals per order, per carrier and overall, and the orders the caps (`--max-total` per
 * order, `--budget` for the run, in input order) or the rules would refuse. Nothing is created.
 * The preview's total is what booking the batch would spend; `quotedCents` is every priced order.
 * UI-free: the command quotes (it owns the client) and `output/` words the result.
 */
import type { QuoteServiceEntry } from '../schema/quote.js';
import type { BookingDocument } from './book.js';
import { ApiError, ShipbookError, UsageError, type InputIssue } from '../errors.js';
import { formatCents } from '../schema/money.js';
import { isObject } from '../schema/object.js';
import { oneLine } from '../schema/shipment.js';

/** How the service of a shipment was chosen: by the rules, named by the order, or the quote's cheapest. */
type ServiceChoice = 'rules' | 'named' | 'cheapest';

/** A checked document of the inputs, as a batch reads it (src/booking/batch/check.ts `BatchItem`). */
interface BatchItem {
  id: string;
  file: string;
  line: number;
  doc?: BookingDocument;
  issues?: InputIssue[];
}

/** One shipment priced: the quote's entry of its service, amounts in AUD cents. */
interface PricedShipment {
  code: string;
  carrier: string;
  name: string;
  total_cents: number;
  chosen: ServiceChoice;
}

/** One order of the preview: priced (and what the rules said of it), refused by a cap, or why it could not be priced. */
export interface PreviewRow {
  /** The ledger identity (`<hash>-<n>`; `unreadable-<n>` for a document that could not be read). */
  id: string;
  file: string;
  line: number;
  /** The transient ids of its shipments. */
  references: string[];
  shipments: PricedShipment[];
  /** The sum of its shipments' totals, AUD cents; undefined when it was not priced. */
  total_cents?: number;
  /** Why the rules chose each shipment's service. */
  reasons: string[];
  /** Which cap would refuse it, and why in words (`over --max-total 80.00` …). */
  refused?: { cap: 'max_total' | 'budget'; why: string };
  /** Why it was not priced: its problems when invalid, the quote's answer when unpriceable, or consolidated mail. */
  problem?: string;
  /** What kept it from being priced: an invalid document, no price for it, or a consolidated-mail file (not previewed, not an error). */
  unpriced?: 'invalid' | 'unpriceable' | 'consolidated';
}

/** The preview of a batch. */
export interface Preview {
  rows: PreviewRow[];
  /** Per carrier, in order of first appearance, among the orders that would be booked: their orders, shipments and total (AUD cents). */
  carriers: Array<{ carrier: string; orders: number; shipments: number; total_cents: number }>;
  /** What booking the batch would spend: the orders neither refused nor unpriced, AUD cents. */
  total_cents: number;
  /** Every priced order, refused ones included, AUD cents. */
  quoted_cents: number;
  /** Orders that would be booked. */
  booked: number;
  /** Orders a cap would refuse. */
  over_limit: number;
  /** Orders that are invalid or could not be priced (the preview exits 2 when there is one). */
  problems: number;
  /** Every problem of the invalid documents, for the closing error. */
  issues: InputIssue[];
  maxTotalCents?: number;
  budgetCents?: number;
}

/**
 * Which quoted service a shipment would be booked with when it names none and no rules choose:
 * the cheapest offered (then by code); with `named`, that one.
 * @returns undefined when the named service is not offered or nothing is
 */
export function chooseService(
  named: string | undefined,
  services: readonly QuoteServiceEntry[],
): { entry: QuoteServiceEntry; chosen: 'named' | 'cheapest' } | undefined {
  if (named !== undefined && named !== '') {
    const entry = services.find((s) => s.code.toLowerCase() === named.toLowerCase());
    return entry === undefined ? undefined : { entry, chosen: 'named' };
  }
  const cheapest = [...services].sort((a, b) => a.price.total.cents - b.price.total.cents || a.code.localeCompare(b.code))[0];
  return cheapest === undefined ? undefined : { entry: cheapest, chosen: 'cheapest' };
}

/** What the rules decided for each shipment of an order (the quote entry they chose from). */
type Decided = ReadonlyArray<{ ok: boolean; chosen?: { code: string; carrier: string; name: string; total_cents: number }; cheapest?: boolean } | undefined>;

/**
 * One order as it was read, before it is validated: its shipments as files write them (services the
 * rules chose filled in, saved senders resolved; amounts as written, which the quote needs), and
 * what the rules decided of each shipment and why, when the run has rules.
 */
export interface PreparedOrder {
  shipments: unknown[];
  decisions?: Decided;
  reasons: string[];
}

/** Asks the service for the quote of one shipment (insured when its options ask for insurance). */
type QuoteShipment = (shipment: unknown, where: string, insured: boolean) => Promise<QuoteServiceEntry[]>;

/**
 * Prices each shipment of an order at its own service code: from the quote the rules chose from
 * (`decided`), unless the shipment is insured or has no such decision, then quoted again (`quote`,
 * insured when its options ask for insurance), as create order would price it. A shipment that
 * names no code, with no decision, is priced at {@link chooseService}'s cheapest.
 * @throws UsageError naming `where` when a shipment's service is not in its quote; what `quote` throws
 */
export async function priceShipments(
  shipments: readonly unknown[],
  where: string,
  decided: Decided | undefined,
  quote: QuoteShipment,
): Promise<PricedShipment[]> {
  const out: PricedShipment[] = [];
  for (const [i, s] of shipments.entries()) {
    const service = isObject(s) && isObject(s.service) ? s.service : {};
    const code = typeof service.code === 'string' ? service.code : '';
    const insured = Array.isArray(service.options) && service.options.includes('insurance');
    const d = decided?.[i];
    if (d?.ok && d.chosen !== undefined && !insured && d.chosen.code === code) {
      out.push({ code, carrier: d.chosen.carrier, name: oneLine(d.chosen.name), total_cents: d.chosen.total_cents, chosen: d.cheapest ? 'cheapest' : 'rules' });
      continue;
    }
    const at = `${where} shipment ${i + 1}`;
    const pick = chooseService(code, await quote(s, at, insured));
    if (pick === undefined) throw new UsageError(code ? `service ${code} is not in the quote of ${at}` : `no service is offered for ${at}`);
    const chosen = d?.ok ? (d.cheapest ? 'cheapest' : 'rules') : pick.chosen;
    out.push({ code: pick.entry.code, carrier: pick.entry.carrier, name: oneLine(pick.entry.name), total_cents: pick.entry.price.total.cents, chosen });
  }
  return out;
}

/**
 * The service chooser where no rules choose: each shipment that names no service code is given the
 * quote's cheapest ({@link chooseService}), written into `written` (the document as read, which is
 * then validated) and `resolved` (the same shipments with saved senders resolved, which are quoted).
 * A shipment that cannot be quoted, or is offered nothing, is left as it is (its order is then
 * invalid: the service is required).
 * @returns what was chosen, per shipment (undefined for one that names its own code)
 * @throws what `quote` throws for a failure of the run
 */
export async function chooseCheapest(written: readonly unknown[], resolved: readonly unknown[], where: string, quote: QuoteShipment): Promise<Decided> {
  const decided: Decided[number][] = [];
  for (const [i, s] of written.entries()) {
    const r = resolved[i];
    if (!isObject(s) || !isObject(r) || (isObject(s.service) && typeof s.service.code === 'string' && s.service.code !== '')) {
      decided.push(undefined);
      continue;
    }
    let pick: ReturnType<typeof chooseService>;
    try {
      pick = chooseService(undefined, await quote(r, `${where} shipment ${i + 1}`, false));
    } catch (err) {
      if (!orderProblem(err)) throw err;
    }
    if (pick === undefined) {
      decided.push(undefined);
      continue;
    }
    const { code, carrier, name } = pick.entry;
    s.service = { ...(isObject(s.service) ? s.service : {}), code };
    r.service = { ...(isObject(r.service) ? r.service : {}), code };
    decided.push({ ok: true, chosen: { code, carrier, name, total_cents: pick.entry.price.total.cents }, cheapest: true });
  }
  return decided;
}

/** True for a failure that belongs to one order (a request that cannot be made, a service not offered, a quote the service refuses), not to the run. */
function orderProblem(err: unknown): err is Error {
  if (err instanceof ApiError) return err.kind === 'api' && err.status < 500;
  return err instanceof ShipbookError && err.kind === 'input';
}

/**
 * The shipments of a checked document as they will be created (an order the rules send by
 * consolidated mail: its children), as read (`prepared`), else as validated; undefined for a
 * consolidated-mail document, which is not previewed.
 */
function shipmentsOf(item: BatchItem, prepared: PreparedOrder | undefined): unknown[] | undefined {
  if (item.doc?.kind !== 'regular' && !(item.doc?.kind === 'consolidated' && item.doc.mail !== undefined)) return undefined;
  if (prepared !== undefined) return prepared.shipments;
  return item.doc.kind === 'regular' ? item.doc.order.order.shipments : item.doc.booking.shipments;
}

/** The most the order may cost: `--max-total`, or the `max_total` of the rule that chose its service where that is lower (as a batch caps it). */
function maxTotalOf(item: BatchItem, run: number | undefined): { cents: number; why: string } | undefined {
  const rule = item.doc?.kind === 'regular' ? item.doc.choice?.maxTotal : undefined;
  if (rule !== undefined && (run === undefined || rule.cents < run))
    return { cents: rule.cents, why: `over max_total ${formatCents(rule.cents)} of rule "${rule.rule}"` };
  return run === undefined ? undefined : { cents: run, why: `over --max-total ${formatCents(run)}` };
}

/**
 * The preview of the checked items, read in input order (so the budget refuses the orders a batch
 * at concurrency 1 would): each order priced ({@link priceShipments}) as it was read for its
 * identity (`prepared`), with what the rules decided; an invalid document or one that cannot be priced is recorded on its
 * row and the preview goes on; a cap refuses an order over `maxTotalCents` (or its rule's `max_total`), or one that would take
 * the spending past `budgetCents`.
 * @throws what `quote` throws for a failure of the run (transport errors, authorization, 5xx)
 */
export async function previewBatch(
  items: AsyncIterable<BatchItem>,
  deps: {
    prepared: (id: string) => PreparedOrder | undefined;
    quote: QuoteShipment;
    maxTotalCents?: number | undefined;
    budgetCents?: number | undefined;
  },
): Promise<Preview> {
  const rows: PreviewRow[] = [];
  const issues: InputIssue[] = [];
  let spent = 0;
  for await (const item of items) {
    const row: PreviewRow = { id: item.id, file: item.file, line: item.line, references: [], shipments: [], reasons: [] };
    rows.push(row);
    const prepared = item.issues === undefined ? deps.prepared(item.id) : undefined;
    const shipments = shipmentsOf(item, prepared);
    if (item.issues !== undefined || shipments === undefined) {
      const errors = item.issues?.filter((i) => i.severity === 'error') ?? [];
      issues.push(...errors);
      row.unpriced = item.issues !== undefined ? 'invalid' : 'consolidated';
      row.problem =
        item.issues !== undefined ? errors.map((i) => (i.path ? `${i.path} ${i.message}` : i.message)).join('; ') : 'consolidated mail: not previewed';
      continue;
    }
    row.reasons = prepared?.reasons ?? [];
    row.references = shipments.flatMap((s) => (isObject(s) && typeof s.transient_id === 'string' ? [s.transient_id] : []));
    try {
      row.shipments = await priceShipments(shipments, `${item.file}:${item.line}`, prepared?.decisions, deps.quote);
    } catch (err) {
      if (!orderProblem(err)) throw err;
      row.unpriced = 'unpriceable';
      row.problem = err.message;
      continue;
    }
    const total = row.shipments.reduce((sum, s) => sum + s.total_cents, 0);
    row.total_cents = total;
    const cap = maxTotalOf(item, deps.maxTotalCents);
    if (cap !== undefined && total > cap.cents) row.refused = { cap: 'max_total', why: cap.why };
    else if (deps.budgetCents !== undefined && spent + total > deps.budgetCents)
      row.refused = { cap: 'budget', why: `over --budget ${formatCents(deps.budgetCents)} (${formatCents(spent)} spent before it)` };
    else spent += total;
  }
  const booked = rows.filter((r) => r.total_cents !== undefined && r.refused === undefined);
  const carriers = new Map<string, { carrier: string; orders: number; shipments: number; total_cents: number }>();
  for (const r of booked) {
    for (const s of r.shipments) {
      const c = carriers.get(s.carrier) ?? { carrier: s.carrier, orders: 0, shipments: 0, total_cents: 0 };
      c.total_cents += s.total_cents;
      c.shipments++;
      carriers.set(s.carrier, c);
    }
    for (const carrier of new Set(r.shipments.map((s) => s.carrier))) carriers.get(carrier)!.orders++;
  }
  return {
    rows,
    carriers: [...carriers.values()],
    total_cents: spent,
    quoted_cents: rows.reduce((sum, r) => sum + (r.total_cents ?? 0), 0),
    booked: booked.length,
    over_limit: rows.filter((r) => r.refused !== undefined).length,
    problems: rows.filter((r) => r.unpriced === 'invalid' || r.unpriced === 'unpriceable').length,
    issues,
    ...(deps.maxTotalCents !== undefined ? { maxTotalCents: deps.maxTotalCents } : {}),
    ...(deps.budgetCents !== undefined ? { budgetCents: deps.budgetCents } : {}),
  };
}
