/**
 * Every field the sandbox sends, checked against a response schema as strict as the interface
 * document ("Resources and their fields", "Shipment (response form)", "Quote service entry"):
 * strings are strings (never null), unknown members are refused (`z.strictObject`), prices are
 * numbers or decimal strings as each operation says. `company` is a string, never null.
 * Also: a body that is not JSON gets 415.
 */
import { settleFixturePickups } from '../helpers/pickup-days.js';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import * as z from 'zod';
import { SANDBOX_API_KEY, startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { call, orderRequest, sydneyToMelbourneShipment, waitFor } from './helpers.js';

const NOW = new Date('2026-06-01T00:00:00Z');
const decimalString = z.string().regex(/^-?\d+\.\d{2}$/);
const num = z.number();

const pickup = z.strictObject({ date: z.string().regex(/^\d{4}-\d{2}-\d{2}T00:00:00$/), time_earliest: z.string(), time_latest: z.string() });
const address = z.strictObject({
  first_name: z.string(),
  last_name: z.string(),
  company: z.string().optional(),
  email: z.string(),
  phone: z.string(),
  country: z.string().regex(/^[A-Z]{2}$/),
  postcode: z.string(),
  city: z.string(),
  address_lines: z.array(z.string()).length(3),
  pickup: pickup.optional(),
});
const pkg = z.strictObject({ length: num, width: num, height: num, weight: num, unit_weight: z.string() });
const customs = z.strictObject({
  description: z.string().optional(),
  reason: z.enum(['Gift', 'Purchase', 'Sale', 'Sample', 'Return', 'Repair', 'Personal Effects']),
  tax_status: z.enum(['Private', 'Company']),
  lithium: z.boolean(),
  items: z.array(z.strictObject({ description: z.string(), quantity: z.number().int(), value: num, currency: z.string().length(3), madein: z.string() })),
});
const numberPrice = z.strictObject({ currency: z.literal('AUD'), amount: num, total: num, gst: num, insurance: num });
const shipment = z.strictObject({
  id: z.string().regex(/^SHP-[A-Z0-9]{8}$/),
  status: z.string(),
  transient_id: z.string().optional(),
  tracking_number: z.string(),
  collection_type: z.enum(['pickup', 'dropoff']),
  description: z.string(),
  collection: address.optional(),
  delivery: address,
  packages: z.array(pkg).min(1),
  customs_information: customs,
  service: z.strictObject({
    code: z.string(),
    name: z.string(),
    price: numberPrice,
    // a list in create order; create shipment takes `{insurance}` (the document shows no list there)
    options: z.union([z.array(z.string()), z.strictObject({ insurance: z.boolean().optional() })]),
  }),
});
const order = (prices: 'numbers' | 'strings', parent = false) =>
  z.strictObject({
    id: z.string().regex(/^ORD-[A-Z0-9]{8}$/),
    status: z.string(),
    price: z.strictObject({
      currency: z.literal('AUD'),
      amount: prices === 'numbers' ? num : decimalString,
      insurance: prices === 'numbers' ? num : decimalString,
      gst: prices === 'numbers' ? num : decimalString,
      total: prices === 'numbers' ? num : decimalString,
      ...(parent ? { summary_child_shipments: decimalString } : {}),
    }),
    shipments: z.array(shipment).min(1),
  });
const envelope = <T extends z.ZodType>(result: T) => z.strictObject({ message: z.literal('OK'), code: z.number().int(), result });
const quoteEntry = z.strictObject({ code: z.string(), name: z.string(), carrier: z.string(), global_mail: z.boolean(), price: numberPrice });

function fixtureShipment(path: string): Record<string, any> {
  const doc = settleFixturePickups(parse(readFileSync(path, 'utf8'))) as Record<string, any>;
  return structuredClone(doc.shipment ?? doc.main_shipment);
}

/** Parses `json` with `schema`; the failure message lists every path that does not fit. */
function strict<T extends z.ZodType>(schema: T, json: unknown): void {
  const parsed = schema.safeParse(json);
  expect(parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual([]);
}

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: SANDBOX_API_KEY, processingDelayMs: 20, now: () => NOW, seed: 15 });
});
afterAll(() => sandbox.close());

