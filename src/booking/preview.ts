/**
 * The cost preview of a batch (`book --dry-run --quote`, the GitHub Action's `mode: preview`):
 * every regular order quoted shipment by shipment, each shipment priced at the service it would be
 * booked with, totals per order, per carrier and overall, and the orders a price cap would refuse
 * (`--max-total` per order, `--budget` for the run, in input order). Nothing is created.
 * The rules' preview (`book --preview`, {@link previewRuled}) prices each order at the service the
 * service-selection rules chose (the quote they chose from), and totals the orders a batch would book.
 * UI-free: the command quotes (it owns the client) and `output/` words the result.
 */
import type { QuoteRequest, QuoteServiceEntry } from '../schema/quote.js';
import type { BookingDocument } from './book.js';
import { ShipbookError, UsageError } from '../errors.js';
import { formatCents } from '../schema/money.js';
import { isObject } from '../schema/object.js';
import { oneLine } from '../schema/shipment.js';

/** How the service of a shipment was chosen. */
type ServiceChoice = 'named' | 'cheapest';

/** One shipment of an order, priced. */
interface PreviewShipment {
  code: string;
  name: string;
  carrier: string;
  /** The quote's total of that service, AUD cents. */
  totalCents: number;
  chosen: ServiceChoice;
}

/** One order of the inputs, priced (or why it could not be). */
export interface PreviewOrder {
  /** The ledger identity (`<hash>-<n>`). */
  id: string;
  file: string;
  line: number;
  shipments: PreviewShipment[];
  /** The sum of its shipments' totals, AUD cents; undefined when it could not be priced. */
  totalCents?: number;
  /** Why it could not be priced (consolidated mail, a service not offered …). */
  problem?: string;
  /** Its total is above `--max-total`. */
  overMaxTotal?: boolean;
  /** Booked in input order, it would pass the run's `--budget`. */
  pastBudget?: boolean;
}

/** The preview of a batch. */
export interface Preview {
  orders: PreviewOrder[];
  /** Totals by carrier, AUD cents, in order of first appearance. */
  carriers: Array<{ carrier: string; orders: number; totalCents: number }>;
  /** The sum of every priced order, AUD cents. */
  totalCents: number;
  /** Orders over `--max-total` or past `--budget`. */
  overLimit: number;
  maxTotalCents?: number;
  budgetCents?: number;
}

/** A document to preview: a checked batch item. */
interface PreviewItem {
  id: string;
  file: string;
  line: number;
  doc?: BookingDocument;
}

/**
 * Which quoted service a shipment would be booked with: the one it names (`service.code`), else the
 * cheapest offered (then by code). This is the one place that chooses; service-selection rules,
 * where a profile has them, take over here.
 * @returns undefined when the named service is not offered or nothing is
 */
export function chooseService(
  named: string | undefined,
  services: readonly QuoteServiceEntry[],
): { entry: QuoteServiceEntry; chosen: ServiceChoice } | undefined {
  if (named !== undefined && named !== '') {
    const entry = services.find((s) => s.code === named);
    return entry === undefined ? undefined : { entry, chosen: 'named' };
  }
  const cheapest = [...services].sort((a, b) => a.price.total.cents - b.price.total.cents || a.code.localeCompare(b.code))[0];
  return cheapest === undefined ? undefined : { entry: cheapest, chosen: 'cheapest' };
}

/**
 * Prices every item: each shipment of a regular order quoted (`quoteOf` builds its request,
 * `quote` asks the service), at the service {@link chooseService} gives; then the caps.
 * A shipment that cannot be quoted marks its order with the problem (the preview goes on).
 * @throws what `quote` throws for a failure of the service (ApiError, transport errors)
 */
