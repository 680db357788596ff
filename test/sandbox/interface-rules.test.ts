/**
 * The sandbox keeps the rules of the interface document and no rule it does not state: a quote
 * service entry pasted as a shipment's service, `save` only for credit_card, the documented
 * shipment statuses, and consolidated mail collected with the service's own data.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SANDBOX_API_KEY, startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { call, orderRequest, sydneyToMelbourneShipment, waitFor } from './helpers.js';

const NOW = new Date('2025-06-01T00:00:00Z');

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: SANDBOX_API_KEY, processingDelayMs: 50, callbackBackoffMs: 20, now: () => NOW });
});
afterAll(async () => {
  await sandbox.close();
});
const url = () => sandbox.url;

async function createOrder(...shipments: Array<Record<string, unknown>>): Promise<string> {
  const res = await call(url(), 'POST', '/orders/', { body: orderRequest(...shipments) });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return res.json.result.order.id as string;
}

describe('a quote service entry pasted as the service of create order', () => {
  it('is accepted and its name, carrier, global_mail and price are ignored: the sandbox prices the code', async () => {
    const quote = await call(url(), 'POST', '/quote/', {
      body: {
        collection_country: 'AU',
        collection_postcode: '2000',
        collection_city: 'Sydney',
        delivery_country: 'AU',
        delivery_postcode: '3000',
        delivery_city: 'Melbourne',
        packages: [
          { length: 40, width: 30, height: 20, weight: 4.2, unit: 'cm' },
          { length: 30, width: 20, height: 10, weight: 1.5, unit: 'cm' },
        ],
        currency: 'AUD',
      },
    });
    const entry = quote.json.result.services.find((s: { code: string }) => s.code === 'SB-DOM-ROAD');
    const res = await call(url(), 'POST', '/orders/', {
      body: orderRequest(sydneyToMelbourneShipment({ service: { ...entry, price: { ...entry.price, total: 0.01 } } })),
    });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json.result.order.shipments[0].service.code).toBe('SB-DOM-ROAD');
    expect(res.json.result.order.price.total).toBe(entry.price.total); // the pasted price is not read
  });
});

describe('save at acceptance: only for credit_card', () => {
  it('refuses save with credit (under options) and with a stored card (on the card), 400 naming the field; the order stays pending', async () => {
    const id = await createOrder();
    const credit = await call(url(), 'PUT', `/orders/${id}/accept/`, { body: { order: { payment: { type: 'credit', options: { save: true } } } } });
    expect(credit.status).toBe(400);
    expect(credit.json.result.errors).toContainEqual({
      field: 'order.payment.options.save',
      message: 'save is only for credit_card: a credit payment stores no card; remove it',
    });
    const stored = await call(url(), 'PUT', `/orders/${id}/accept/`, {
      body: { order: { payment: { type: 'stored_card', credit_card: { id: 'card_visa_4242', save: true } } } },
    });
    expect(stored.status).toBe(400);
    expect(stored.json.result.errors).toContainEqual({
      field: 'order.payment.credit_card.save',
      message: 'save is only for credit_card: a stored_card payment stores no card; remove it',
    });
    expect((await call(url(), 'GET', `/orders/${id}/`)).json.result.order.status).toBe('new');
  });
});

describe('shipment statuses: only PEN, NEW and TODO, where the document places them', () => {
  const statuses = async (id: string) => {
    const res = await call(url(), 'GET', `/orders/${id}/`);
    return { order: res.json.result.order.status as string, shipments: res.json.result.order.shipments.map((s: { status: string }) => s.status) as string[] };
  };

  it('pending PEN, accepted NEW, processed TODO', async () => {
    const id = await createOrder(sydneyToMelbourneShipment(), sydneyToMelbourneShipment({ transient_id: 'WH-2' }));
    expect(await statuses(id)).toEqual({ order: 'new', shipments: ['PEN', 'PEN'] });
    const accepted = await call(url(), 'PUT', `/orders/${id}/accept/`, { body: { order: { payment: { type: 'credit' } } } });
    expect(accepted.json.result.order.shipments.map((s: { status: string }) => s.status)).toEqual(['NEW', 'NEW']);
    const done = await waitFor(async () => {
      const now = await statuses(id);
      return now.order === 'processed' ? now : undefined;
    });
    expect(done.shipments).toEqual(['TODO', 'TODO']);
  });

  it('a failed booking leaves its shipments NEW, a cancelled order leaves them PEN: no invented shipment status', async () => {
    const failing = await createOrder();
    sandbox.state.failNextBooking(failing, 'no van (test)');
    await call(url(), 'PUT', `/orders/${failing}/accept/`, { body: { order: { payment: { type: 'credit' } } } });
    const failed = await waitFor(async () => {
      const now = await statuses(failing);
      return now.order === 'failed' ? now : undefined;
    });
    expect(failed.shipments).toEqual(['NEW']);
    const cancelling = await createOrder();
    await call(url(), 'PUT', `/orders/${cancelling}/cancel/`);
    expect(await statuses(cancelling)).toEqual({ order: 'cancelled', shipments: ['PEN'] });
  });
});

describe("consolidated mail is collected with the service's own collection data", () => {
  const toNewYork = () => structuredClone((parse(readFileSync('fixtures/shipments/au-us-1.yaml', 'utf8')) as { shipment: Record<string, any> }).shipment);
  const warehouse = {
    first_name: 'Mei',
    last_name: 'Chen',
    company: 'Koala Crafts Pty Ltd',
    email: 'dispatch@koalacrafts.com.au',
    phone: '+61 2 9555 0173',
    country: 'AU',
    postcode: '2015',
    city: 'Alexandria',
    address_lines: ["Unit 7, 44 O'Riordan Street"],
  };

  it('refuses a shipment collected anywhere else: 400 on shipment.collection naming the service data and how to get it', async () => {
    const s = {
      ...toNewYork(),
      collection_type: 'pickup',
      collection: { ...warehouse, pickup: { date: '2026-12-01', time_earliest: '09:00', time_latest: '15:00' } },
    };
    const res = await call(url(), 'POST', '/shipments/', { body: { shipment: s } });
    expect(res.status).toBe(400);
    expect(res.json.result.errors).toHaveLength(1);
    expect(res.json.result.errors[0].field).toBe('shipment.collection');
    expect(res.json.result.errors[0].message).toMatch(
      /must be the service's collection data \(fetch-service-data, GET \/services\/SB-GLOBAL-MAIL\/: ShipBook Global Mail Hub, 190 Coward Street, Mascot 2020\); first_name, last_name, company, email, phone, postcode, city, address_lines differ/,
    );
    expect(res.json.result.errors[0].message).toContain('shipbook service show SB-GLOBAL-MAIL');
  });

  it("takes the service data in any case and spacing, with a pickup window of the sender's choosing, or no collection at all", async () => {
    const hub = toNewYork();
    const shouty = {
      ...hub,
      collection_type: 'pickup',
      collection: { ...hub.collection, company: '  SHIPBOOK Global  Mail Hub ', pickup: { date: '2026-12-01', time_earliest: '09:00', time_latest: '15:00' } },
    };
    expect((await call(url(), 'POST', '/shipments/', { body: { shipment: shouty } })).status).toBe(200);
    const { collection: _dropped, ...without } = hub;
    expect((await call(url(), 'POST', '/shipments/', { body: { shipment: without } })).status).toBe(200);
  });
});
