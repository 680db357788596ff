/**
 * End-to-end: `shipbook validate` and `shipbook schema`, and the promise that nothing is sent while
 * a file has an error (order create, book and quote against a sandbox on 127.0.0.1, whose state
 * must stay empty). Warnings are shown and do not block. The planted mistakes of fixtures/invalid/
 * and standard input go through bin/shipbook.js; the rest runs in-process.
 */
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { runShipbook } from '../helpers/run.js';
import { makeHome, runCli } from '../helpers/cli.js';

let sandbox: Sandbox;
let env: Record<string, string>;
const home = makeHome();

beforeAll(async () => {
  sandbox = await startSandbox({ processingDelayMs: 50 });
  env = { SHIPBOOK_BASE_URL: sandbox.url, SHIPBOOK_API_KEY: 'sk_test_e2e_0123456789', HOME: home.home, XDG_CONFIG_HOME: home.home };
});
afterAll(async () => {
  await sandbox.close();
  home.cleanup();
});

/** Writes a file into the private home and returns its path. */
function write(name: string, text: string): string {
  const file = join(home.home, name);
  writeFileSync(file, text);
  return file;
}

const tsv = (stdout: string) => stdout.trim().split('\n').filter(Boolean);

describe('shipbook validate', () => {
  it('reports every planted mistake in fixtures/invalid/ with its line, column and field path (exit 2)', async () => {
    const r = await runCli(['validate', 'fixtures/invalid/'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    const lines = tsv(r.stdout);
    const expected = [
      'fixtures/invalid/custom-tag.yaml:5:18\t\terror\tYAML tag !!js/function is not allowed: write plain values',
      'fixtures/invalid/order-pickup-and-value.yaml:22:17\torder.shipments[0].collection.pickup.date\terror\texpected an ISO 8601 date YYYY-MM-DD (got "2026-02-30")',
      'fixtures/invalid/order-pickup-and-value.yaml:24:24\torder.shipments[0].collection.pickup.time_latest\terror\tmust be after time_earliest (16:30, got 10:00)',
      'fixtures/invalid/order-pickup-and-value.yaml:28:16\torder.shipments[0].delivery.email\terror\tnot an e-mail address (got "aisha.karim@")',
      'fixtures/invalid/order-pickup-and-value.yaml:36:56\torder.shipments[0].packages[0].weight\terror\tmust be greater than 0 (got 0)',
      'fixtures/invalid/order-pickup-and-value.yaml:42:11\torder.shipments[0].customs_information.items\terror\ttotal item value at most 7500.00 AUD (got 7500.01)',
      'fixtures/invalid/order-too-long.yaml:6:21\torder.shipments[0].transient_id\terror\tat most 35 characters (got 36)',
      'fixtures/invalid/order-too-long.yaml:35:13\torder.shipments[0].delivery.address_lines[1]\terror\tat most 35 characters (got 38)',
      'fixtures/invalid/order-too-long.yaml:43:28\torder.shipments[0].customs_information.items[0].description\terror\tat most 35 characters (got 37)',
      'fixtures/invalid/order-typos.yaml:12:9\torder.shipments[0].collection.address_lines\terror\trequired',
      'fixtures/invalid/order-typos.yaml:19:9\torder.shipments[0].collection.adress_lines\terror\tunknown field (did you mean address_lines?)',
      'fixtures/invalid/order-typos.yaml:30:18\torder.shipments[0].delivery.country\terror\tunknown country code "UK" (did you mean GB?)',
      'fixtures/invalid/order-typos.yaml:36:67\torder.shipments[0].packages[0].unit\terror\tmust be cm (centimetres, kilograms) or in (inches, pounds) (got "mm")',
      'fixtures/invalid/order-typos.yaml:38:17\torder.shipments[0].customs_information.reason\terror\tmust be one of Gift, Purchase, Sale, Sample, Return, Repair, Personal Effects (got "Gift wrap")',
      'fixtures/invalid/order-typos.yaml:42:62\torder.shipments[0].customs_information.items[0].quantity\terror\tmust be a whole number (got 1.5)',
      'fixtures/invalid/order-typos.yaml:42:92\torder.shipments[0].customs_information.items[0].currency\terror\tonly AUD is supported (got "USD")',
      'fixtures/invalid/order-typos.yaml:42:105\torder.shipments[0].customs_information.items[0].madein\terror\texpected a two-letter country code (got "China"; did you mean CN?)',
      'fixtures/invalid/payment-bad-card.yaml:8:15\torder.payment.credit_card.number\terror\tnot a valid card number (12 to 19 digits passing the Luhn check)',
      'fixtures/invalid/payment-bad-card.yaml:9:12\torder.payment.credit_card.cvv\terror\tmust be 3 or 4 digits',
      'fixtures/invalid/payment-bad-card.yaml:11:15\torder.payment.credit_card.expire\terror\texpected MM/YY, two-digit month and year',
      'fixtures/invalid/quote-wrong-currency.json:6:25\tdelivery_country\terror\texpected a two-letter country code (got "USA"; did you mean US?)',
      'fixtures/invalid/quote-wrong-currency.json:10:46\tpackages[0].height\terror\tmust be greater than 0 (got 0)',
      'fixtures/invalid/quote-wrong-currency.json:13:17\tcurrency\terror\tonly AUD is supported (got "USD")',
    ];
    expect(lines).toEqual(expected);
    // Each line number points at the planted value in the file.
    const at = (file: string, line: number) => readFileSync(file, 'utf8').split('\n')[line - 1]!;
    expect(at('fixtures/invalid/order-too-long.yaml', 35)).toContain('Collins Place, 120 Collins Street East');
    expect(at('fixtures/invalid/order-typos.yaml', 19)).toContain('adress_lines:');
    expect(at('fixtures/invalid/order-pickup-and-value.yaml', 22)).toContain('2026-02-30');
    expect(r.stderr).toContain('✖ fixtures/invalid/order-typos.yaml  order  8 errors');
    expect(r.stderr).toContain('6 files checked: 0 valid, 6 with errors');
    expect(r.stderr).toContain('error: 6 of 6 files have errors');
    expect(r.stdout + r.stderr).not.toContain('4111 1111 1111 1112');
  });

  it('passes the order and quote fixtures (exit 0), nothing on stdout, a summary line per file on stderr', async () => {
    const files = [
      ...readdirSync('fixtures/orders')
        .filter((f) => f.endsWith('.yaml'))
        .map((f) => `fixtures/orders/${f}`),
      ...readdirSync('fixtures/quotes').map((f) => `fixtures/quotes/${f}`),
    ];
    const r = await runShipbook(['validate', ...files], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    for (const f of files) expect(r.stderr).toMatch(new RegExp(`✔ ${f.replace(/\./g, '\\.')} {2}(order|quote) {2}valid`));
  });

  it('prints one JSON array with --json (and only that on stdout, even when a file is invalid)', async () => {
    const ok = await runShipbook(['validate', 'fixtures/payments/', '--json'], { env });
    expect(ok.code).toBe(0);
    const reports = JSON.parse(ok.stdout) as Array<{ file: string; kind: string; valid: boolean; issues: unknown[] }>;
    expect(reports.map((x) => [x.file, x.kind, x.valid])).toEqual([
      ['fixtures/payments/credit-card.yaml', 'accept', true],
      ['fixtures/payments/credit.yaml', 'accept', true],
      ['fixtures/payments/stored-card.yaml', 'accept', true],
    ]);
    const bad = await runShipbook(['validate', 'fixtures/quotes/syd-mel-single.yaml', 'fixtures/invalid/quote-wrong-currency.json', '--json'], { env });
    expect(bad.code).toBe(2);
    const [good, wrong] = JSON.parse(bad.stdout) as Array<{ valid: boolean; issues: Array<Record<string, unknown>> }>;
    expect(good!.valid).toBe(true);
    expect(wrong!.valid).toBe(false);
    expect(wrong!.issues[0]).toEqual({
      file: 'fixtures/invalid/quote-wrong-currency.json',
      line: 6,
      column: 25,
      path: 'delivery_country',
      message: 'expected a two-letter country code (got "USA"; did you mean US?)',
      severity: 'error',
    });
    expect(bad.stderr).toContain('error: 1 of 2 files has errors');
  });

  it('reads standard input with "-" and takes --kind', async () => {
    const quote = readFileSync('fixtures/quotes/syd-mel-single.yaml', 'utf8');
    const asQuote = await runCli(['validate', '-'], { env, input: quote });
    expect(asQuote.code).toBe(0);
    expect(asQuote.stderr).toContain('✔ -  quote  valid');
    const asOrder = await runShipbook(['validate', '--kind', 'order', '-'], { env, input: quote });
    expect(asOrder.code).toBe(2);
    expect(tsv(asOrder.stdout)).toContain('-:2:1\tcollection_country\terror\tunknown field');
    const badKind = await runShipbook(['validate', '--kind', 'parcel', '-'], { env, input: quote });
    expect(badKind.code).toBe(2);
    expect(badKind.stderr).toContain('Allowed choices are quote, order, accept, shipment, combine');
  });

  it('shows warnings without failing: a package over 30 kg; a pickup date in the past is an error naming the next collection day', async () => {
    const doc = parse(readFileSync('fixtures/orders/domestic-syd-mel.yaml', 'utf8'));
    doc.order.shipments[0].packages[0].weight = 42;
    const file = write('heavy.yaml', stringify(doc));
    const r = await runShipbook(['validate', file], { env });
    expect(r.code).toBe(0);
    expect(tsv(r.stdout)).toEqual([
      expect.stringMatching(
        /:\d+:\d+\torder\.shipments\[0\]\.packages\[0\]\.weight\twarning\tover 30 kg for one package \(got 42 kg\); check the weight and the unit$/,
      ),
    ]);
    expect(r.stderr).toContain('order  valid, 1 warning');
    doc.order.shipments[0].collection.pickup.date = '2020-01-06';
    const late = await runShipbook(['validate', write('late.yaml', stringify(doc))], { env });
    expect(late.code).toBe(2);
    expect(tsv(late.stdout)[0]).toMatch(
      /:\d+:\d+\torder\.shipments\[0\]\.collection\.pickup\.date\terror\tpickup date 2020-01-06 is in the past \(today is \w+ \d+ \w+ in NSW\); the next collection day is \w+ \d+ \w+ \(\d{4}-\d{2}-\d{2}\): write it, or book with --roll-pickup-dates$/,
    );
  });

  it('never reads the configuration or credentials: a broken config file does not matter', async () => {
    const broken = makeHome();
    mkdirSync(join(broken.home, 'shipbook'), { recursive: true });
    writeFileSync(join(broken.home, 'shipbook', 'config.json'), '{ this is not json');
    try {
      const r = await runShipbook(['validate', 'fixtures/orders/domestic-syd-mel.yaml'], { env: { HOME: broken.home, XDG_CONFIG_HOME: broken.home } });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).not.toContain('[sandbox]');
    } finally {
      broken.cleanup();
    }
  });
});

describe('nothing is sent while a file has an error', () => {
  it('order create and book refuse an invalid order with its problems (exit 2); the sandbox sees no order', async () => {
    const before = { orders: sandbox.state.orders.size };
    for (const args of [
      ['order', 'create', 'fixtures/invalid/order-too-long.yaml'],
      ['book', 'fixtures/invalid/order-typos.yaml', '--payment', 'credit'],
    ]) {
      const r = await runShipbook(args, { env });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/error: \d+ problems found; nothing was sent/);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    const create = await runShipbook(['order', 'create', 'fixtures/invalid/order-too-long.yaml'], { env });
    expect(create.stderr).toContain('fixtures/invalid/order-too-long.yaml:35:13  order.shipments[0].delivery.address_lines[1]  at most 35 characters (got 38)');
    expect(sandbox.state.orders.size).toBe(before.orders);
  });

  it('quote refuses an invalid file and names the command a file of another kind goes with', async () => {
    const r = await runShipbook(['quote', 'fixtures/orders/domestic-syd-mel.yaml'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'hint: fixtures/orders/domestic-syd-mel.yaml looks like an order: {order: {shipments: […]}} (POST /orders/); it goes with shipbook order create <file>, shipbook book <file>.',
    );
  });

  it('order create sends a file that has only warnings, and shows them on stderr', async () => {
    const doc = parse(readFileSync('fixtures/orders/domestic-syd-mel.yaml', 'utf8'));
    doc.order.shipments[0].packages[1].weight = 31;
    const file = write('heavy.yaml', stringify(doc));
    const before = sandbox.state.orders.size;
    const r = await runShipbook(['order', 'create', file, '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/heavy\.yaml:\d+:\d+ {2}order\.shipments\[0\]\.packages\[1\]\.weight {2}warning: over 30 kg for one package \(got 31 kg\)/);
    expect(sandbox.state.orders.size).toBe(before + 1);
    expect(JSON.parse(r.stdout).order.id).toMatch(/^ORD-/);
  });
});

describe('shipbook schema', () => {
  it('prints the JSON Schema of a kind, the same as the committed fixtures/schemas file', async () => {
    const r = await runShipbook(['schema', 'order'], { env });
    expect(r.code).toBe(0);
    const schema = JSON.parse(r.stdout) as { $schema: string; title: string };
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.title).toBe('shipbook order file');
    expect(r.stdout).toBe(readFileSync('fixtures/schemas/order.schema.json', 'utf8'));
  });

  it('refuses an unknown kind with exit 2, listing the kinds', async () => {
    const r = await runShipbook(['schema', 'parcel'], { env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('unknown kind "parcel": use one of quote, order, accept, shipment, combine');
    expect(r.stderr).not.toContain('Did you mean');
  });

  it('suggests the kind a plural or mistyped name means', async () => {
    const r = await runShipbook(['schema', 'orders'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('hint: Did you mean "order"? shipbook schema order > schemas/order.schema.json');
  });
});

describe('validate on a directory of JSON Schemas', () => {
  it('says it skipped the *.schema.json files and why, instead of only "no .json file"', async () => {
    const r = await runShipbook(['validate', 'fixtures/schemas/'], { env });
    expect(r.code).toBe(2);
    expect(r.stdout + r.stderr).toContain('skipped 7 *.schema.json files: JSON Schemas describe input files, they are not one');
  });
});
