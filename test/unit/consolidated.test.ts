/** Consolidated mail, pure logic: the schemas of its documents, telling a parent's shipments apart, and merging combine input. */
import { PLAIN_HINTS } from '../../src/shell.js';
import { settleFixturePickups } from '../helpers/pickup-days.js';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { combineHint } from '../../src/output/hints.js';
import { splitParent, sumOfTotals, summaryMismatch, withoutTrackingNumber } from '../../src/schema/parent.js';
import { mergeCombine } from '../../src/commands/shipment/combine.js';
import { UsageError } from '../../src/errors.js';
import { combineRequest, createShipmentRequest, leavingAustraliaShipment } from '../../src/schema/combine.js';
import { combineFile, consolidatedBooking, isConsolidatedDocument, shipmentDocument } from '../../src/schema/consolidated.js';
import { schemaProblems } from '../../src/schema/issues.js';
import { orderResponse } from '../../src/schema/order.js';
import { shipmentRequest } from '../../src/schema/shipment.js';

const fixture = (path: string) => settleFixturePickups(parse(readFileSync(path, 'utf8'))) as Record<string, any>;
const problems = (schema: { safeParse(v: unknown): { success: boolean; error?: unknown } }, value: unknown) => {
  const r = schema.safeParse(value);
  return r.success ? [] : schemaProblems(r.error as never).map((p) => `${p.path}: ${p.message}`);
};

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAABAAAAAGCAAAAADvF0E7AAAAGUlEQVR42mP4jwYYsAkwIDOAmAEJYFeBCgAVMk2zgTvzGgAAAABJRU5ErkJggg==';

describe('fixtures', () => {
  it('accepts every shipment, consolidated and combine fixture', () => {
    for (const f of ['au-us-1', 'au-gb-2', 'au-jp-1']) expect(problems(createShipmentRequest, fixture(`fixtures/shipments/${f}.yaml`))).toEqual([]);
    expect(problems(shipmentRequest('shipment'), fixture('fixtures/shipments/main-to-hub.yaml').main_shipment)).toEqual([]);
    for (const f of ['three-parcels', 'port-melbourne-nz-jp', 'eagle-farm-free-pickup']) {
      const doc = fixture(`fixtures/consolidated/${f}.yaml`);
      expect(problems(consolidatedBooking, doc)).toEqual([]);
      expect(isConsolidatedDocument(doc)).toBe(true);
    }
    expect(problems(combineRequest, fixture('fixtures/combine/two-parcels-to-hub.yaml'))).toEqual([]);
  });
});

describe('create shipment differs from create order', () => {
  const child = () => fixture('fixtures/shipments/au-us-1.yaml').shipment;

  it('takes service.options as an object and lithium as optional', () => {
    const s = { ...child(), service: { code: 'SB-GLOBAL-MAIL', options: { insurance: true } } };
    expect(problems(leavingAustraliaShipment, s)).toEqual([]);
    expect(problems(leavingAustraliaShipment, { ...s, service: { code: 'SB-GLOBAL-MAIL', options: ['insurance'] } })).toEqual([
      'service.options: expected an object such as {insurance: true} (got a list)',
    ]);
    expect(s.customs_information.lithium).toBeUndefined();
  });

  it('allows text longer than the create-order limits of 35 characters', () => {
    const s = child();
    s.description = 'Hand-thrown stoneware tea set with four matching cups';
    s.delivery.address_lines = ['Apartment 5C, Chelsea Gardens Residences', '245 West 34th Street'];
    expect(problems(leavingAustraliaShipment, s)).toEqual([]);
  });

  it('checks options.digital_signature by its bytes: PNG and JPG pass, anything else fails', () => {
    const jpg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46]).toString('base64');
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1').toString('base64');
    expect(problems(leavingAustraliaShipment, { ...child(), options: { digital_signature: PNG } })).toEqual([]);
    expect(problems(leavingAustraliaShipment, { ...child(), options: { digital_signature: jpg } })).toEqual([]);
    expect(problems(leavingAustraliaShipment, { ...child(), options: { digital_signature: gif } })).toEqual([
      'options.digital_signature: must be a BASE64-encoded PNG or JPG image',
    ]);
    expect(problems(leavingAustraliaShipment, { ...child(), options: { digital_signature: 'not base64!' } })).toHaveLength(1);
  });

  it('holds the total item value to 7500 AUD, summed exactly', () => {
    const s = child();
    s.customs_information.items = [{ description: 'Opal pendant', quantity: 3, value: '2500.00', currency: 'AUD', madein: 'AU' }];
    expect(problems(leavingAustraliaShipment, s)).toEqual([]);
    s.customs_information.items.push({ description: 'Gift box', quantity: 1, value: 0.01, currency: 'AUD', madein: 'AU' });
    expect(problems(leavingAustraliaShipment, s)).toEqual(['customs_information.items: total item value at most 7500.00 AUD (got 7500.01)']);
  });

  it('only takes shipments leaving Australia', () => {
    // Collected by pickup, so the rule of dropoff (leaving Australia too) does not speak as well.
    const pickedUp = () => {
      const c = child();
      c.collection_type = 'pickup';
      c.collection.pickup = { date: '2026-12-01', time_earliest: '09:00', time_latest: '15:00' };
      return c;
    };
    const domestic = pickedUp();
    domestic.delivery.country = 'au';
    expect(problems(createShipmentRequest, { shipment: domestic })).toEqual([
      'shipment.delivery.country: create shipment (consolidated mail) is only for shipments leaving Australia; send a domestic parcel with "shipbook order create"',
    ]);
    const inbound = pickedUp();
    inbound.collection.country = 'NZ';
    expect(problems(createShipmentRequest, { shipment: inbound })).toEqual([
      'shipment.collection.country: create shipment (consolidated mail) is only for shipments leaving Australia: collect in AU (got NZ)',
    ]);
  });
});

