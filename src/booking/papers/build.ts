/**
 * The customs papers of an order, as data: a commercial invoice (with the customs declaration) and
 * a packing slip for each shipment that leaves Australia, computed from what the ledger recorded
 * when the order was created (src/booking/papers/shipment.ts). Values are integer AUD cents;
 * weights are kilograms (pounds converted) with pounds beside them for packages given in `in`.
 */
import type { PaperItem, PaperPackage, PaperParty, PaperShipment } from './shipment.js';
import { isInternational } from './shipment.js';
import { matchItem, type Catalogue } from './catalogue.js';

/** One pound in kilograms, exactly (the international pound). */
const KG_PER_LB = 0.45359237;

/** Kilograms rounded to grams. */
function grams(kg: number): number {
  return Math.round(kg * 1000) / 1000;
}

/** Pounds (given to at most 3 decimals) summed exactly, then rounded to 3 decimals. */
function sumThousandths(values: readonly number[]): number {
  return values.reduce((sum, v) => sum + Math.round(v * 1000), 0) / 1000;
}

/** One package as the papers print it. */
interface PackageLine {
  /** `20 × 15 × 10 cm` or `12 × 10 × 6 in`. */
  dimensions: string;
  /** Weight in kg, to the gram (pounds converted). */
  kg: number;
  /** Weight in pounds as given, for a package in `in`. */
  lb?: number;
}

/** The packages of a shipment: count, lines, gross weight in kg, and in lb when any package is in `in`. */
interface PackagesSummary {
  count: number;
  lines: PackageLine[];
  gross_kg: number;
  /** The gross weight in pounds (the kg total converted), when some package was given in `in`. */
  gross_lb?: number;
}

/**
 * The packages' count and gross weight: kg summed exactly in grams (a package in `in` weighs
 * pounds: × 0.45359237), and for packages in `in` their pounds beside.
 */
export function packagesSummary(packages: readonly PaperPackage[]): PackagesSummary {
  const lines = packages.map((p): PackageLine => {
    const dims = `${p.length} x ${p.width} x ${p.height} ${p.unit}`;
    return p.unit === 'in' ? { dimensions: dims, kg: grams(p.weight * KG_PER_LB), lb: p.weight } : { dimensions: dims, kg: grams(p.weight) };
  });
  const gross = sumThousandths(lines.map((l) => l.kg));
  const out: PackagesSummary = { count: packages.length, lines, gross_kg: gross };
  if (lines.some((l) => l.lb !== undefined)) out.gross_lb = Math.round((gross / KG_PER_LB) * 100) / 100;
  return out;
}

/** An item on the papers: values in AUD cents. */
interface PaperLine {
  description: string;
  quantity: number;
  /** One item's value, AUD cents. */
  unit_cents: number;
  /** quantity × unit value, AUD cents. */
  line_cents: number;
  /** Country of origin (the item's `madein`, else the catalogue's default). */
  origin: string;
  /** Tariff (HS) code from the product catalogue, when it knows the item. */
  hs?: string;
}

/** Each item's line value and the total, exactly in cents. */
export function itemLines(items: readonly PaperItem[], catalogue?: Catalogue): { lines: PaperLine[]; total_cents: number } {
  let total = 0;
  const lines = items.map((i): PaperLine => {
    const line = i.quantity * i.value;
    total += line;
    const match = matchItem(catalogue, i.description);
    const origin = i.madein.trim() !== '' ? i.madein : (match?.origin ?? '');
    return { description: i.description, quantity: i.quantity, unit_cents: i.value, line_cents: line, origin, ...(match ? { hs: match.hs } : {}) };
  });
  return { lines, total_cents: total };
}

/** The declaration the shipper signs on the commercial invoice. */
const DECLARATION = 'I declare that the information in this invoice is true and correct, and that the contents and value of this shipment are as stated above.';

/** Which papers, and how. */
export interface PaperChoice {
  invoice: boolean;
  packingSlip: boolean;
  /** A gift slip: the packing slip without values. */
  noPrices?: boolean;
}

/** The commercial invoice of one shipment. */
export interface CommercialInvoice {
  kind: 'invoice';
  /** The order id. */
  invoice_number: string;
  /** The day the order was created, YYYY-MM-DD. */
  date: string;
  order_id: string;
  shipment_id: string;
  /** The tracking number, once the order is processed. */
  tracking_number?: string;
  /** The document's transient id of the shipment (the shipper's reference). */
  reference?: string;
  shipper?: PaperParty;
  consignee?: PaperParty;
  reason?: string;
  tax_status?: string;
  /** Comments of the customs information. */
  comments?: string;
  description?: string;
  items: PaperLine[];
  total_cents: number;
  currency: 'AUD';
  packages: PackagesSummary;
  declaration: string;
  /** Who signs: the shipper's name, and the image (BASE64 PNG or JPG) when one was given. */
  signature: { name: string; date: string; image?: string };
}

/** An item on a packing slip: a gift slip's have no values. */
export type SlipLine = Omit<PaperLine, 'unit_cents' | 'line_cents'> & Partial<Pick<PaperLine, 'unit_cents' | 'line_cents'>>;

