/**
 * Consolidated mail: interface document, "Create shipment: POST /shipments/" and "Combine
 * shipments: PUT /shipments/". The parent order that combine returns is accepted with
 * `acceptOrder` (`api/orders.ts`), like any order.
 */
import type { CombineRequest, CreateShipmentRequest } from '../schema/combine.js';
import type { OrderResponse } from '../schema/order.js';
import type { ShipmentResponse } from '../schema/shipment.js';
import type { ApiClient, RequestOptions } from './client.js';
import { checkCombined, checkCreatedShipment } from './contradictions.js';

/**
 * `POST /shipments/`: creates one consolidated-mail shipment leaving Australia; returns it with its
 * id, status `NEW` and exact price (AUD).
 * Mutating (endpoint `createShipment`): never retried once sent; a lost answer is AnswerLostError.
 * @throws ApiError (exit 3) when the service refuses it, e.g. a service code that is not consolidated mail;
 *   ProtocolError (exit 5, outcome unknown) for an answer without an id, with another service code or
 *   `transient_id`, or with a status other than `NEW`
 */
export async function createShipment(api: ApiClient, body: CreateShipmentRequest, options: RequestOptions = {}): Promise<ShipmentResponse> {
  const created = (await api.call('createShipment', { body }, options)).shipment;
  checkCreatedShipment(body.shipment, created);
  return created;
}

/**
 * `PUT /shipments/`: combines shipments from create shipment into a parent order (pending, `NEW`),
 * carried to the hub by `main_shipment` (optional only for accounts with free pickup). The answer
 * lists the children and the main shipment; its price is in decimal strings with
 * `summary_child_shipments`, the sum of the children's prices.
 * Mutating (endpoint `combineShipments`).
 * @throws ApiError (exit 3): 404 for an unknown shipment id, 409 for one already combined;
 *   ProtocolError (exit 5, outcome unknown) for a parent without an id or without a shipment sent
 */
export async function combineShipments(api: ApiClient, body: CombineRequest, options: RequestOptions = {}): Promise<OrderResponse> {
  const parent = (await api.call('combineShipments', { body }, options)).order;
  // A parent without the shipments sent is not their combination: what became of them is unknown.
  checkCombined(body.shipments, parent);
  return parent;
}
