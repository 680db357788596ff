/** The hand-over sheet as data: weights converted to kilograms, and the grouping by collection address, pickup date and carrier. */
import { describe, expect, it } from 'vitest';
import { buildSheet, sheetShipmentsOf, totalKg, type SheetOrder, type SheetShipment } from '../../src/ledger/reports/sheet.js';
import { orderResponse } from '../../src/schema/order.js';

describe('weights in kilograms', () => {
  it('converts pounds (packages in inches) and keeps kilograms (packages in centimetres), to the gram', () => {
    expect(totalKg([{ weight: 1, unit: 'in' }])).toBe(0.454);
    expect(totalKg([{ weight: 10, unit: 'in' }])).toBe(4.536);
    expect(
      totalKg([
        { weight: 6.5, unit: 'cm' },
        { weight: 2.5, unit: 'cm' },
      ]),
    ).toBe(9);
    expect(
      totalKg([
        { weight: 2.2046226, unit: 'in' },
        { weight: 1, unit: 'cm' },
      ]),
    ).toBe(2);
    expect(totalKg([])).toBe(0);
  });

  it('reads what the sheet needs from an order as the service answered it (unit_weight in any case, pickup date with a time part)', () => {
    const order = orderResponse.parse({
      id: 'ORD-1',
      status: 'ACC',
      shipments: [
        {
          id: 'SHP-1',
          tracking_number: 'N/A',
          service: { code: 'SB-DOM-ROAD', name: 'Road\nExpress' },
          collection: {
            company: 'Harbour Homewares',
            address_lines: ['Unit 4, 18 Bourke Road'],
            city: 'Alexandria',
            postcode: '2015',
            country: 'AU',
            pickup: { date: '2026-12-01T00:00:00' },
          },
          delivery: { city: 'Melbourne', country: 'AU' },
          packages: [
            { length: 10, width: 10, height: 10, weight: 5, unit_weight: 'IN' },
            { length: 10, width: 10, height: 10, weight: 2, unit_weight: 'cm' },
          ],
        },
      ],
    });
    expect(sheetShipmentsOf(order)).toEqual([
      {
        id: 'SHP-1',
        svc: 'SB-DOM-ROAD',
        svc_name: 'Road Express',
        city: 'Melbourne',
        country: 'AU',
        pkgs: 2,
        kg: 4.268,
        from: 'Harbour Homewares, Unit 4, 18 Bourke Road, Alexandria 2015, AU',
        pickup: '2026-12-01',
      },
    ]);
  });
});

/** A shipment picked up at `from` on `pickup`. */
function shipment(id: string, from: string | undefined, pickup: string | undefined, svc: string, kg = 1, pkgs = 1): SheetShipment {
  return { id, svc, svc_name: `${svc} service`, city: 'Melbourne', country: 'AU', pkgs, kg, ...(from ? { from } : {}), ...(pickup ? { pickup } : {}) };
}

/** An order of one or more shipments. */
function order(orderId: string, stage: SheetOrder['stage'], shipments: SheetShipment[], extra: Partial<SheetOrder> = {}): SheetOrder {
  return {
    orderId,
    stage,
    createdDay: '2026-11-30',
    shipments,
    ...(stage === 'processed' ? { tracking: shipments.map((s) => `T-${s.id}`) } : {}),
    ...extra,
  };
}

const CARRIERS: Record<string, string> = { ROAD: 'StarTrack', EXP: 'Australia Post', INTL: 'DHL Express' };
const carrierOf = (code: string | undefined) => CARRIERS[code ?? ''] ?? code ?? '?';