/** The packing slip of one shipment (a gift slip has no values). */
export interface PackingSlip {
  kind: 'packing_slip';
  order_id: string;
  shipment_id: string;
  tracking_number?: string;
  reference?: string;
  date: string;
  shipper?: PaperParty;
  recipient?: PaperParty;
  description?: string;
  items: SlipLine[];
  /** Without values: a gift slip. */
  prices: boolean;
  total_cents?: number;
  packages: PackagesSummary;
}

/** One paper. */
export type Paper = CommercialInvoice | PackingSlip;

/** An order as the papers need it, from the ledger (src/booking/papers/ledger.ts). */
export interface PaperOrder {
  orderId: string;
  /** The day its order was created, YYYY-MM-DD. */
  date: string;
  shipments: PaperShipment[];
  /** Tracking numbers in the order of `shipments` (`N/A` for none), once processed. */
  tracking?: string[];
}

/** A person's or company's name on one line. */
export function partyName(p: PaperParty | undefined): string {
  if (p === undefined) return '';
  return [p.first_name, p.last_name].filter((x) => x !== undefined && x !== '').join(' ');
}

/**
 * The shipper of a shipment: its collection address, except for a consolidated child dropped at the
 * hub, whose shipper is the main shipment's collection (the children's collection is the hub's);
 * a drop-off without a collection address has no shipper recorded.
 */
function shipperOf(s: PaperShipment, order: PaperOrder): PaperParty | undefined {
  // Combined by hand (`shipment combine`), the main shipment is not marked: it is the one picked up
  // and delivered in Australia (to the hub).
  const main =
    order.shipments.find((x) => x.main === true) ??
    order.shipments.find((x) => x !== s && x.collection_type === 'pickup' && (x.delivery?.country ?? '').toUpperCase() === 'AU');
  if (main?.collection !== undefined && s.collection_type === 'dropoff') return main.collection;
  return s.collection;
}

/**
 * The papers of `order`: for each shipment that leaves Australia, the invoice then the packing slip
 * (as `choice` asks). A domestic order has none. `signature` is the profile's signature image,
 * used for a shipment whose document gave none.
 */
export function papersOf(order: PaperOrder, choice: PaperChoice, o: { catalogue?: Catalogue; signature?: string } = {}): Paper[] {
  const out: Paper[] = [];
  order.shipments.forEach((s, i) => {
    if (!isInternational(s)) return;
    const t = order.tracking?.[i];
    const tracking = t !== undefined && t !== 'N/A' ? t : undefined;
    const shipper = shipperOf(s, order);
    const { lines, total_cents } = itemLines(s.customs?.items ?? [], o.catalogue);
    const packages = packagesSummary(s.packages);
    const common = {
      order_id: order.orderId,
      shipment_id: s.id,
      ...(tracking !== undefined ? { tracking_number: tracking } : {}),
      ...(s.transient_id !== undefined ? { reference: s.transient_id } : {}),
      ...(shipper !== undefined ? { shipper } : {}),
      ...(s.description !== undefined ? { description: s.description } : {}),
    };
    if (choice.invoice) {
      const image = s.signature ?? o.signature;
      out.push({
        kind: 'invoice',
        invoice_number: order.orderId,
        date: order.date,
        ...common,
        ...(s.delivery !== undefined ? { consignee: s.delivery } : {}),
        ...(s.customs?.reason !== undefined ? { reason: s.customs.reason } : {}),
        ...(s.customs?.tax_status !== undefined ? { tax_status: s.customs.tax_status } : {}),
        ...(s.customs?.description !== undefined ? { comments: s.customs.description } : {}),
        items: lines,
        total_cents,
        currency: 'AUD',
        packages,
        declaration: DECLARATION,
        signature: { name: partyName(shipper), date: order.date, ...(image !== undefined ? { image } : {}) },
      });
    }
    if (choice.packingSlip) {
      const prices = choice.noPrices !== true;
      out.push({
        kind: 'packing_slip',
        date: order.date,
        ...common,
        ...(s.delivery !== undefined ? { recipient: s.delivery } : {}),
        items: prices ? lines : lines.map(({ unit_cents: _u, line_cents: _l, ...rest }) => rest),
        prices,
        ...(prices ? { total_cents } : {}),
        packages,
      });
    }
  });
  return out;
}

/** An item of an international shipment that the catalogue has no tariff code for. */
export interface MissingCode {
  order_id: string;
  shipment_id: string;
  description: string;
}

/** The items of `orders`' international shipments that the catalogue does not know (each description once per shipment). */
export function itemsWithoutCode(orders: Iterable<PaperOrder>, catalogue: Catalogue | undefined): MissingCode[] {
  const out: MissingCode[] = [];
  for (const o of orders)
    for (const s of o.shipments) {
      if (!isInternational(s)) continue;
      const seen = new Set<string>();
      for (const i of s.customs?.items ?? []) {
        if (seen.has(i.description) || matchItem(catalogue, i.description) !== undefined) continue;
        seen.add(i.description);
        out.push({ order_id: o.orderId, shipment_id: s.id, description: i.description });
      }
    }
  return out;
}
