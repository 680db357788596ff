/**
 * The sandbox's consolidated mail over real HTTP on 127.0.0.1: create shipment, combine into a
 * parent order, accept the parent like any order, and every error envelope on the way.
 */
import { settleFixturePickups } from '../helpers/pickup-days.js';
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readCents } from '../../src/schema/money.js';
import { SANDBOX_API_KEY, startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { call, orderRequest, startReceiver, waitFor } from './helpers.js';

const NOW = new Date('2026-06-01T00:00:00Z');

/** A shipment of a fixture, in the form a client sends it. */
function fixtureShipment(path: string): Record<string, any> {
  const doc = settleFixturePickups(parse(readFileSync(path, 'utf8'))) as Record<string, any>;
  return structuredClone(doc.shipment ?? doc.main_shipment);
}
const toNewYork = () => fixtureShipment('fixtures/shipments/au-us-1.yaml');
const toLondon = () => fixtureShipment('fixtures/shipments/au-gb-2.yaml');
const toHub = () => fixtureShipment('fixtures/shipments/main-to-hub.yaml');

/** Exact cents of a price member (number or decimal string). */
const cents = (v: unknown): number => {
  const c = readCents(v);
  if (c === undefined) throw new Error(`not an amount: ${String(v)}`);
  return c;
};

let sandbox: Sandbox;
let freePickup: Sandbox;
const receivers: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  [sandbox, freePickup] = await Promise.all([
    startSandbox({ apiKey: SANDBOX_API_KEY, processingDelayMs: 50, callbackBackoffMs: 20, now: () => NOW, seed: 7 }),
    startSandbox({ apiKey: SANDBOX_API_KEY, processingDelayMs: 50, freePickup: true, now: () => NOW, seed: 8 }),
  ]);
});
afterAll(async () => {
  await Promise.all([sandbox.close(), freePickup.close()]);
});
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function createShipment(base: string, shipment: Record<string, unknown>): Promise<any> {
  const res = await call(base, 'POST', '/shipments/', { body: { shipment } });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return res.json.result.shipment;
}

