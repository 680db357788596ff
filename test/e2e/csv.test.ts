/**
 * Orders from a spreadsheet, end to end on the built-in sandbox: a 50-row CSV of three
 * international orders with several packages and customs items each is booked, the report CSV
 * comes back with every row's tracking number, and a second run books nothing; a Shopify orders
 * export books through the shipped mapping; mistakes are named by row and column; `;` files with
 * decimal commas, standard input and shards go through the same batch.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { runShipbook } from '../helpers/run.js';
import { ROOT } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'shipbook-csv-e2e-'));
/** An environment with its own sandbox state, kept across the commands of one test. */
const fresh = () => ({ SHIPBOOK_STATE_DIR: mkdtempSync(join(tmpdir(), 'shipbook-csv-state-')) });

const SENDER = {
  collection_first_name: 'Priya',
  collection_last_name: 'Raman',
  collection_company: 'Harbour Homewares Pty Ltd',
  collection_email: 'dispatch@harbourhomewares.com.au',
  collection_phone: '+61 2 9555 0142',
  collection_country: 'AU',
  collection_postcode: '2015',
  collection_city: 'Alexandria',
  collection_address_line_1: 'Unit 4, 18 Bourke Road',
};
const RECIPIENTS: Record<string, Record<string, string>> = {
  GB: {
    delivery_first_name: 'Emma',
    delivery_last_name: 'Clarke',
    delivery_email: 'emma@example.co.uk',
    delivery_phone: '+44 20 7946 0958',
    delivery_country: 'GB',
    delivery_postcode: 'SW1A 2AA',
    delivery_city: 'London',
    delivery_address_line_1: 'Flat 3, 10 Downing Street',
  },
  US: {
    delivery_first_name: 'Jo',
    delivery_last_name: 'Park',
    delivery_company: 'Park & Sons, Inc.',
    delivery_email: 'jo@example.com',
    delivery_phone: '+1 212 555 0100',
    delivery_country: 'US',
    delivery_postcode: '10001',
    delivery_city: 'New York',
    delivery_address_line_1: '350 Fifth Avenue',
    delivery_address_line_2: 'Suite "B", floor 2',
  },
  NZ: {
    delivery_first_name: 'Ana',
    delivery_last_name: 'Silva',
    delivery_email: 'ana@example.co.nz',
    delivery_phone: '+64 9 555 0123',
    delivery_country: 'NZ',
    delivery_postcode: '1010',
    delivery_city: 'Auckland',
    delivery_address_line_1: '45 Queen Street',
  },
};

/** The rows of one shipment: `n` packages, each row with a customs item too. */
function shipmentRows(order: string, shipment: string, to: keyof typeof RECIPIENTS, n: number): Array<Record<string, string>> {
  return Array.from({ length: n }, (_, k) => ({
    order_ref: order,
    shipment_ref: shipment,
    ...(k === 0
      ? {
          service_code: 'SB-INTL-EXP',
          collection_type: 'dropoff',
          ...SENDER,
          ...RECIPIENTS[to],
          description: 'Homewares',
          customs_reason: 'Sale',
          customs_tax_status: 'Private',
          customs_lithium: 'false',
        }
      : {}),
    package_length: String(20 + k),
    package_width: '20',
    package_height: '10',
    package_weight: (0.5 + k / 10).toFixed(1),
    package_unit: 'cm',
    item_description: `Ceramic mug, pattern ${k + 1}`,
    item_quantity: String(1 + (k % 3)),
    item_value: '12.50',
    item_currency: 'AUD',
    item_madein: 'AU',
  }));
}

const HEADER = [
  'order_ref',
  'shipment_ref',
  'service_code',
  'collection_type',
  ...Object.keys(SENDER),
  'delivery_first_name',
  'delivery_last_name',
  'delivery_company',
  'delivery_email',
  'delivery_phone',
  'delivery_country',
  'delivery_postcode',
  'delivery_city',
  'delivery_address_line_1',
  'delivery_address_line_2',
  'description',
  'customs_reason',
  'customs_tax_status',
  'customs_lithium',
  'package_length',
  'package_width',
  'package_height',
  'package_weight',
  'package_unit',
  'item_description',
  'item_quantity',
  'item_value',
  'item_currency',
  'item_madein',
];

