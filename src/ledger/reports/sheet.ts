/**
 * The hand-over sheet of a day, as data: what the driver takes away, grouped by collection address
 * and pickup date, then by carrier, with totals (not a carrier manifest: the carrier never sees it;
 * it is the shipper's record of what left, signed by the driver).
 *
 * The ledger records what the sheet needs when an order is created, from the order the service
 * answered ({@link sheetShipmentsOf}): recipient city and country, package count, total weight in
 * kilograms, service, collection address and pickup date. The sheet is then made offline from the
 * ledger alone ({@link buildSheet}), whatever the service answers later.
 */
import type { OrderResponse } from '../../schema/order.js';
import { toMetric } from '../../schema/package.js';
import { oneLine } from '../../schema/shipment.js';

/** What the sheet needs of one shipment, recorded with the order's `created` record (short keys: one per shipment of every order). */
export interface SheetShipment {
  /** Shipment id. */
  id: string;
  /** Service code, and its name on one line. */
  svc?: string;
  svc_name?: string;
  /** Recipient city and country (two-letter code). */
  city?: string;
  country?: string;
  /** Number of packages. */
  pkgs: number;
  /** Total weight of the packages, kg (pounds converted), 3 decimals. */
  kg: number;
  /** The collection address on one line (company, lines, city, postcode, country); absent for a drop-off. */
  from?: string;
  /** Pickup date, YYYY-MM-DD; absent for a drop-off. */
  pickup?: string;
}

/** Rounds kilograms to grams. */
function grams(kg: number): number {
  return Math.round(kg * 1000) / 1000;
}

/**
 * Total weight of packages in kilograms: packages in `in` units weigh pounds (1 lb = 0.45359237 kg),
 * in `cm` units kilograms; rounded to grams. Packages without a weight count 0.
 */
export function totalKg(packages: ReadonlyArray<{ weight?: number; unit?: string }>): number {
  let sum = 0;
  for (const p of packages) {
    const w = Number(p.weight);
    if (!Number.isFinite(w)) continue;
    sum += toMetric({ length: 0, width: 0, height: 0, weight: w, unit: p.unit ?? 'cm' }).weightKg;
  }
  return grams(sum);
}

/** A collection address on one line, for grouping and printing. */
function addressLine(a: NonNullable<OrderResponse['shipments'][number]['collection']>): string {
  const parts = [a.company ?? '', ...(a.address_lines ?? []), [a.city ?? '', a.postcode ?? ''].filter((x) => x !== '').join(' '), a.country ?? ''];
  return parts
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .join(', ');
}

/** What the sheet needs of each shipment of `order` (a create, combine or fetch answer), in the order's order. */
export function sheetShipmentsOf(order: OrderResponse): SheetShipment[] {
  return order.shipments.map((s) => {
    const packages = s.packages ?? [];
    const c = s.collection ?? undefined;
    const out: SheetShipment = { id: s.id, pkgs: packages.length, kg: totalKg(packages) };
    if (s.service?.code) out.svc = s.service.code;
    if (s.service?.name) out.svc_name = oneLine(s.service.name);
    if (s.delivery?.city) out.city = s.delivery.city;
    if (s.delivery?.country) out.country = s.delivery.country;
    if (c) {
      const line = addressLine(c);
      if (line !== '') out.from = line;
      if (c.pickup?.date) out.pickup = c.pickup.date.slice(0, 10);
    }
    return out;
  });
}

/** Where an order stands for the sheet, as the ledger's records say. */
type SheetStage = 'created' | 'accepted' | 'processed' | 'cancelled' | 'failed';

/** An order as the ledger knows it, for the sheet (src/ledger/reports/history.ts `ordersOf`). */
export interface SheetOrder {
  orderId: string;
  stage: SheetStage;
  /** The profile that created it, when recorded. */
  profile?: string;
  /** Local date (YYYY-MM-DD) of its `created` record: the day of a shipment without a pickup date. */
  createdDay: string;
  shipments: SheetShipment[];
  /** Tracking numbers, in the order of `shipments` (`N/A` for none), once processed. */
  tracking?: string[];
  /** What the dock recorded of its parcels, by tracking number: the latest scan, or a confirmation that it was not handed over. */
  dock?: Map<string, SheetScan>;
}

