/**
 * Consolidated mail: interface document, "Create shipment: POST /shipments/" and "Combine
 * shipments: PUT /shipments/" (and "States and transitions"). Both require authorisation and
 * validate with the shared schemas of `schema/combine.ts`.
 *
 * Create shipment takes only the consolidated-mail service (`global_mail` in quotes,
 * `SB-GLOBAL-MAIL`) and only shipments leaving Australia, collected with the service's own
 * collection data (the hub of fetch-service-data); anything else is a 400 naming the field
 * (`shipment.service.code`, `shipment.delivery.country`, `shipment.collection`, …). The answer is `result.shipment` with
 * status `NEW` and the exact price as numbers.
 *
 * Combine takes the ids of shipments from create shipment (unknown → 404 naming the ids, already
 * in an order → 409 naming the shipment and its order) and a `main_shipment`, required unless the
 * sandbox account has the free-pickup option (`freePickup`). The sandbox's decision for the main
 * shipment: it carries the parcels from the sender in Australia to the sandbox's consolidation hub
 * in Australia, where they are split — so it is collected and delivered in Australia on a domestic
 * service (`SB-DOM-ROAD` or `SB-DOM-EXP`, priced like a domestic shipment, GST included). The
 * answer is the pending parent order (`NEW`): children, then the main shipment; prices as decimal
 * strings, with `summary_child_shipments` the exact sum of the children's totals and
 * `amount`/`insurance`/`gst`/`total` the sums over the children and the main shipment.
 * The parent is then accepted, booked and fetched like any order (`routes/orders.ts`).
 */
import { itemsTotalCents } from '../../schema/customs.js';
import { combineRequest, createShipmentRequest } from '../../schema/combine.js';
import type { ShipmentRequest } from '../../schema/shipment.js';
import { invalidRequest, validate, type FieldError, type Route } from '../http.js';
import { SERVICES, packageLimitProblems, priceShipment, serviceByCode, type PriceCents, type SandboxService } from '../rates.js';
// Where the sandbox splits consolidated mail (the delivery a main shipment is expected to have; any
// AU address is accepted): from the service data, the one source of the hub.
import { GLOBAL_MAIL_COLLECTION_DATA, SANDBOX_HUB } from '../services.js';
import { orderWire, shipmentWire } from '../wire.js';
import { wantsInsurance } from './orders.js';

/** Codes of the consolidated-mail services (quote entries with `global_mail: true`). */
const GLOBAL_MAIL_CODES = SERVICES.filter((s) => s.globalMail).map((s) => s.code);

/** The address fields of a collection, compared with the service data without regard to case, spacing or `pickup`. */
const ADDRESS_FIELDS = ['first_name', 'last_name', 'company', 'email', 'phone', 'country', 'postcode', 'city', 'address_lines'] as const;

/** An address field in the form it is compared in: trimmed, inner spaces single, lower case. */
function comparable(value: unknown): string {
  const one = (v: unknown) =>
    String(v ?? '')
      .trim()
      .replace(/\s+/g, ' ')
      .toLowerCase();
  return Array.isArray(value)
    ? value
        .map(one)
        .filter((l, i) => i === 0 || l !== '')
        .join('\n')
    : one(value);
}

/**
 * The collection of a consolidated-mail shipment must be the service's own collection data
 * ("Create shipment": "the collection data must be the specific data for that service, which is
 * obtained from a fetch-service-data operation"): the fields that differ from the hub, or none.
 * The pickup window (date and times) is the sender's to choose and is not compared.
 */
function collectionDataProblems(collection: ShipmentRequest['collection']): string[] {
  if (collection === undefined) return [];
  const hub = GLOBAL_MAIL_COLLECTION_DATA.collection as Record<string, unknown>;
  const given = collection as Record<string, unknown>;
  return ADDRESS_FIELDS.filter((f) => comparable(given[f]) !== comparable(hub[f]));
}

/** A priced shipment, ready to store. */
interface Priced {
  request: ShipmentRequest;
  service: SandboxService;
  serviceOptions: unknown;
  price: PriceCents;
}

/**
 * Prices a create-shipment request on the consolidated-mail service, or returns the field errors
 * (paths under `shipment.`). The route (leaving Australia) is already checked by the schema.
 */
