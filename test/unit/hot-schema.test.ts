/**
 * Hot-path parsing (src/schema/hot.ts): after COMPILE_AFTER uses a schema is parsed by its
 * z.compile()d form, which must give exactly what the schema gives: the same output for valid
 * input, the same issues for invalid input.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import { COMPILE_AFTER, safeParseHot } from '../../src/schema/hot.js';
import { orderResult, createOrderRequest } from '../../src/schema/order.js';
import { quoteRequest } from '../../src/schema/quote.js';

const root = join(import.meta.dirname, '..', '..');
const orderDoc = parse(readFileSync(join(root, 'fixtures', 'orders', 'domestic-syd-mel.yaml'), 'utf8')) as Record<string, unknown>;
const order = (orderDoc.request ?? orderDoc) as Record<string, unknown>;
const quote = {
  collection_country: 'au',
  collection_postcode: 2000,
  collection_city: 'Sydney',
  delivery_country: 'AU',
  delivery_postcode: '3000',
  delivery_city: 'Melbourne',
  packages: [{ length: '30', width: 20, height: 15, weight: 2.5, unit: 'CM' }],
  currency: 'aud',
  insurance: 'true',
  value: '120.50',
};
const orderAnswer = {
  order: {
    id: 'ORD-1',
    status: 'ACC',
    price: { amount: '19.00', insurance: '0.00', gst: '1.90', total: '20.90', currency: 'AUD' },
    shipments: [
      {
        id: 'SHP-1',
        status: 'NEW',
        tracking_number: 'N/A',
        service: { code: 'SB-DOM-ROAD', name: 'Road\nExpress' },
        packages: [{ length: '30', width: 20, height: 15, weight: 2.5, unit_weight: 'CM' }],
        delivery: { first_name: 'A', last_name: 'B', address_lines: ['1 Main St', '', ''], city: 'Melbourne', postcode: '3000', country: 'AU', company: '' },
      },
    ],
  },
};

/** The same cases through the schema and through safeParseHot, past the point where it compiles. */
function sameAsSchema(schema: Parameters<typeof safeParseHot>[0], cases: unknown[]) {
  for (let round = 0; round < COMPILE_AFTER + 2; round++) {
    for (const input of cases) {
      const hot = safeParseHot(schema, structuredClone(input));
      const plain = schema.safeParse(structuredClone(input));
      expect(hot.success).toBe(plain.success);
      if (plain.success) expect(hot.data).toEqual(plain.data);
      else expect(hot.error?.issues).toEqual(plain.error.issues);
    }
  }
  // Past the threshold the schema's own safeParse is no longer what answers: the compiled clone is.
  const calls = vi.spyOn(schema, 'safeParse');
  safeParseHot(schema, structuredClone(cases[0]));
  expect(calls).not.toHaveBeenCalled();
  calls.mockRestore();
}

describe('hot-path parsing', () => {
  it('quote requests: the same values and the same issues once compiled', () => {
    sameAsSchema(quoteRequest, [
      quote,
      { ...quote, collection_country: 'XX', packages: [{ length: -1, width: 'a', unit: 'mm' }] },
      { ...quote, currency: 'USD', insurance: 'maybe', surprise: 1 },
      {},
      null,
    ]);
  });

  it('create-order requests: the same values and the same issues once compiled', () => {
    const broken = structuredClone(order) as { order: { shipments: Array<Record<string, unknown>> } };
    broken.order.shipments[0]!.packages = [{ length: 0, width: 1, height: 1, weight: 1, unit: 'cm' }];
    broken.order.shipments[0]!.delivery = { first_name: '' };
    sameAsSchema(createOrderRequest, [order, broken, { order: { shipments: [] } }, { order: 'x' }]);
  });

  it('order answers, read leniently: the same values and the same issues once compiled', () => {
    const odd = structuredClone(orderAnswer);
    (odd.order.shipments[0] as Record<string, unknown>).packages = [{ length: 'x' }];
    sameAsSchema(orderResult, [orderAnswer, odd, { order: null }, { order: { shipments: 'none' } }]);
  });
});