export async function previewOrders(
  items: readonly PreviewItem[],
  deps: {
    quoteOf: (shipment: unknown, where: string) => QuoteRequest;
    quote: (request: QuoteRequest) => Promise<QuoteServiceEntry[]>;
    maxTotalCents?: number;
    budgetCents?: number;
  },
): Promise<Preview> {
  const orders: PreviewOrder[] = [];
  for (const item of items) {
    const order: PreviewOrder = { id: item.id, file: item.file, line: item.line, shipments: [] };
    orders.push(order);
    if (item.doc?.kind !== 'regular') {
      order.problem = 'consolidated mail is not previewed';
      continue;
    }
    try {
      for (const [i, shipment] of item.doc.order.order.shipments.entries()) {
        const where = `shipment ${i + 1} of ${item.file}:${item.line}`;
        const services = await deps.quote(deps.quoteOf(shipment, where));
        const named = shipment.service?.code;
        const pick = chooseService(named, services);
        if (pick === undefined) throw new Error(named ? `service ${named} is not offered for ${where}` : `no service is offered for ${where}`);
        order.shipments.push({
          code: pick.entry.code,
          name: pick.entry.name.replace(/\s+/g, ' ').trim(),
          carrier: pick.entry.carrier,
          totalCents: pick.entry.price.total.cents,
          chosen: pick.chosen,
        });
      }
      order.totalCents = order.shipments.reduce((sum, s) => sum + s.totalCents, 0);
    } catch (err) {
      // A request that cannot be made (no collection address …) or a service not offered: said on the order.
      if (!(err instanceof Error) || (err instanceof ShipbookError && err.kind !== 'input')) throw err;
      order.problem = err.message;
      order.shipments = [];
    }
  }
  let spent = 0;
  let overLimit = 0;
  const carriers = new Map<string, { carrier: string; orders: number; totalCents: number }>();
  for (const o of orders) {
    if (o.totalCents === undefined) continue;
    if (deps.maxTotalCents !== undefined && o.totalCents > deps.maxTotalCents) o.overMaxTotal = true;
    else if (deps.budgetCents !== undefined && spent + o.totalCents > deps.budgetCents) o.pastBudget = true;
    else spent += o.totalCents;
    if (o.overMaxTotal || o.pastBudget) overLimit++;
    for (const s of o.shipments) {
      const c = carriers.get(s.carrier) ?? { carrier: s.carrier, orders: 0, totalCents: 0 };
      c.totalCents += s.totalCents;
      carriers.set(s.carrier, c);
    }
    for (const carrier of new Set(o.shipments.map((s) => s.carrier))) carriers.get(carrier)!.orders++;
  }
  return {
    orders,
    carriers: [...carriers.values()],
    totalCents: orders.reduce((sum, o) => sum + (o.totalCents ?? 0), 0),
    overLimit,
    ...(deps.maxTotalCents !== undefined ? { maxTotalCents: deps.maxTotalCents } : {}),
    ...(deps.budgetCents !== undefined ? { budgetCents: deps.budgetCents } : {}),
  };
}

/** One shipment priced for the rules' preview (`book --preview`): amounts in AUD cents. */
export interface PricedShipment {
  code: string;
  carrier: string;
  name: string;
  total_cents: number;
}

/** One order of the rules' preview: priced (and what the rules said of it), refused by a cap, or not previewed. */
export interface RuledPreviewRow {
  file: string;
  line: number;
  /** The transient ids of its shipments. */
  references: string[];
  shipments: PricedShipment[];
  /** The sum of its shipments' totals, AUD cents (0 when not previewed). */
  total_cents: number;
  /** Why the rules chose each shipment's service. */
  reasons: string[];
  /** Why this order would be refused: `over --max-total …` or `over --budget …`. */
  refused?: string;
  /** Why it could not be previewed (invalid, consolidated mail). */
  problem?: string;
}

/** The rules' preview of a batch: its orders in input order, totals per carrier and of the orders that would be booked. */
export interface RuledPreview {
  rows: RuledPreviewRow[];
  /** Per carrier, in order of first appearance: its shipments among the orders that would be booked, and their total. */
  carriers: Array<{ carrier: string; shipments: number; total_cents: number }>;
  /** The total of the orders that would be booked, AUD cents. */
  total_cents: number;
  /** Orders that would be booked (neither refused nor unpreviewed). */
  booked: number;
  refused: number;
  problems: number;
}

/**
 * Prices each shipment of an order (as files write it, codes filled in) at its own service code:
 * from the quote the rules chose from (`decided`), unless the shipment is insured or has no such
 * decision, then quoted again (`quote`, insured when its options ask for insurance), as create order
 * would price it.
 * @throws Error naming `file` when a shipment's service is not in its quote; what `quote` throws
 */
