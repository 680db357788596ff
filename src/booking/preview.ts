/**
 * The cost preview of a batch (`book --dry-run --quote`, the GitHub Action's `mode: preview`):
 * every regular order quoted shipment by shipment, each shipment priced at the service it would be
 * booked with, totals per order, per carrier and overall, and the orders a price cap would refuse
 * (`--max-total` per order, `--budget` for the run, in input order). Nothing is created.
 * UI-free: the command quotes (it owns the client) and `output/` words the result.
 */
import type { QuoteRequest, QuoteServiceEntry } from '../schema/quote.js';
import type { BookingDocument } from './book.js';
import { ShipbookError } from '../errors.js';

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
