/**
 * What rules look at: the facts of one shipment of a document (its route, packages, goods and
 * sender) and the tags given with the order. Read leniently from the document as files write it
 * (the create-order request form, interface document "Create order: POST /orders/"), so that the
 * same facts come from a file, a spreadsheet row or the guided booking's answers.
 */
import { toMetric } from '../../schema/package.js';
import { readCents, type Cents } from '../../schema/money.js';
import { isObject } from '../../schema/object.js';

/** The facts of one shipment that rule conditions test. Weights in kg, lengths in cm, money in AUD cents. */
export interface ShipmentFacts {
  delivery_country?: string;
  /** The Australian state of the delivery postcode (`NSW`, `ACT`, `VIC`, `QLD`, `SA`, `WA`, `TAS`, `NT`). */
  delivery_state?: string;
  delivery_postcode?: string;
  collection_country?: string;
  collection_state?: string;
  collection_postcode?: string;
  /** Actual weight of every package together. */
  weight_kg: number;
  /** Cubic weight of every package together: L × W × H / 4000. */
  cubic_weight_kg: number;
  packages: number;
  largest_dimension_cm: number;
  /** The goods' value: Σ quantity × value of the customs items. */
  value_cents: Cents;
  lithium: boolean;
  /** The saved sender the collection names, without `@`. */
  sender?: string;
  collection_company?: string;
  tags: string[];
}

/** Inclusive postcode ranges of each state and territory (Australia Post's allocation); ACT before NSW. */
const STATE_RANGES: ReadonlyArray<readonly [string, number, number]> = [
  ['ACT', 200, 299],
  ['ACT', 2600, 2618],
  ['ACT', 2900, 2920],
  ['NT', 800, 999],
  ['NSW', 1000, 2999],
  ['VIC', 3000, 3999],
  ['VIC', 8000, 8999],
  ['QLD', 4000, 4999],
  ['QLD', 9000, 9999],
  ['SA', 5000, 5999],
  ['WA', 6000, 6999],
  ['TAS', 7000, 7999],
];

/** The state or territory of an Australian postcode (four digits), or undefined. */
export function australianState(postcode: string): string | undefined {
  const p = postcode.trim();
  if (!/^\d{4}$/.test(p)) return undefined;
  const n = Number(p);
  return STATE_RANGES.find(([, lo, hi]) => n >= lo && n <= hi)?.[0];
}

type Obj = Record<string, unknown>;

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : undefined);

/** The saved sender a collection names: `"@name"` or `{sender: "@name", …}`; undefined otherwise. */
export function senderOf(collection: unknown): string | undefined {
  const ref = typeof collection === 'string' ? collection : isObject(collection) && typeof collection.sender === 'string' ? collection.sender : undefined;
  return ref?.trim().replace(/^@/, '');
}

/** Reads a number that files may write as text (`"2.5"`). */
function num(v: unknown): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : 0;
}

/**
 * The facts of a shipment as files write it.
 * @param shipment one entry of `order.shipments` (saved senders resolved, so the collection address is whole)
 * @param o.sender the saved sender it named before resolution (see {@link senderOf})
 * @param o.tags the order's tags
 */
export function shipmentFacts(shipment: unknown, o: { sender?: string | undefined; tags?: readonly string[] } = {}): ShipmentFacts {
  const s: Obj = isObject(shipment) ? shipment : {};
  const from: Obj = isObject(s.collection) ? s.collection : {};
  const to: Obj = isObject(s.delivery) ? s.delivery : {};
  const packages = Array.isArray(s.packages) ? s.packages.filter(isObject) : [];
  let weight = 0;
  let cubic = 0;
  let largest = 0;
  for (const p of packages) {
    const m = toMetric({ length: num(p.length), width: num(p.width), height: num(p.height), weight: num(p.weight), unit: text(p.unit) ?? 'cm' });
    weight += m.weightKg;
    cubic += (m.lengthCm * m.widthCm * m.heightCm) / 4000;
    largest = Math.max(largest, m.lengthCm, m.widthCm, m.heightCm);
  }
  const customs: Obj = isObject(s.customs_information) ? s.customs_information : {};
  const items = Array.isArray(customs.items) ? customs.items.filter(isObject) : [];
  const value = items.reduce((sum, i) => sum + Math.round(num(i.quantity)) * (readCents(i.value) ?? 0), 0);
  const dCountry = text(to.country)?.toUpperCase();
  const cCountry = text(from.country)?.toUpperCase();
  const dPostcode = text(to.postcode);
  const cPostcode = text(from.postcode);
  const dState = dCountry === 'AU' && dPostcode !== undefined ? australianState(dPostcode) : undefined;
  const cState = cCountry === 'AU' && cPostcode !== undefined ? australianState(cPostcode) : undefined;
  const company = text(from.company);
  return {
    ...(dCountry !== undefined ? { delivery_country: dCountry } : {}),
    ...(dState !== undefined ? { delivery_state: dState } : {}),
    ...(dPostcode !== undefined ? { delivery_postcode: dPostcode } : {}),
    ...(cCountry !== undefined ? { collection_country: cCountry } : {}),
    ...(cState !== undefined ? { collection_state: cState } : {}),
    ...(cPostcode !== undefined ? { collection_postcode: cPostcode } : {}),
    weight_kg: weight,
    cubic_weight_kg: cubic,
    packages: packages.length,
    largest_dimension_cm: largest,
    value_cents: value,
    lithium: customs.lithium === true || items.some((i) => i.lithium === true),
    ...(o.sender !== undefined && o.sender !== '' ? { sender: o.sender } : {}),
    ...(company !== undefined && company !== '' ? { collection_company: company } : {}),
    tags: [...(o.tags ?? [])],
  };
}
