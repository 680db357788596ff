/** The cost preview of a batch: each shipment at its named service, else the cheapest; totals per carrier and overall; the caps in input order. */
import { describe, expect, it } from 'vitest';
import { chooseService, previewOrders } from '../../src/booking/preview.js';
import { Money } from '../../src/schema/money.js';
import type { QuoteServiceEntry } from '../../src/schema/quote.js';
import type { CreateOrderRequest } from '../../src/schema/order.js';

const entry = (code: string, carrier: string, cents: number) =>
  ({
    code,
    name: `${code}\nname`,
    carrier,
    global_mail: false,
    price: { currency: 'AUD', amount: new Money(cents), total: new Money(cents), gst: new Money(0), insurance: new Money(0) },
  }) as unknown as QuoteServiceEntry;
const OFFERS = [entry('EXP', 'Fast Co', 3000), entry('ROAD', 'Slow Co', 2000), entry('ALSO', 'Other Co', 2000)];

/** A regular order of shipments naming these services (undefined: none named). */
const order = (...codes: Array<string | undefined>) => ({
  kind: 'regular' as const,
  order: { order: { shipments: codes.map((code) => ({ service: code ? { code } : undefined })) } } as unknown as CreateOrderRequest,
});

describe('the cost preview', () => {
  it('prices a shipment at the service it names, else the cheapest (then by code)', () => {
    expect(chooseService('EXP', OFFERS)).toMatchObject({ entry: { code: 'EXP' }, chosen: 'named' });
    expect(chooseService(undefined, OFFERS)).toMatchObject({ entry: { code: 'ALSO' }, chosen: 'cheapest' });
    expect(chooseService('NOPE', OFFERS)).toBeUndefined();
    expect(chooseService(undefined, [])).toBeUndefined();
  });

  it('sums orders, carriers and the run, and marks orders over --max-total and past --budget in input order', async () => {
    const items = [
      { id: 'a', file: 'o.csv', line: 2, doc: order('EXP', undefined) },
      { id: 'b', file: 'o.csv', line: 4, doc: order('ROAD') },
      { id: 'c', file: 'o.csv', line: 6, doc: order('ROAD') },
      { id: 'd', file: 'o.csv', line: 8, doc: order('NOPE') },
    ];
    const p = await previewOrders(items, { quoteOf: () => ({}) as never, quote: async () => OFFERS, maxTotalCents: 4000, budgetCents: 3000 });
    expect(p.orders.map((o) => [o.id, o.totalCents, o.overMaxTotal ?? false, o.pastBudget ?? false])).toEqual([
      ['a', 5000, true, false],
      ['b', 2000, false, false],
      ['c', 2000, false, true],
      ['d', undefined, false, false],
    ]);
    expect(p.orders[3]!.problem).toBe('service NOPE is not offered for shipment 1 of o.csv:8');
    expect(p.totalCents).toBe(9000);
    expect(p.overLimit).toBe(2);
    expect(p.carriers).toEqual([
      { carrier: 'Fast Co', orders: 1, totalCents: 3000 },
      { carrier: 'Other Co', orders: 1, totalCents: 2000 },
      { carrier: 'Slow Co', orders: 2, totalCents: 4000 },
    ]);
  });
});
