/**
 * The customs papers as data: totals in exact cents, weights in kilograms with pounds beside them,
 * the product catalogue's matching, what the ledger records for the papers and how its records fold,
 * which orders get papers, and the characters the fonts print.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { itemLines, itemsWithoutCode, packagesSummary, papersOf, type CommercialInvoice, type PackingSlip } from '../../src/booking/papers/build.js';
import { loadCatalogue, matchItem } from '../../src/booking/papers/catalogue.js';
import { paperFields, paperOrdersOf } from '../../src/booking/papers/ledger.js';
import { selectPaperOrders } from '../../src/booking/papers/select.js';
import type { PaperShipment } from '../../src/booking/papers/shipment.js';
import { signatureHintsOf } from '../../src/booking/papers/shipment.js';
import type { JournalRecord } from '../../src/ledger/records.js';
import { printable, unprintable } from '../../src/output/papers/charset.js';
import { orderResponse } from '../../src/schema/order.js';

const dir = mkdtempSync(join(tmpdir(), 'shipbook-papers-unit-'));

/** An address of a response. */
const address = (country: string, city: string) => ({
  first_name: 'Ana',
  last_name: 'Silva',
  email: 'ana@example.com',
  phone: '+61 2 9555 0100',
  country,
  postcode: '2000',
  city,
  address_lines: ['1 George Street', '', ''],
});

/** A shipment of a response going to `country`. */
const shipment = (id: string, country: string, extra: Record<string, unknown> = {}) => ({
  id,
  status: 'NEW',
  tracking_number: 'N/A',
  collection_type: 'pickup',
  description: 'Goods',
  collection: { ...address('AU', 'Sydney'), company: 'Harbour Tea', pickup: { date: '2026-11-30T00:00:00' } },
  delivery: address(country, 'Elsewhere'),
  packages: [{ length: 12, width: 10, height: 6, weight: 4.5, unit_weight: 'IN' }],
  customs_information: {
    reason: 'Sale',
    tax_status: 'Company',
    items: [
      { description: 'Tea', quantity: 3, value: 0.1, currency: 'AUD', madein: 'AU' },
      { description: 'Pot', quantity: 2, value: '89.95', currency: 'AUD', madein: 'JP' },
    ],
  },
  ...extra,
});

describe('totals and weights', () => {
  it('sums line values in exact integer cents (3 × 0.10 is 0.30, never 0.30000000000000004)', () => {
    const { lines, total_cents } = itemLines([
      { description: 'Tea', quantity: 3, value: 10, madein: 'AU' },
      { description: 'Pot', quantity: 2, value: 8995, madein: 'JP' },
      { description: 'Card', quantity: 7, value: 1, madein: 'AU' },
    ]);
    expect(lines.map((l) => l.line_cents)).toEqual([30, 17990, 7]);
    expect(total_cents).toBe(18027);
  });

  it('gives kilograms to the gram for pounds, with the pounds beside, and no pounds for packages in centimetres', () => {
    const inches = packagesSummary([
      { length: 12, width: 10, height: 6, weight: 4.5, unit: 'in' },
      { length: 16, width: 12, height: 8, weight: 9, unit: 'in' },
    ]);
    expect(inches.lines.map((l) => [l.kg, l.lb])).toEqual([
      [2.041, 4.5],
      [4.082, 9],
    ]);
    expect(inches.gross_kg).toBe(6.123);
    expect(inches.gross_lb).toBe(13.5);
    const metric = packagesSummary([
      { length: 25, width: 18, height: 12, weight: 1.25, unit: 'cm' },
      { length: 20, width: 15, height: 10, weight: 0.1, unit: 'cm' },
      { length: 20, width: 15, height: 10, weight: 0.2, unit: 'cm' },
    ]);
    expect(metric.gross_kg).toBe(1.55);
    expect(metric.gross_lb).toBeUndefined();
    expect(metric.count).toBe(3);
  });
});

