/**
 * What the customs papers need of each shipment of an order, as the ledger records it when the
 * order is created (from the order the service answered): both addresses with phone and e-mail,
 * the packages as given (dimensions, weight and unit), the customs information with each item's
 * value in integer AUD cents, the shipment's description, and the signature image the document
 * gave in `options.digital_signature`. The papers are then made offline from the ledger alone.
 */
import type { OrderResponse } from '../../schema/order.js';
import type { ShipmentResponse } from '../../schema/shipment.js';
import type { BookingDocument } from '../book.js';

/** An address as the papers print it (interface document, "Address object"), without the pickup. */
export interface PaperParty {
  first_name?: string;
  last_name?: string;
  company?: string;
  email?: string;
  phone?: string;
  /** Two-letter country code. */
  country?: string;
  postcode?: string;
  city?: string;
  address_lines: string[];
}

/** A package as given: dimensions in cm or in, weight in kg (`cm`) or lb (`in`). */
export interface PaperPackage {
  length: number;
  width: number;
  height: number;
  weight: number;
  unit: 'cm' | 'in';
}

/** A customs item: `value` is one item's value in AUD cents (an integer). */
export interface PaperItem {
  description: string;
  quantity: number;
  value: number;
  /** Country of manufacture (`madein`), a two-letter code in create order. */
  madein: string;
}

/** What the papers need of one shipment, recorded with the order's `created` record. */
export interface PaperShipment {
  /** Shipment id. */
  id: string;
  transient_id?: string;
  /** True for the main shipment of a consolidated parent (to the hub; its children travel abroad). */
  main?: boolean;
  collection_type?: string;
  description?: string;
  collection?: PaperParty;
  delivery?: PaperParty;
  packages: PaperPackage[];
  customs?: {
    reason?: string;
    tax_status?: string;
    description?: string;
    items: PaperItem[];
  };
  /** `options.digital_signature` of the document's shipment: a BASE64 PNG or JPG image. */
  signature?: string;
}

/** The document's signatures by transient id, and by position for shipments without one. */
export interface SignatureHints {
  byTransientId: Map<string, string>;
  byIndex: Array<string | undefined>;
}

/**
 * The `options.digital_signature` of each shipment of a booking document (a regular order's
 * shipments, or a consolidated document's shipments then its main shipment), for
 * {@link paperShipmentsOf} to find by transient id or position.
 */
export function signatureHintsOf(doc: BookingDocument): SignatureHints {
  const list: ReadonlyArray<{ transient_id?: string | undefined; options?: { digital_signature?: string | undefined } | undefined }> =
    doc.kind === 'regular'
      ? doc.order.order.shipments
      : doc.kind === 'consolidated'
        ? [...doc.booking.shipments, ...(doc.booking.main_shipment ? [doc.booking.main_shipment] : [])]
        : [];
  const byTransientId = new Map<string, string>();
  const byIndex = list.map((s) => {
    const sig = s.options?.digital_signature;
    if (sig !== undefined && s.transient_id) byTransientId.set(s.transient_id, sig);
    return sig;
  });
  return { byTransientId, byIndex };
}

/** An address of a response as the papers keep it; undefined when absent. */
function partyOf(a: ShipmentResponse['delivery']): PaperParty | undefined {
  if (a === undefined || a === null) return undefined;
  const out: PaperParty = { address_lines: (a.address_lines ?? []).filter((l) => l.trim() !== '') };
  for (const k of ['first_name', 'last_name', 'email', 'phone', 'country', 'postcode', 'city'] as const) {
    const v = a[k];
    if (typeof v === 'string' && v.trim() !== '') out[k] = v;
  }
  if (typeof a.company === 'string' && a.company.trim() !== '') out.company = a.company;
  return out;
}

/** A number of a response (a number or numeric text), or 0. */
function num(v: unknown): number {
  const n = Number(v);
  return Number.isFinite(n) ? n : 0;
}

/**
 * What the papers need of each shipment of `order` (a create or combine answer), in the order's
 * order. `childIds` (combine) marks the other shipments as the parent's main shipment; `hints`
 * gives the document's signatures.
 */
export function paperShipmentsOf(order: OrderResponse, childIds?: readonly string[], hints?: SignatureHints): PaperShipment[] {
  return order.shipments.map((s, i) => {
    const out: PaperShipment = {
      id: s.id,
      packages: (s.packages ?? []).map((p) => ({
        length: num(p.length),
        width: num(p.width),
        height: num(p.height),
        weight: num(p.weight),
        unit: p.unit === 'in' ? 'in' : 'cm',
      })),
    };
    if (s.transient_id) out.transient_id = s.transient_id;
    if (childIds !== undefined && !childIds.includes(s.id)) out.main = true;
    if (s.collection_type) out.collection_type = s.collection_type;
    if (s.description) out.description = s.description;
    const collection = partyOf(s.collection);
    if (collection) out.collection = collection;
    const delivery = partyOf(s.delivery);
    if (delivery) out.delivery = delivery;
    const c = s.customs_information;
    if (c) {
      out.customs = {
        items: (c.items ?? []).map((it) => ({
          description: it.description ?? '',
          quantity: it.quantity ?? 0,
          value: it.value?.cents ?? 0,
          madein: it.madein ?? '',
        })),
      };
      if (c.reason) out.customs.reason = c.reason;
      if (c.tax_status) out.customs.tax_status = c.tax_status;
      if (c.description) out.customs.description = c.description;
    }
    const sig = (s.transient_id ? hints?.byTransientId.get(s.transient_id) : undefined) ?? (childIds === undefined ? hints?.byIndex[i] : undefined);
    if (sig !== undefined) out.signature = sig;
    return out;
  });
}

/**
 * True for a shipment that leaves Australia: its delivery country is not `AU` (the service books
 * from Australia only; a consolidated parent's main shipment goes to the hub and stays).
 */
export function isInternational(s: Pick<PaperShipment, 'delivery' | 'main'>): boolean {
  const to = s.delivery?.country?.toUpperCase();
  return s.main !== true && to !== undefined && to !== 'AU';
}
