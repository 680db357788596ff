/**
 * The fast path for plain YAML and JSON files (src/input/yaml-plain.ts, js-yaml) reads exactly what the full
 * parse (src/input/parse.ts) reads, or steps aside: on every fixture, and on thousands of fixtures
 * edited at random (a fixed seed), whenever the fast path gives a value the full parse gives the
 * same value, and whenever the full parse refuses a text the fast path gives nothing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors.js';
import { parseInput } from '../../src/input/parse.js';
import { parsePlainDocument, plainYamlValue } from '../../src/input/yaml-plain.js';

const ROOT = join(import.meta.dirname, '..', '..');

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, e.name);
    if (e.isDirectory()) out.push(...filesUnder(full));
    else if (/\.(ya?ml|json)$/.test(e.name)) out.push(full);
  }
  return out.sort();
}

const FIXTURES = filesUnder(join(ROOT, 'fixtures')).filter((f) => !f.endsWith('.schema.json'));

/** The full parse's reading of a text: its value, or `refused`. */
function fullReading(text: string): { data: unknown; wrapper: PropertyKey[] } | 'refused' {
  try {
    const doc = parseInput('x.yaml', Buffer.from(text, 'utf8'));
    return { data: doc.data, wrapper: doc.wrapper };
  } catch (err) {
    if (err instanceof ValidationError) return 'refused';
    throw err;
  }
}

/** Fails when the fast path reads `text` otherwise than the full parse. */
function expectAgreement(text: string): 'fast' | 'full' {
  const fast = parsePlainDocument('x.yaml', text);
  if (fast === undefined) return 'full';
  const full = fullReading(text);
  expect(full, `the full parse refuses what the fast path read:\n${text}`).not.toBe('refused');
  expect({ data: fast.data, wrapper: fast.wrapper }, text).toStrictEqual(full);
  return 'fast';
}

/** A small deterministic PRNG (mulberry32), so a failure is the same on every run. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = [
  ':',
  ': ',
  ' ',
  '  ',
  '-',
  '- ',
  '#',
  ' #',
  '"',
  "'",
  "''",
  '{',
  '}',
  '[',
  ']',
  ',',
  '&a ',
  '*a',
  '!',
  '!!str ',
  '|',
  '>',
  '\n',
  '\n  ',
  '0',
  '.',
  'e3',
  '~',
  'true',
  'null',
  'NULL',
  'False',
  '0x1F',
  '0o17',
  '.inf',
  '-.5',
  '+12',
  '1e5',
  '\\',
  '\\n',
  '\\x41',
  '\\u0001',
  '---',
  '...',
  '%',
  '?',
  '@',
  '`',
  'key: v',
  '__proto__: 1',
  'ä',
  '\t',
  '\r',
  'request:',
  '$schema: x',
];

function edit(text: string, rnd: () => number): string {
  const lines = text.split('\n');
  const at = Math.floor(rnd() * lines.length);
  const line = lines[at]!;
  switch (Math.floor(rnd() * 6)) {
    case 0: {
      const p = Math.floor(rnd() * (line.length + 1));
      lines[at] = line.slice(0, p) + PIECES[Math.floor(rnd() * PIECES.length)]! + line.slice(p);
      break;
    }
    case 1: {
      const p = Math.floor(rnd() * line.length);
      lines[at] = line.slice(0, p) + line.slice(p + 1 + Math.floor(rnd() * 3));
      break;
    }
    case 2:
      lines.splice(at, 0, line);
      break;
    case 3:
      lines[at] = rnd() < 0.5 ? ` ${line}` : line.replace(/^ {1,2}/, '');
      break;
    case 4:
      lines.splice(at, 1);
      break;
    default: {
      const value = PIECES[Math.floor(rnd() * PIECES.length)]!;
      lines[at] = line.replace(/: .*$/, `: ${value}`);
    }
  }
  return lines.join('\n');
}

describe('the fast path for plain YAML and JSON files', () => {
  it('reads every fixture as the full parse does, and most of them itself', () => {
    let fast = 0;
    for (const f of FIXTURES) if (expectAgreement(readFileSync(f, 'utf8')) === 'fast') fast++;
    expect(fast).toBeGreaterThan(FIXTURES.length / 2);
  });

  it('reads edited fixtures as the full parse does, or leaves them to it', () => {
    const rnd = prng(20261127);
    const texts = FIXTURES.map((f) => readFileSync(f, 'utf8'));
    const seen = { fast: 0, full: 0 };
    for (let n = 0; n < 3_000; n++) {
      let text = texts[n % texts.length]!;
      for (let k = 1 + Math.floor(rnd() * 3); k > 0; k--) text = edit(text, rnd);
      seen[expectAgreement(text)]++;
    }
    // Both readings were exercised: edits the fast path took, and edits it left to the full parse.
    expect(seen.fast).toBeGreaterThan(300);
    expect(seen.full).toBeGreaterThan(300);
  });

  it('reads plain values as the YAML 1.2 core schema does', () => {
    const cases: Array<[string, unknown]> = [
      ['', null],
      ['~', null],
      ['Null', null],
      ['TRUE', true],
      ['false', false],
      ['0o17', 15],
      ['-12', -12],
      ['+7', 7],
      ['0x1F', 31],
      ['-.inf', Number.NEGATIVE_INFINITY],
      ['.NaN', NaN],
      ['1e3', 1000],
      ['18.50', 18.5],
      ['2026-12-01', '2026-12-01'],
      ['1_000', '1_000'],
      ['yes', 'yes'],
      ['120 Collins Street', '120 Collins Street'],
    ];
    for (const [text, value] of cases) {
      expect(plainYamlValue(`v: ${text}\n`), text).toStrictEqual(fullReading(`v: ${text}\n`) === 'refused' ? undefined : { v: value });
    }
  });

  it('leaves anchors, aliases, tags, merge keys, tabs and repeated keys to the full parse', () => {
    for (const text of [
      'a: &x 1\nb: *x\n',
      'a: !!str 1\n',
      'a: 1\na: 2\n',
      'b: &x { c: 1 }\na:\n  <<: *x\n',
      'a:\n\t- 1\n',
      '? a\n: 1\n',
      'a: "one\ntwo"\n',
      'a: { b: 1,\n c: 2 }\n',
      'a: "x"#\n',
      'b: &x { c: 1 }\na:\n  <<: *x\n',
      'a:\n\t- 1\n',
      '? a\n: 1\n',
      'a: "x\\ty"\n'.replace('\\t', '\\e'),
    ]) {
      expect(parsePlainDocument('x.yaml', text), text).toBeUndefined();
    }
  });
});
