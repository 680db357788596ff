/**
 * Loading input documents safely and with positions (src/input/load.ts, read.ts, parse.ts, json-line.ts, problems.ts): JSON and YAML, the
 * optional `request` wrapper, standard input, and a clear error with a line for everything that
 * is not a plain JSON/YAML object.
 */
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { parseDocument } from 'yaml';
import { ValidationError, type InputIssue } from '../../src/errors.js';
import { formatIssues } from '../../src/input/format.js';
import { firstInvalidUtf8 } from '../../src/input/utf8.js';
import { loadDocument } from '../../src/input/load.js';
import { MAX_INPUT_BYTES, readInput } from '../../src/input/read.js';
import { parseInput } from '../../src/input/parse.js';
import { parseJsonLine } from '../../src/input/json-line.js';
import { validateDocument } from '../../src/input/problems.js';
import { createOrderRequest } from '../../src/schema/order.js';
import { quoteRequest } from '../../src/schema/quote.js';

// The yaml package's composer, counted: an alias bomb must be refused before it is composed.
vi.mock('yaml', async (original) => {
  const yaml = await original<typeof import('yaml')>();
  return { ...yaml, parseDocument: vi.fn(yaml.parseDocument) };
});

const dir = mkdtempSync(join(tmpdir(), 'shipbook-load-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The issues of the ValidationError that `fn` throws (fails the test if it does not throw one). */
function issuesOf(fn: () => unknown): InputIssue[] {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError);
    return (err as ValidationError).issues;
  }
  throw new Error('expected a ValidationError');
}

const parse = (text: string | Buffer, file = 'f.yaml') => parseInput(file, Buffer.isBuffer(text) ? text : Buffer.from(text));
const problems = (text: string | Buffer) => issuesOf(() => parse(text)).map((i) => `${i.line}:${i.column} ${i.message}`);

const QUOTE = `collection_country: AU
collection_postcode: "2000"
collection_city: Sydney
delivery_country: AU
delivery_postcode: "3000"
delivery_city: Melbourne
packages:
  - { length: 30, width: 20, height: 15, weight: 2.5, unit: cm }
currency: AUD
`;

