/**
 * The kinds of input document (src/input/kinds.ts): detection from content, the short forms,
 * validation of directories, warnings on the sending path, and the JSON Schema for editors
 * (checked with an independent JSON Schema validator, and kept up to date in fixtures/schemas/).
 */
import { PLAIN_HINTS } from '../../src/shell.js';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ValidationError } from '../../src/errors.js';
import { KIND_NAMES, detectKind, kindJsonSchema, type KindName } from '../../src/input/kinds.js';
import { parseInput } from '../../src/input/parse.js';
import { validateFiles, validateKind } from '../../src/input/validate.js';
import { printWarnings } from '../../src/output/report.js';
import { closestField, knownFieldsAt } from '../../src/schema/issues.js';
import { createOrderRequest } from '../../src/schema/order.js';
import { NOW, check, errors, fixture, order } from './validation-helpers.js';
import { hintText } from '../../src/output/hints.js';

const dir = mkdtempSync(join(tmpdir(), 'shipbook-kinds-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('telling the kind of a document from its content', () => {
  it.each([
    ['fixtures/quotes/syd-mel-single.yaml', 'quote'],
    ['fixtures/quotes/mel-nyc-imperial.json', 'quote'],
    ['fixtures/orders/domestic-syd-mel.yaml', 'order'],
    ['fixtures/payments/credit-card.yaml', 'accept'],
    ['fixtures/payments/credit.yaml', 'accept'],
    ['fixtures/shipments/au-us-1.yaml', 'shipment'],
    ['fixtures/combine/two-parcels-to-hub.yaml', 'combine'],
  ])('%s is a %s file', (file, kind) => {
    const report = check(fixture(file), undefined, file);
    expect(report.kind).toBe(kind);
    expect(report.issues.filter((i) => i.severity === 'error')).toEqual([]);
  });

  it('detects bare and short forms: a shipment without {shipment: …}, a payment without order', () => {
    expect(detectKind(fixture('fixtures/shipments/au-us-1.yaml').shipment)).toBe('shipment');
    expect(detectKind({ payment: { type: 'credit' } })).toBe('accept');
    expect(detectKind({ shipments: ['SHP-1', 'SHP-2'] })).toBe('combine');
    expect(detectKind({ hello: 'world' })).toBeUndefined();
  });

  it('reports a document it cannot tell, naming --kind', () => {
    const report = check({ hello: 'world' });
    expect(report).toMatchObject({ kind: null, valid: false });
    expect(report.issues).toEqual([
      expect.objectContaining({
        line: 1,
        column: 1,
        path: '',
        message: expect.stringContaining('name it with --kind (quote, order, accept, shipment, combine'),
      }),
    ]);
  });

  it('checks as the --kind given, whatever the content looks like', () => {
    const report = check(fixture('fixtures/quotes/syd-mel-single.yaml'), 'order');
    expect(report.kind).toBe('order');
    expect(report.issues.map((i) => `${i.path}: ${i.message}`)).toContain('order: required');
  });

  it('reports problems of a short form at the paths of the file as written', () => {
    const payment = { payment: { type: 'credit_card', credit_card: { number: '4111111111111112', cvv: '123', holder_name: 'P', expire: '08/29' } } };
    expect(errors(payment)).toEqual(['payment.credit_card.number: not a valid card number (12 to 19 digits passing the Luhn check)']);
    const bare = fixture('fixtures/shipments/au-us-1.yaml').shipment;
    bare.delivery.country = 'XX';
    bare.delivery.adress = 'x';
    expect(errors(bare)).toEqual(['delivery.country: unknown country code "XX" (ISO 3166-1 alpha-2, e.g. AU, US, GB)', 'delivery.adress: unknown field']);
  });
});

