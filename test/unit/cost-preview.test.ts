/** The cost preview of a batch: each shipment at the service the rules chose, else its own, else the cheapest; totals per carrier, what booking would spend and what was quoted; the caps in input order. */
import { describe, expect, it } from 'vitest';
import { chooseService, previewBatch, priceShipments } from '../../src/booking/preview.js';
import type { InputIssue } from '../../src/errors.js';
import { Money } from '../../src/schema/money.js';
import type { QuoteServiceEntry } from '../../src/schema/quote.js';
import type { CreateOrderRequest } from '../../src/schema/order.js';
import type { BatchItem } from '../../src/booking/batch/check.js';

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
  order: { order: { shipments: codes.map((code, i) => ({ transient_id: `T-${i}`, service: code ? { code } : undefined })) } } as unknown as CreateOrderRequest,
});

async function* items(list: BatchItem[]): AsyncGenerator<BatchItem> {
  yield* list;
}

describe('the cost preview', () => {
  it('prices a shipment at the service it names, else the cheapest (then by code)', () => {
    expect(chooseService('EXP', OFFERS)).toMatchObject({ entry: { code: 'EXP' }, chosen: 'named' });
    expect(chooseService(undefined, OFFERS)).toMatchObject({ entry: { code: 'ALSO' }, chosen: 'cheapest' });
    expect(chooseService('NOPE', OFFERS)).toBeUndefined();
    expect(chooseService(undefined, [])).toBeUndefined();
  });

  it("takes the rules' price of a shipment they chose, and quotes again an insured one", async () => {
    const decided = [{ ok: true, chosen: { code: 'ROAD', carrier: 'Slow Co', name: 'Road', total_cents: 1999 } }];
    const asked: boolean[] = [];
    const quote = async (_s: unknown, _w: string, insured: boolean) => (asked.push(insured), OFFERS);
    expect(await priceShipments([{ service: { code: 'ROAD' } }], 'o.yaml:1', decided, quote)).toEqual([
      { code: 'ROAD', carrier: 'Slow Co', name: 'Road', total_cents: 1999, chosen: 'rules' },
    ]);
    expect(asked).toEqual([]);
    const insured = await priceShipments([{ service: { code: 'ROAD', options: ['insurance'] } }], 'o.yaml:1', decided, quote);
    expect(insured.map((s) => [s.total_cents, s.chosen])).toEqual([[2000, 'rules']]);
    expect(asked).toEqual([true]);
  });

  it('totals what booking would spend, lists refused and unpriced orders with why, and sums every quote apart', async () => {
    const invalid: InputIssue = { file: 'o.csv', line: 10, path: 'order.shipments[0]', message: 'x is missing', severity: 'error' };
    const list: BatchItem[] = [
      { id: 'a', file: 'o.csv', line: 2, doc: order('EXP', undefined) },
      { id: 'b', file: 'o.csv', line: 4, doc: order('ROAD') },
      { id: 'c', file: 'o.csv', line: 6, doc: order('ROAD') },
      { id: 'd', file: 'o.csv', line: 8, doc: order('NOPE') },
      { id: 'e', file: 'o.csv', line: 10, issues: [invalid] },
    ];
    const p = await previewBatch(items(list), { prepared: () => undefined, quote: async () => OFFERS, maxTotalCents: 4000, budgetCents: 3000 });
    expect(p.rows.map((r) => [r.id, r.total_cents, r.refused?.cap, r.unpriced])).toEqual([
      ['a', 5000, 'max_total', undefined],
      ['b', 2000, undefined, undefined],
      ['c', 2000, 'budget', undefined],
      ['d', undefined, undefined, 'unpriceable'],
      ['e', undefined, undefined, 'invalid'],
    ]);
    expect(p.rows[0]!.shipments.map((s) => [s.code, s.chosen])).toEqual([
      ['EXP', 'named'],
      ['ALSO', 'cheapest'],
    ]);
    expect(p.rows[0]!.refused?.why).toBe('over --max-total 40.00');
    expect(p.rows[2]!.refused?.why).toBe('over --budget 30.00 (20.00 spent before it)');
    expect(p.rows[3]!.problem).toBe('service NOPE is not in the quote of o.csv:8 shipment 1');
    expect(p.rows[4]!.problem).toBe('order.shipments[0] x is missing');
    expect(p.rows[1]!.references).toEqual(['T-0']);
    expect(p.total_cents).toBe(2000);
    expect(p.quoted_cents).toBe(9000);
    expect([p.booked, p.over_limit, p.problems, p.issues.length]).toEqual([1, 2, 2, 1]);
    expect(p.carriers).toEqual([{ carrier: 'Slow Co', orders: 1, shipments: 1, total_cents: 2000 }]);
  });
});