describe('every response field matches the interface document', () => {
  it('create order, accept, fetch (pending, accepted, processed) and cancel: no null where a string is typed', async () => {
    const noCompany = sydneyToMelbourneShipment();
    delete (noCompany.collection as Record<string, unknown>).company;
    delete (noCompany.customs_information as Record<string, unknown>).description;
    const created = await call(sandbox.url, 'POST', '/orders/', { body: orderRequest(noCompany, sydneyToMelbourneShipment()) });
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    strict(envelope(z.strictObject({ order: order('numbers') })), created.json);
    expect(JSON.stringify(created.json)).not.toContain('null');
    const id = created.json.result.order.id as string;

    const fetched = await call(sandbox.url, 'GET', `/orders/${id}/`);
    strict(envelope(z.strictObject({ order: order('strings') })), fetched.json);

    const accepted = await call(sandbox.url, 'PUT', `/orders/${id}/accept/`, { body: { order: { payment: { type: 'credit' } } } });
    expect(accepted.status, JSON.stringify(accepted.json)).toBe(201);
    strict(envelope(z.strictObject({ order: order('strings') })), accepted.json);
    expect(JSON.stringify(accepted.json)).not.toContain('null');

    // the booking completes on the sandbox's timer (20 ms): waited for, however slow the machine
    const processed = await waitFor(async () => {
      const answer = await call(sandbox.url, 'GET', `/orders/${id}/`);
      return answer.json.result.order.status === 'processed' ? answer : undefined;
    });
    strict(envelope(z.strictObject({ order: order('strings') })), processed.json);

    const other = await call(sandbox.url, 'POST', '/orders/', { body: orderRequest(noCompany) });
    const cancelled = await call(sandbox.url, 'PUT', `/orders/${other.json.result.order.id}/cancel/`);
    strict(envelope(z.strictObject({ order: order('strings') })), cancelled.json);
  });

  it('create shipment and combine (with a main shipment): strict too', async () => {
    const a = fixtureShipment('fixtures/shipments/au-us-1.yaml');
    delete a.delivery.company;
    const made = await call(sandbox.url, 'POST', '/shipments/', { body: { shipment: a } });
    expect(made.status, JSON.stringify(made.json)).toBe(200);
    strict(envelope(z.strictObject({ shipment })), made.json);
    expect(JSON.stringify(made.json)).not.toContain('null');
    const b = await call(sandbox.url, 'POST', '/shipments/', { body: { shipment: fixtureShipment('fixtures/shipments/au-gb-2.yaml') } });
    const combined = await call(sandbox.url, 'PUT', '/shipments/', {
      body: { shipments: [made.json.result.shipment.id, b.json.result.shipment.id], main_shipment: fixtureShipment('fixtures/shipments/main-to-hub.yaml') },
    });
    expect(combined.status, JSON.stringify(combined.json)).toBe(200);
    strict(envelope(z.strictObject({ order: order('strings', true) })), combined.json);
    expect(JSON.stringify(combined.json)).not.toContain('null');
  });

  it('quote: service entries as the document lists them', async () => {
    const s = sydneyToMelbourneShipment();
    const res = await call(sandbox.url, 'POST', '/quote/', {
      body: {
        collection_country: 'AU',
        collection_postcode: '2000',
        collection_city: 'Sydney',
        delivery_country: 'AU',
        delivery_postcode: '3000',
        delivery_city: 'Melbourne',
        currency: 'AUD',
        packages: s.packages,
      },
    });
    if (res.status !== 200) throw new Error(JSON.stringify(res.json));
    const entries = (res.json.result.services ?? res.json.result) as unknown[];
    expect(Array.isArray(entries) && entries.length > 0).toBe(true);
    for (const e of entries) strict(quoteEntry, e);
  });
});