function writeCsv(name: string, rows: Array<Record<string, string>>, options: { delimiter?: string; header?: string[] } = {}): string {
  const header = options.header ?? HEADER;
  const file = join(dir, name);
  writeFileSync(
    file,
    `\uFEFF${stringify([header, ...rows.map((r) => header.map((h) => r[h] ?? ''))], { delimiter: options.delimiter ?? ',', record_delimiter: 'windows', quoted_match: /[\r\n]/ })}\r\n`,
  );
  return file;
}

/** 50 rows: order W-1 to London (18 packages), W-2 to New York in two shipments (8 + 8), W-3 to Auckland (16). */
const FIFTY = [
  ...shipmentRows('W-1', 'W-1', 'GB', 18),
  ...shipmentRows('W-2', 'W-2-A', 'US', 8),
  ...shipmentRows('W-2', 'W-2-B', 'US', 8),
  ...shipmentRows('W-3', 'W-3', 'NZ', 16),
];

const fixturesOrder = 'fixtures/orders/domestic-syd-mel.yaml';
const reportRows = (file: string) => parse(readFileSync(file), { bom: true, columns: true }) as Array<Record<string, string>>;

describe('book orders.csv on the built-in sandbox', () => {
  it('books a 50-row CSV of three international orders, writes every tracking number beside its row, and books nothing on a second run', async () => {
    expect(FIFTY).toHaveLength(50);
    const csv = writeCsv('fifty.csv', FIFTY);
    const env = fresh();
    const journal = join(dir, 'fifty.journal.ndjson');
    const report = join(dir, 'fifty-results.csv');
    const first = await runShipbook(['book', csv, '--report', report, '--journal', journal, '--concurrency', '3'], { env });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain('batch: 3 booked, 0 already booked, 0 failed');

    const rows = reportRows(report);
    expect(rows).toHaveLength(50);
    expect(Object.keys(rows[0]!)).toEqual([...HEADER, 'status', 'order_id', 'shipment_id', 'tracking_number', 'total_aud', 'error', 'warnings']);
    // Every row: booked, with its shipment's tracking number; the order's total on its first row only.
    const byShipment = new Map<string, Set<string>>();
    rows.forEach((r, i) => {
      expect(r.status, `row ${i + 2}`).toBe('booked');
      expect(r.order_id).toMatch(/^ORD-/);
      expect(r.shipment_id).toMatch(/^SHP-/);
      expect(r.tracking_number).toMatch(/^SBX\d+$/);
      expect(r.error).toBe('');
      byShipment.set(r.shipment_ref!, (byShipment.get(r.shipment_ref!) ?? new Set()).add(`${r.order_id} ${r.shipment_id} ${r.tracking_number}`));
      const first = i === 0 || rows[i - 1]!.order_ref !== r.order_ref;
      expect(r.total_aud !== '', `row ${i + 2} total`).toBe(first);
    });
    expect([...byShipment.keys()]).toEqual(['W-1', 'W-2-A', 'W-2-B', 'W-3']);
    for (const set of byShipment.values()) expect(set.size).toBe(1);
    const tracking = [...byShipment.values()].map((s) => [...s][0]!.split(' ')[2]);
    expect(new Set(tracking).size).toBe(4);
    // The tracking numbers are the ones the batch printed, order by order.
    for (const t of tracking) expect(first.stdout).toContain(t!);
    // Input cells come back as they were; cells a spreadsheet would run as a formula are escaped.
    expect(rows[0]!.delivery_address_line_1).toBe('Flat 3, 10 Downing Street');
    expect(rows[18]!.delivery_address_line_2).toBe('Suite "B", floor 2');
    expect(rows[0]!.collection_phone).toBe("'+61 2 9555 0142");

    // The same spreadsheet exported again (another file name, rows in the same groups): nothing new is booked.
    const again = await runShipbook(['book', writeCsv('fifty-again.csv', FIFTY), '--report', report, '--journal', journal], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('batch: 0 booked, 3 already booked');
    const second = reportRows(report);
    expect(second.map((r) => r.status)).toEqual(Array(50).fill('already_booked'));
    expect(second.map((r) => r.tracking_number)).toEqual(rows.map((r) => r.tracking_number));
  });

  it("takes the sender from the profile's saved senders when the sender column names one", async () => {
    const sandbox = await startSandbox({ processingDelayMs: 50 });
    try {
      const env = { ...fresh(), SHIPBOOK_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'shipbook-csv-config-')), SHIPBOOK_API_KEY: 'sk_test_csv_0123456789' };
      expect((await runShipbook(['--profile', 'shop', 'config', 'set', 'base-url', sandbox.url], { env })).code).toBe(0);
      const saved = await runShipbook(['--profile', 'shop', 'config', 'sender', 'set', 'warehouse-syd', 'fixtures/wizard/warehouse-syd.yaml'], { env });
      expect(saved.code, saved.stderr).toBe(0);
      const noAddress = Object.fromEntries(Object.keys(SENDER).map((k) => [k, '']));
      const rows = shipmentRows('S-1', 'S-1', 'NZ', 2).map((r, k) => (k === 0 ? { ...r, ...noAddress, sender: '@warehouse-syd' } : r));
      const header = [...HEADER, 'sender'];
      const report = join(dir, 'sender-results.csv');
      const r = await runShipbook(
        [
          '--profile',
          'shop',
          'book',
          writeCsv('sender.csv', rows, { header }),
          '--report',
          report,
          '--journal',
          join(dir, 'sender.journal.ndjson'),
          '--poll',
          '50ms',
        ],
        { env },
      );
      expect(r.code, r.stderr).toBe(0);
      expect(reportRows(report).map((x) => x.tracking_number)).toEqual([expect.stringMatching(/^SBX\d+$/), expect.stringMatching(/^SBX\d+$/)]);
      const unknown = await runShipbook(
        [
          '--profile',
          'shop',
          'book',
          writeCsv(
            'nobody.csv',
            rows.map((x) => (x.sender ? { ...x, sender: '@nobody' } : x)),
            { header },
          ),
          '--dry-run',
        ],
        { env },
      );
      expect(unknown.code).toBe(2);
      expect(unknown.stderr.replaceAll(`${dir}/`, '')).toContain(
        'nobody.csv:2:sender  order.shipments[0].collection  unknown sender "@nobody" in profile "shop" (saved: @warehouse-syd;',
      );
    } finally {
      await sandbox.close();
    }
  });

  it('an order the service refuses: exit 8, its error beside its rows in the report CSV, a JUnit failure; the others booked', async () => {
    const rows = [
      ...shipmentRows('R-1', 'R-1', 'GB', 2),
      ...shipmentRows('R-2', 'R-2', 'NZ', 3).map((r, k) => (k === 0 ? { ...r, service_code: 'SB-NOPE' } : r)),
    ];
    const report = join(dir, 'refused-results.csv');
    const junit = join(dir, 'refused-junit.xml');
    const r = await runShipbook(
      ['book', writeCsv('refused.csv', rows), '--report', report, '--junit', junit, '--journal', join(dir, 'refused.journal.ndjson')],
      { env: fresh() },
    );
    expect(r.code).toBe(8);
    const back = reportRows(report);
    expect(back.map((x) => x.status)).toEqual(['booked', 'booked', 'failed', 'failed', 'failed']);
    for (const x of back.slice(2)) expect(x.error).toContain('unknown service SB-NOPE');
    expect(back[0]!.tracking_number).toMatch(/^SBX\d+$/);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain('tests="2" failures="1"');
    expect(xml).toContain('refused.csv:4');
  });

  it('books a Shopify orders export through the shipped mapping, as it is', async () => {
    const report = join(dir, 'shopify-results.csv');
    const r = await runShipbook(
      [
        'book',
        'fixtures/csv/shopify-orders.csv',
        '--map',
        'fixtures/csv/shopify.map.yaml',
        '--report',
        report,
        '--journal',
        join(dir, 'shopify.journal.ndjson'),
      ],
      { env: fresh() },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('batch: 3 booked');
    const rows = reportRows(report);
    expect(rows.map((x) => x.Name)).toEqual(['#1001', '#1001', '#1002', '#1002', '#1002', '#1003']);
    for (const x of rows) expect(x.tracking_number).toMatch(/^SBX\d+$/);
    // Shopify's own columns are kept, in its order, with the results after them.
    expect(Object.keys(rows[0]!).slice(0, 3)).toEqual(['Name', 'Email', 'Financial Status']);
    expect(Object.keys(rows[0]!).slice(-7)).toEqual(['status', 'order_id', 'shipment_id', 'tracking_number', 'total_aud', 'error', 'warnings']);
  });

  it('names five kinds of mistakes at their row and column, all at once, and sends nothing', async () => {
    const rows = structuredClone(FIFTY.slice(0, 20));
    rows[0]!.delivery_postcode = ''; // row 2: required
    rows[2]!.package_weight = '2,5'; // row 4: decimal comma
    rows[4]!.item_quantity = 'two'; // row 6: not a number
    rows[18]!.delivery_first_name = 'Bartholomew-Alexander Fitzwilliam-Smythe'; // row 20: too long
    rows[18]!.collection_type = 'pick up'; // row 20: not one of the choices
    const csv = writeCsv('mistakes.csv', rows);
    const report = join(dir, 'mistakes-results.csv');
    const r = await runShipbook(['book', csv, '--journal', join(dir, 'mistakes.journal.ndjson'), '--report', report], { env: fresh() });
    expect(r.code).toBe(2);
    // The report CSV puts each problem beside its row (rows 2–19 are W-1, rows 20–21 the start of W-2: both invalid).
    const back = reportRows(report);
    expect(back.map((x) => x.status)).toEqual(Array(20).fill('invalid'));
    expect(back.flatMap((x, i) => (x.error === '' ? [] : [i + 2]))).toEqual([2, 4, 6, 20]);
    expect(back[18]!.error).toContain('order.shipments[0].delivery.first_name  at most 35 characters (got 40)');
    const lines = r.stderr.replaceAll(`${dir}/`, '');
    expect(lines).toContain('mistakes.csv:2:delivery_postcode  order.shipments[0].delivery.postcode  required');
    expect(lines).toContain('mistakes.csv:4:package_weight  order.shipments[0].packages[2].weight  "2,5" has a decimal comma: write 2.5');
    expect(lines).toContain('mistakes.csv:6:item_quantity  order.shipments[0].customs_information.items[4].quantity  expected a whole number (got "two")');
    expect(lines).toContain('mistakes.csv:20:delivery_first_name  order.shipments[0].delivery.first_name  at most 35 characters (got 40)');
    expect(lines).toContain('mistakes.csv:20:collection_type  order.shipments[0].collection_type  must be one of pickup, dropoff (got "pick up")');
    expect(r.stderr).toContain('nothing was sent');
    expect(r.stderr).not.toMatch(/\n\s+at /);

    // A header that is no column: named, with the column it was probably meant to be.
    const typo = writeCsv('typo.csv', FIFTY.slice(0, 2), { header: HEADER.map((h) => (h === 'delivery_city' ? 'delivery_citty' : h)) });
    const t = await runShipbook(['book', typo, '--dry-run'], { env: fresh() });
    expect(t.code).toBe(2);
    expect(t.stderr.replaceAll(`${dir}/`, '')).toContain('typo.csv:1:delivery_citty  unknown column (did you mean delivery_city?)');
  });

  it('reads ; files with decimal commas only with --decimal-comma', async () => {
    const rows = FIFTY.slice(50 - 16).map((r) => ({
      ...r,
      ...(r.package_weight ? { package_weight: r.package_weight.replace('.', ',') } : {}),
      ...(r.item_value ? { item_value: '12,50' } : {}),
    }));
    const csv = writeCsv('semicolon.csv', rows, { delimiter: ';' });
    const refused = await runShipbook(['book', csv, '--dry-run'], { env: fresh() });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('"0,5" has a decimal comma: write 0.5 (a file delimited by ";" may use decimal commas with --decimal-comma)');
    const env = fresh();
    const report = join(dir, 'semicolon-results.csv');
    const ok = await runShipbook(['book', csv, '--decimal-comma', '--report', report, '--journal', join(dir, 'semicolon.journal.ndjson')], { env });
    expect(ok.code, ok.stderr).toBe(0);
    // The report keeps the input's delimiter and decimal commas.
    const text = readFileSync(report, 'utf8');
    expect(text.split('\n')[0]).toContain(';status;order_id;shipment_id;tracking_number;total_aud;error');
    const rowsBack = parse(text, { bom: true, columns: true, delimiter: ';' }) as Array<Record<string, string>>;
    expect(rowsBack[0]!.total_aud).toMatch(/^\d+,\d\d$/);
    // --decimal-comma with a comma delimiter is refused at once.
    const wrong = await runShipbook(['book', csv, '--decimal-comma', '--delimiter', ','], { env });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--decimal-comma is for files delimited by ";"');
  });

  it('reads standard input with --input-format csv, and shards split the orders between jobs', async () => {
    const text = readFileSync(writeCsv('stdin.csv', FIFTY), 'utf8');
    const dryReport = join(dir, 'stdin-dry.csv');
    const dry = await runShipbook(['book', '-', '--input-format', 'csv', '--dry-run', '--json', '--report', dryReport], { env: fresh(), input: text });
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ dry_run: true, valid: 3, invalid: 0 });
    // A dry run's report lists every row as valid, with nothing booked.
    expect(reportRows(dryReport).map((x) => `${x.status}${x.order_id}`)).toEqual(Array(50).fill('valid'));
    const booked = await runShipbook(
      ['book', '-', '--input-format', 'csv', '--journal', join(dir, 'stdin.journal.ndjson'), '--report', join(dir, 'stdin-results.csv')],
      { env: fresh(), input: text },
    );
    expect(booked.code, booked.stderr).toBe(0);
    expect(reportRows(join(dir, 'stdin-results.csv')).filter((r) => /^SBX\d+$/.test(r.tracking_number!))).toHaveLength(50);

    const csv = join(dir, 'stdin.csv');
    const shards = await Promise.all([1, 2, 3].map((i) => runShipbook(['book', csv, '--shard', `${i}/3`, '--dry-run', '--json'], { env: fresh() })));
    const counts = shards.map((s) => (JSON.parse(s.stdout) as { valid: number }).valid);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(3);
  });

  it('refuses a report that would replace its own input, before anything is sent', async () => {
    const csv = writeCsv('self.csv', FIFTY.slice(0, 2));
    const before = readFileSync(csv, 'utf8');
    const r = await runShipbook(['book', csv, '--report', csv, '--journal', join(dir, 'self.journal.ndjson')], { env: fresh() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is an input of the batch: the report would replace it');
    expect(readFileSync(csv, 'utf8')).toBe(before);
  });

  it('reads standard input as JSON, YAML or NDJSON without --input-format, and says that a spreadsheet needs it', async () => {
    const csv = readFileSync(join(ROOT, 'fixtures', 'csv', 'orders.csv'), 'utf8');
    const r = await runShipbook(['book', '-', '--concurrency', '2'], { env: fresh(), input: csv });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('nothing was sent');
    expect(r.stderr).toContain('a spreadsheet on it needs --input-format csv');
  });
});