function priceConsolidatedShipment(s: ShipmentRequest): { priced: Priced } | { errors: FieldError[]; message?: string } {
  const tooBig = packageLimitProblems(s.packages);
  if (tooBig.length > 0) return { errors: tooBig.map((p) => ({ field: `shipment.packages[${p.index}]`, message: p.message })) };
  const field = 'shipment.service.code';
  const service = serviceByCode(s.service.code);
  if (service !== undefined && !service.globalMail) {
    const message = `shipment create is only for the consolidated-mail service (${GLOBAL_MAIL_CODES.join(', ')}); use order create for ${service.code}`;
    return {
      errors: [{ field, message: `${service.code} is not a consolidated-mail service: use ${GLOBAL_MAIL_CODES.join(' or ')}, or create an order` }],
      message,
    };
  }
  const differing = collectionDataProblems(s.collection);
  if (differing.length > 0) {
    const code = service?.code ?? GLOBAL_MAIL_CODES[0]!;
    const message = `the collection of a consolidated-mail shipment must be the service's collection data (fetch-service-data, GET /services/${code}/: ${SANDBOX_HUB}); ${differing.join(', ')} differ`;
    return {
      errors: [
        { field: 'shipment.collection', message: `${message}. Take it from the service data: shipbook service show ${code}, or --collection-from-service` },
      ],
      message: `invalid request: ${message}`,
    };
  }
  const insuredCents = wantsInsurance(s.service.options) ? itemsTotalCents(s.customs_information.items) : undefined;
  const result = priceShipment(s.service.code, { collection: s.collection, delivery: s.delivery, packages: s.packages, insuredCents });
  if ('problem' in result) return { errors: [{ field, message: result.problem }] };
  return { priced: { request: s, service: result.service, serviceOptions: s.service.options ?? {}, price: result.price } };
}

/**
 * Prices the `main_shipment` of combine: collected and delivered in Australia (to the hub), on a
 * domestic service; or the field errors (paths under `main_shipment.`).
 */
function priceMainShipment(s: ShipmentRequest): { priced: Priced } | { errors: FieldError[] } {
  const errors: FieldError[] = [];
  const from = s.collection?.country ?? 'AU';
  if (from !== 'AU') {
    errors.push({ field: 'main_shipment.collection.country', message: `the main shipment is collected from the sender in Australia (got ${from})` });
  }
  if (s.delivery.country !== 'AU') {
    errors.push({
      field: 'main_shipment.delivery.country',
      message: `the main shipment carries the parcels to the consolidation hub in Australia, where they are split: deliver it to an Australian address, e.g. ${SANDBOX_HUB} (got ${s.delivery.country})`,
    });
  }
  for (const p of packageLimitProblems(s.packages)) errors.push({ field: `main_shipment.packages[${p.index}]`, message: p.message });
  if (errors.length > 0) return { errors };
  const field = 'main_shipment.service.code';
  const service = serviceByCode(s.service.code);
  if (service?.globalMail) {
    return {
      errors: [
        {
          field,
          message: `${service.code} is the consolidated-mail service itself; the main shipment to the hub uses a domestic service (SB-DOM-ROAD or SB-DOM-EXP)`,
        },
      ],
    };
  }
  const insuredCents = wantsInsurance(s.service.options) ? itemsTotalCents(s.customs_information.items) : undefined;
  const result = priceShipment(s.service.code, { collection: s.collection, delivery: s.delivery, packages: s.packages, insuredCents });
  if ('problem' in result) return { errors: [{ field, message: result.problem }] };
  return { priced: { request: s, service: result.service, serviceOptions: s.service.options ?? {}, price: result.price } };
}

/** Routes of consolidated mail: create shipment and combine. */
export const shipmentRoutes: Route[] = [
  {
    method: 'POST',
    pattern: '/shipments/',
    auth: true,
    handler: (req, ctx) => {
      const input = validate(createShipmentRequest, req.body);
      const result = priceConsolidatedShipment(input.shipment);
      if ('errors' in result) throw invalidRequest(result.errors, result.message);
      const stored = ctx.state.addShipment({ ...result.priced, createdAt: ctx.now() });
      return { status: 200, result: { shipment: shipmentWire(stored) } };
    },
  },
  {
    method: 'PUT',
    pattern: '/shipments/',
    auth: true,
    handler: (req, ctx) => {
      const input = validate(combineRequest, req.body);
      let main: Priced | undefined;
      if (input.main_shipment === undefined) {
        if (!ctx.options.freePickup) {
          throw invalidRequest(
            [
              {
                field: 'main_shipment',
                message: `required: this account does not have the free-pickup option; give the shipment that carries the parcels to the consolidation hub (${SANDBOX_HUB})`,
              },
            ],
            'invalid request: main_shipment is required (this account does not have the free-pickup option)',
          );
        }
      } else {
        const priced = priceMainShipment(input.main_shipment);
        if ('errors' in priced) throw invalidRequest(priced.errors);
        main = priced.priced;
      }
      const order = ctx.state.combineShipments(input.shipments, main, ctx.now());
      return { status: 200, result: { order: orderWire(ctx.state, order, 'strings') } };
    },
  },
];