describe('POST /shipments/ (create shipment)', () => {
  it('creates a consolidated-mail shipment to New York: status NEW, exact price as numbers, tracking N/A', async () => {
    const res = await call(sandbox.url, 'POST', '/shipments/', { body: { shipment: toNewYork() } });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ message: 'OK', code: 200 });
    const s = res.json.result.shipment;
    expect(s.id).toMatch(/^SHP-[A-Z0-9]{8}$/);
    expect(s).toMatchObject({ status: 'NEW', transient_id: 'KC-US-4471', tracking_number: 'N/A', collection_type: 'dropoff' });
    // 30×25×15 cm = 2.25 kg cubic > 2.1 kg → 2.5 kg = 5 steps; zone 3 (US): 19.00 + 5 × 4.50.
    expect(s.service).toMatchObject({ code: 'SB-GLOBAL-MAIL', price: { currency: 'AUD', amount: 41.5, insurance: 0, gst: 0, total: 41.5 } });
    expect(s.delivery.address_lines).toEqual(['Apt 5C', '245 West 34th Street', '']);
    expect(s.customs_information.lithium).toBe(false);
  });

  it('insures with service.options {insurance: true}: 1.5 % of the item value, at least 5.00', async () => {
    const s = await createShipment(sandbox.url, toLondon());
    expect(s.service.options).toEqual({ insurance: true });
    // Items: 2 × 149.00 + 2 × 39.95 = 377.90 → 1.5 % = 5.6685 → 5.67.
    expect(s.service.price.insurance).toBe(5.67);
    expect(cents(s.service.price.total)).toBe(cents(s.service.price.amount) + cents(s.service.price.insurance));
  });

  it('refuses a domestic service code with a message naming the consolidated-mail service and the field', async () => {
    const res = await call(sandbox.url, 'POST', '/shipments/', { body: { shipment: { ...toNewYork(), service: { code: 'SB-DOM-ROAD' } } } });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe(400);
    expect(res.json.message).toBe('shipment create is only for the consolidated-mail service (SB-GLOBAL-MAIL); use order create for SB-DOM-ROAD');
    expect(res.json.result.errors).toEqual([
      { field: 'shipment.service.code', message: expect.stringContaining('SB-DOM-ROAD is not a consolidated-mail service') },
    ]);
  });

  it('refuses shipments that do not leave Australia, naming the country fields', async () => {
    const domestic = toNewYork();
    domestic.delivery = { ...domestic.delivery, country: 'AU', postcode: '3000', city: 'Melbourne' };
    const res = await call(sandbox.url, 'POST', '/shipments/', { body: { shipment: domestic } });
    expect(res.status).toBe(400);
    // A dropoff (the hub's collection data) is for shipments leaving Australia too: both fields are named.
    expect(res.json.result.errors.map((e: { field: string }) => e.field)).toEqual(['shipment.collection_type', 'shipment.delivery.country']);

    const fromAuckland = toNewYork();
    fromAuckland.collection = { ...fromAuckland.collection, country: 'NZ', postcode: '1010', city: 'Auckland' };
    const res2 = await call(sandbox.url, 'POST', '/shipments/', { body: { shipment: fromAuckland } });
    expect(res2.status).toBe(400);
    expect(res2.json.result.errors).toContainEqual({ field: 'shipment.collection.country', message: expect.stringContaining('leaving Australia') });
  });

  it('rejects a digital signature that is not a PNG or JPG image by its bytes', async () => {
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1').toString('base64');
    const res = await call(sandbox.url, 'POST', '/shipments/', { body: { shipment: { ...toNewYork(), options: { digital_signature: gif } } } });
    expect(res.status).toBe(400);
    expect(res.json.result.errors).toEqual([{ field: 'shipment.options.digital_signature', message: 'must be a BASE64-encoded PNG or JPG image' }]);
  });

  it('asks for credentials on create and combine (401)', async () => {
    const create = await call(sandbox.url, 'POST', '/shipments/', { body: { shipment: toNewYork() }, auth: null });
    const combine = await call(sandbox.url, 'PUT', '/shipments/', { body: { shipments: ['SHP-X'] }, auth: null });
    expect([create.status, combine.status]).toEqual([401, 401]);
    expect(create.json.code).toBe(401);
  });
});

