/**
 * Property-based test of `shipbook validate` (fast-check, fixed seed): thousands of malformed
 * documents — valid fixtures with fields dropped, turned into the wrong type or given unknown
 * fields, random JSON, random YAML made of awkward fragments, and random bytes — go through the
 * same function the command calls. Every one must end as a report with at least one error, every
 * error with a field path (or, for a document-level problem, a line), and nothing may throw.
 * A few of them also run through bin/shipbook.js: exit code 2, no stack trace.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { validateBytes, type FileReport } from '../../src/input/validate.js';
import { runCli } from '../helpers/cli.js';
import { runShipbook } from '../helpers/run.js';

const SEED = 20261121;
const NOW = new Date('2026-11-21T12:00:00Z');
const dir = mkdtempSync(join(tmpdir(), 'shipbook-prop-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Valid documents of every kind whose objects all reject unknown fields. */
const FIXTURES = [
  'fixtures/quotes/syd-mel-single.yaml',
  'fixtures/quotes/syd-per-multi.yaml',
  'fixtures/quotes/mel-nyc-imperial.json',
  'fixtures/orders/domestic-syd-mel.yaml',
  'fixtures/orders/insured-bne-per.yaml',
  'fixtures/payments/credit-card.yaml',
  'fixtures/payments/stored-card.yaml',
  'fixtures/shipments/au-us-1.yaml',
  'fixtures/combine/two-parcels-to-hub.yaml',
].map((file) => parse(readFileSync(file, 'utf8')) as unknown);

/** Document-level problems: the only ones allowed without a field path. */
const DOCUMENT_LEVEL =
  /^(is empty|is a binary file|holds the control character|is not UTF-8|is UTF-16|must hold an object|"request" must hold an object|not valid JSON or YAML|holds more than one YAML document|field .* is given twice|a field is given twice|tabs are not allowed|YAML tag .* is not allowed|more than \d+ YAML aliases|alias \*.* has no anchor|alias \*.* is inside|YAML aliases expand|cannot be read|cannot tell what kind of document)/;

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Every path to a node of `doc` (the root included). */
function paths(doc: Json, prefix: Array<string | number> = []): Array<Array<string | number>> {
  const out = [prefix];
  if (Array.isArray(doc)) doc.forEach((v, i) => out.push(...paths(v, [...prefix, i])));
  else if (doc !== null && typeof doc === 'object') for (const [k, v] of Object.entries(doc)) out.push(...paths(v, [...prefix, k]));
  return out;
}

function get(doc: Json, path: Array<string | number>): Json {
  return path.reduce<Json>((v, k) => (v as Record<string | number, Json>)[k]!, doc);
}

function set(doc: Json, path: Array<string | number>, value: Json | undefined): Json {
  if (path.length === 0) return value ?? null;
  const parent = get(doc, path.slice(0, -1)) as Record<string | number, Json>;
  const key = path[path.length - 1]!;
  if (value === undefined) {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete parent[key];
  } else parent[key] = value;
  return doc;
}

/** A node of the wrong type for where it is: never valid anywhere in these schemas. */
function wrongType(v: Json): Json {
  if (Array.isArray(v)) return { not: 'a list' };
  if (v !== null && typeof v === 'object') return ['not', 'an object'];
  return { not: 'a value' };
}

/** A change that always makes a valid document invalid, and changes that may. */
const breaking = fc.oneof(
  fc.record({ op: fc.constant('wrong-type' as const), pick: fc.nat() }),
  fc.record({ op: fc.constant('unknown-field' as const), pick: fc.nat(), key: fc.stringMatching(/^zz_[a-z_]{1,12}$/) }),
);
const maybe = fc.oneof(
  fc.record({ op: fc.constant('drop' as const), pick: fc.nat() }),
  fc.record({
    op: fc.constant('replace' as const),
    pick: fc.nat(),
    value: fc.oneof(fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>, fc.string({ minLength: 30, maxLength: 600 })),
  }),
  fc.record({ op: fc.constant('long-text' as const), pick: fc.nat(), length: fc.integer({ min: 36, max: 2000 }) }),
);
type Mutation = { op: 'wrong-type' | 'unknown-field' | 'drop' | 'replace' | 'long-text'; pick: number; key?: string; value?: Json; length?: number };

function mutate(doc: Json, m: Mutation): Json {
  const all = paths(doc);
  const path = all[m.pick % all.length]!;
  const node = get(doc, path);
  switch (m.op) {
    case 'wrong-type':
      return set(doc, path, wrongType(node));
    case 'unknown-field': {
      const objects = all.filter((p) => {
        const v = get(doc, p);
        return v !== null && typeof v === 'object' && !Array.isArray(v);
      });
      if (objects.length === 0) return doc;
      const target = get(doc, objects[m.pick % objects.length]!) as Record<string, Json>;
      target[m.key!] = 'surprise';
      return doc;
    }
    case 'drop':
      return path.length === 0 ? doc : set(doc, path, undefined);
    case 'replace':
      return set(doc, path, m.value!);
    case 'long-text':
      return typeof node === 'string' ? set(doc, path, 'x'.repeat(m.length!)) : doc;
  }
}

/** A malformed document: a fixture with up to three changes and then a breaking one, as JSON or YAML text. */
const mutatedFixture = fc
  .record({
    fixture: fc.nat({ max: FIXTURES.length - 1 }),
    first: breaking,
    more: fc.array(fc.oneof(breaking, maybe), { maxLength: 3 }),
    yaml: fc.boolean(),
  })
  .map(({ fixture, first, more, yaml }) => {
    let doc = structuredClone(FIXTURES[fixture]) as Json;
    for (const m of more) doc = mutate(doc, m as Mutation);
    // The breaking change comes last, so that no other change can undo it.
    doc = mutate(doc, first as Mutation);
    return Buffer.from(yaml ? stringify(doc) : JSON.stringify(doc, null, 2));
  });

