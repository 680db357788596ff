/**
 * The sandbox over real HTTP on 127.0.0.1: the user's story from quote to tracking numbers, and
 * every error envelope the client has to cope with.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_API_KEY, startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { call, orderRequest, startReceiver, sydneyToMelbourneShipment, waitFor } from './helpers.js';

const NOW = new Date('2025-06-01T00:00:00Z');
const VISA = { type: 'credit_card', credit_card: { number: '4111 1111 1111 1111', cvv: '123', holder_name: 'Priya Raman', expire: '12/28' } };

let sandbox: Sandbox;
const logLines: string[] = [];
const receivers: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  sandbox = await startSandbox({
    apiKey: SANDBOX_API_KEY,
    processingDelayMs: 50,
    callbackBackoffMs: 20,
    now: () => NOW,
    log: (line) => logLines.push(line),
  });
});
afterAll(async () => {
  await sandbox.close();
});
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

const url = () => sandbox.url;

async function createOrder(...shipments: Array<Record<string, unknown>>): Promise<string> {
  const res = await call(url(), 'POST', '/orders/', { body: orderRequest(...shipments) });
  expect(res.status).toBe(200);
  return res.json.result.order.id as string;
}

describe('content type', () => {
  it('answers 415 to a body that is not declared as JSON', async () => {
    const res = await fetch(new URL('orders/', url()), {
      method: 'POST',
      headers: { 'content-type': 'text/plain', authorization: 'Bearer sk_sandbox_builtin' },
      body: JSON.stringify({ request: orderRequest() }),
    });
    expect(res.status).toBe(415);
    expect(((await res.json()) as { message: string }).message).toMatch(/content type "text\/plain"/);
  });
});

describe('starting', () => {
  it('listens on 127.0.0.1 on a random port and gives a base URL with a trailing slash', () => {
    expect(sandbox.url).toBe(`http://127.0.0.1:${sandbox.port}/`);
    expect(sandbox.port).toBeGreaterThan(0);
  });
});

describe('quote', () => {
  const quote = {
    collection_country: 'AU',
    collection_postcode: '2000',
    collection_city: 'Sydney',
    delivery_country: 'AU',
    delivery_postcode: '3000',
    delivery_city: 'Melbourne',
    packages: [{ length: 40, width: 30, height: 20, weight: 4.2, unit: 'cm' }],
    currency: 'AUD',
  };

  it('quotes Sydney → Melbourne by POST without credentials, prices as numbers', async () => {
    const res = await call(url(), 'POST', '/quote/', { body: quote, auth: null });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ message: 'OK', code: 200 });
    const services = res.json.result.services;
    expect(services.map((s: { code: string }) => s.code)).toEqual(['SB-DOM-ROAD', 'SB-DOM-EXP', 'SB-AX-ROAD', 'SB-CP-STD', 'SB-AP-PARCEL', 'SB-ST-PREM']);
    // Road zone 2: 6 kg cubic = 12 steps → 11.00 + 1.60 × 12 = 30.20, GST 3.02.
    expect(services[0]).toEqual({
      code: 'SB-DOM-ROAD',
      name: 'Road Express',
      carrier: 'StarTrack',
      global_mail: false,
      price: { currency: 'AUD', amount: 30.2, insurance: 0, gst: 3.02, total: 33.22 },
    });
    expect(services[1].name).toBe('Express Post\nParcel');
  });

  it('quotes a single package by GET with the same answer', async () => {
    const params = new URLSearchParams({
      collection_country: 'AU',
      collection_postcode: '2000',
      collection_city: 'Sydney',
      delivery_country: 'AU',
      delivery_postcode: '3000',
      delivery_city: 'Melbourne',
      length: '40',
      width: '30',
      height: '20',
      weight: '4.2',
      unit: 'cm',
      currency: 'AUD',
    });
    const get = await call(url(), 'GET', `/quote/?${params}`, { auth: null });
    const post = await call(url(), 'POST', '/quote/', { body: quote, auth: null });
    expect(get.status).toBe(200);
    expect(get.json.result).toEqual(post.json.result);
  });

  it('names the missing or wrong GET parameters', async () => {
    const params = new URLSearchParams({
      collection_country: 'AU',
      collection_postcode: '2000',
      collection_city: 'Sydney',
      delivery_country: 'AU',
      delivery_postcode: '3000',
      delivery_city: 'Melbourne',
      length: '40',
      width: 'wide',
      height: '20',
      unit: 'cm',
      currency: 'AUD',
      colour: 'red',
    });
    const res = await call(url(), 'GET', `/quote/?${params}`, { auth: null });
    expect(res.status).toBe(400);
    const fields = res.json.result.errors.map((e: { field: string }) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['colour', 'width', 'weight']));
  });

  it('insures the declared value when insurance is true, and lists global mail abroad', async () => {
    const res = await call(url(), 'POST', '/quote/', {
      body: { ...quote, delivery_country: 'NZ', delivery_postcode: '1010', delivery_city: 'Auckland', value: '1000.00', insurance: 'true' },
    });
    expect(res.status).toBe(200);
    const mail = res.json.result.services.find((s: { code: string }) => s.code === 'SB-GLOBAL-MAIL');
    // 4.8 → 5 kg = 10 steps → 12.00 + 3.00 × 10 = 42.00; insurance 1.5 % of 1000.00 = 15.00.
    expect(mail).toMatchObject({ global_mail: true, price: { amount: 42, insurance: 15, gst: 0, total: 57 } });
  });

  it('refuses a wrong API key even though credentials are optional', async () => {
    const res = await call(url(), 'POST', '/quote/', { body: quote, auth: 'Bearer sk_wrong' });
    expect(res.status).toBe(401);
    expect(res.json.code).toBe(401);
  });
});

describe('create order', () => {
  it('stores a pending order and echoes the shipment with the documented quirks', async () => {
    const res = await call(url(), 'POST', '/orders/', { body: orderRequest() });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ message: 'OK', code: 200 });
    const order = res.json.result.order;
    expect(order.id).toMatch(/^ORD-[A-Z0-9]{8}$/);
    expect(order.status).toBe('new');
    // Road zone 2: 15 steps → 35.00, GST 3.50.
    expect(order.price).toEqual({ currency: 'AUD', amount: 35, insurance: 0, gst: 3.5, total: 38.5 });
    const [s] = order.shipments;
    expect(s).toMatchObject({ status: 'PEN', transient_id: 'WH-2025-0001', tracking_number: 'N/A', collection_type: 'pickup' });
    expect(s.id).toMatch(/^SHP-[A-Z0-9]{8}$/);
    expect(s.collection.address_lines).toEqual(['Warehouse 4', '88 Kent Street', '']);
    expect(s.delivery.address_lines).toHaveLength(3);
    // The interface types company as a string, never null: an absent company is ''.
    expect(s.collection.company).toBe('Harbour Goods Pty Ltd');
    expect(s.delivery.company).toBe('');
    expect(s.collection.pickup.date).toBe('2025-06-03T00:00:00');
    expect(s.packages[0]).toEqual({ length: 40, width: 30, height: 20, weight: 4.2, unit_weight: 'CM' });
    expect(s.customs_information).toMatchObject({ reason: 'Sale', tax_status: 'Company', lithium: false });
    expect(s.customs_information.items[0]).toEqual({ description: 'Merino wool jumper', quantity: 2, value: 89.95, currency: 'AUD', madein: 'AU' });
    expect(s.service).toEqual({
      code: 'SB-DOM-ROAD',
      name: 'Road Express',
      price: { currency: 'AUD', amount: 35, insurance: 0, gst: 3.5, total: 38.5 },
      options: [],
    });
  });

  it('sums the shipments and charges insurance on the declared item value', async () => {
    const insured = sydneyToMelbourneShipment({ service: { code: 'SB-DOM-ROAD', options: ['insurance'] } });
    const express = sydneyToMelbourneShipment({ transient_id: 'WH-2025-0002', service: { code: 'SB-DOM-EXP' } });
    const res = await call(url(), 'POST', '/orders/', { body: orderRequest(insured, express) });
    expect(res.status).toBe(200);
    const order = res.json.result.order;
    // Items 2 × 89.95 + 45.50 = 225.40 → 1.5 % = 3.38 → minimum 5.00; GST 10 % of 40.00 = 4.00.
    expect(order.shipments[0].service.price).toEqual({ currency: 'AUD', amount: 35, insurance: 5, gst: 4, total: 44 });
    // Express: 13 steps → 49.80, GST 4.98.
    expect(order.shipments[1].service.price).toEqual({ currency: 'AUD', amount: 49.8, insurance: 0, gst: 4.98, total: 54.78 });
    expect(order.price).toEqual({ currency: 'AUD', amount: 84.8, insurance: 5, gst: 8.98, total: 98.78 });
    expect(order.shipments[1].service.name).toBe('Express Post\nParcel');
  });

  it('rejects a 36-character address line with its field path', async () => {
    const shipment = sydneyToMelbourneShipment();
    const delivery = { ...(shipment.delivery as object), address_lines: ['Level 12', 'x'.repeat(36)] };
    const res = await call(url(), 'POST', '/orders/', { body: orderRequest({ ...shipment, delivery }) });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe(400);
    expect(res.json.result.errors).toEqual([{ field: 'order.shipments[0].delivery.address_lines[1]', message: 'at most 35 characters (got 36)' }]);
    expect(res.json.message).toContain('order.shipments[0].delivery.address_lines[1]');
  });

  it('lists every problem in the schema words, wrong types included', async () => {
    const customs = {
      reason: 'Bribe',
      tax_status: 'Company',
      lithium: 'no',
      items: [{ description: 'Jumper', quantity: 1, value: 10, currency: 'AUD', madein: 'AU' }],
    };
    const res = await call(url(), 'POST', '/orders/', { body: orderRequest(sydneyToMelbourneShipment({ customs_information: customs })) });
    expect(res.status).toBe(400);
    expect(res.json.result.errors).toEqual([
      { field: 'order.shipments[0].customs_information.reason', message: expect.stringContaining('must be one of Gift, Purchase, Sale') },
      { field: 'order.shipments[0].customs_information.lithium', message: 'expected true or false (got "no")' },
    ]);
  });

  it('refuses a package over the sandbox weight limit instead of failing', async () => {
    const huge = sydneyToMelbourneShipment({ packages: [{ length: 1e200, width: 1, height: 1, weight: 1, unit: 'cm' }] });
    const res = await call(url(), 'POST', '/orders/', { body: orderRequest(huge) });
    expect(res.status).toBe(400);
    expect(res.json.result.errors[0].field).toBe('order.shipments[0].packages[0]');
  });

  it('refuses a service not offered on the route, and consolidated mail', async () => {
    const intl = sydneyToMelbourneShipment({ service: { code: 'SB-INTL-EXP' } });
    const res = await call(url(), 'POST', '/orders/', { body: orderRequest(intl) });
    expect(res.status).toBe(400);
    expect(res.json.result.errors).toEqual([{ field: 'order.shipments[0].service.code', message: 'service SB-INTL-EXP is not offered from AU to AU' }]);

    const abroad = sydneyToMelbourneShipment({
      service: { code: 'SB-GLOBAL-MAIL' },
      delivery: { ...(sydneyToMelbourneShipment().delivery as object), country: 'NZ', postcode: '1010', city: 'Auckland' },
    });
    const mail = await call(url(), 'POST', '/orders/', { body: orderRequest(abroad) });
    expect(mail.status).toBe(400);
    expect(mail.json.result.errors[0].field).toBe('order.shipments[0].service.code');
    expect(mail.json.result.errors[0].message).toContain('shipbook shipment create');
  });

  it('demands credentials: none, or a wrong key, is 401', async () => {
    const none = await call(url(), 'POST', '/orders/', { body: orderRequest(), auth: null });
    expect(none.status).toBe(401);
    expect(none.json).toMatchObject({ code: 401, result: {} });
    const wrong = await call(url(), 'POST', '/orders/', { body: orderRequest(), auth: 'Bearer sk_live_nope' });
    expect(wrong.status).toBe(401);
  });
});

describe('accept and the booking result', () => {
  it('accepts with 201 and decimal strings, then processes with SBX tracking numbers and calls back (retrying after a 500)', async () => {
    const receiver = await startReceiver([500]);
    receivers.push(receiver);
    const id = await createOrder();
    const res = await call(url(), 'PUT', `/orders/${id}/accept/`, { body: { order: { id, payment: VISA }, callback: receiver.url } });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ message: 'OK', code: 201 });
    const order = res.json.result.order;
    expect(order).toMatchObject({ id, status: 'ACC', price: { currency: 'AUD', amount: '35.00', insurance: '0.00', gst: '3.50', total: '38.50' } });
    expect(order.shipments.map((s: { status: string; tracking_number: string }) => [s.status, s.tracking_number])).toEqual([['NEW', 'N/A']]);

    const processed = await waitFor(async () => {
      const r = await call(url(), 'GET', `/orders/${id}/`);
      return r.json.result.order.status === 'processed' ? r.json.result.order : undefined;
    });
    expect(processed.price.total).toBe('38.50');
    expect(processed.shipments[0].status).toBe('TODO');
    expect(processed.shipments[0].tracking_number).toMatch(/^SBX\d{10}$/);

    await waitFor(() => (receiver.bodies.length >= 2 ? true : undefined));
    expect(receiver.bodies).toHaveLength(2); // the first answer was 500, the retry got 200
    expect(receiver.bodies[1]).toEqual({
      code: 200,
      message: 'OK',
      result: { order: { id, status: 'processed', shipments: [{ id: processed.shipments[0].id, tracking_number: processed.shipments[0].tracking_number }] } },
    });
    // The sandbox records the delivery once it has read the receiver's answer: wait for that, not for the body.
    await waitFor(() => (sandbox.state.callbacks.find((c) => c.orderId === id)?.state === 'delivered' ? true : undefined));
    expect(sandbox.state.callbacks.find((c) => c.orderId === id)).toMatchObject({ attempts: 2, state: 'delivered', lastOutcome: 200 });
  });

  it('reports a failed booking through the callback when failNextBooking is set', async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const id = await createOrder();
    sandbox.state.failNextBooking(id, 'carrier rejected the pickup window');
    const res = await call(url(), 'PUT', `/orders/${id}/accept/`, { body: { order: { payment: { type: 'credit' } }, callback: receiver.url } });
    expect(res.status).toBe(201);
    const body = await waitFor(() => receiver.bodies[0] as { code: number; message: string; result: { order: { status: string } } } | undefined);
    expect(body).toMatchObject({ code: 500, message: 'carrier rejected the pickup window', result: { order: { id, status: 'failed' } } });
    const after = await call(url(), 'GET', `/orders/${id}/`);
    expect(after.json.result.order.status).toBe('failed');
  });

  it('gives up after the configured retries when the receiver keeps failing', async () => {
    const receiver = await startReceiver([503, 503, 503, 503, 503, 503]);
    receivers.push(receiver);
    const id = await createOrder();
    await call(url(), 'PUT', `/orders/${id}/accept/`, { body: { order: { payment: { type: 'credit' } }, callback: receiver.url } });
    const record = await waitFor(() => {
      const r = sandbox.state.callbacks.find((c) => c.orderId === id);
      return r && r.state !== 'pending' ? r : undefined;
    });
    expect(record).toMatchObject({ state: 'gave_up', attempts: 5, lastOutcome: 503 });
    expect(receiver.bodies).toHaveLength(5); // 1 attempt + 4 retries
  });

  it('answers 409 to a second accept, and 404 to an unknown id', async () => {
    const id = await createOrder();
    expect((await call(url(), 'PUT', `/orders/${id}/accept/`, { body: { order: { payment: { type: 'credit' } } } })).status).toBe(201);
    const again = await call(url(), 'PUT', `/orders/${id}/accept/`, { body: { order: { payment: { type: 'credit' } } } });
    expect(again.status).toBe(409);
    expect(again.json.code).toBe(409);
    expect(again.json.message).toMatch(/already accepted \(status ACC\)|already processed/);

    const unknown = await call(url(), 'PUT', '/orders/ORD-NOTTHERE/accept/', { body: { order: { payment: { type: 'credit' } } } });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ code: 404, message: 'order ORD-NOTTHERE not found' });
    expect((await call(url(), 'GET', '/orders/ORD-NOTTHERE/')).status).toBe(404);
  });

  it('cancels a pending order; accepting it afterwards is 409', async () => {
    const id = await createOrder();
    const cancel = await call(url(), 'PUT', `/orders/${id}/cancel/`);
    expect(cancel.status).toBe(200);
    expect(cancel.json.result.order.status).toBe('cancelled');
    const accept = await call(url(), 'PUT', `/orders/${id}/accept/`, { body: { order: { payment: { type: 'credit' } } } });
    expect(accept.status).toBe(409);
    expect(accept.json.message).toContain('cancelled');
    expect((await call(url(), 'PUT', `/orders/${id}/cancel/`)).status).toBe(409);
    expect((await call(url(), 'PUT', '/orders/ORD-NOTTHERE/cancel/')).status).toBe(404);
  });

  it('declines the test card with 402 and refuses unknown stored cards; the order stays pending', async () => {
    const id = await createOrder();
    const declined = await call(url(), 'PUT', `/orders/${id}/accept/`, {
      body: { order: { payment: { ...VISA, credit_card: { ...VISA.credit_card, number: '4000000000000002' } } } },
    });
    expect(declined.status).toBe(402);
    expect(declined.json.message).toContain('card declined');
    const stored = await call(url(), 'PUT', `/orders/${id}/accept/`, { body: { order: { payment: { type: 'stored_card', credit_card: 'visa-1' } } } });
    expect(stored.status).toBe(400);
    expect(stored.json.result.errors[0].field).toBe('order.payment.credit_card');
    const ok = await call(url(), 'PUT', `/orders/${id}/accept/`, { body: { order: { payment: { type: 'stored_card', credit_card: 'card_visa_4242' } } } });
    expect(ok.status).toBe(201);
  });

  it('checks the card with the shared schema: Luhn, expiry, CVV', async () => {
    const id = await createOrder();
    const res = await call(url(), 'PUT', `/orders/${id}/accept/`, {
      body: { order: { payment: { type: 'credit_card', credit_card: { number: '4111111111111112', cvv: '12', holder_name: 'P R', expire: '01/25' } } } },
    });
    expect(res.status).toBe(400);
    expect(res.json.result.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'order.payment.credit_card.cvv',
      'order.payment.credit_card.expire',
      'order.payment.credit_card.number',
    ]);
  });

  it('never logs credentials or card numbers', () => {
    const all = logLines.join('\n');
    expect(all).toContain('POST /orders/ 200');
    expect(all).not.toContain(SANDBOX_API_KEY);
    expect(all).not.toMatch(/4111|0002/);
    expect(all).not.toContain('s3cr3t');
  });
});

describe('malformed requests', () => {
  it('answers 400 to malformed JSON', async () => {
    const res = await call(url(), 'POST', '/orders/', { raw: '{"request": {"order": ' });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ code: 400 });
    expect(res.json.message).toMatch(/^malformed JSON/);
  });

  it('answers 400 naming request when the wrapper is missing', async () => {
    const res = await call(url(), 'POST', '/orders/', { body: orderRequest(), wrap: false });
    expect(res.status).toBe(400);
    expect(res.json.result.errors[0].field).toBe('request');
  });

  it('answers 405 to a wrong method with Allow, 404 to an unknown path', async () => {
    const res = await call(url(), 'DELETE', '/orders/');
    expect(res.status).toBe(405);
    expect(res.json.code).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    const missing = await call(url(), 'GET', '/parcels/');
    expect(missing.status).toBe(404);
    expect(missing.json.code).toBe(404);
  });

  it('answers 413 to a body over 1 MiB', async () => {
    const res = await call(url(), 'POST', '/quote/', { raw: JSON.stringify({ request: { pad: 'x'.repeat(1024 * 1024) } }) });
    expect(res.status).toBe(413);
    expect(res.json.code).toBe(413);
  });

  it('never crashes on odd JSON', async () => {
    for (const raw of [
      'null',
      '[]',
      '"request"',
      '{"request": null}',
      '{"request": []}',
      '{"request": {"order": {"shipments": [null, 1, "x"]}}}',
      '['.repeat(100_000),
    ]) {
      const res = await call(url(), 'POST', '/orders/', { raw });
      expect(res.status).toBe(400);
      expect(res.json.code).toBe(400);
    }
  });
});

describe('credentials settings', () => {
  it('without an API key takes any bearer token, but still demands the header', async () => {
    const open = await startSandbox();
    try {
      expect((await call(open.url, 'POST', '/orders/', { body: orderRequest(), auth: null })).status).toBe(401);
      expect((await call(open.url, 'POST', '/orders/', { body: orderRequest(), auth: 'Bearer ' })).status).toBe(401);
      expect((await call(open.url, 'POST', '/orders/', { body: orderRequest(), auth: 'Bearer whatever' })).status).toBe(200);
    } finally {
      await open.close();
    }
  });

  it('reads a custom header name and prefix', async () => {
    const custom = await startSandbox({ apiKey: 'k-123', authHeader: 'X-Api-Key', authPrefix: '' });
    try {
      const res = await fetch(`${custom.url}orders/`, {
        method: 'POST',
        headers: { 'x-api-key': 'k-123', 'content-type': 'application/json' },
        body: JSON.stringify({ request: orderRequest() }),
      });
      expect(res.status).toBe(200);
      expect((await call(custom.url, 'POST', '/orders/', { body: orderRequest(), auth: 'Bearer k-123' })).status).toBe(401);
    } finally {
      await custom.close();
    }
  });
});

describe('closing', () => {
  it('cancels pending bookings and stops the server', async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    // A booking due in ten minutes: close must not wait for it (the test would time out).
    const own = await startSandbox({ processingDelayMs: 600_000 });
    const res = await call(own.url, 'POST', '/orders/', { body: orderRequest(), auth: 'Bearer anything-goes' });
    expect(res.status).toBe(200);
    const id = res.json.result.order.id;
    expect(
      (await call(own.url, 'PUT', `/orders/${id}/accept/`, { body: { order: { payment: { type: 'credit' } }, callback: receiver.url }, auth: 'Bearer x' }))
        .status,
    ).toBe(201);
    await own.close();
    expect(own.state.findOrder(id)?.status).toBe('ACC');
    await expect(fetch(own.url)).rejects.toThrow();
    expect(receiver.bodies).toHaveLength(0);
  });
});

describe('closing with a callback in flight', () => {
  it('aborts a callback whose receiver never answers', async () => {
    const { createServer } = await import('node:http');
    let hits = 0;
    const silent = createServer(() => {
      hits++; // never answers
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    const own = await startSandbox({ processingDelayMs: 0 });
    try {
      const created = await call(own.url, 'POST', '/orders/', { body: orderRequest() });
      const id = created.json.result.order.id;
      await call(own.url, 'PUT', `/orders/${id}/accept/`, { body: { order: { payment: { type: 'credit' } }, callback: `http://127.0.0.1:${port}/cb` } });
      await waitFor(() => (hits > 0 ? true : undefined));
      // Aborted by close, not ended by its own timeout: the record says which.
      await own.close();
      expect(own.state.callbacks[0]).toMatchObject({ orderId: id, attempts: 1, state: 'aborted' });
    } finally {
      await own.close();
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
