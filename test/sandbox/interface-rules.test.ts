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

describe('quoting by GET: a single package only', () => {
  const route =
    'collection_country=AU&collection_postcode=2000&collection_city=Sydney&delivery_country=AU&delivery_postcode=3000&delivery_city=Melbourne&currency=AUD';
  it('prices one package given as plain parameters, without authorisation', async () => {
    const res = await call(url(), 'GET', `/quote/?${route}&length=40&width=30&height=20&weight=4.2&unit=cm`, { auth: null });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json.result.services.map((s: { code: string }) => s.code)).toContain('SB-DOM-ROAD');
  });
  it('refuses a second package (a package parameter given twice): 400 naming the parameter', async () => {
    const res = await call(url(), 'GET', `/quote/?${route}&length=40&width=30&height=20&weight=4.2&unit=cm&length=30&weight=1.5`, { auth: null });
    expect(res.status).toBe(400);
    expect(res.json.result.errors).toContainEqual({ field: 'length', message: 'given more than once' });
    expect(res.json.result.errors).toContainEqual({ field: 'weight', message: 'given more than once' });
  });
});

describe('accept order: the payment', () => {
  const accept = (id: string, body: unknown) => call(url(), 'PUT', `/orders/${id}/accept/`, { body });
  it('requires payment and payment.type, one of credit_card, stored_card, credit; the order stays pending', async () => {
    const id = await createOrder();
    const none = await accept(id, { order: {} });
    expect(none.status).toBe(400);
    expect(none.json.result.errors).toContainEqual({ field: 'order.payment', message: 'required' });
    const noType = await accept(id, { order: { payment: {} } });
    expect(noType.status).toBe(400);
    expect(noType.json.result.errors).toContainEqual({ field: 'order.payment.type', message: 'required' });
    const cash = await accept(id, { order: { payment: { type: 'cash' } } });
    expect(cash.status).toBe(400);
    expect(cash.json.result.errors).toContainEqual({ field: 'order.payment.type', message: 'must be one of credit_card, stored_card, credit (got "cash")' });
    expect((await call(url(), 'GET', `/orders/${id}/`)).json.result.order.status).toBe('new');
  });
  it('requires card details for credit_card (every field) and a stored card id for stored_card', async () => {
    const id = await createOrder();
    const noCard = await accept(id, { order: { payment: { type: 'credit_card' } } });
    expect(noCard.status).toBe(400);
    expect(noCard.json.result.errors).toContainEqual({ field: 'order.payment.credit_card', message: 'required for credit_card' });
    const partial = await accept(id, { order: { payment: { type: 'credit_card', credit_card: { number: '4111 1111 1111 1111' } } } });
    expect(partial.status).toBe(400);
    expect(partial.json.result.errors.map((e: { field: string }) => e.field).sort()).toEqual(
      ['order.payment.credit_card.cvv', 'order.payment.credit_card.expire', 'order.payment.credit_card.holder_name'].sort(),
    );
    const noStored = await accept(id, { order: { payment: { type: 'stored_card' } } });
    expect(noStored.status).toBe(400);
    expect(noStored.json.result.errors).toContainEqual({ field: 'order.payment.credit_card', message: 'required for stored_card: the stored card id' });
    const stored = await accept(id, { order: { payment: { type: 'stored_card', credit_card: 'card_visa_4242' } } });
    expect(stored.status, JSON.stringify(stored.json)).toBe(201);
  });
});