describe('documents', () => {
  it('tells a consolidated booking from an order', () => {
    expect(isConsolidatedDocument(fixture('fixtures/orders/domestic-syd-mel.yaml'))).toBe(false);
    expect(isConsolidatedDocument({ shipments: [{ service: {} }] })).toBe(true);
    expect(isConsolidatedDocument({ main_shipment: {} })).toBe(true);
    expect(isConsolidatedDocument({ shipments: ['SHP-1'] })).toBe(false);
    expect(isConsolidatedDocument({ order: { shipments: [{}] }, main_shipment: {} })).toBe(false);
    expect(isConsolidatedDocument([])).toBe(false);
  });

  it('reads one shipment from {shipment}, {main_shipment} or the shipment itself, keeping the wrapper in field paths', () => {
    const hub = fixture('fixtures/shipments/main-to-hub.yaml').main_shipment;
    for (const doc of [{ shipment: hub }, { main_shipment: hub, shipments: ['SHP-1'] }, hub]) {
      const parsed = shipmentDocument(doc).parse(doc);
      expect(parsed.delivery.city).toBe('Mascot');
      expect(parsed.customs_information.items[0]!.value.cents).toBe(51_590);
    }
    const broken = { ...hub, description: undefined };
    expect(problems(shipmentDocument({ shipment: broken }), { shipment: broken })).toEqual(['shipment.description: required']);
    expect(problems(shipmentDocument({ main_shipment: broken }), { main_shipment: broken })).toEqual(['main_shipment.description: required']);
    expect(problems(shipmentDocument(broken), broken)).toEqual(['description: required']);
  });

  it('refuses an unknown field beside shipment: or main_shipment: as validate does, instead of dropping it', () => {
    const hub = fixture('fixtures/shipments/main-to-hub.yaml').main_shipment;
    const wrapped = { shipment: hub, insurance: true };
    expect(problems(shipmentDocument(wrapped), wrapped)).toEqual(['insurance: unknown field']);
    const main = { main_shipment: hub, refrence: 'X-1' };
    expect(problems(shipmentDocument(main), main)).toEqual(['refrence: unknown field']);
  });

  it('reports a misspelt top-level field of a consolidated booking, so nothing is created without the main shipment', () => {
    const { main_shipment, ...doc } = fixture('fixtures/consolidated/three-parcels.yaml');
    const misspelt = { ...doc, main_shipmnet: main_shipment };
    expect(isConsolidatedDocument(misspelt)).toBe(true);
    expect(problems(consolidatedBooking, misspelt)).toEqual(['main_shipmnet: unknown field']);
  });

  it('reads a combine file with or without ids', () => {
    const doc = fixture('fixtures/combine/two-parcels-to-hub.yaml');
    expect(combineFile.parse(doc).shipments).toEqual(['SHP-EXAMPLE1', 'SHP-EXAMPLE2']);
    expect(combineFile.parse({ main_shipment: doc.main_shipment }).shipments).toBeUndefined();
    expect(problems(combineRequest, { shipments: ['SHP-A', 'SHP-B', 'SHP-A'] })).toEqual(['shipments[2]: shipment id SHP-A given twice']);
  });
});