describe('validating files and directories', () => {
  it('expands a directory to its .json/.yaml/.yml files, sorted, and reports an empty one', async () => {
    mkdirSync(join(dir, 'batch', 'nested'), { recursive: true });
    mkdirSync(join(dir, 'empty'));
    writeFileSync(join(dir, 'batch', 'b.yml'), 'payment: { type: credit }\n');
    writeFileSync(join(dir, 'batch', 'a.json'), JSON.stringify(fixture('fixtures/quotes/syd-mel-single.yaml')));
    writeFileSync(join(dir, 'batch', 'nested', 'c.yaml'), 'shipments: []\n');
    writeFileSync(join(dir, 'batch', 'notes.txt'), 'not an input file');
    const reports = await validateFiles([join(dir, 'batch'), join(dir, 'empty'), join(dir, 'missing.yaml')], { now: () => NOW });
    expect(reports.map((r) => [r.file.slice(dir.length + 1), r.kind, r.valid])).toEqual([
      ['batch/a.json', 'quote', true],
      ['batch/b.yml', 'accept', true],
      ['batch/nested/c.yaml', null, false],
      ['empty', null, false],
      ['missing.yaml', null, false],
    ]);
    expect(reports[3]!.issues[0]!.message).toBe('no .json, .yaml, .yml, .ndjson, .jsonl file in this directory');
    expect(reports[4]!.issues[0]!.message).toBe('no such file');
  });
});

