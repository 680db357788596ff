/**
 * Orders: interface document, "Create order: POST /orders/", "Accept order: PUT
 * /orders/{order_id}/accept/" and "States and transitions"; fetch-order-data and cancel-order at
 * the paths docs/assumptions.md assumes (`GET /orders/{order_id}/`, `PUT /orders/{order_id}/cancel/`).
 * All require authorisation. A parent order from combine (`routes/shipments.ts`) is accepted,
 * fetched and cancelled here like any order: its shipments are the children and the main
 * shipment, and the booking gives each of them a tracking number.
 */
import { itemsTotalCents } from '../../schema/customs.js';
import { createOrderRequest } from '../../schema/order.js';
import { acceptRequest, type PaymentRequest } from '../../schema/payment.js';
import type { ShipmentRequest } from '../../schema/shipment.js';
import { SandboxHttpError, invalidRequest, validate, type FieldError, type Route } from '../http.js';
import { packageLimitProblems, priceShipment, type PriceCents, type SandboxService } from '../rates.js';
import type { PaymentRecord } from '../state.js';
import { cardExpired } from '../../schema/card.js';
import { findStoredCard, saveCard } from '../cards.js';
import type { SandboxStore } from '../store/types.js';
import { orderWire } from '../wire.js';

/** The card number the sandbox always declines (402), like a payment provider's test card. */
const DECLINED_TEST_CARD = '4000000000000002';

/** True when the create-order `service.options` list asks for insurance. */
export function wantsInsurance(options: unknown): boolean {
  if (Array.isArray(options)) return options.some((o) => typeof o === 'string' && o.trim().toLowerCase() === 'insurance');
  if (typeof options === 'object' && options !== null) return (options as { insurance?: unknown }).insurance === true;
  return false;
}

/**
 * Prices the shipments of a create-order request: each service code must be offered on the
 * shipment's route, and the consolidated-mail service is refused (it goes through create shipment
 * and combine). Every problem is collected, with its path inside `request`.
 */
function priceOrderShipments(shipments: readonly ShipmentRequest[]): {
  priced: Array<{ request: ShipmentRequest; service: SandboxService; price: PriceCents }>;
  errors: FieldError[];
} {
  const errors: FieldError[] = [];
  const priced: Array<{ request: ShipmentRequest; service: SandboxService; price: PriceCents }> = [];
  shipments.forEach((s, i) => {
    const field = `order.shipments[${i}].service.code`;
    const tooBig = packageLimitProblems(s.packages);
    if (tooBig.length > 0) {
      for (const p of tooBig) errors.push({ field: `order.shipments[${i}].packages[${p.index}]`, message: p.message });
      return;
    }
    const insuredCents = wantsInsurance(s.service.options) ? itemsTotalCents(s.customs_information.items) : undefined;
    const result = priceShipment(s.service.code, { collection: s.collection, delivery: s.delivery, packages: s.packages, insuredCents });
    if ('problem' in result) {
      errors.push({ field, message: result.problem });
    } else if (result.service.globalMail) {
      errors.push({
        field,
        message: `${result.service.code} is a consolidated-mail service: create each shipment with "shipbook shipment create" (POST /shipments/) and combine them, not with create order`,
      });
    } else {
      priced.push({ request: s, service: result.service, price: result.price });
    }
  });
  return { priced, errors };
}

/** What the sandbox keeps of a payment: the type, and the last four digits or the stored card id. */
function paymentRecord(payment: PaymentRequest): PaymentRecord {
  switch (payment.type) {
    case 'credit':
      return { type: 'credit' };
    case 'stored_card':
      return { type: 'stored_card', storedCardId: payment.credit_card };
    case 'credit_card':
      return { type: 'credit_card', last4: payment.credit_card.number.slice(-4) };
  }
}

/**
 * Refuses payments the sandbox does not take: a stored card id that is not one of the account's
 * stored cards (fetch-credit-card) or whose card has expired (400, naming the id), the declined
 * test card (402).
 */