/** A parcel at the dock, as its records say: scanned (when, by whom, where, to which driver), or confirmed not handed over. */
export interface SheetScan {
  /** ISO time of the scan (or of the confirmation that it was not handed over). */
  at: string;
  /** The operating-system user who scanned it, when recorded. */
  by?: string;
  station: string;
  /** The scanning session. */
  session: string;
  driver?: string;
  vehicle?: string;
  /** True when it was not scanned and was confirmed as not handed over. */
  not_handed_over?: true;
}

/** One line of the sheet: a shipment that leaves. */
export interface SheetLine {
  tracking: string;
  order_id: string;
  shipment_id: string;
  city: string;
  country: string;
  packages: number;
  weight_kg: number;
  service: string;
  /** The scan at the dock (time, by, station, driver), when it was scanned. */
  scanned?: Omit<SheetScan, 'not_handed_over' | 'session'>;
  /** True when the dock confirmed it as not handed over. */
  not_handed_over?: true;
}

/** Shipments, packages and kilograms. */
interface SheetTotals {
  shipments: number;
  packages: number;
  weight_kg: number;
}

/** The shipments of one carrier within a section. */
interface CarrierGroup {
  carrier: string;
  lines: SheetLine[];
  totals: SheetTotals;
}

/** One collection address and pickup date: the driver's signature closes it. */
interface SheetSection {
  collection: string;
  pickup_date: string;
  carriers: CarrierGroup[];
  totals: SheetTotals;
}

/** The day's sheet. */
export interface Sheet {
  /** The day (YYYY-MM-DD, the machine's time zone unless given). */
  date: string;
  sections: SheetSection[];
  /** Accepted orders not yet processed: no tracking number yet. */
  no_tracking_yet: Array<Omit<SheetLine, 'tracking'>>;
  /** Orders of the day cancelled (left out), and created but never accepted (not booked, left out). */
  cancelled: number;
  not_accepted: number;
  totals: SheetTotals;
  /** Shipments of the sheet scanned at the dock. */
  scanned: number;
  /** Only what this driver took (`--driver`). */
  driver?: string;
  /**
   * Orders of the day accepted whose booking result was not read before the sheet was made
   * (`--offline`, or the service could not say): they may be missing from it.
   */
  may_be_missing?: number;
}

/** Filters of the sheet. */
export interface SheetFilter {
  /** The day, YYYY-MM-DD. */
  date: string;
  /** Only collection addresses containing this text (case-insensitive). */
  collection?: string;
  /** Only this carrier (case-insensitive, the name or the service code). */
  carrier?: string;
  /** Only orders created with this profile. */
  profile?: string;
  /** Only shipments scanned and handed to this driver (case-insensitive). */
  driver?: string;
}

/** Sums lines. */
function totalsOf(lines: ReadonlyArray<{ packages: number; weight_kg: number }>): SheetTotals {
  let packages = 0;
  let kg = 0;
  for (const l of lines) {
    packages += l.packages;
    kg += l.weight_kg;
  }
  return { shipments: lines.length, packages, weight_kg: grams(kg) };
}

/** A shipment's day: its pickup date, else the day its order was created (a drop-off). */
function dayOf(s: SheetShipment, o: SheetOrder): string {
  return s.pickup ?? o.createdDay;
}

/**
 * The sheet of `f.date`: processed shipments whose pickup date (or, for a drop-off, the day their
 * order was created) is that day, one section per collection address and pickup date (sorted),
 * then per carrier (`carrierOf` names a service code's carrier), lines sorted by tracking number;
 * accepted orders not yet processed apart; cancelled and never-accepted orders counted, not listed.
 */
