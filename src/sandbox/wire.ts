/**
 * Response forms, as the sandbox writes them: interface document, "Shipment (response form)",
 * "Order" (price object), "Quote service entry", and the documented quirks that the client reads
 * leniently: `address_lines` padded to three entries with empty strings, `pickup.date` as
 * `<date>T00:00:00`, the package unit under `unit_weight` in upper case, service names with line
 * breaks, and prices as numbers (quote, create order, create shipment, service prices) or decimal
 * strings (combine, accept, fetch-order-data). A parent order from combine is shown with status
 * `NEW` while pending (the document shows both `new` and `NEW`) and its price carries
 * `summary_child_shipments`, the exact sum of the children's totals.
 */
import type { AddressRequest, CollectionRequest } from '../schema/address.js';
import type { CustomsRequest } from '../schema/customs.js';
import { Money } from '../schema/money.js';
import type { PackageRequest } from '../schema/package.js';
import { priceToWire } from '../schema/price.js';
import type { PriceCents, RatedService } from './rates.js';
import type { SandboxState, StoredOrder, StoredShipment } from './state.js';

/**
 * A price object in AUD: members as JSON numbers (`35.2`) or two-decimal strings (`"35.20"`), with
 * `currency`; `summaryChildShipments` (cents) adds `summary_child_shipments` (combine).
 */
function priceWire(price: PriceCents, form: 'numbers' | 'strings', summaryChildShipments?: number): Record<string, string | number> {
  return priceToWire(
    {
      amount: new Money(price.amount),
      insurance: new Money(price.insurance),
      gst: new Money(price.gst),
      total: new Money(price.total),
      ...(summaryChildShipments === undefined ? {} : { summary_child_shipments: new Money(summaryChildShipments) }),
    },
    form,
  );
}

/**
 * The opening of each service's quote entry as JSON, up to its price: `{"code":…,"name":…,
 * "carrier":…,"global_mail":…,"price":` (the catalogue is fixed, so each is written once).
 */
const entryOpenings = new WeakMap<RatedService['service'], string>();

/** The opening of `service`'s quote entry, written on first use. */
function entryOpening(service: RatedService['service']): string {
  let opening = entryOpenings.get(service);
  if (opening === undefined) {
    const json = JSON.stringify({ code: service.code, name: service.name, carrier: service.carrier, global_mail: service.globalMail });
    opening = `${json.slice(0, -1)},"price":`;
    entryOpenings.set(service, opening);
  }
  return opening;
}

/**
 * `result` of get quote as JSON text: `{"services":[entry, …]}`, each entry `{code, name, carrier,
 * global_mail, price: {currency, amount, insurance, gst, total}}` with the amounts as numbers in AUD
 * (interface document, "Quote service entry"). The same text `JSON.stringify` gives for those
 * objects, member for member, written without building them: a quote is the sandbox's most
 * frequent answer. Amounts are whole cents, so each number is finite and `String` writes it as
 * JSON does.
 */
export function quoteServicesJson(rated: readonly RatedService[]): string {
  let out = '{"services":[';
  for (let i = 0; i < rated.length; i++) {
    const { service, price } = rated[i]!;
    if (i > 0) out += ',';
    out += `${entryOpening(service)}{"currency":"AUD","amount":${price.amount / 100},"insurance":${price.insurance / 100},"gst":${price.gst / 100},"total":${price.total / 100}}}`;
  }
  return `${out}]}`;
}

/** `HH:MM` → `HH:MM:00`; `HH:MM:SS` unchanged. */
function timeWire(time: string): string {
  return /^\d{2}:\d{2}$/.test(time) ? `${time}:00` : time;
}

/** An address in response form: `address_lines` padded to 3, `company` "" when absent (the interface types it as a string), `pickup.date` with `T00:00:00`. */
function addressWire(address: AddressRequest | CollectionRequest): Record<string, unknown> {
  const lines = [...address.address_lines];
  while (lines.length < 3) lines.push('');
  const out: Record<string, unknown> = {
    first_name: address.first_name,
    last_name: address.last_name,
    company: address.company ?? '',
    email: address.email,
    phone: address.phone,
    country: address.country,
    postcode: address.postcode,
    city: address.city,
    address_lines: lines,
  };
  if ('pickup' in address && address.pickup !== undefined) {
    out.pickup = {
      date: `${address.pickup.date}T00:00:00`,
      time_earliest: timeWire(address.pickup.time_earliest),
      time_latest: timeWire(address.pickup.time_latest),
    };
  }
  return out;
}

/** A package in response form: the unit as `unit_weight`, upper case (`CM`, `IN`). */
function packageWire(p: PackageRequest): Record<string, unknown> {
  return { length: p.length, width: p.width, height: p.height, weight: p.weight, unit_weight: p.unit.toUpperCase() };
}

/** Customs information in response form: reason in its capitalised form, item values as numbers. */
function customsWire(c: CustomsRequest): Record<string, unknown> {
  return {
    // `description` is a string in the document: left out when none was given, never null.
    ...(c.description === undefined || c.description === null ? {} : { description: c.description }),
    reason: c.reason,
    tax_status: c.tax_status,
    lithium: c.lithium ?? false,
    items: c.items.map((i) => ({
      description: i.description,
      quantity: i.quantity,
      value: i.value.toNumber(),
      currency: i.currency,
      madein: i.madein,
    })),
  };
}

/** A shipment in response form (interface document, "Shipment (response form)"); `service.price` in numbers. */
export function shipmentWire(s: StoredShipment): Record<string, unknown> {
  const r = s.request;
  const out: Record<string, unknown> = { id: s.id, status: s.status };
  if (r.transient_id !== undefined) out.transient_id = r.transient_id;
  out.tracking_number = s.trackingNumber ?? 'N/A';
  out.collection_type = r.collection_type;
  out.description = r.description;
  if (r.collection !== undefined) out.collection = addressWire(r.collection);
  out.delivery = addressWire(r.delivery);
  out.packages = r.packages.map(packageWire);
  out.customs_information = customsWire(r.customs_information);
  out.service = {
    code: s.service.code,
    name: s.service.name,
    price: priceWire(s.price, 'numbers'),
    options: s.serviceOptions ?? [],
  };
  return out;
}

/**
 * An order in response form: `{id, status, price, shipments}`; the order price as numbers or
 * decimal strings. A parent order (from combine) lists its children then its main shipment, is
 * `NEW` while pending, and has `price.summary_child_shipments`.
 */
export function orderWire(state: SandboxState, order: StoredOrder, priceForm: 'numbers' | 'strings'): Record<string, unknown> {
  const parent = order.childrenPrice !== undefined;
  return {
    id: order.id,
    status: parent && order.status === 'new' ? 'NEW' : order.status,
    price: priceWire(order.price, priceForm, order.childrenPrice?.total),
    shipments: state.shipmentsOf(order).map(shipmentWire),
  };
}