describe('PUT /shipments/ (combine)', () => {
  it('combines two shipments with the main shipment into a pending parent; summary_child_shipments is the exact sum of the children', async () => {
    const a = await createShipment(sandbox.url, toNewYork());
    const b = await createShipment(sandbox.url, toLondon());
    const res = await call(sandbox.url, 'PUT', '/shipments/', { body: { shipments: [a.id, b.id], main_shipment: toHub() } });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json).toMatchObject({ message: 'OK', code: 200 });
    const order = res.json.result.order;
    expect(order.id).toMatch(/^ORD-/);
    expect(order.status).toBe('NEW');
    const [childA, childB, main, ...rest] = order.shipments;
    expect(rest).toEqual([]);
    expect([childA.id, childB.id]).toEqual([a.id, b.id]);
    expect(main.id).toMatch(/^SHP-/);
    expect([childA.status, childB.status, main.status]).toEqual(['NEW', 'NEW', 'PEN']);
    expect(main).toMatchObject({ transient_id: 'KC-MAIN-1201', service: { code: 'SB-DOM-ROAD' }, delivery: { city: 'Mascot', country: 'AU' } });

    for (const key of ['amount', 'insurance', 'gst', 'total', 'summary_child_shipments']) expect(order.price[key]).toMatch(/^\d+\.\d{2}$/);
    const children = [childA, childB];
    const childrenTotal = children.reduce((sum: number, s: any) => sum + cents(s.service.price.total), 0);
    expect(cents(order.price.summary_child_shipments)).toBe(childrenTotal);
    expect(cents(order.price.summary_child_shipments)).toBe(cents(a.service.price.total) + cents(b.service.price.total));
    for (const key of ['amount', 'insurance', 'gst', 'total']) {
      expect(cents(order.price[key])).toBe([...children, main].reduce((sum: number, s: any) => sum + cents(s.service.price[key]), 0));
    }
    // The main shipment goes by road within NSW: GST on it only.
    expect(cents(order.price.gst)).toBe(cents(main.service.price.gst));
    expect(cents(main.service.price.gst)).toBeGreaterThan(0);
  });

  it('answers 404 naming an unknown shipment id and its place in the list', async () => {
    const a = await createShipment(sandbox.url, toNewYork());
    const res = await call(sandbox.url, 'PUT', '/shipments/', { body: { shipments: [a.id, 'SHP-NOSUCH01'], main_shipment: toHub() } });
    expect(res.status).toBe(404);
    expect(res.json.message).toBe('shipment SHP-NOSUCH01 not found');
    expect(res.json.result.errors).toEqual([{ field: 'shipments[1]', message: 'unknown shipment id SHP-NOSUCH01' }]);
    // Nothing changed: the known shipment can still be combined.
    const ok = await call(sandbox.url, 'PUT', '/shipments/', { body: { shipments: [a.id], main_shipment: toHub() } });
    expect(ok.status).toBe(200);
  });

  it('answers 409 for a shipment already combined, naming it and its parent order', async () => {
    const a = await createShipment(sandbox.url, toNewYork());
    const b = await createShipment(sandbox.url, toLondon());
    const first = await call(sandbox.url, 'PUT', '/shipments/', { body: { shipments: [a.id], main_shipment: toHub() } });
    const parentId = first.json.result.order.id as string;
    const res = await call(sandbox.url, 'PUT', '/shipments/', { body: { shipments: [b.id, a.id], main_shipment: toHub() } });
    expect(res.status).toBe(409);
    expect(res.json.message).toContain(`shipment ${a.id} is already combined into parent order ${parentId} (pending)`);
    expect(res.json.result.errors).toEqual([{ field: 'shipments[1]', message: expect.stringContaining(parentId) }]);
    // b was not taken by the failed combine.
    expect(sandbox.state.shipments.get(b.id)!.orderId).toBeUndefined();
  });

  it('answers 409 for a shipment of a regular order', async () => {
    const created = await call(sandbox.url, 'POST', '/orders/', { body: orderRequest() });
    const order = created.json.result.order;
    const res = await call(sandbox.url, 'PUT', '/shipments/', { body: { shipments: [order.shipments[0].id], main_shipment: toHub() } });
    expect(res.status).toBe(409);
    expect(res.json.message).toContain(`is already part of order ${order.id}`);
  });

  it('requires main_shipment unless the account has free pickup', async () => {
    const a = await createShipment(sandbox.url, toNewYork());
    const res = await call(sandbox.url, 'PUT', '/shipments/', { body: { shipments: [a.id] } });
    expect(res.status).toBe(400);
    expect(res.json.message).toContain('main_shipment is required');
    expect(res.json.result.errors).toEqual([{ field: 'main_shipment', message: expect.stringContaining('free-pickup') }]);
  });

  it('combines without main_shipment under free pickup: the parent price is the children alone', async () => {
    const a = await createShipment(freePickup.url, toNewYork());
    const b = await createShipment(freePickup.url, toLondon());
    const res = await call(freePickup.url, 'PUT', '/shipments/', { body: { shipments: [a.id, b.id] } });
    expect(res.status).toBe(200);
    const order = res.json.result.order;
    expect(order.shipments.map((s: { id: string }) => s.id)).toEqual([a.id, b.id]);
    expect(cents(order.price.summary_child_shipments)).toBe(cents(a.service.price.total) + cents(b.service.price.total));
    expect(order.price.total).toBe(order.price.summary_child_shipments);
  });

  it('refuses a main shipment that does not go to a hub in Australia, or uses the consolidated-mail service', async () => {
    const a = await createShipment(sandbox.url, toNewYork());
    const abroad = { ...toHub(), delivery: toNewYork().delivery };
    const res = await call(sandbox.url, 'PUT', '/shipments/', { body: { shipments: [a.id], main_shipment: abroad } });
    expect(res.status).toBe(400);
    expect(res.json.result.errors).toEqual([{ field: 'main_shipment.delivery.country', message: expect.stringContaining('consolidation hub in Australia') }]);

    const globalMail = { ...toHub(), service: { code: 'SB-GLOBAL-MAIL' } };
    const res2 = await call(sandbox.url, 'PUT', '/shipments/', { body: { shipments: [a.id], main_shipment: globalMail } });
    expect(res2.status).toBe(400);
    expect(res2.json.result.errors[0].field).toBe('main_shipment.service.code');
    expect(sandbox.state.shipments.get(a.id)!.orderId).toBeUndefined();
  });

  it('rejects an empty list and an id given twice (400)', async () => {
    const a = await createShipment(sandbox.url, toNewYork());
    const empty = await call(sandbox.url, 'PUT', '/shipments/', { body: { shipments: [], main_shipment: toHub() } });
    expect(empty.status).toBe(400);
    expect(empty.json.result.errors).toEqual([{ field: 'shipments', message: 'at least 1 shipment id' }]);
    const twice = await call(sandbox.url, 'PUT', '/shipments/', { body: { shipments: [a.id, a.id], main_shipment: toHub() } });
    expect(twice.status).toBe(400);
    expect(twice.json.result.errors).toEqual([{ field: 'shipments[1]', message: `shipment id ${a.id} given twice` }]);
  });
});