describe('the grouping of the sheet', () => {
  const orders: SheetOrder[] = [
    order('ORD-A', 'processed', [shipment('A1', 'Warehouse 1', '2026-12-01', 'ROAD', 2.5, 2), shipment('A2', 'Warehouse 1', '2026-12-01', 'EXP', 1)]),
    order('ORD-B', 'processed', [shipment('B1', 'Warehouse 2', '2026-12-01', 'ROAD', 4)]),
    order('ORD-C', 'processed', [shipment('C1', 'Warehouse 1', '2026-12-01', 'ROAD', 0.5)], { profile: 'other' }),
    order('ORD-D', 'accepted', [shipment('D1', 'Warehouse 1', '2026-12-01', 'ROAD')]),
    order('ORD-E', 'cancelled', [shipment('E1', 'Warehouse 1', '2026-12-01', 'ROAD')]),
    order('ORD-F', 'created', [shipment('F1', 'Warehouse 1', '2026-12-01', 'ROAD')]),
    order('ORD-G', 'processed', [shipment('G1', 'Warehouse 1', '2026-12-02', 'ROAD')]),
    // A drop-off: no pickup date, on the sheet of the day its order was created.
    order('ORD-H', 'processed', [shipment('H1', undefined, undefined, 'INTL', 1.2)], { createdDay: '2026-12-01' }),
  ];

  it('makes one section per collection address and pickup date, then one group per carrier, with totals', () => {
    const sheet = buildSheet(orders, { date: '2026-12-01' }, carrierOf);
    // Sections sorted by collection address, then pickup date.
    expect(sheet.sections.map((s) => [s.collection, s.pickup_date, s.carriers.map((c) => [c.carrier, c.lines.map((l) => l.tracking)])])).toEqual([
      ['drop-off (no collection)', '2026-12-01', [['DHL Express', ['T-H1']]]],
      [
        'Warehouse 1',
        '2026-12-01',
        [
          ['Australia Post', ['T-A2']],
          ['StarTrack', ['T-A1', 'T-C1']],
        ],
      ],
      ['Warehouse 2', '2026-12-01', [['StarTrack', ['T-B1']]]],
    ]);
    expect(sheet.sections[1]!.totals).toEqual({ shipments: 3, packages: 4, weight_kg: 4 });
    expect(sheet.sections[1]!.carriers[1]!.totals).toEqual({ shipments: 2, packages: 3, weight_kg: 3 });
    expect(sheet.totals).toEqual({ shipments: 5, packages: 6, weight_kg: 9.2 });
    expect(sheet.no_tracking_yet.map((p) => p.order_id)).toEqual(['ORD-D']);
    expect(sheet.cancelled).toBe(1);
    expect(sheet.not_accepted).toBe(1);
    expect(sheet.sections[1]!.carriers[0]!.lines[0]).toEqual({
      tracking: 'T-A2',
      order_id: 'ORD-A',
      shipment_id: 'A2',
      city: 'Melbourne',
      country: 'AU',
      packages: 1,
      weight_kg: 1,
      service: 'EXP service',
    });
  });

  it('filters by collection, carrier (name or service code) and profile', () => {
    const tracking = (f: Parameters<typeof buildSheet>[1]) =>
      buildSheet(orders, f, carrierOf).sections.flatMap((s) => s.carriers.flatMap((c) => c.lines.map((l) => l.tracking)));
    expect(tracking({ date: '2026-12-01', collection: 'warehouse 2' })).toEqual(['T-B1']);
    expect(tracking({ date: '2026-12-01', carrier: 'startrack' })).toEqual(['T-A1', 'T-C1', 'T-B1']);
    expect(tracking({ date: '2026-12-01', collection: 'drop-off' })).toEqual(['T-H1']);
    expect(tracking({ date: '2026-12-01', carrier: 'EXP' })).toEqual(['T-A2']);
    expect(tracking({ date: '2026-12-01', profile: 'other' })).toEqual(['T-C1']);
    expect(tracking({ date: '2026-12-02' })).toEqual(['T-G1']);
  });

  it('gives an empty sheet for a day with nothing booked', () => {
    const sheet = buildSheet(orders, { date: '2001-01-01' }, carrierOf);
    expect(sheet).toEqual({
      date: '2001-01-01',
      sections: [],
      no_tracking_yet: [],
      cancelled: 0,
      not_accepted: 0,
      totals: { shipments: 0, packages: 0, weight_kg: 0 },
      scanned: 0,
    });
  });
});
