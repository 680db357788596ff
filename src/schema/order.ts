/** Order: interface document, "Order" and "Create order: POST /orders/". */
import * as z from 'zod';
import { lazySchema } from './lazy.js';
import { describe, looseText } from './common.js';
import { priceResponse } from './price.js';
import { shipmentRequest, shipmentResponse } from './shipment.js';

/** Body of create order inside `request`: `{order: {shipments: [shipment, …]}}`, at least one shipment. */
export const createOrderRequest = lazySchema(() =>
  z.strictObject(
    {
      order: z.strictObject(
        {
          shipments: z
            .array(shipmentRequest('order'), {
              error: (iss) => (iss.input === undefined ? 'required' : `expected a list of shipments (got ${describe(iss.input)})`),
            })
            .min(1, { error: 'at least 1 shipment' }),
        },
        { error: (iss) => (iss.input === undefined ? 'required' : `expected an order (got ${describe(iss.input)})`) },
      ),
    },
    { error: (iss) => `expected an order document (got ${describe(iss.input)})` },
  ),
);
/** The body of create order as {@link createOrderRequest} reads it: `{order: {shipments: […]}}`. */
export type CreateOrderRequest = z.output<typeof createOrderRequest>;

/**
 * An order in a response (create order, combine, accept, fetch-order-data, callback). Prices are
 * numbers in create order and decimal strings in combine and accept; both read as exact Money.
 */
export const orderResponse = lazySchema(() =>
  z.looseObject({
    id: looseText,
    status: z.string().optional(),
    shipments: z.array(shipmentResponse).default([]),
    price: priceResponse.optional(),
  }),
);
/** An order of a response as {@link orderResponse} reads it, every price as exact Money (AUD). */
export type OrderResponse = z.output<typeof orderResponse>;

/** `result` of create order, combine, accept and fetch-order-data: `{order: …}`. */
export const orderResult = lazySchema(() => z.looseObject({ order: orderResponse }));