describe('the product catalogue', () => {
  it('matches by description (case and spaces aside), then SKU, then tag, and gives the default origin', async () => {
    const csv = join(dir, 'catalogue.csv');
    writeFileSync(csv, 'description,sku,tag,hs,origin\nCeramic teapot,,,6912.00,JP\n,BB-PEN-07,,9608.30,de\n,,tea,0902.30,AU\n');
    const catalogue = await loadCatalogue(csv);
    expect(matchItem(catalogue, '  ceramic   TEAPOT ')).toEqual({ hs: '6912.00', origin: 'JP', by: 'description' });
    expect(matchItem(catalogue, 'Fountain pen BB-PEN-07')).toEqual({ hs: '9608.30', origin: 'DE', by: 'sku' });
    expect(matchItem(catalogue, 'Lemon myrtle tea, 200g')).toEqual({ hs: '0902.30', origin: 'AU', by: 'tag' });
    expect(matchItem(catalogue, 'Teaspoon')).toBeUndefined();
    expect(matchItem(undefined, 'Ceramic teapot')).toBeUndefined();
    // An item without a country of manufacture takes the catalogue's.
    expect(itemLines([{ description: 'Ceramic teapot', quantity: 1, value: 100, madein: '' }], catalogue).lines[0]).toMatchObject({
      origin: 'JP',
      hs: '6912.00',
    });
  });

  it('reads YAML too, and names the line of each entry in error', async () => {
    const yaml = join(dir, 'catalogue.yaml');
    writeFileSync(yaml, '- description: Ceramic teapot\n  hs: "6912.00"\n- sku: X1\n  hs: "12"\n- hs: "0902.30"\n  origin: Australia\n');
    await expect(loadCatalogue(yaml)).rejects.toMatchObject({
      issues: [
        { line: 3, path: '[1].hs', message: 'expected 6 to 10 digits, dots allowed (got "12")' },
        { line: 5, path: '[2].description', message: 'required: a description, sku or tag that names the item' },
        { line: 5, path: '[2].origin', message: 'expected a two-letter country code (got "AUSTRALIA")' },
      ],
    });
    writeFileSync(yaml, 'items:\n  - description: Ceramic teapot\n    hs: "6912.00"\n');
    expect((await loadCatalogue(yaml)).entries).toEqual([{ description: 'Ceramic teapot', hs: '6912.00', line: 2 }]);
  });

  it('lists the items it has no code for, once per shipment', async () => {
    const csv = join(dir, 'only-pot.csv');
    writeFileSync(csv, 'description,hs\nPot,6912.00\n');
    const catalogue = await loadCatalogue(csv);
    const shipments = paperFields(orderResponse.parse({ id: 'ORD-1', shipments: [shipment('SHP-1', 'US')] })).papers as PaperShipment[];
    expect(itemsWithoutCode([{ orderId: 'ORD-1', date: '2026-11-27', shipments }], catalogue)).toEqual([
      { order_id: 'ORD-1', shipment_id: 'SHP-1', description: 'Tea' },
    ]);
  });
});

