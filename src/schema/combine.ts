/**
 * Consolidated mail: interface document, "Create shipment: POST /shipments/" and "Combine
 * shipments: PUT /shipments/". Both use the shipment request form of create shipment
 * (`kind` `shipment`: `service.options` an object, `lithium` optional, `options.digital_signature`).
 */
import { z } from 'zod';
import { describe, text } from './common.js';
import { shipmentRequest } from './shipment.js';

/** Body of create shipment inside `request`: `{shipment: …}`. */
export const createShipmentRequest = z.object(
  { shipment: shipmentRequest('shipment') },
  { error: (iss) => `expected a shipment document (got ${describe(iss.input)})` },
);
export type CreateShipmentRequest = z.output<typeof createShipmentRequest>;

/**
 * Body of combine inside `request`: the ids of shipments from create shipment, and the
 * `main_shipment` that carries them to the hub (optional only for accounts with the free-pickup
 * option, which the service, not the client, knows).
 */
export const combineRequest = z.object(
  {
    shipments: z
      .array(text(), { error: (iss) => (iss.input === undefined ? 'required' : `expected a list of shipment ids (got ${describe(iss.input)})`) })
      .min(1, { error: 'at least 1 shipment id' }),
    main_shipment: shipmentRequest('shipment').optional(),
  },
  { error: (iss) => `expected a combine document (got ${describe(iss.input)})` },
);
export type CombineRequest = z.output<typeof combineRequest>;