describe('reading JSON and YAML with positions', () => {
  it('points a 41-character address line at its line and column, in the issue format', () => {
    const yaml = [
      '# Tuesday orders', // 1
      'order:',
      '  shipments:',
      '    - service: { code: SB-DOM-ROAD }',
      '      collection_type: dropoff', // 5
      '      description: Homewares',
      '      packages: [{ length: 40, width: 30, height: 25, weight: 6.5, unit: cm }]',
      '      customs_information:',
      '        { reason: Sale, tax_status: Company, lithium: false, items: [{ description: Plates, quantity: 1, value: 10, currency: AUD, madein: AU }] }',
      '      delivery:', // 10
      '        { first_name: Tom, last_name: Nguyen, email: tom@example.com, phone: "1", country: US, postcode: "10001", city: New York,',
      '          address_lines:',
      '            [ Apt 5C,',
      `        ${'x'.repeat(41)} ] }`, // 14: the second line starts in column 9
    ].join('\n');
    const doc = parseInput('orders/tuesday.yaml', Buffer.from(yaml));
    const issues = issuesOf(() => validateDocument(doc, createOrderRequest));
    expect(formatIssues(issues)).toBe('orders/tuesday.yaml:14:9  order.shipments[0].delivery.address_lines[1]  at most 35 characters (got 41)');
  });

  it('reads JSON the same way, positions included', () => {
    const json = JSON.stringify(
      {
        request: {
          ...Object.fromEntries(
            QUOTE.split('\n')
              .filter(Boolean)
              .slice(0, 6)
              .map((l) => l.split(': ').map((v) => v.replace(/"/g, ''))),
          ),
          packages: [],
          currency: 'AUD',
        },
      },
      null,
      2,
    );
    const doc = parse(json, 'q.json');
    expect(doc.wrapper).toEqual(['request']);
    const issues = issuesOf(() => validateDocument(doc, quoteRequest));
    expect(issues).toEqual([{ file: 'q.json', line: 9, column: 17, path: 'packages', message: 'at least 1 package', severity: 'error' }]);
  });

  it('takes the request wrapper as optional: both forms give the same data', () => {
    const bare = parse(QUOTE);
    const wrapped = parse(`request:\n${QUOTE.replace(/^/gm, '  ')}`);
    expect(wrapped.data).toEqual(bare.data);
    expect(bare.wrapper).toEqual([]);
    expect(wrapped.locate(['delivery_city'])).toEqual({ line: 7, column: 18 });
    expect(bare.locate(['delivery_city'])).toEqual({ line: 6, column: 16 });
  });

  it('ignores a top-level "$schema" (how JSON files name their JSON Schema for editors)', () => {
    const doc = parse(JSON.stringify({ $schema: '../schemas/quote.schema.json', request: { collection_country: 'AU' } }), 'q.json');
    expect(doc.data).toEqual({ collection_country: 'AU' });
  });

  it('points an unknown field at its name', () => {
    const doc = parse(QUOTE.replace('delivery_city: Melbourne', 'delivery_city: Melbourne\ndelivery_suburb: Docklands'));
    const issues = issuesOf(() => validateDocument(doc, quoteRequest));
    expect(issues.map((i) => `${i.line}:${i.column} ${i.path} ${i.message}`)).toEqual(['7:1 delivery_suburb unknown field']);
  });

  it('locates paths through YAML aliases', () => {
    const doc = parse('base: &b\n  city: Sydney\ncopy: *b\n');
    expect(doc.locate(['copy', 'city'])).toEqual({ line: 2, column: 9 });
  });

  it('reads standard input with "-"', async () => {
    const doc = await loadDocument('-', Readable.from([Buffer.from(QUOTE)]));
    expect(doc.file).toBe('-');
    expect((doc.data as { delivery_city: string }).delivery_city).toBe('Melbourne');
  });
});

describe('safe YAML', () => {
  it.each([
    ['!!js/function', 'collection_city: !!js/function "function () { return 1 }"'],
    ['!foo', 'collection_city: !foo Sydney'],
    ['!!binary', 'collection_city: !!binary U3lkbmV5'],
    ['!!set', 'collection_city: !!set { a, b }'],
    ['!!timestamp', 'collection_city: !!timestamp 2026-12-01'],
    ['!!python/object:os.system', 'collection_city: !!python/object:os.system [ls]'],
  ])('refuses the tag %s with its line and column', (tag, line) => {
    expect(problems(QUOTE.replace('collection_city: Sydney', line))).toEqual([`3:18 YAML tag ${tag} is not allowed: write plain values`]);
  });

  it('allows the core-schema tags (!!str reads 2000 as text)', () => {
    const doc = parse(QUOTE.replace('collection_postcode: "2000"', 'collection_postcode: !!str 2000'));
    expect((doc.data as { collection_postcode: unknown }).collection_postcode).toBe('2000');
  });

  it('allows a few aliases (a sender address reused)', () => {
    const doc = parse('a: &sender { city: Sydney }\nb: *sender\nc: *sender\n');
    expect(doc.data).toEqual({ a: { city: 'Sydney' }, b: { city: 'Sydney' }, c: { city: 'Sydney' } });
  });

  it('refuses more than 100 aliases at the 101st', () => {
    const text = `a: &x 1\nlist:\n${Array.from({ length: 101 }, () => '  - *x').join('\n')}\n`;
    expect(problems(text)).toEqual(['103:5 more than 100 YAML aliases (*name)']);
  });

  it('refuses an alias bomb before composing it (composing a million aliases takes seconds): 10,000 and 1,000,000 aliases', () => {
    for (const count of [10_000, 1_000_000]) {
      const text = `order:\n  description: &a x\n  list: [${'*a,'.repeat(count - 1)}*a]\n`;
      vi.mocked(parseDocument).mockClear();
      expect(problems(text)).toEqual([`3:${10 + 3 * 100} more than 100 YAML aliases (*name)`]);
      expect(vi.mocked(parseDocument)).not.toHaveBeenCalled();
    }
    // The counter sees the composer when it does run.
    parseInput('x.yaml', Buffer.from('order:\n  description: &a x\n  list: [*a, *a]\n'));
    expect(vi.mocked(parseDocument)).toHaveBeenCalled();
  });

  it('counts only aliases: an asterisk in a block scalar, a quoted string, a word or a comment is text', () => {
    const lines = Array.from({ length: 150 }, (_, i) => `  *item ${i} 2*3`).join('\n');
    const text = `a: &x 1\nnote: |\n${lines}\nq: "*x *x"\nw: 2*3 # *x *x\nb: [*x, *x]\n---\nc: *x\n`;
    // Two aliases in the first document, one in the second: none refused for their count.
    expect(problems(text).some((p) => p.includes('aliases'))).toBe(false);
  });

  it('refuses a "billion laughs" document cleanly, without expanding it', () => {
    const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 9; i++) {
      const prev = String.fromCharCode(96 + i);
      const name = String.fromCharCode(97 + i);
      levels.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(',')}]`);
    }
    // Refused by counting aliases before expanding (an expansion would exhaust memory, not a timer).
    const issues = issuesOf(() => parse(levels.join('\n')));
    expect(issues.map((i) => `${i.line}:${i.column} ${i.message}`)).toEqual(['1:1 YAML aliases expand to too much data ("billion laughs"?)']);
  });

  it('refuses a recursive alias with its line, instead of overflowing the stack', () => {
    expect(problems('a: &a\n  b: *a\n')).toEqual(['2:6 alias *a is inside &a, the value it stands for: a recursive alias has no end']);
    expect(problems('order:\n  list: &l [1, [2, *l]]\n')).toEqual(['2:20 alias *l is inside &l, the value it stands for: a recursive alias has no end']);
  });

  it('refuses an alias without its anchor', () => {
    expect(problems('a: 1\nb: *nowhere\n')).toEqual(['2:4 alias *nowhere has no anchor &nowhere before it']);
  });
});

describe('files that are not a JSON or YAML object', () => {
  it('binary content: the line of the first NUL byte', () => {
    expect(problems(Buffer.from('a: 1\nb: \u0000\u0001\u0002'))).toEqual([
      '2:4 holds the control character U+0000 (NUL), as a binary file does: no input may hold control characters other than tab and line breaks; remove it',
    ]);
  });

  it('a control character in a value, written as itself or as an escape, in YAML and JSON alike', () => {
    const rule = 'no input may hold control characters other than tab and line breaks; remove it';
    expect(problems('a: 1\nb: x\u0001y\n')).toEqual([`2:5 holds the control character U+0001: ${rule}`]);
    expect(problems('a: 1\nb: "x\\e"\n')).toEqual([`2:4 holds the control character U+001B (ESC): ${rule}`]);
    expect(problems('{"a": 1,\n "b": "x\\u007f"}')).toEqual([`2:7 holds the control character U+007F (DEL): ${rule}`]);
    expect(problems('{"a": 1,\n "b\\u0000": 2}')).toEqual([`2:2 holds the control character U+0000 (NUL), as a binary file does: ${rule}`]);
    // Tab and line breaks are text.
    expect(parse('a: "x\\ty\\nz"\r\nb: "\t2"\r\n').data).toEqual({ a: 'x\ty\nz', b: '\t2' });
  });

  it('non-UTF-8 text (Latin-1): the line and column of the first bad byte', () => {
    expect(problems(Buffer.concat([Buffer.from('a: 1\ncity: Malm'), Buffer.from([0xf6]), Buffer.from('\n')]))).toEqual([
      '2:11 is not UTF-8 text; save it as UTF-8',
    ]);
  });

  it('UTF-16 text', () => {
    expect(problems(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a: 1', 'utf16le')]))).toEqual(['1:1 is UTF-16 text; save it as UTF-8']);
  });

  it('finds invalid UTF-8: overlong forms, surrogates, truncated sequences', () => {
    expect(firstInvalidUtf8(Buffer.from('héllo 😀'))).toBe(-1);
    expect(firstInvalidUtf8(Buffer.from([0x61, 0xc0, 0xaf]))).toBe(1);
    expect(firstInvalidUtf8(Buffer.from([0xed, 0xa0, 0x80]))).toBe(0);
    expect(firstInvalidUtf8(Buffer.from([0x61, 0x62, 0xe2, 0x82]))).toBe(2);
  });

  it.each([
    ['an empty file', '', 'is empty'],
    ['blank lines', '\n  \n', 'is empty'],
    ['only comments', '# nothing yet\n', 'is empty (only comments)'],
  ])('%s', (_what, text, message) => {
    expect(problems(text)).toEqual([`1:1 ${message}`]);
  });

  it.each([
    ['- a\n- b\n', 'a list'],
    ['just text\n', 'text'],
    ['42\n', 'a number'],
    ['null\n', 'nothing'],
  ])('%j is not an object', (text, what) => {
    expect(problems(text)).toEqual([`1:1 must hold an object (a mapping of fields), not ${what}`]);
  });

  it('a request wrapper that holds no object', () => {
    expect(problems('request: 5\n')).toEqual(['1:10 "request" must hold an object']);
  });

  it('syntax errors, duplicate fields and several documents, each with its line', () => {
    expect(problems('a: 1\nb: [1, 2\nc: 3\n')[0]).toMatch(/^\d+:\d+ not valid JSON or YAML: /);
    expect(problems('city: Sydney\npostcode: "2000"\ncity: Melbourne\n')).toEqual(['3:1 field city is given twice']);
    expect(problems('a: 1\n---\nb: 2\n')).toEqual(['2:1 holds more than one YAML document (---); put one document in each file']);
    expect(problems('{ "a": 1, }x')[0]).toMatch(/^1:\d+ not valid JSON or YAML/);
  });
});

describe('reading files', () => {
  it('a missing file, a directory', async () => {
    await expect(readInput(join(dir, 'nope.yaml'))).rejects.toThrow('no such file');
    mkdirSync(join(dir, 'sub'));
    await expect(readInput(join(dir, 'sub'))).rejects.toThrow('is a directory, not a file');
  });

  it('refuses files and standard input over 5 MiB', async () => {
    const big = join(dir, 'big.yaml');
    writeFileSync(big, `a: "${'x'.repeat(MAX_INPUT_BYTES)}"\n`);
    await expect(readInput(big)).rejects.toThrow('larger than 5 MiB');
    const chunks = Array.from({ length: 6 }, () => Buffer.alloc(1024 * 1024, 0x61));
    await expect(readInput('-', Readable.from(chunks))).rejects.toThrow('larger than 5 MiB');
  });
});

describe('the fast path for NDJSON lines', () => {
  it('reads a plain JSON object with JSON.parse and finds positions only when asked', () => {
    const line = '{"request": {"order": {"shipments": [{"transient_id": "A-1", "note": "{not [a brace"}]}}}';
    const doc = parseJsonLine('o.ndjson', line)!;
    expect(doc.wrapper).toEqual(['request']);
    expect(doc.data).toEqual({ order: { shipments: [{ transient_id: 'A-1', note: '{not [a brace' }] } });
    expect(doc.locate(['order', 'shipments', 0, 'transient_id'])).toEqual({ line: 1, column: 55 });
  });

  it('leaves to the full parse what only it reports: a repeated key (also escaped), deep nesting, not an object, not JSON', () => {
    expect(parseJsonLine('o.ndjson', '{"a": 1, "b": {"c": 1, "c": 2}}')).toBeUndefined();
    expect(parseJsonLine('o.ndjson', '{"a": 1, "\\u0061": 2}')).toBeUndefined();
    expect(parseJsonLine('o.ndjson', `{"a": ${'['.repeat(70)}${']'.repeat(70)}}`)).toBeUndefined();
    expect(parseJsonLine('o.ndjson', '[1, 2]')).toBeUndefined();
    expect(parseJsonLine('o.ndjson', '{order: {}}')).toBeUndefined();
    expect(parseJsonLine('o.ndjson', '{"request": 5}')).toBeUndefined();
    // A repeated key whose first value held keys of its own, and one repeated in an object in a list.
    expect(parseJsonLine('o.ndjson', '{"a": {"x": 1, "y": {"z": 2}}, "a": {"x": 1, "y": 3, "w": 4}}')).toBeUndefined();
    expect(parseJsonLine('o.ndjson', '{"l": [{"k": 1}, {"k": 1, "k": 1}]}')).toBeUndefined();
    expect(parseJsonLine('o.ndjson', '{"__proto__": 1, "__proto__": 2}')).toBeUndefined();
    // Keys repeated in different objects are fine.
    expect(parseJsonLine('o.ndjson', '{"a": {"x": 1}, "b": {"x": 2}, "c": [{"x": 3}, {"x": 4}]}')).toBeDefined();
    // Strings with commas, colons, braces and escaped quotes in values and lists are no keys.
    expect(parseJsonLine('o.ndjson', '{"a": ["x, \\"y\\": {", "}, \\"z\\""], "b": "c, \\"d\\": 1", "__proto__": {}, "e": {}}')).toBeDefined();
  });
});