export async function priceShipments(
  shipments: readonly unknown[],
  file: string,
  decided: ReadonlyArray<{ ok: boolean; chosen?: { code: string; carrier: string; name: string; total_cents: number } }> | undefined,
  quote: (shipment: unknown, where: string, insured: boolean) => Promise<QuoteServiceEntry[]>,
): Promise<PricedShipment[]> {
  const out: PricedShipment[] = [];
  for (const [i, s] of shipments.entries()) {
    const service = isObject(s) && isObject(s.service) ? s.service : {};
    const code = typeof service.code === 'string' ? service.code : '';
    const insured = Array.isArray(service.options) && service.options.includes('insurance');
    const d = decided?.[i];
    if (d?.ok && d.chosen !== undefined && !insured && d.chosen.code === code) {
      out.push({ code, carrier: d.chosen.carrier, name: oneLine(d.chosen.name), total_cents: d.chosen.total_cents });
      continue;
    }
    const entries = await quote(s, `${file} shipment ${i + 1}`, insured);
    const entry = entries.find((e) => e.code.toLowerCase() === code.toLowerCase());
    if (entry === undefined) throw new UsageError(`${file}: service ${code || '(none)'} is not in the quote of shipment ${i + 1}`);
    out.push({ code: entry.code, carrier: entry.carrier, name: oneLine(entry.name), total_cents: entry.price.total.cents });
  }
  return out;
}

/**
 * The rules' preview of the checked items, read in input order (so the budget refuses the orders a
 * batch at concurrency 1 would): `priced` gives what was priced for an item's identity (undefined:
 * consolidated mail, not previewed); a cap refuses an order over `maxTotalCents`, or one that would
 * take the spending past `budgetCents`.
 */
export async function previewRuled(
  items: AsyncIterable<{ id: string; file: string; line: number; issues?: ReadonlyArray<{ message: string }> | undefined }>,
  priced: (id: string) => { shipments: PricedShipment[]; references: string[]; reasons: string[] } | undefined,
  caps: { maxTotalCents?: number | undefined; budgetCents?: number | undefined },
): Promise<RuledPreview> {
  const rows: RuledPreviewRow[] = [];
  let spent = 0;
  for await (const item of items) {
    const p = priced(item.id);
    if (item.issues || p === undefined) {
      const problem = item.issues ? item.issues.map((i) => i.message).join('; ') : 'consolidated mail: not previewed';
      rows.push({ file: item.file, line: item.line, references: [], shipments: [], total_cents: 0, reasons: [], problem });
      continue;
    }
    const total = p.shipments.reduce((sum, s) => sum + s.total_cents, 0);
    const row: RuledPreviewRow = { file: item.file, line: item.line, references: p.references, shipments: p.shipments, total_cents: total, reasons: p.reasons };
    if (caps.maxTotalCents !== undefined && total > caps.maxTotalCents) row.refused = `over --max-total ${formatCents(caps.maxTotalCents)}`;
    else if (caps.budgetCents !== undefined && spent + total > caps.budgetCents)
      row.refused = `over --budget ${formatCents(caps.budgetCents)} (${formatCents(spent)} spent before it)`;
    else spent += total;
    rows.push(row);
  }
  const booked = rows.filter((r) => r.problem === undefined && r.refused === undefined);
  const carriers = new Map<string, { carrier: string; shipments: number; total_cents: number }>();
  for (const s of booked.flatMap((r) => r.shipments)) {
    const c = carriers.get(s.carrier) ?? { carrier: s.carrier, shipments: 0, total_cents: 0 };
    c.total_cents += s.total_cents;
    c.shipments++;
    carriers.set(s.carrier, c);
  }
  return {
    rows,
    carriers: [...carriers.values()],
    total_cents: booked.reduce((sum, r) => sum + r.total_cents, 0),
    booked: booked.length,
    refused: rows.filter((r) => r.refused !== undefined).length,
    problems: rows.filter((r) => r.problem !== undefined).length,
  };
}