function checkPayment(payment: PaymentRequest, store: SandboxStore, now: Date): void {
  if (payment.type === 'stored_card') {
    const card = findStoredCard(store, payment.credit_card);
    if (!card) {
      throw invalidRequest(
        [
          {
            field: 'order.payment.credit_card',
            message: `unknown stored card id ${payment.credit_card}: the stored cards are listed by fetch-credit-card (GET /credit-cards/)`,
          },
        ],
        `invalid request: unknown stored card id ${payment.credit_card}`,
      );
    }
    if (cardExpired(card.expire, now)) {
      throw invalidRequest(
        [{ field: 'order.payment.credit_card', message: `stored card ${card.id} (${card.brand} ending ${card.last4}) expired at the end of ${card.expire}` }],
        `invalid request: stored card ${card.id} has expired (${card.expire})`,
      );
    }
  }
  if (payment.type === 'credit_card' && payment.credit_card.number === DECLINED_TEST_CARD) {
    throw new SandboxHttpError(402, 'card declined (sandbox test card ending 0002)', {
      errors: [{ field: 'order.payment.credit_card.number', message: 'card declined' }],
    });
  }
}

/** Routes of orders: create, accept, fetch-order-data and cancel. */
export const orderRoutes: Route[] = [
  {
    method: 'POST',
    pattern: '/orders/',
    auth: true,
    handler: (req, ctx) => {
      const input = validate(createOrderRequest, req.body);
      const { priced, errors } = priceOrderShipments(input.order.shipments);
      if (errors.length > 0) throw invalidRequest(errors);
      const order = ctx.state.createOrder(
        priced.map((p) => ({ request: p.request, service: p.service, serviceOptions: p.request.service.options ?? [], price: p.price })),
        ctx.now(),
      );
      return { status: 200, result: { order: orderWire(ctx.state, order, 'numbers') } };
    },
  },
  {
    method: 'PUT',
    pattern: '/orders/:order_id/accept/',
    auth: true,
    handler: (req, ctx) => {
      const id = req.params.order_id!;
      const order = ctx.state.getOrder(id);
      ctx.state.assertPending(order, 'accepted');
      const input = validate(acceptRequest(ctx.now), req.body);
      if (input.order.id !== undefined && input.order.id !== id) {
        throw invalidRequest([{ field: 'order.id', message: `does not match the order in the path (${id}, got ${input.order.id})` }]);
      }
      checkPayment(input.order.payment, ctx.state.store, ctx.now());
      // A card paid with and saved: kept masked (brand, last four, expiry, holder), listed by fetch-credit-card.
      if (input.order.payment.type === 'credit_card' && input.order.payment.credit_card.save === true)
        saveCard(ctx.state.store, input.order.payment.credit_card, ctx.now());
      ctx.state.acceptOrder(
        id,
        {
          payment: paymentRecord(input.order.payment),
          callback: input.callback,
          options: input.options === undefined ? undefined : { send_documents: input.options.send_documents, account_number: input.options.account_number },
        },
        ctx.now(),
      );
      ctx.bookings.schedule(id);
      return { status: 201, result: { order: orderWire(ctx.state, order, 'strings') } };
    },
  },
  {
    method: 'GET',
    pattern: '/orders/:order_id/',
    auth: true,
    handler: (req, ctx) => {
      const order = ctx.state.getOrder(req.params.order_id!);
      // A failed booking's reason travels in the envelope's message, as in its callback (docs/assumptions.md, "Assumed paths of the referenced operations").
      const reply = { result: { order: orderWire(ctx.state, order, 'strings') } };
      return order.status === 'failed' && order.failure !== undefined ? { ...reply, message: order.failure } : reply;
    },
  },
  {
    method: 'PUT',
    pattern: '/orders/:order_id/cancel/',
    auth: true,
    body: 'optional',
    handler: (req, ctx) => {
      const order = ctx.state.cancelOrder(req.params.order_id!, ctx.now());
      return { result: { order: orderWire(ctx.state, order, 'strings') } };
    },
  },
];