describe('loading a document for a command that sends it', () => {
  const ctx = () => {
    let stderr = '';
    return { io: { stdin: process.stdin, color: false, err: (t: string) => void (stderr += t) }, now: () => NOW, stderr: () => stderr };
  };

  it('prints warnings on stderr as file:line:col  path  warning: … and returns the value', () => {
    const { doc } = order();
    doc.order.shipments[0].packages[0].weight = 31;
    const c = ctx();
    const { value, warnings } = validateKind(parseInput('orders/late.json', Buffer.from(JSON.stringify(doc, null, 1))), 'order', c);
    printWarnings(c.io, warnings);
    expect(value.order.shipments).toHaveLength(1);
    expect(c.stderr()).toMatch(
      /^orders\/late\.json:\d+:\d+ {2}order\.shipments\[0\]\.packages\[0\]\.weight {2}warning: over 30 kg for one package \(got 31 kg\); check the weight and the unit\n$/,
    );
  });

  it('refuses a file of another kind and names the command it goes with', () => {
    const c = ctx();
    const doc = parseInput('quote.yaml', Buffer.from(JSON.stringify(fixture('fixtures/quotes/syd-mel-single.yaml'))));
    let error: unknown;
    try {
      validateKind(doc, 'order', c);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect(hintText((error as ValidationError).suggestion, PLAIN_HINTS)).toBe(
      'quote.yaml looks like a quote request: route and packages (POST /quote/); it goes with shipbook quote <file>.',
    );
    expect(c.stderr()).toBe('');
  });
});

describe('unknown fields: the field meant', () => {
  it('finds the known fields at a path, through optional, arrays and pipes', () => {
    expect(knownFieldsAt(createOrderRequest, ['order', 'shipments', 0, 'delivery'])).toEqual(
      expect.arrayContaining(['first_name', 'last_name', 'company', 'email', 'phone', 'country', 'postcode', 'city', 'address_lines']),
    );
    expect(knownFieldsAt(createOrderRequest, ['order', 'shipments', 0, 'collection', 'pickup'])).toEqual(['date', 'time_earliest', 'time_latest']);
    expect(knownFieldsAt(createOrderRequest, ['nowhere'])).toEqual([]);
  });

  it('guesses typos, other spellings and cases, and stays quiet when nothing is close', () => {
    const known = ['first_name', 'last_name', 'address_lines', 'postcode', 'email'];
    expect(closestField('adress_lines', known)).toBe('address_lines');
    expect(closestField('firstName', known)).toBe('first_name');
    expect(closestField('Post-Code', known)).toBe('postcode');
    expect(closestField('e-mail', known)).toBe('email');
    expect(closestField('colour', known)).toBeUndefined();
  });
});

describe('JSON Schema for editors', () => {
  const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
  const validator = (kind: KindName) => {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(ajv);
    return ajv.compile(kindJsonSchema(kind));
  };
  const yaml = (file: string) => parse(readFileSync(file, 'utf8'));

  it.each([
    ['quote', ['fixtures/quotes/syd-mel-single.yaml', 'fixtures/quotes/syd-per-multi.yaml', 'fixtures/quotes/mel-nyc-imperial.json']],
    ['order', ['fixtures/orders/domestic-syd-mel.yaml', 'fixtures/orders/insured-bne-per.yaml', 'fixtures/orders/stored-card.yaml']],
    ['accept', ['fixtures/payments/credit-card.yaml', 'fixtures/payments/credit.yaml', 'fixtures/payments/stored-card.yaml']],
    ['shipment', ['fixtures/shipments/au-us-1.yaml']],
    ['combine', ['fixtures/combine/two-parcels-to-hub.yaml']],
  ] as const)('the %s schema accepts the valid fixtures, wrapped in request or not', (kind, files) => {
    const validate = validator(kind);
    for (const file of files) {
      const doc = yaml(file);
      expect(validate(doc), `${file}: ${JSON.stringify(validate.errors?.slice(0, 3))}`).toBe(true);
      const inner = 'request' in doc ? doc.request : doc;
      expect(validate({ request: inner }), file).toBe(true);
      expect(validate({ $schema: '../schemas/x.json', ...inner }), file).toBe(true);
    }
  });

  it('accepts what validation accepts: postcodes as numbers, units and reasons in any case, decimal strings', () => {
    const { doc, s } = order();
    s.delivery.postcode = 3000;
    s.packages[0].unit = 'CM';
    s.packages[0].length = '40.5';
    s.customs_information.reason = 'personal effects';
    s.customs_information.items[0].value = '18.50';
    s.delivery.country = 'au';
    expect(errors(doc)).toEqual([]);
    const validate = validator('order');
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
  });

  it('rejects what validation rejects within a field: unknown fields, 36 characters, XX, mm, USD, quantity 0, 4 address lines', () => {
    const validate = validator('order');
    const cases: Array<(s: any) => void> = [
      (s) => (s.delivery.adress_lines = ['x']),
      (s) => (s.delivery.first_name = 'x'.repeat(36)),
      (s) => (s.delivery.country = 'XX'),
      (s) => (s.packages[0].unit = 'mm'),
      (s) => (s.customs_information.items[0].currency = 'USD'),
      (s) => (s.customs_information.items[0].quantity = 0),
      (s) => (s.delivery.address_lines = ['a', 'b', 'c', 'd']),
      (s) => (s.delivery.address_lines = ['']),
      (s) => (s.collection.pickup.time_latest = '25:00'),
      (s) => (s.packages[0].weight = 0),
    ];
    for (const mutate of cases) {
      const { doc, s } = order();
      mutate(s);
      expect(errors(doc).length, mutate.toString()).toBeGreaterThan(0);
      expect(validate(doc), mutate.toString()).toBe(false);
    }
  });

  it('carries titles and field descriptions for hover text', () => {
    const schema = kindJsonSchema('order') as any;
    expect(schema.title).toBe('shipbook order file');
    const shipment = schema.$defs.order.properties.order.properties.shipments.items;
    expect(shipment.properties.collection_type.description).toContain('dropoff');
    expect(shipment.properties.collection_type.anyOf[0].enum).toEqual(['pickup', 'dropoff']);
  });

  it.each(KIND_NAMES)('fixtures/schemas/%s.schema.json is up to date (vitest -u regenerates it)', async (kind) => {
    await expect(`${JSON.stringify(kindJsonSchema(kind), null, 2)}\n`).toMatchFileSnapshot(`../../fixtures/schemas/${kind}.schema.json`);
  });

  it('has a committed schema for every kind and no other', () => {
    expect(readdirSync('fixtures/schemas').sort()).toEqual(KIND_NAMES.map((k) => `${k}.schema.json`).sort());
  });
});
