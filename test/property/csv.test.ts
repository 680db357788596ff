/**
 * Property-based test of the CSV layout (fast-check, fixed seed): random orders (several
 * shipments, packages and customs items; text with commas, quotes, semicolons, tabs, line breaks
 * and accents) written as rows of the layout (`orderToRows`, the template's writer) with a random
 * delimiter, byte-order mark and line ending, then read back by the reader the batch uses: every
 * order comes back equal, in order, starting at its first row.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { stringify } from 'csv-stringify/sync';
import { afterAll, describe, expect, it } from 'vitest';
import { csvOrders } from '../../src/input/csv.js';
import { orderToRows } from '../helpers/csv-rows.js';
import { CSV_COLUMNS } from '../../src/input/csv-layout.js';

const SEED = 20261123;
const dir = mkdtempSync(join(tmpdir(), 'shipbook-csv-prop-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Text a spreadsheet cell may hold: no leading or trailing space, not empty, awkward characters inside. */
const text = fc
  .array(fc.constantFrom('a', 'Z', 'é', 'ß', '東', ' ', ',', ';', '\t', '"', "'", '\n', '\r\n', '|', '#', '0', '9', '.', '-', '='), {
    minLength: 1,
    maxLength: 12,
  })
  .map((cs) => cs.join('').trim())
  .filter((s) => s !== '' && !s.startsWith("'") && !/^[-=]/.test(s));
const decimal = fc.integer({ min: 1, max: 99_999 }).map((cents) => cents / 100);
const address = fc.record(
  {
    first_name: text,
    last_name: text,
    company: text,
    email: text,
    phone: text,
    country: fc.constantFrom('AU', 'NZ', 'GB'),
    postcode: fc.constantFrom('0800', '2015', 'SW1A 1AA'),
    city: text,
    address_lines: fc.array(text, { minLength: 1, maxLength: 3 }),
  },
  { requiredKeys: ['first_name', 'last_name', 'email', 'phone', 'country', 'postcode', 'city', 'address_lines'] },
);
const shipment = (id: string) =>
  fc.record({
    transient_id: fc.constant(id),
    service: fc.record(
      { code: fc.constantFrom('SB-DOM-ROAD', 'SB-INTL-EXP'), options: fc.constantFrom(undefined, ['insurance'], ['insurance', 'signature']) },
      { requiredKeys: ['code'] },
    ),
    collection_type: fc.constantFrom('pickup', 'dropoff'),
    collection: fc.oneof(
      fc.constantFrom('@warehouse-syd', '@home'),
      fc
        .tuple(address, fc.constantFrom('2026-12-01', '2027-01-15'))
        .map(([a, date]) => ({ ...a, pickup: { date, time_earliest: '09:00', time_latest: '15:00' } })),
    ),
    delivery: address,
    packages: fc.array(fc.record({ length: decimal, width: decimal, height: decimal, weight: decimal, unit: fc.constantFrom('cm', 'in') }), {
      minLength: 1,
      maxLength: 3,
    }),
    customs_information: fc.record(
      {
        reason: fc.constantFrom('Sale', 'Gift'),
        tax_status: fc.constantFrom('Private', 'Company'),
        lithium: fc.boolean(),
        description: text,
        items: fc.array(
          fc.record({
            description: text,
            quantity: fc.integer({ min: 1, max: 500 }),
            value: decimal,
            currency: fc.constant('AUD'),
            madein: fc.constantFrom('AU', 'CN'),
          }),
          { minLength: 1, maxLength: 3 },
        ),
      },
      { requiredKeys: ['reason', 'tax_status', 'lithium', 'items'] },
    ),
    description: text,
  });
const order = (ref: number) =>
  fc
    .integer({ min: 1, max: 3 })
    .chain((n) => fc.tuple(...Array.from({ length: n }, (_, s) => shipment(`R${ref}-${s}`))).map((shipments) => ({ order: { shipments } })));
const orders = fc.integer({ min: 1, max: 4 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => order(i))));

/** The value without `undefined` members (the reader leaves empty cells out). */
const plain = (v: unknown): unknown => JSON.parse(JSON.stringify(v));

describe('CSV: random orders written as rows and read back', () => {
  it('come back equal, whatever the delimiter, byte-order mark and line ending', async () => {
    let k = 0;
    await fc.assert(
      fc.asyncProperty(orders, fc.constantFrom(',', ';', '\t'), fc.boolean(), fc.boolean(), async (docs, delimiter, bom, crlf) => {
        const header = CSV_COLUMNS.map((c) => c.name);
        const rows = docs.flatMap((doc, i) => orderToRows(`ORDER-${i}`, doc));
        const body = stringify([header, ...rows.map((r) => header.map((h) => r[h] ?? ''))], {
          delimiter,
          record_delimiter: crlf ? 'windows' : 'unix',
          quoted_match: /[\r\n]/,
        });
        const file = join(dir, `orders-${k++}.csv`);
        writeFileSync(file, `${bom ? '\uFEFF' : ''}${body}${crlf ? '\r\n\r\n' : '\n\n'}`);
        const back: unknown[] = [];
        const lines: number[] = [];
        for await (const o of csvOrders({ file })) {
          if ('issues' in o) throw new Error(JSON.stringify(o.issues));
          back.push(o.doc.data);
          lines.push(o.line);
        }
        expect(back).toEqual(plain(docs));
        // Each order starts at the row after the previous one's last.
        let next = 2;
        docs.forEach((doc, i) => {
          expect(lines[i]).toBe(next);
          next += orderToRows('x', doc).length;
        });
      }),
      { seed: SEED, numRuns: 150 },
    );
  });
});