describe('mergeCombine', () => {
  const main = shipmentRequest('shipment').parse(fixture('fixtures/shipments/main-to-hub.yaml').main_shipment);
  const file = combineFile.parse(fixture('fixtures/combine/two-parcels-to-hub.yaml'));

  it('takes ids from the arguments over the file, and --main over the file', () => {
    const merged = mergeCombine(['SHP-AAAA1111', 'SHP-BBBB2222'], file, undefined);
    expect(merged.shipments).toEqual(['SHP-AAAA1111', 'SHP-BBBB2222']);
    expect(merged.main_shipment?.transient_id).toBe('KC-MAIN-1203');
    expect(mergeCombine([], file, main)).toMatchObject({ shipments: ['SHP-EXAMPLE1', 'SHP-EXAMPLE2'], main_shipment: { transient_id: 'KC-MAIN-1201' } });
  });

  it('sends no main shipment when none is given (free pickup is for the service to decide)', () => {
    expect(mergeCombine(['SHP-1'], undefined, undefined)).toEqual({ shipments: ['SHP-1'] });
  });

  it('refuses no ids at all, and an id given twice, as usage errors', () => {
    expect(() => mergeCombine([], undefined, main)).toThrow(UsageError);
    expect(() => mergeCombine([], { main_shipment: main }, undefined)).toThrow(/no shipment ids to combine/);
    expect(() => mergeCombine(['SHP-1', 'SHP-2', 'SHP-1'], undefined, main)).toThrow('shipment id SHP-1 is given twice');
  });
});

describe('a parent order', () => {
  const shipment = (id: string, total: string, tracking = 'N/A') => ({
    id,
    status: 'NEW',
    tracking_number: tracking,
    service: { code: 'X', price: { total, amount: total } },
  });
  const parent = orderResponse.parse({
    id: 'ORD-1',
    status: 'NEW',
    price: { amount: '150.33', insurance: '0.00', gst: '0.00', total: '150.33', summary_child_shipments: '100.30' },
    shipments: [shipment('SHP-A', '0.10'), shipment('SHP-MAIN', '50.03', 'SBX1'), shipment('SHP-B', '100.20')],
  });

  it('is split into the children, in the order combined, and the main shipment', () => {
    const parts = splitParent(parent, ['SHP-B', 'SHP-A']);
    expect(parts.children.map((s) => s.id)).toEqual(['SHP-B', 'SHP-A']);
    expect(parts.main?.id).toBe('SHP-MAIN');
    expect(parts.missing).toEqual([]);
    expect(splitParent(parent, ['SHP-A', 'SHP-B', 'SHP-GONE']).missing).toEqual(['SHP-GONE']);
    expect(splitParent({ shipments: parent.shipments.filter((s) => s.id !== 'SHP-MAIN') }, ['SHP-A', 'SHP-B']).main).toBeUndefined();
  });

  it('sums the children to the cent (0.10 + 100.20 = 100.30, not 100.30000000000001)', () => {
    const { children } = splitParent(parent, ['SHP-A', 'SHP-B']);
    expect(sumOfTotals(children).cents).toBe(10_030);
    expect(summaryMismatch(parent, children)).toBeUndefined();
    expect(summaryMismatch(parent, children.slice(0, 1))).toBe(
      "the service's summary_child_shipments (100.30 AUD) differs from the sum of the children's prices (0.10 AUD)",
    );
    expect(summaryMismatch({ price: undefined }, children)).toBeUndefined();
  });

  it('lists the shipments still without a tracking number', () => {
    expect(withoutTrackingNumber(parent)).toEqual(['SHP-A', 'SHP-B']);
  });
});

describe('combineHint', () => {
  it('names the ids and the file holding the main shipment', () => {
    expect(combineHint(PLAIN_HINTS, ['SHP-A', 'SHP-B'], 'fixtures/consolidated/three-parcels.yaml', true)).toBe(
      'shipbook shipment combine SHP-A SHP-B --main fixtures/consolidated/three-parcels.yaml',
    );
    expect(combineHint(PLAIN_HINTS, ['SHP-A'], '-', true, true)).toBe(
      'shipbook shipment combine SHP-A <ids of the other shipments> --main <file with the main shipment>',
    );
    expect(combineHint(PLAIN_HINTS, ['SHP-A'], 'x.yaml', false)).toBe('shipbook shipment combine SHP-A');
  });
});
