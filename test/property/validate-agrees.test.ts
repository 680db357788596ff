/**
 * Fuzz test (fast-check, fixed seed): `validate` and the commands that send
 * agree, so a document validate passes is never refused locally by the command that sends it. A few hundred documents per run — valid fixtures with fields dropped, texts
 * and numbers replaced (empty, long, accented, huge, negative), packages multiplied past the 1 MiB
 * request limit — go through `validate` and through the sending command (`quote`, `order create`,
 * `shipment create`) against a real sandbox on 127.0.0.1, whose log says what reached it:
 *
 * - what `validate` accepts is sent, and the sandbox does not refuse it for its form (no 413, no
 *   400 naming a field as malformed or too long: only a business answer such as "no service on
 *   this route" may still come back, or a sandbox limit that validate warned about);
 * - what `validate` rejects is not sent at all, and the command exits 2.
 */
import { loadCollectionCalendar } from '../../src/booking/pickup/calendar.js';
import { pickupRuleWith } from '../../src/booking/pickup/rule.js';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { validateBytes } from '../../src/input/validate.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { runShipbook } from '../helpers/run.js';

const SEED = 20261123;
const RUNS = 200;
const dir = mkdtempSync(join(tmpdir(), 'shipbook-agree-'));
let sandbox: Sandbox;
/** Request lines the sandbox logged: `POST /orders/ 201 (3 ms)`. */
const seen: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ processingDelayMs: 60_000, log: (line) => seen.push(line) });
});
afterAll(async () => {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** The fixtures, and the command that sends each. */
const CASES: Array<{ file: string; command: string[]; path: string }> = [
  { file: 'fixtures/orders/domestic-syd-mel.yaml', command: ['order', 'create'], path: '/orders/' },
  { file: 'fixtures/orders/insured-bne-per.yaml', command: ['order', 'create'], path: '/orders/' },
  { file: 'fixtures/quotes/syd-mel-single.yaml', command: ['quote'], path: '/quote/' },
  { file: 'fixtures/quotes/mel-nyc-imperial.json', command: ['quote'], path: '/quote/' },
  { file: 'fixtures/shipments/au-us-1.yaml', command: ['shipment', 'create'], path: '/shipments/' },
];
const DOCS = CASES.map((c) => parse(readFileSync(c.file, 'utf8')) as Json);

function leaves(doc: Json, prefix: Array<string | number> = []): Array<Array<string | number>> {
  if (Array.isArray(doc)) return doc.flatMap((v, i) => leaves(v, [...prefix, i]));
  if (doc !== null && typeof doc === 'object') return Object.entries(doc).flatMap(([k, v]) => leaves(v, [...prefix, k]));
  return [prefix];
}
function arrays(doc: Json, prefix: Array<string | number> = []): Array<Array<string | number>> {
  if (Array.isArray(doc)) return [prefix, ...doc.flatMap((v, i) => arrays(v, [...prefix, i]))];
  if (doc !== null && typeof doc === 'object') return Object.entries(doc).flatMap(([k, v]) => arrays(v, [...prefix, k]));
  return [];
}
function get(doc: Json, path: Array<string | number>): Json {
  return path.reduce<Json>((v, k) => (v as Record<string | number, Json>)[k]!, doc);
}
function put(doc: Json, path: Array<string | number>, value: Json | undefined): void {
  if (path.length === 0) return;
  const parent = get(doc, path.slice(0, -1)) as Record<string | number, Json>;
  const key = path[path.length - 1]!;
  if (value !== undefined) parent[key] = value;
  else if (Array.isArray(parent)) parent.splice(key as number, 1);
  else delete parent[key];
}

const text = fc.oneof(
  { arbitrary: fc.string({ maxLength: 40 }), weight: 4 },
  {
    arbitrary: fc.constantFrom(
      '',
      ' ',
      'Zürich',
      'São Paulo',
      '東京都',
      '📦📦📦',
      "O'Brien & Sons",
      'x'.repeat(35),
      'x'.repeat(36),
      'x'.repeat(21),
      'x'.repeat(513),
    ),
    weight: 4,
  },
  { arbitrary: fc.integer({ min: 0, max: 1_100_000 }).map((n) => 'y'.repeat(n)), weight: 1 },
);
const number = fc.oneof(
  fc.integer({ min: -5, max: 5_000 }),
  fc.double({ min: -1, max: 1e7, noNaN: true }),
  fc.constantFrom(0, 0.001, 0.5, 999.99, 1000, 1e6, 7500, 7500.01, 1e308),
);
const mutation = fc.oneof(
  fc.record({ op: fc.constant('drop' as const), pick: fc.nat() }),
  fc.record({ op: fc.constant('text' as const), pick: fc.nat(), value: text }),
  fc.record({ op: fc.constant('number' as const), pick: fc.nat(), value: number }),
  fc.record({
    op: fc.constant('multiply' as const),
    pick: fc.nat(),
    times: fc.oneof({ arbitrary: fc.integer({ min: 1, max: 40 }), weight: 4 }, { arbitrary: fc.integer({ min: 3_000, max: 9_000 }), weight: 1 }),
  }),
);
type Mutation = { op: 'drop' | 'text' | 'number' | 'multiply'; pick: number; value?: Json; times?: number };

function mutate(doc: Json, m: Mutation): void {
  if (m.op === 'multiply') {
    const lists = arrays(doc).filter((p) => (get(doc, p) as Json[]).length > 0);
    if (lists.length === 0) return;
    const list = get(doc, lists[m.pick % lists.length]!) as Json[];
    const first = list[0]!;
    // Past the 1 MiB request limit, but kept under the 5 MiB input-file cap (a larger file is refused on reading).
    const times = Math.min(m.times!, Math.floor((1.5 * 1024 * 1024) / Math.max(1, JSON.stringify(first).length)));
    for (let i = 1; i < times; i++) list.push(structuredClone(first));
    return;
  }
  const all = leaves(doc);
  const path = all[m.pick % all.length]!;
  const node = get(doc, path);
  if (m.op === 'drop') put(doc, path, undefined);
  else if (m.op === 'text' && typeof node === 'string') put(doc, path, m.value!);
  else if (m.op === 'number' && typeof node === 'number') put(doc, path, m.value!);
}

const documents = fc.record({ which: fc.nat({ max: CASES.length - 1 }), changes: fc.array(mutation, { maxLength: 2 }) }).map(({ which, changes }) => {
  const doc = structuredClone(DOCS[which]!);
  for (const m of changes) mutate(doc, m as Mutation);
  return { which, doc };
});

/** Field errors a sandbox may give for a valid document: business answers, not its form. */
// The collection of consolidated mail is checked against the service's data, which offline validation cannot know.
const BUSINESS =
  /no service|not offered|is a consolidated-mail service|is not a consolidated-mail service|must leave Australia|no quote|does not deliver|route|must be the service's collection data/i;

describe('validate and the sending commands agree (fast-check, seed 20261123)', () => {
  it(`on ${RUNS} generated documents: accepted ⇒ sent and not refused for its form; rejected ⇒ not sent, exit 2`, async () => {
    let n = 0;
    const tally = { accepted: 0, rejected: 0, business: 0 };
    // Pickup dates as `validate` and the sending commands read them (`next`, a stale date refused).
    const pickup = pickupRuleWith(await loadCollectionCalendar(), undefined, {}, () => new Date());
    await fc.assert(
      fc.asyncProperty(documents, async ({ which, doc }) => {
        const c = CASES[which]!;
        const file = join(dir, `case-${n++}.json`);
        const bytes = Buffer.from(JSON.stringify(doc));
        writeFileSync(file, bytes);
        const report = validateBytes(file, bytes, { now: () => new Date(), pickup });
        const before = seen.length;

        const r = await runShipbook([...c.command, file, '--json'], { env: { SHIPBOOK_BASE_URL: sandbox.url, SHIPBOOK_API_KEY: 'sk_test_agree_0123456789' } });
        const sent = seen.slice(before).filter((l) => l.startsWith(`POST ${c.path} `));
        if (report.valid) {
          tally.accepted++;
          expect(sent, `validate accepted ${c.file} but nothing was sent:\n${r.stderr}`).toHaveLength(1);
          expect(sent[0]).not.toMatch(/ 413 /);
          if (r.code !== 0) {
            // A refusal may only be a business answer, never about the document's form.
            expect(r.code, r.stderr).toBe(3);
            const errors = (JSON.parse(r.stdout) as { error: { message: string; errors?: Array<{ message: string }> } }).error;
            const said = [errors.message, ...(errors.errors ?? []).map((e) => e.message)].join('\n');
            // The sandbox's own physical limits are warnings in validate (the real service's are not shown).
            const warnedSandboxLimit = report.issues.some((i) => i.severity === 'warning' && i.message.includes("over the sandbox's limit"));
            if (!(warnedSandboxLimit && said.includes('in the sandbox'))) {
              expect(said, `validate accepted ${c.file} (changed) but the sandbox refused its form`).toMatch(BUSINESS);
            }
            tally.business++;
          }
        } else {
          tally.rejected++;
          expect(sent, `validate rejected the document but it was sent`).toHaveLength(0);
          expect(r.code, r.stderr).toBe(2);
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    // The generator must exercise both sides.
    expect(tally.accepted).toBeGreaterThan(RUNS / 10);
    expect(tally.rejected).toBeGreaterThan(RUNS / 10);
  }, 180_000);
});