describe('accept order: digital signature, send_documents, account_number, callback', () => {
  const PNG = 'iVBORw0KGgoAAAANSUhEUgAAABAAAAAGCAAAAADvF0E7AAAAGUlEQVR42mP4jwYYsAkwIDOAmAEJYFeBCgAVMk2zgTvzGgAAAABJRU5ErkJggg==';
  const GIF = Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1').toString('base64');
  const accept = (id: string, body: Record<string, unknown>) => call(url(), 'PUT', `/orders/${id}/accept/`, { body });
  const credit = { type: 'credit' };

  it('takes order.options.digital_signature as a PNG or JPG and refuses other bytes, naming the field', async () => {
    const id = await createOrder();
    const gif = await accept(id, { order: { payment: credit, options: { digital_signature: GIF } } });
    expect(gif.status).toBe(400);
    expect(gif.json.result.errors).toEqual([{ field: 'order.options.digital_signature', message: 'must be a BASE64-encoded PNG or JPG image' }]);
    expect((await accept(id, { order: { payment: credit, options: { digital_signature: PNG } } })).status).toBe(201);
  });

  it('records options.send_documents (a boolean) and options.account_number (text, a number read as text)', async () => {
    const id = await createOrder();
    const bad = await accept(id, { order: { payment: credit }, options: { send_documents: 'yes' } });
    expect(bad.status).toBe(400);
    expect(bad.json.result.errors).toEqual([{ field: 'options.send_documents', message: 'expected true or false' }]);
    const ok = await accept(id, { order: { payment: credit }, options: { send_documents: true, account_number: 123456 } });
    expect(ok.status, JSON.stringify(ok.json)).toBe(201);
    expect(sandbox.state.getOrder(id).acceptOptions).toEqual({ send_documents: true, account_number: '123456' });
  });

  it('takes an http(s) callback URL and refuses anything else, naming the field', async () => {
    const id = await createOrder();
    for (const callback of ['ftp://hooks.example.com/sb', 'not a url']) {
      const res = await accept(id, { order: { payment: credit }, callback });
      expect(res.status).toBe(400);
      expect(res.json.result.errors).toEqual([{ field: 'callback', message: 'expected an http(s) URL' }]);
    }
    expect((await accept(id, { order: { payment: credit }, callback: 'https://hooks.example.com/sb' })).status).toBe(201);
    expect(sandbox.state.getOrder(id).callback).toBe('https://hooks.example.com/sb');
  });
});

describe('rules the interface does not state, kept as docs/assumptions.md says', () => {
  const accept = (id: string, body: unknown) => call(url(), 'PUT', `/orders/${id}/accept/`, { body });
  const card = (holder_name: string) => ({ type: 'credit_card', credit_card: { number: '4111 1111 1111 1111', cvv: '123', holder_name, expire: '08/29' } });

  it('a card holder name of 101 characters is a 400 on the field; 100 are taken', async () => {
    const id = await createOrder();
    const long = await accept(id, { order: { payment: card('P'.repeat(101)) } });
    expect(long.status).toBe(400);
    expect(long.json.result.errors).toEqual([{ field: 'order.payment.credit_card.holder_name', message: 'at most 100 characters' }]);
    expect((await accept(id, { order: { payment: card('P'.repeat(100)) } })).status).toBe(201);
  });

  it('order.id in the accept body, when given, must be the order in the path', async () => {
    const id = await createOrder();
    const other = await accept(id, { order: { id: 'ORD-NOTTHIS1', payment: { type: 'credit' } } });
    expect(other.status).toBe(400);
    expect(other.json.result.errors).toEqual([{ field: 'order.id', message: `does not match the order in the path (${id}, got ORD-NOTTHIS1)` }]);
    expect((await accept(id, { order: { id, payment: { type: 'credit' } } })).status).toBe(201);
  });

  it('at most 3 address lines in create shipment, as in create order', async () => {
    const hub = structuredClone((parse(readFileSync('fixtures/shipments/au-us-1.yaml', 'utf8')) as { shipment: Record<string, any> }).shipment);
    hub.delivery.address_lines = ['Apt 5C', '245 West 34th Street', 'Floor 2', 'Door B'];
    const res = await call(url(), 'POST', '/shipments/', { body: { shipment: hub } });
    expect(res.status).toBe(400);
    expect(res.json.result.errors).toContainEqual({ field: 'shipment.delivery.address_lines[3]', message: 'at most 3 address lines (got 4)' });
  });
});