export function buildSheet(orders: Iterable<SheetOrder>, f: SheetFilter, carrierOf: (code: string | undefined) => string): Sheet {
  const sections = new Map<string, { collection: string; pickup: string; carriers: Map<string, SheetLine[]> }>();
  const pending: Sheet['no_tracking_yet'] = [];
  let cancelled = 0;
  let notAccepted = 0;
  const want = (s: SheetShipment, carrier: string) =>
    (f.collection === undefined || (s.from ?? 'drop-off').toLowerCase().includes(f.collection.toLowerCase())) &&
    (f.carrier === undefined || carrier.toLowerCase() === f.carrier.toLowerCase() || (s.svc ?? '').toLowerCase() === f.carrier.toLowerCase());
  for (const o of orders) {
    if (f.profile !== undefined && o.profile !== f.profile) continue;
    const today = o.shipments.filter((s) => dayOf(s, o) === f.date && want(s, carrierOf(s.svc)));
    if (today.length === 0) continue;
    if (o.stage === 'cancelled') {
      cancelled++;
      continue;
    }
    if (o.stage === 'created' || o.stage === 'failed') {
      if (o.stage === 'created') notAccepted++;
      continue;
    }
    o.shipments.forEach((s, i) => {
      if (!today.includes(s)) return;
      const base = {
        order_id: o.orderId,
        shipment_id: s.id,
        city: s.city ?? '',
        country: s.country ?? '',
        packages: s.pkgs,
        weight_kg: s.kg,
        service: s.svc_name ?? s.svc ?? '',
      };
      const tracking = o.tracking?.[i];
      if (o.stage !== 'processed' || tracking === undefined || tracking === 'N/A') {
        if (f.driver === undefined) pending.push(base);
        return;
      }
      const mark = o.dock?.get(tracking);
      if (f.driver !== undefined && (mark?.driver === undefined || mark.not_handed_over || mark.driver.toLowerCase() !== f.driver.toLowerCase())) return;
      const dockFields: Pick<SheetLine, 'scanned' | 'not_handed_over'> = {};
      if (mark?.not_handed_over) dockFields.not_handed_over = true;
      else if (mark !== undefined) {
        const { not_handed_over: _n, session: _s, ...scan } = mark;
        dockFields.scanned = scan;
      }
      const collection = s.from ?? 'drop-off (no collection)';
      const key = `${collection}\n${dayOf(s, o)}`;
      let section = sections.get(key);
      if (section === undefined) sections.set(key, (section = { collection, pickup: dayOf(s, o), carriers: new Map() }));
      const carrier = carrierOf(s.svc);
      let lines = section.carriers.get(carrier);
      if (lines === undefined) section.carriers.set(carrier, (lines = []));
      lines.push({ tracking, ...base, ...dockFields });
    });
  }
  const out: SheetSection[] = [...sections.values()]
    .sort((a, b) => a.collection.localeCompare(b.collection) || a.pickup.localeCompare(b.pickup))
    .map((s) => {
      const carriers = [...s.carriers.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([carrier, lines]) => {
          lines.sort((a, b) => a.tracking.localeCompare(b.tracking));
          return { carrier, lines, totals: totalsOf(lines) };
        });
      return { collection: s.collection, pickup_date: s.pickup, carriers, totals: totalsOf(carriers.flatMap((c) => c.lines)) };
    });
  pending.sort((a, b) => a.order_id.localeCompare(b.order_id) || a.shipment_id.localeCompare(b.shipment_id));
  const all = out.flatMap((s) => s.carriers.flatMap((c) => c.lines));
  return {
    date: f.date,
    sections: out,
    no_tracking_yet: pending,
    cancelled,
    not_accepted: notAccepted,
    totals: totalsOf(all),
    scanned: all.filter((l) => l.scanned !== undefined).length,
    ...(f.driver !== undefined ? { driver: f.driver } : {}),
  };
}
