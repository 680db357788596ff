import { readFileSync } from 'node:fs';
import { settleFixturePickups } from '../helpers/pickup-days.js';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { schemaProblems } from '../../src/schema/issues.js';
import { createOrderRequest, orderResult } from '../../src/schema/order.js';
import { acceptRequest, luhnValid, expiryValid } from '../../src/schema/payment.js';
import { quoteRequest, quoteResult } from '../../src/schema/quote.js';
import { callbackBody, envelope, parseCallbackBody } from '../../src/schema/envelope.js';
import { trackingNumberOf, oneLine } from '../../src/schema/shipment.js';

const fixture = (path: string) => settleFixturePickups(parse(readFileSync(path, 'utf8'))) as Record<string, unknown>;
const problems = (schema: { safeParse(v: unknown): { success: boolean; error?: unknown } }, value: unknown) => {
  const r = schema.safeParse(value);
  return r.success ? [] : schemaProblems(r.error as never).map((p) => `${p.path}: ${p.message}`);
};

describe('request schemas', () => {
  it('accepts every order fixture and sends the reason in its capitalised form', () => {
    for (const f of ['domestic-syd-mel', 'insured-bne-per', 'stored-card']) {
      expect(problems(createOrderRequest, fixture(`fixtures/orders/${f}.yaml`))).toEqual([]);
    }
    const doc = fixture('fixtures/orders/domestic-syd-mel.yaml') as { order: { shipments: Array<{ customs_information: { reason: string } }> } };
    doc.order.shipments[0]!.customs_information.reason = 'personal effects';
    const parsed = createOrderRequest.parse(doc);
    expect(parsed.order.shipments[0]!.customs_information.reason).toBe('Personal Effects');
  });

  it('names the field path of each problem', () => {
    const doc = fixture('fixtures/orders/domestic-syd-mel.yaml') as { order: { shipments: Array<Record<string, any>> } };
    const s = doc.order.shipments[0]!;
    s.delivery.address_lines = ['Level 12, 120 Collins Street', 'x'.repeat(36)];
    s.delivery.country = 'XX';
    s.packages[0].unit = 'mm';
    s.customs_information.items[0].currency = 'USD';
    expect(problems(createOrderRequest, doc)).toEqual([
      'order.shipments[0].delivery.country: unknown country code "XX" (ISO 3166-1 alpha-2, e.g. AU, US, GB)',
      'order.shipments[0].delivery.address_lines[1]: at most 35 characters (got 36)',
      'order.shipments[0].packages[0].unit: must be cm (centimetres, kilograms) or in (inches, pounds) (got "mm")',
      'order.shipments[0].customs_information.items[0].currency: only AUD is supported (got "USD")',
    ]);
  });

  it('requires a pickup for collection_type pickup, and allows dropoff only when leaving Australia', () => {
    const doc = fixture('fixtures/orders/domestic-syd-mel.yaml') as { order: { shipments: Array<Record<string, any>> } };
    delete doc.order.shipments[0]!.collection.pickup;
    expect(problems(createOrderRequest, doc)).toEqual([
      'order.shipments[0].collection.pickup: required when collection_type is pickup (date, time_earliest, time_latest)',
    ]);
    doc.order.shipments[0]!.collection_type = 'dropoff';
    expect(problems(createOrderRequest, doc)[0]).toContain('dropoff is only for shipments leaving Australia');
  });

  it('sums item values exactly against the 7500 AUD limit', () => {
    const doc = fixture('fixtures/orders/domestic-syd-mel.yaml') as { order: { shipments: Array<Record<string, any>> } };
    doc.order.shipments[0]!.customs_information.items = [{ description: 'a', quantity: 3, value: '2500.00', currency: 'AUD', madein: 'AU' }];
    expect(problems(createOrderRequest, doc)).toEqual([]);
    doc.order.shipments[0]!.customs_information.items.push({ description: 'b', quantity: 1, value: 0.01, currency: 'AUD', madein: 'AU' });
    expect(problems(createOrderRequest, doc)).toEqual(['order.shipments[0].customs_information.items: total item value at most 7500.00 AUD (got 7500.01)']);
  });

  it('reads quote fixtures, with or without the request wrapper', () => {
    expect(problems(quoteRequest, fixture('fixtures/quotes/syd-mel-single.yaml'))).toEqual([]);
    expect(problems(quoteRequest, (fixture('fixtures/quotes/mel-nyc-imperial.json') as { request: unknown }).request)).toEqual([]);
    expect(problems(quoteRequest, { ...fixture('fixtures/quotes/syd-mel-single.yaml'), packages: [] })).toEqual(['packages: at least 1 package']);
  });

  it('checks payments: Luhn, CVV, MM/YY not in the past', () => {
    expect(luhnValid('4111111111111111')).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
    const now = new Date('2026-11-21T00:00:00Z');
    expect(expiryValid('11/26', now)).toBe('ok');
    expect(expiryValid('10/26', now)).toBe('past');
    expect(expiryValid('13/27', now)).toBe('format');
    const accept = acceptRequest(() => now);
    const card = { number: '4111 1111 1111 1112', cvv: '12', holder_name: 'P', expire: '10/26' };
    expect(problems(accept, { order: { payment: { type: 'credit_card', credit_card: card } } })).toEqual([
      'order.payment.credit_card.number: not a valid card number (12 to 19 digits passing the Luhn check)',
      'order.payment.credit_card.cvv: must be 3 or 4 digits',
      'order.payment.credit_card.expire: the card has expired',
    ]);
    const saved = accept.parse({
      order: { payment: { type: 'credit_card', credit_card: { ...card, number: '4111111111111111', cvv: '123', expire: '12/30' }, options: { save: true } } },
    });
    expect(saved.order.payment).toMatchObject({ type: 'credit_card', credit_card: { save: true } });
    expect(accept.parse({ order: { payment: { type: 'stored_card', credit_card: 'card_1' } } }).order.payment).toEqual({
      type: 'stored_card',
      credit_card: 'card_1',
    });
  });
});