describe('what the ledger records, and the papers made from it', () => {
  it('records nothing for a domestic order, and everything the papers need for an international one', () => {
    expect(paperFields(orderResponse.parse({ id: 'ORD-D', shipments: [shipment('SHP-D', 'AU')] }))).toEqual({});
    const [s] = paperFields(orderResponse.parse({ id: 'ORD-1', shipments: [shipment('SHP-1', 'US')] })).papers as PaperShipment[];
    expect(s).toMatchObject({
      id: 'SHP-1',
      delivery: { country: 'US', address_lines: ['1 George Street'], phone: '+61 2 9555 0100', email: 'ana@example.com' },
      collection: { company: 'Harbour Tea' },
      packages: [{ length: 12, width: 10, height: 6, weight: 4.5, unit: 'in' }],
      customs: { reason: 'Sale', tax_status: 'Company', items: [{ description: 'Tea', quantity: 3, value: 10, madein: 'AU' }, { value: 8995 }] },
    });
  });

  it('keeps the signature of the document, and for consolidated mail takes the main shipment as the shipper of the children', () => {
    const sig = 'iVBORw0KGgo=';
    const hints = signatureHintsOf({
      kind: 'consolidated',
      booking: { shipments: [{ transient_id: 'GB-1', options: { digital_signature: sig } }], main_shipment: { transient_id: 'MAIN' } },
    } as never);
    const parent = orderResponse.parse({
      id: 'ORD-P',
      shipments: [
        shipment('SHP-GB', 'GB', { transient_id: 'GB-1', collection_type: 'dropoff', collection: { ...address('AU', 'Mascot'), company: 'Hub' } }),
        shipment('SHP-NZ', 'NZ', { collection_type: 'dropoff', collection: { ...address('AU', 'Mascot'), company: 'Hub' } }),
        shipment('SHP-MAIN', 'AU', { transient_id: 'MAIN', collection: { ...address('AU', 'Sydney'), company: 'Harbour Tea' } }),
      ],
    });
    const shipments = paperFields(parent, ['SHP-GB', 'SHP-NZ'], hints).papers as PaperShipment[];
    expect(shipments.map((s) => [s.id, s.main === true, s.signature])).toEqual([
      ['SHP-GB', false, sig],
      ['SHP-NZ', false, undefined],
      ['SHP-MAIN', true, undefined],
    ]);
    const papers = papersOf({ orderId: 'ORD-P', date: '2026-11-27', shipments, tracking: ['T-GB', 'T-NZ', 'T-MAIN'] }, { invoice: true, packingSlip: true });
    // Two shipments abroad, an invoice and a slip each; the main shipment stays in Australia.
    expect(papers.map((p) => [p.kind, p.shipment_id, p.tracking_number])).toEqual([
      ['invoice', 'SHP-GB', 'T-GB'],
      ['packing_slip', 'SHP-GB', 'T-GB'],
      ['invoice', 'SHP-NZ', 'T-NZ'],
      ['packing_slip', 'SHP-NZ', 'T-NZ'],
    ]);
    const invoice = papers[0] as CommercialInvoice;
    expect(invoice.shipper?.company).toBe('Harbour Tea');
    expect(invoice.signature.image).toBe(sig);
    expect(invoice.total_cents).toBe(30 + 17990);
    expect(invoice.invoice_number).toBe('ORD-P');
    // Combined by hand, the main shipment is not marked: it is still found, and still the shipper.
    const byHand = paperFields(parent).papers as PaperShipment[];
    expect(byHand.some((s) => s.main === true)).toBe(false);
    const [handInvoice] = papersOf({ orderId: 'ORD-P', date: '2026-11-27', shipments: byHand }, { invoice: true, packingSlip: false }) as CommercialInvoice[];
    expect(handInvoice!.shipper?.company).toBe('Harbour Tea');
    // The profile's signature stands in where the document gave none.
    expect(
      (papersOf({ orderId: 'ORD-P', date: '2026-11-27', shipments }, { invoice: true, packingSlip: false }, { signature: 'PROFILE' })[1] as CommercialInvoice)
        .signature.image,
    ).toBe('PROFILE');
  });

  it('makes a gift slip without values', () => {
    const shipments = paperFields(orderResponse.parse({ id: 'ORD-1', shipments: [shipment('SHP-1', 'US')] })).papers as PaperShipment[];
    const [slip] = papersOf({ orderId: 'ORD-1', date: '2026-11-27', shipments }, { invoice: false, packingSlip: true, noPrices: true }) as PackingSlip[];
    expect(slip!.prices).toBe(false);
    expect(slip!.total_cents).toBeUndefined();
    expect(slip!.items).toEqual([
      { description: 'Tea', quantity: 3, origin: 'AU' },
      { description: 'Pot', quantity: 2, origin: 'JP' },
    ]);
  });

  it('folds the records of the ledger, and chooses orders by id, tracking number and day, saying why one gets none', async () => {
    const intl = orderResponse.parse({ id: 'ORD-1', shipments: [shipment('SHP-1', 'US')] });
    const records: JournalRecord[] = [
      {
        t: '2026-11-27T01:00:00.000Z',
        id: 'doc-1',
        event: 'created',
        order_id: 'ORD-1',
        sheet: [{ id: 'SHP-1', pkgs: 1, kg: 2, country: 'US', pickup: '2026-11-30' }],
        ...paperFields(intl),
      },
      { t: '2026-11-27T01:00:01.000Z', id: 'doc-1', event: 'accepted', order_id: 'ORD-1' },
      { t: '2026-11-27T01:00:02.000Z', id: 'doc-1', event: 'processed', order_id: 'ORD-1', tracking_numbers: ['SBX1'] },
      {
        t: '2026-11-27T01:00:03.000Z',
        id: 'doc-2',
        event: 'created',
        order_id: 'ORD-2',
        sheet: [{ id: 'SHP-2', pkgs: 1, kg: 2, country: 'AU', pickup: '2026-11-30' }],
      },
      { t: '2026-11-27T01:00:04.000Z', id: 'doc-3', event: 'created', order_id: 'ORD-3', sheet: [{ id: 'SHP-3', pkgs: 1, kg: 2, country: 'NZ' }] },
      { t: '2026-11-27T01:00:05.000Z', id: 'doc-1', event: 'papers', order_id: 'ORD-1', files: ['papers/ORD-1-papers.pdf'] },
    ];
    const all = await paperOrdersOf(
      (async function* () {
        yield* records;
      })(),
    );
    expect(all.map((o) => [o.orderId, o.stage, o.recorded])).toEqual([
      ['ORD-1', 'processed', true],
      ['ORD-2', 'created', false],
      ['ORD-3', 'created', false],
    ]);
    expect(all[0]!.made).toEqual([{ t: '2026-11-27T01:00:05.000Z', files: ['papers/ORD-1-papers.pdf'] }]);
    expect(selectPaperOrders(all, { names: ['SBX1'] }).orders.map((o) => o.orderId)).toEqual(['ORD-1']);
    const day = selectPaperOrders(all, { date: '2026-11-30' });
    expect(day.orders.map((o) => o.orderId)).toEqual(['ORD-1']);
    expect(day.notes).toEqual([{ kind: 'domestic', order_id: 'ORD-2' }]);
    const other = selectPaperOrders(all, { names: ['ORD-3', 'ORD-404'] });
    expect(other.notes).toEqual([{ kind: 'not_recorded', order_id: 'ORD-3' }]);
    expect(other.unknown).toEqual(['ORD-404']);
  });
});

describe('the characters the fonts print', () => {
  it('prints Western European letters as they are, others without their accent, the rest as ?', () => {
    expect(printable("Zoë Brennan, José Álvarez, Siobhán O'Neill, Œuvre €5")).toBe("Zoë Brennan, José Álvarez, Siobhán O'Neill, Œuvre €5");
    expect(printable('Mere Tūhoe, Łódź, Dvořák')).toBe('Mere Tuhoe, Lódz, Dvorák');
    expect(printable('李小龍 Ψ')).toBe('??? ?');
    expect(unprintable(['Tūhoe', 'Łódź', '李', 'Tūi'])).toEqual([
      { char: 'ū', shown_as: 'u' },
      { char: 'Ł', shown_as: 'L' },
      { char: 'ź', shown_as: 'z' },
      { char: '李', shown_as: '?' },
    ]);
  });
});
