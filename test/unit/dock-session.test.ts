/**
 * The dock's matching (src/booking/dock/session.ts): a code against the ledger's orders, each
 * exception for its reason, label barcodes read through `scan-pattern`, and the summary.
 */
import { describe, expect, it } from 'vitest';
import { DockSession, extractorOf } from '../../src/booking/dock/session.js';
import type { SheetOrder } from '../../src/ledger/reports/sheet.js';
import { scanPatternProblem } from '../../src/config/schema.js';

const DAY = '2026-12-01';
const UNIT4 = 'Harbour Homewares, Unit 4, Alexandria 2015, AU';
const order = (id: string, stage: SheetOrder['stage'], o: { tracking?: string; day?: string; from?: string } = {}): SheetOrder => ({
  orderId: id,
  stage,
  createdDay: '2026-11-30',
  shipments: [{ id: `SHP-${id}`, svc: 'SB-DOM-ROAD', city: 'Melbourne', country: 'AU', pkgs: 1, kg: 2, from: o.from ?? UNIT4, pickup: o.day ?? DAY }],
  ...(o.tracking !== undefined ? { tracking: [o.tracking] } : {}),
});
const ORDERS: SheetOrder[] = [
  order('A', 'processed', { tracking: 'SBX0000000001' }),
  order('B', 'processed', { tracking: 'SBX0000000002' }),
  order('C', 'cancelled'),
  order('D', 'accepted'),
  order('E', 'processed', { tracking: 'SBX0000000005', day: '2026-12-02' }),
  order('F', 'processed', { tracking: 'SBX0000000006', from: 'Koala Depot, Perth, AU' }),
];
const session = (extract = extractorOf(undefined)) =>
  new DockSession({ orders: ORDERS, date: DAY, collection: 'unit 4', carrierOf: () => 'StarTrack', extract });
const at = new Date('2026-12-01T04:00:00Z');

describe('the dock session', () => {
  it('expects the processed parcels of the day at the collection, and names every exception', () => {
    const s = session();
    expect(s.expected.map((p) => p.tracking)).toEqual(['SBX0000000001', 'SBX0000000002']);
    expect(s.scan('SBX0000000001', at).kind).toBe('ok');
    expect(s.scan('SBX0000000001', at)).toMatchObject({ kind: 'already_scanned', earlier: { at: at.toISOString() } });
    expect(s.scan('SHP-C', at).kind).toBe('cancelled');
    expect(s.scan('D', at)).toMatchObject({ kind: 'not_processed', stage: 'accepted' });
    expect(s.scan('SBX0000000005', at)).toMatchObject({ kind: 'another_day', parcel: { day: '2026-12-02' } });
    expect(s.scan('SBX0000000006', at).kind).toBe('another_collection');
    expect(s.scan('nothing', at).kind).toBe('unknown');
    const summary = s.summary();
    expect(summary).toMatchObject({ expected: 2, scanned: 1, scannedHere: 1, notProcessed: 1 });
    expect(summary.missing.map((p) => p.tracking)).toEqual(['SBX0000000002']);
    expect(summary.exceptions).toEqual({ already_scanned: 1, cancelled: 1, not_processed: 1, another_day: 1, another_collection: 1, unknown: 1 });
  });

  it('counts a scan recorded by another station as scanned, and a second scan here as already scanned by it', () => {
    const s = session();
    expect(s.otherScan('SBX0000000002', { at: at.toISOString(), by: 'ann', station: 'dock-2' })?.tracking).toBe('SBX0000000002');
    expect(s.otherScan('SBX0000000002', { at: at.toISOString(), by: 'ann', station: 'dock-2' })).toBeUndefined();
    expect(s.scan('SBX0000000002', at)).toMatchObject({ kind: 'already_scanned', earlier: { by: 'ann', station: 'dock-2' } });
    expect(s.counts()).toEqual([{ carrier: 'StarTrack', expected: 2, scanned: 1 }]);
  });

  it('a scan recorded in the ledger earlier is already scanned; one confirmed not handed over is not', () => {
    const orders = ORDERS.map((o) => ({ ...o }));
    orders[0]!.dock = new Map([['SBX0000000001', { at: '2026-12-01T01:00:00Z', by: 'bob', station: 'dock-1', session: 's1' }]]);
    orders[1]!.dock = new Map([['SBX0000000002', { at: '2026-12-01T01:00:00Z', station: 'dock-1', session: 's1', not_handed_over: true as const }]]);
    const s = new DockSession({ orders, date: DAY, carrierOf: () => 'StarTrack', extract: extractorOf(undefined) });
    expect(s.scan('SBX0000000001', at)).toMatchObject({ kind: 'already_scanned', earlier: { by: 'bob' } });
    expect(s.scan('SBX0000000002', at).kind).toBe('ok');
  });

  it('reads the tracking number out of a label barcode with scan-pattern', () => {
    const extract = extractorOf('420\\d{5}(SBX\\d{10})');
    expect(extract('42020015SBX0000000001')).toBe('SBX0000000001');
    expect(extract('SBX0000000001')).toBeUndefined();
    expect(session(extract).scan('42020015SBX0000000001', at).kind).toBe('ok');
    expect(session(extract).scan('999', at).kind).toBe('unknown');
    // Without a pattern the code is the tracking number, spaces trimmed.
    expect(extractorOf(undefined)(' SBX1 ')).toBe('SBX1');
  });

  it('refuses a pattern without exactly one group, or that is no pattern', () => {
    expect(() => extractorOf('SBX\\d+')).toThrow(/capturing group/);
    expect(scanPatternProblem('SBX\\d+')).toBe('it has 0 capturing groups, not one');
    expect(scanPatternProblem('(a)(b)')).toBe('it has 2 capturing groups, not one');
    expect(scanPatternProblem('(')).toMatch(/Invalid regular expression/);
    expect(scanPatternProblem('x(SBX\\d+)')).toBeUndefined();
  });
});