describe('response schemas read the quirks instead of rejecting them', () => {
  it('reads prices as numbers or decimal strings, unit_weight in any case, padded address lines and T00:00:00 dates', () => {
    const result = orderResult.parse({
      order: {
        id: 'ORD-1',
        status: 'ACC',
        price: { amount: '30.00', insurance: '0.00', gst: '3.00', total: '33.00', currency: 'AUD' },
        shipments: [
          {
            id: 'SHP-1',
            status: 'NEW',
            tracking_number: 'N/A',
            packages: [{ length: 30, width: 20, height: 15, weight: 2.5, unit_weight: 'CM' }],
            collection: { address_lines: ['1 Main St', '', ''], pickup: { date: '2026-12-01T00:00:00', time_earliest: '09:00', time_latest: '15:00' } },
            service: { code: 'X', name: 'Express Worldwide\n(Time Definite)', price: { amount: 30, insurance: 0, gst: 3, total: 33, currency: 'AUD' } },
          },
        ],
      },
    });
    const s = result.order.shipments[0]!;
    expect(result.order.price!.total.cents).toBe(3300);
    expect(s.service!.price!.total.cents).toBe(3300);
    expect(s.packages![0]!.unit).toBe('cm');
    expect(s.collection!.address_lines).toEqual(['1 Main St']);
    expect(s.collection!.pickup!.date).toBe('2026-12-01');
    expect(trackingNumberOf(s)).toBeUndefined();
    expect(oneLine(s.service!.name)).toBe('Express Worldwide (Time Definite)');
  });

  it('reads quote entries and the envelope leniently', () => {
    const r = quoteResult.parse({
      services: [
        { code: 'A', name: 'A', carrier: 'C', global_mail: 'true', price: { amount: '10.5', total: 11.55, gst: '1.05', insurance: null, currency: 'AUD' } },
      ],
    });
    expect(r.services[0]!.global_mail).toBe(true);
    expect(r.services[0]!.price.insurance.cents).toBe(0);
    expect(envelope.parse({ message: 'OK', code: '200', result: {} }).code).toBe(200);
    expect(
      callbackBody.parse({
        code: 200,
        message: 'OK',
        result: { order: { id: 'ORD-1', status: 'processed', shipments: [{ id: 'S', tracking_number: 'SBX1' }] } },
      }).result!.order!.shipments[0]!.tracking_number,
    ).toBe('SBX1');
  });
});

describe('callback bodies', () => {
  it('reads an error callback in the plain error envelope, with any result, and keeps the order it names', () => {
    const plain = parseCallbackBody({ code: 400, message: 'booking failed: no van', result: {} });
    expect(plain.success && plain.data).toMatchObject({ code: 400, message: 'booking failed: no van' });
    const withErrors = parseCallbackBody({
      code: '500',
      message: 'x',
      result: { errors: [{ field: 'order', message: 'bad' }], order: { id: 'ORD-1', status: 'REJ', shipments: 'none' } },
    });
    expect(withErrors.success && withErrors.data.result?.order).toMatchObject({ id: 'ORD-1', status: 'REJ' });
  });

  it('still refuses a success callback without a well-formed order, and anything without the envelope', () => {
    expect(parseCallbackBody({ code: 200, message: 'OK', result: { order: { status: 'processed' } } }).success).toBe(false);
    expect(parseCallbackBody({ message: 'no code' }).success).toBe(false);
    expect(callbackBody.safeParse({ code: 400, message: 'x', result: { order: { status: 'failed' } } }).success).toBe(false);
  });
});