describe('the section of the manual on spreadsheets', () => {
  it('its commands on the shipped fixtures run as shown, and its example of mistakes is what book prints', async () => {
    const readme = readFileSync(join(ROOT, 'docs', 'batch.md'), 'utf8');
    const at = readme.indexOf('## Orders from a spreadsheet (CSV)');
    expect(at).toBeGreaterThan(-1);
    const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(at))![1]!;
    const commands = block
      .split('\n')
      .map((l) => l.replace(/\s+#.*$/, '').trim())
      .filter((l) => l.startsWith('shipbook ') && !/[<>]/.test(l) && !l.includes('orders-eu.csv'))
      .map((l) =>
        l
          .split(/\s+/)
          .slice(1)
          .map((a) => (a.endsWith('.csv') && !a.startsWith('fixtures/') ? join(dir, `readme-${a}`) : a)),
      );
    expect(commands.length).toBe(5);
    const env = fresh();
    for (const args of commands) {
      const r = await runShipbook([...args, ...(args[0] === 'book' ? ['--journal', join(dir, 'readme.journal.ndjson')] : [])], { env });
      expect(r.code, `shipbook ${args.join(' ')}\n${r.stderr}`).toBe(0);
    }
    const shown = /```\nerror: 2 of 2 orders are not valid; nothing was sent\n([\s\S]*?)```/
      .exec(readme.slice(at))![1]!
      .trim()
      .split('\n')
      .map((l) => l.trim());
    // The same mistakes made in fixtures/csv/orders.csv.
    const rows = parse(readFileSync(join(ROOT, 'fixtures/csv/orders.csv'))) as string[][];
    const h = rows[0]!;
    const set = (row: number, column: string, value: string) => (rows[row - 1]![h.indexOf(column)] = value);
    set(2, 'delivery_postcode', '');
    set(3, 'package_weight', '2,5');
    set(4, 'collection_type', 'pick-up');
    set(4, 'delivery_first_name', 'A'.repeat(40));
    set(5, 'item_quantity', 'three');
    writeFileSync(join(dir, 'orders.csv'), stringify(rows));
    const r = await runShipbook(['book', join(dir, 'orders.csv'), '--dry-run'], { env: fresh() });
    expect(r.code).toBe(2);
    expect(
      r.stderr
        .replaceAll(`${dir}/`, '')
        .split('\n')
        .filter((l) => l.startsWith('  orders.csv:'))
        .map((l) => l.trim()),
    ).toEqual(shown);
  });
});

describe('shipbook validate orders.csv', () => {
  it('checks a spreadsheet offline: every problem at its row and column, the mapping and decimal commas as book reads them', async () => {
    const rows = structuredClone(FIFTY.slice(0, 18));
    rows[0]!.delivery_postcode = '';
    rows[3]!.item_value = 'ten';
    const bad = await runShipbook(['validate', writeCsv('validate-bad.csv', rows), fixturesOrder], { env: fresh() });
    expect(bad.code).toBe(2);
    expect(
      bad.stdout
        .replaceAll(`${dir}/`, '')
        .split('\n')
        .filter((l) => l !== ''),
    ).toEqual([
      'validate-bad.csv:2:delivery_postcode\torder.shipments[0].delivery.postcode\terror\trequired',
      'validate-bad.csv:5:item_value\torder.shipments[0].customs_information.items[3].value\terror\texpected a decimal amount (got "ten")',
    ]);
    expect(bad.stderr).toContain(`✔ ${fixturesOrder}  order  valid`);
    const shop = await runShipbook(['validate', 'fixtures/csv/shopify-orders.csv', '--map', 'fixtures/csv/shopify.map.yaml'], { env: fresh() });
    expect(shop.code, shop.stdout + shop.stderr).toBe(0);
    const semicolon = writeCsv(
      'validate-semicolon.csv',
      FIFTY.slice(0, 2).map((r) => ({ ...r, package_weight: r.package_weight!.replace('.', ',') })),
      { delimiter: ';' },
    );
    expect((await runShipbook(['validate', semicolon], { env: fresh() })).code).toBe(2);
    expect((await runShipbook(['validate', semicolon, '--decimal-comma'], { env: fresh() })).code).toBe(0);
  });
});

describe('shipbook csv template and shipbook schema csv', () => {
  it('writes a header and an example row that book as they are', async () => {
    const t = await runShipbook(['csv', 'template']);
    expect(t.code, t.stderr).toBe(0);
    const [header, example, ...rest] = parse(t.stdout) as string[][];
    expect(rest).toEqual([]);
    expect(header!.slice(0, 3)).toEqual(['order_ref', 'shipment_ref', 'service_code']);
    expect(example).toHaveLength(header!.length);
    const file = join(dir, 'template.csv');
    writeFileSync(file, t.stdout);
    const booked = await runShipbook(['book', file, '--journal', join(dir, 'template.journal.ndjson'), '--json'], { env: fresh() });
    expect(booked.code, booked.stderr).toBe(0);
    expect(JSON.parse(booked.stdout).orders[0].tracking_numbers[0]).toMatch(/^SBX\d+$/);
    const semicolon = await runShipbook(['csv', 'template', '--delimiter', ';']);
    expect(semicolon.stdout.split('\n')[0]).toMatch(/^order_ref;shipment_ref;/);
  });

  it('lists every column with the field it fills; the template has exactly those columns', async () => {
    const s = await runShipbook(['schema', 'csv', '--json']);
    expect(s.code, s.stderr).toBe(0);
    const columns = (JSON.parse(s.stdout) as { columns: Array<{ name: string; field: string; required: boolean }> }).columns;
    const t = await runShipbook(['csv', 'template']);
    expect(columns.map((c) => c.name)).toEqual((parse(t.stdout) as string[][])[0]);
    expect(columns.find((c) => c.name === 'delivery_postcode')).toMatchObject({ field: 'order.shipments[i].delivery.postcode', required: true });
    expect(columns.find((c) => c.name === 'item_value')).toMatchObject({ field: 'order.shipments[i].customs_information.items[row].value', required: true });
    const tsv = await runShipbook(['schema', 'csv']);
    expect(tsv.stdout.split('\n')[0]).toMatch(/^order_ref\torder\tyes\t/);
  });
});