describe('accepting the parent as a regular order', () => {
  it('books every child and the main shipment: tracking numbers in the callback and in fetch-order-data', async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const a = await createShipment(sandbox.url, toNewYork());
    const b = await createShipment(sandbox.url, toLondon());
    const combined = await call(sandbox.url, 'PUT', '/shipments/', { body: { shipments: [a.id, b.id], main_shipment: toHub() } });
    const parent = combined.json.result.order;
    const allIds = parent.shipments.map((s: { id: string }) => s.id);
    expect(allIds).toHaveLength(3);

    const accepted = await call(sandbox.url, 'PUT', `/orders/${parent.id}/accept/`, {
      body: { order: { id: parent.id, payment: { type: 'credit' } }, callback: receiver.url },
    });
    expect(accepted.status).toBe(201);
    expect(accepted.json.result.order.status).toBe('ACC');
    expect(accepted.json.result.order.shipments.map((s: any) => [s.id, s.status, s.tracking_number])).toEqual(allIds.map((id: string) => [id, 'NEW', 'N/A']));

    const callback = await waitFor(() => receiver.bodies[0] as any);
    expect(callback).toMatchObject({ code: 200, message: 'OK', result: { order: { id: parent.id, status: 'processed' } } });
    const tracked = callback.result.order.shipments as Array<{ id: string; tracking_number: string }>;
    expect(tracked.map((s) => s.id)).toEqual(allIds);
    for (const s of tracked) expect(s.tracking_number).toMatch(/^SBX\d{10}$/);
    expect(new Set(tracked.map((s) => s.tracking_number)).size).toBe(3);

    const fetched = await call(sandbox.url, 'GET', `/orders/${parent.id}/`);
    const order = fetched.json.result.order;
    expect(order.status).toBe('processed');
    expect(order.shipments.map((s: any) => [s.id, s.status, s.tracking_number])).toEqual(tracked.map((s) => [s.id, 'TODO', s.tracking_number]));
    expect(order.price).toEqual(parent.price);
  });

  it('refuses to accept the parent twice (409)', async () => {
    const a = await createShipment(sandbox.url, toNewYork());
    const parent = (await call(sandbox.url, 'PUT', '/shipments/', { body: { shipments: [a.id], main_shipment: toHub() } })).json.result.order;
    const body = { order: { payment: { type: 'credit' } } };
    expect((await call(sandbox.url, 'PUT', `/orders/${parent.id}/accept/`, { body })).status).toBe(201);
    const again = await call(sandbox.url, 'PUT', `/orders/${parent.id}/accept/`, { body });
    expect(again.status).toBe(409);
    expect(again.json.message).toMatch(new RegExp(`order ${parent.id} cannot be accepted: it is already (accepted|processed)`));
  });
});