/** Awkward YAML: fields the schemas know, tags, anchors and aliases, flow collections, bad indents. */
const FRAGMENTS = [
  'order:',
  'shipments:',
  '  - ',
  'request:',
  'collection_country: AU',
  'packages: []',
  'payment: { type: credit_card }',
  'shipment:',
  'main_shipment: *a',
  '&a ',
  '*a',
  '*b',
  '!!binary aGk=',
  '!!js/function "x"',
  '!foo',
  '!!str',
  '? [a, b]\n: c',
  '[',
  ']',
  '{',
  '}',
  '- - -',
  '---',
  '...',
  '"unterminated',
  "'single'",
  '\t',
  '  ',
  '    ',
  '#',
  ': ',
  ':',
  ',',
  '|',
  '>-',
  'address_lines: [a, b, c, d]',
  'value: 7500.01',
  'quantity: 1.5',
  'country: XX',
  'unit: mm',
  'date: 2026-02-30',
  '~',
  'null',
  '0x1F',
  '.inf',
  '-.nan',
  '1e400',
  '__proto__: { polluted: true }',
  'constructor: {}',
  '<<: *a',
  '%YAML 1.1',
  '%TAG ! tag:x,2000:',
];
const randomYaml = fc
  .array(fc.constantFrom(...FRAGMENTS), { minLength: 1, maxLength: 25 })
  .chain((parts) =>
    fc
      .array(fc.constantFrom(' ', '\n', '\n  ', ''), { minLength: parts.length, maxLength: parts.length })
      .map((gaps) => Buffer.from(parts.map((p, i) => p + gaps[i]).join(''))),
  );
const randomJson = fc.jsonValue({ maxDepth: 4 }).map((v) => Buffer.from(JSON.stringify(v)));
const randomText = fc.string({ maxLength: 300, unit: 'binary' }).map((s) => Buffer.from(s));
const randomBytes = fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b));

/** The checks every malformed document's report must pass. */
function assertReportsError(report: FileReport): void {
  expect(report.valid).toBe(false);
  const errors = report.issues.filter((i) => i.severity === 'error');
  expect(errors.length).toBeGreaterThan(0);
  for (const issue of report.issues) {
    expect(issue.file).toBe('case.yaml');
    expect(issue.line).toBeGreaterThanOrEqual(1);
    expect(issue.column).toBeGreaterThanOrEqual(1);
    expect(issue.message.length).toBeGreaterThan(0);
    if (issue.path === '') expect(issue.message).toMatch(DOCUMENT_LEVEL);
  }
}

const validate = (bytes: Buffer) => validateBytes('case.yaml', bytes, { now: () => NOW });

describe('validate on thousands of malformed documents (fast-check, seed 20261121)', () => {
  it('mutated fixtures: every one has an error with a field path and a line, nothing throws', () => {
    fc.assert(
      fc.property(mutatedFixture, (bytes) => {
        const report = validate(bytes);
        assertReportsError(report);
        if (report.kind !== null) expect(report.issues.some((i) => i.path !== '')).toBe(true);
      }),
      { seed: SEED, numRuns: 1200 },
    );
  });

  it('random JSON, awkward YAML, random text and random bytes: always a clean report with errors', () => {
    for (const [arbitrary, numRuns] of [
      [randomJson, 600],
      [randomYaml, 1000],
      [randomText, 600],
      [randomBytes, 600],
    ] as const) {
      fc.assert(
        fc.property(arbitrary, (bytes) => assertReportsError(validate(bytes))),
        { seed: SEED, numRuns },
      );
    }
  });

  it('validate ends with exit code 2 and no stack trace on a sample of them (each in-process, all at once through bin/shipbook.js)', async () => {
    const samples = [
      ...fc.sample(mutatedFixture, { seed: SEED, numRuns: 10 }),
      ...fc.sample(randomYaml, { seed: SEED, numRuns: 5 }),
      ...fc.sample(randomJson, { seed: SEED, numRuns: 3 }),
      ...fc.sample(randomBytes, { seed: SEED, numRuns: 2 }),
    ];
    const files = samples.map((bytes, i) => {
      const file = join(dir, `case-${String(i).padStart(2, '0')}.yaml`);
      writeFileSync(file, bytes);
      return file;
    });
    const results = [];
    for (let i = 0; i < files.length; i += 4) {
      results.push(...(await Promise.all(files.slice(i, i + 4).map((f) => runShipbook(['validate', f])))));
    }
    results.forEach((r, i) => {
      expect(r.code, `${files[i]}\n${r.stderr}`).toBe(2);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(r.stderr).not.toContain('internal error');
      for (const line of r.stdout.trim().split('\n')) {
        expect(line).toMatch(new RegExp(`^${files[i]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(:\\d+:\\d+)?\\t[^\\t]*\\t(error|warning)\\t.+$`));
      }
    });
    // One run with all of them at once: one report per file, still exit code 2.
    const all = await runCli(['validate', dir, '--json']);
    expect(all.code).toBe(2);
    const reports = JSON.parse(all.stdout) as FileReport[];
    expect(reports).toHaveLength(files.length);
    expect(reports.every((r) => !r.valid)).toBe(true);
  });
});
