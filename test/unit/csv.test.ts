/**
 * The CSV layout of orders (src/input/csv.ts): rows grouped into orders and shipments, packages
 * and customs items per row, real-file details (BOM, CRLF, quoted commas and line breaks, `;` and
 * tab, empty rows), and problems named by file, row and column header with the field path.
 */
import { PLAIN_HINTS } from '../../src/shell.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'csv-stringify/sync';
import { csvOrders, csvRowsWithOrders } from '../../src/input/csv.js';
import type { CsvReadOptions } from '../../src/input/csv-groups.js';
import type { CsvOrder } from '../../src/input/csv-order.js';
import { orderToRows } from '../helpers/csv-rows.js';
import { CSV_COLUMNS } from '../../src/input/csv-layout.js';
import { loadCsvMapping } from '../../src/input/csv-map.js';
import { formatIssues } from '../../src/input/format.js';
import { wordIssues } from '../../src/output/issues.js';
import { validateKind } from '../../src/input/validate.js';
import { ValidationError } from '../../src/errors.js';
import { documentTags } from '../../src/booking/rules/index.js';

const NOW = () => new Date('2026-11-21T12:00:00Z');
const dir = mkdtempSync(join(tmpdir(), 'shipbook-csv-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HEADER = CSV_COLUMNS.map((c) => c.name);
/** One full row of the layout (a domestic shipment with one package and one item), overridden by `cells`. */
const row = (cells: Record<string, string> = {}) => {
  const base: Record<string, string> = Object.fromEntries(CSV_COLUMNS.map((c) => [c.name, c.example]));
  return { ...base, ...cells };
};
/** A continuation row: only the refs and what is given. */
const more = (order: string, shipment: string, cells: Record<string, string>) => ({ order_ref: order, shipment_ref: shipment, ...cells });

function csvText(rows: Array<Record<string, string>>, options: { delimiter?: string; header?: string[]; bom?: boolean; crlf?: boolean } = {}): string {
  const header = options.header ?? HEADER;
  const text = stringify([header, ...rows.map((r) => header.map((h) => r[h] ?? ''))], {
    delimiter: options.delimiter ?? ',',
    record_delimiter: options.crlf ? 'windows' : 'unix',
    quoted_match: /[\r\n]/,
  });
  return `${options.bom ? '\uFEFF' : ''}${text}`;
}

let n = 0;
async function read(text: string, options: CsvReadOptions = {}, name = `orders-${++n}.csv`): Promise<CsvOrder[]> {
  const file = join(dir, name);
  writeFileSync(file, text);
  const out: CsvOrder[] = [];
  for await (const o of csvOrders({ file }, { now: NOW, ...options })) out.push(o);
  return out;
}

const docOf = (o: CsvOrder | undefined) => {
  if (!o || !('doc' in o)) throw new Error(`expected an order, got ${JSON.stringify(o)}`);
  return o.doc;
};
const problems = (orders: CsvOrder[]) =>
  orders.flatMap((o) => {
    if ('issues' in o) return o.issues;
    try {
      validateKind(o.doc, 'order', { now: NOW });
      return [];
    } catch (err) {
      if (err instanceof ValidationError) return err.issues;
      throw err;
    }
  });
/** The issues as `row:column  path  message` (without the directory). */
const shown = (orders: CsvOrder[]) =>
  formatIssues(wordIssues(problems(orders), PLAIN_HINTS))
    .replaceAll(`${dir}/`, '')
    .replace(/orders-\d+\.csv/g, 'orders.csv');

describe('the CSV layout', () => {
  it('groups rows into orders by order_ref and shipments by shipment_ref; each row adds its package and customs item', async () => {
    const orders = await read(
      csvText([
        row({ order_ref: 'A', shipment_ref: 'A-1' }),
        more('A', 'A-1', { package_length: '30', package_width: '20', package_height: '15', package_weight: '2.5', package_unit: 'cm' }),
        more('A', 'A-1', { item_description: 'Linen table runner', item_quantity: '2', item_value: '34.95', item_currency: 'AUD', item_madein: 'IN' }),
        row({ order_ref: 'A', shipment_ref: 'A-2', delivery_city: 'Geelong', delivery_postcode: '3220' }),
        row({ order_ref: 'B', shipment_ref: '' }),
      ]),
    );
    expect(orders).toHaveLength(2);
    const a = docOf(orders[0]).data as any;
    expect(a.order.shipments).toHaveLength(2);
    expect(a.order.shipments[0].transient_id).toBe('A-1');
    expect(a.order.shipments[0].packages).toEqual([
      { length: 40, width: 30, height: 25, weight: 6.5, unit: 'cm' },
      { length: 30, width: 20, height: 15, weight: 2.5, unit: 'cm' },
    ]);
    expect(a.order.shipments[0].customs_information.items.map((i: any) => i.description)).toEqual(['Ceramic dinner plates', 'Linen table runner']);
    expect(a.order.shipments[1].delivery.city).toBe('Geelong');
    expect(a.order.shipments[0].collection.pickup).toEqual({ date: '2026-12-01', time_earliest: '09:00', time_latest: '15:00' });
    const b = docOf(orders[1]).data as any;
    expect(b.order.shipments[0].transient_id).toBeUndefined();
    expect(orders.map((o) => o.line)).toEqual([2, 6]);
    expect(problems(orders)).toEqual([]);
  });

  it("reads the tags column of an order's rows, split at ;, beside order: for the rules (the documents validate)", async () => {
    const orders = await read(
      csvText([
        row({ order_ref: 'T', shipment_ref: 'T-1', tags: 'wholesale; fragile' }),
        more('T', 'T-1', { tags: 'fragile;vip', package_length: '30', package_width: '20', package_height: '15', package_weight: '2.5', package_unit: 'cm' }),
        row({ order_ref: 'U', shipment_ref: 'U-1', tags: ' ' }),
      ]),
    );
    const t = docOf(orders[0]).data as any;
    expect(t.tags).toEqual(['wholesale', 'fragile', 'vip']);
    expect(documentTags(t)).toEqual(['wholesale', 'fragile', 'vip']);
    expect(t.order.shipments[0].packages).toHaveLength(2);
    expect('tags' in (docOf(orders[1]).data as any)).toBe(false);
    // No problem of the cells or of the schema (the tags are not an order field the schema checks).
    expect(orders.every((o) => 'doc' in o)).toBe(true);
  });

  it('reads a BOM, CRLF, quoted cells with commas, quotes and line breaks, and skips empty rows', async () => {
    const text = csvText([row({ order_ref: 'Q', delivery_address_line_1: '4 "The Mews", Level 2', delivery_address_line_2: 'Rear entrance\nring twice' })], {
      bom: true,
      crlf: true,
    });
    const orders = await read(`${text}\r\n,,,,\r\n\r\n`);
    expect(orders).toHaveLength(1);
    const d = (docOf(orders[0]).data as any).order.shipments[0].delivery;
    expect(d.address_lines).toEqual(['4 "The Mews", Level 2', 'Rear entrance\nring twice']);
  });

  it('tells ; and tab delimiters from the header row, or takes --delimiter', async () => {
    for (const delimiter of [';', '\t']) {
      const orders = await read(csvText([row({ order_ref: 'D' })], { delimiter }));
      expect(problems(orders)).toEqual([]);
      expect((docOf(orders[0]).data as any).order.shipments[0].delivery.address_lines).toEqual(['Level 12, 120 Collins Street']);
    }
    const given = await read(csvText([row({ order_ref: 'D' })], { delimiter: ';' }), { delimiter: ';' });
    expect(problems(given)).toEqual([]);
  });

  it('refuses decimal commas, unless the file is delimited by ; and --decimal-comma is given', async () => {
    const text = csvText([row({ order_ref: 'E', package_weight: '2,5', item_value: '18,50' })], { delimiter: ';' });
    expect(shown(await read(text))).toBe(
      [
        'orders.csv:2:package_weight  order.shipments[0].packages[0].weight  "2,5" has a decimal comma: write 2.5 (a file delimited by ";" may use decimal commas with --decimal-comma)',
        'orders.csv:2:item_value  order.shipments[0].customs_information.items[0].value  "18,50" has a decimal comma: write 18.50 (a file delimited by ";" may use decimal commas with --decimal-comma)',
      ].join('\n'),
    );
    const ok = await read(text, { decimalComma: true });
    expect(problems(ok)).toEqual([]);
    expect((docOf(ok[0]).data as any).order.shipments[0].packages[0].weight).toBe(2.5);
    const comma = await read(csvText([row({ order_ref: 'E' })]), { decimalComma: true });
    expect(shown(comma)).toContain('--decimal-comma is for files delimited by ";" (this one is delimited by ",", where a comma separates cells)');
  });

  it('reports every problem at once, at row and column header, with the field path and the YAML wording', async () => {
    const orders = await read(
      csvText([
        row({ order_ref: 'F', delivery_postcode: '' }),
        more('F', 'SO-10482-1', { package_length: '30', package_width: '20', package_height: '15', package_weight: 'heavy', package_unit: 'cm' }),
        row({ order_ref: 'G', delivery_first_name: 'A'.repeat(40), collection_type: 'pick-up' }),
        more('G', 'SO-10482-1', {
          delivery_city: 'Sydney',
          item_description: 'Mug',
          item_quantity: '1.5',
          item_value: '5',
          item_currency: 'AUD',
          item_madein: 'AU',
        }),
      ]),
    );
    expect(shown(orders)).toBe(
      [
        'orders.csv:2:delivery_postcode  order.shipments[0].delivery.postcode  required',
        'orders.csv:3:package_weight  order.shipments[0].packages[1].weight  expected a number (got "heavy")',
        'orders.csv:4:collection_type  order.shipments[0].collection_type  must be one of pickup, dropoff (got "pick-up")',
        'orders.csv:4:delivery_first_name  order.shipments[0].delivery.first_name  at most 35 characters (got 40)',
        'orders.csv:5:delivery_city  order.shipments[0].delivery.city  differs from row 4 of the same shipment ("Melbourne"): leave it empty on the shipment\'s later rows, or repeat the same value',
        'orders.csv:5:item_quantity  order.shipments[0].customs_information.items[1].quantity  must be a whole number (got 1.5)',
      ].join('\n'),
    );
  });

  it('names a header that is not a column, with the column it was probably meant to be', async () => {
    const header = HEADER.map((h) => (h === 'delivery_postcode' ? 'delivery_postcod' : h));
    const orders = await read(csvText([row({ order_ref: 'H' })], { header }).replace('delivery_postcod,', 'delivery_postcod,'));
    expect(shown(orders)).toBe(
      `orders.csv:1:delivery_postcod  unknown column (did you mean delivery_postcode?); the columns are listed by "shipbook schema csv", or map your own headers with --map`,
    );
  });

  it('refuses an order whose rows are not together, and a row without order_ref', async () => {
    const orders = await read(csvText([row({ order_ref: 'I' }), row({ order_ref: 'J' }), row({ order_ref: 'I' }), row({ order_ref: '' })]));
    expect(shown(orders)).toBe(
      [
        'orders.csv:4:order_ref  order_ref I was used by the order at row 2: keep the rows of an order together (sort the sheet by order_ref)',
        'orders.csv:5:order_ref  required: every row needs an order_ref (rows with the same order_ref form one order)',
      ].join('\n'),
    );
  });

  it('reads headers in any case, with spaces for underscores', async () => {
    const header = HEADER.map((h) => h.replace(/_/g, ' ').toUpperCase());
    const text = stringify([header, HEADER.map((h) => row({ order_ref: 'K' })[h]!)]);
    expect(problems(await read(text))).toEqual([]);
  });

  it('takes a saved sender from the sender column, with the pickup window from its own columns', async () => {
    const noCollection = Object.fromEntries(HEADER.filter((h) => h.startsWith('collection_') && h !== 'collection_type').map((h) => [h, '']));
    const text = csvText([row({ order_ref: 'L', sender: '@warehouse-syd', ...noCollection })]);
    const warehouse = {
      first_name: 'Priya',
      last_name: 'Raman',
      email: 'p@example.com',
      phone: '+61 2 9555 0142',
      country: 'AU',
      postcode: '2015',
      city: 'Alexandria',
      address_lines: ['18 Bourke Road'],
    };
    const orders = await read(text, { senders: { senders: { 'warehouse-syd': warehouse }, profile: 'default' } });
    expect(problems(orders)).toEqual([]);
    expect((docOf(orders[0]).data as any).order.shipments[0].collection).toEqual({
      ...warehouse,
      pickup: { date: '2026-12-01', time_earliest: '09:00', time_latest: '15:00' },
    });
    const unknown = await read(text, { senders: { senders: {}, profile: 'default' } });
    expect(shown(unknown)).toContain('orders.csv:2:sender  order.shipments[0].collection.sender  unknown sender "@warehouse-syd" in profile "default"');
  });

  it('gives each row its order and shipment (for the report written beside the rows)', async () => {
    const file = join(dir, 'rows.csv');
    writeFileSync(
      file,
      csvText([
        row({ order_ref: 'M', shipment_ref: 'M-1' }),
        row({ order_ref: 'M', shipment_ref: 'M-2' }),
        more('M', 'M-1', { package_weight: '1' }),
        row({ order_ref: 'N' }),
      ]),
    );
    const seen: unknown[] = [];
    for await (const r of csvRowsWithOrders({ file })) seen.push('header' in r ? 'header' : [r.row, r.orderRow, r.shipment]);
    expect(seen).toEqual(['header', [2, 2, 0], [3, 2, 1], [4, 2, 0], [5, 5, 0]]);
  });

  it('writes an order back as rows of the layout (the template)', () => {
    const rows = orderToRows('T-1', {
      order: {
        shipments: [
          { transient_id: 'T-1', collection: '@home', packages: [{ length: 1 }, { length: 2 }], customs_information: { items: [{ description: 'x' }] } },
        ],
      },
    });
    expect(rows.map((r) => [r.order_ref, r.shipment_ref, r.sender, r.package_length, r.item_description])).toEqual([
      ['T-1', 'T-1', '@home', '1', 'x'],
      ['T-1', 'T-1', '', '2', ''],
    ]);
  });
});

describe('mapping files', () => {
  it('maps headers, constants, first and other words, and two address columns into address lines', async () => {
    const map = join(dir, 'shop.map.yaml');
    writeFileSync(
      map,
      [
        'columns:',
        '  order_ref: Order',
        '  shipment_ref: Order',
        '  delivery_first_name: { column: Ship Name, part: first }',
        '  delivery_last_name: { column: Ship Name, part: rest }',
        '  delivery_address_lines: [Street 1, Street 2]',
        '  delivery_city: City',
        '  delivery_postcode: Zip',
        '  delivery_country: { value: AU }',
        '  delivery_email: Email',
        '  delivery_phone: Phone',
        '  description: { join: [Order, Note], with: " " }',
        '  item_description: Item',
        '  item_quantity: Qty',
        '  item_value: Price',
        'package: { length: 30, width: 20, height: 10, weight: 1.5, unit: cm }',
        'ignore: [Paid at]',
        '',
      ].join('\n'),
    );
    const mapping = await loadCsvMapping(map);
    const text = stringify([
      ['Order', 'Ship Name', 'Street 1', 'Street 2', 'City', 'Zip', 'Email', 'Phone', 'Note', 'Item', 'Qty', 'Price', 'Paid at'],
      ['#1001', 'Mary Jane Watson', '', '20 Ingram St', 'Forest Hills', '3000', 'm@example.com', '0400 000 000', 'gift', 'Mug', '2', '12.50', 'today'],
      ['#1001', '', '', '', '', '', '', '', '', 'Tea', '1', '8', ''],
    ]);
    const orders = await read(text, { mapping });
    const s = (docOf(orders[0]).data as any).order.shipments[0];
    expect(s.delivery).toMatchObject({ first_name: 'Mary', last_name: 'Jane Watson', address_lines: ['20 Ingram St'], country: 'AU', city: 'Forest Hills' });
    expect(s.description).toBe('#1001 gift');
    expect(s.packages).toEqual([{ length: 30, width: 20, height: 10, weight: 1.5, unit: 'cm' }]);
    expect(s.customs_information.items).toEqual([
      { description: 'Mug', quantity: 2, value: 12.5 },
      { description: 'Tea', quantity: 1, value: 8 },
    ]);
    // A column the mapping leaves out is named by the layout; a mapped one by the file's own header.
    expect(shown(orders)).toContain('orders.csv:2:service_code  order.shipments[0].service  required');
    const badQty = await read(text.replace('Tea,1,8', 'Tea,one,8'), { mapping });
    expect(shown(badQty)).toContain('orders.csv:3:Qty  order.shipments[0].customs_information.items[1].quantity  expected a whole number (got "one")');
    // A header neither mapped nor ignored, with the nearest one.
    const extra = await read(
      stringify([['Order', 'Ship Name', 'Street 1', 'Street 2', 'City', 'Zip', 'Email', 'Phone', 'Note', 'Item', 'Qty', 'Price', 'Paid at', 'Paid  at2']]),
      { mapping },
    );
    expect(shown(extra)).toContain('orders.csv:1:Paid  at2  column "Paid  at2" maps to nothing');
  });

  it('refuses a mapping onto a column that does not exist, with a did-you-mean', async () => {
    const map = join(dir, 'typo.map.yaml');
    writeFileSync(map, 'columns:\n  order_ref: Name\n  delivery_postcde: Zip\n');
    const err = await loadCsvMapping(map).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(formatIssues(wordIssues((err as ValidationError).issues, PLAIN_HINTS))).toBe(
      `${map}:3:3  columns.delivery_postcde  not a column of the CSV layout (did you mean delivery_postcode?); see "shipbook schema csv"`,
    );
  });
});

describe('encodings', () => {
  it('refuses a file that is not UTF-8 (a Windows code page) at its line, and UTF-16 big-endian, rather than mangling names', async () => {
    const text = csvText([row({ order_ref: 'U1' }), row({ order_ref: 'U2', delivery_first_name: 'Zoë' })]);
    const latin1 = Buffer.from(text, 'latin1');
    const file = join(dir, 'latin1.csv');
    writeFileSync(file, latin1);
    const out: CsvOrder[] = [];
    for await (const o of csvOrders({ file }, { now: NOW })) out.push(o);
    expect(formatIssues(problems(out)).replaceAll(`${dir}/`, '')).toBe('latin1.csv:3  is not UTF-8 text; save it as UTF-8 (in Excel: Save As, "CSV UTF-8")');
    expect(out.filter((o) => 'doc' in o)).toHaveLength(0);
    const utf16be = join(dir, 'utf16be.csv');
    writeFileSync(utf16be, Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]));
    const back: CsvOrder[] = [];
    for await (const o of csvOrders({ file: utf16be })) back.push(o);
    expect(formatIssues(problems(back)).replaceAll(`${dir}/`, '')).toBe('utf16be.csv:1  is UTF-16 big-endian text; save it as UTF-8 (Save As, "CSV UTF-8")');
  });

  it('reads UTF-16 LE with its byte-order mark (Excel\'s "Unicode Text"), CRLF and ";" as a European Excel saves it, names intact', async () => {
    const text = csvText([row({ order_ref: 'W1', delivery_first_name: 'Zoë' }), row({ order_ref: 'W2', delivery_first_name: 'Łukasz' })], {
      delimiter: ';',
      crlf: true,
    });
    const file = join(dir, 'excel-unicode.csv');
    writeFileSync(file, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    const out: CsvOrder[] = [];
    for await (const o of csvOrders({ file }, { now: NOW })) out.push(o);
    expect(problems(out)).toEqual([]);
    const names = out.map(
      (o) => (docOf(o).data as { order: { shipments: Array<{ delivery: { first_name: string } }> } }).order.shipments[0]!.delivery.first_name,
    );
    expect(names).toEqual(['Zoë', 'Łukasz']);
  });
});
