/**
 * Consolidated mail: interface document, "Create shipment: POST /shipments/" and "Combine
 * shipments: PUT /shipments/". Both use the shipment request form of create shipment
 * (`kind` `shipment`: `service.options` an object, `lithium` optional, `options.digital_signature`).
 *
 * Create shipment "applies only to the consolidated-mail service, from Australia to anywhere"
 * (domestic orders use create order): {@link leavingAustraliaShipment} adds that rule, so a
 * domestic parcel is refused before anything is sent. The `main_shipment` of combine is not
 * bound by it: it carries the whole order to the place where it is split (for the sandbox, its
 * consolidation hub in Australia; the service decides, not the client).
 */
import * as z from 'zod';
import { lazySchema } from './lazy.js';
import { describe, text } from './common.js';
import { shipmentRequest } from './shipment.js';

/**
 * A shipment of create shipment: the request form (`kind` `shipment`) that must leave Australia —
 * collected in AU (when a collection is given) and delivered to another country.
 */
export const leavingAustraliaShipment = lazySchema(() =>
  shipmentRequest('shipment').superRefine((s, ctx) => {
    const from = s.collection?.country;
    if (from !== undefined && from !== 'AU') {
      ctx.addIssue({
        code: 'custom',
        path: ['collection', 'country'],
        message: `create shipment (consolidated mail) is only for shipments leaving Australia: collect in AU (got ${from})`,
      });
    }
    if (s.delivery.country === 'AU') {
      ctx.addIssue({
        code: 'custom',
        path: ['delivery', 'country'],
        message: 'create shipment (consolidated mail) is only for shipments leaving Australia; send a domestic parcel with "shipbook order create"',
      });
    }
  }),
);

/** Body of create shipment inside `request`: `{shipment: …}`, a shipment leaving Australia. */
export const createShipmentRequest = lazySchema(() =>
  z.object({ shipment: leavingAustraliaShipment }, { error: (iss) => `expected a shipment document (got ${describe(iss.input)})` }),
);
/** The body of create shipment as {@link createShipmentRequest} reads it: `{shipment: …}`. */
export type CreateShipmentRequest = z.output<typeof createShipmentRequest>;

/** A list of shipment ids (as returned by create shipment), at least one, none twice. */
const shipmentIdList = lazySchema(() =>
  z
    .array(text(), { error: (iss) => (iss.input === undefined ? 'required' : `expected a list of shipment ids (got ${describe(iss.input)})`) })
    .min(1, { error: 'at least 1 shipment id' })
    .superRefine((ids, ctx) => {
      ids.forEach((id, i) => {
        if (ids.indexOf(id) !== i) ctx.addIssue({ code: 'custom', path: [i], message: `shipment id ${id} given twice` });
      });
    }),
);

/**
 * Body of combine inside `request`: the ids of shipments from create shipment, and the
 * `main_shipment` that carries them to the hub (optional only for accounts with the free-pickup
 * option, which the service, not the client, knows).
 */
export const combineRequest = lazySchema(() =>
  z.object(
    {
      shipments: shipmentIdList,
      main_shipment: shipmentRequest('shipment').optional(),
    },
    { error: (iss) => `expected a combine document (got ${describe(iss.input)})` },
  ),
);
/** The body of combine as {@link combineRequest} reads it: shipment ids and the optional main shipment. */
export type CombineRequest = z.output<typeof combineRequest>;
