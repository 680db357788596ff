/**
 * End-to-end: service-selection rules. `rules check` reports every problem at file:line:col,
 * `rules test` tries rules offline (the sandbox's price list, in-process: no network) and exits 8
 * when an expectation disagrees, `schema rules` publishes the JSON Schema.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runShipbook } from '../helpers/run.js';

const RULES = 'fixtures/rules/shipping.yaml';
const CASES = 'fixtures/rules/cases.yaml';
const dir = mkdtempSync(join(tmpdir(), 'shipbook-rules-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes `text` to a file of the test's directory and returns its path. */
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('shipbook rules check', () => {
  it('lists the rules of a good file, in order, with their lines', async () => {
    const r = await runShipbook(['rules', 'check', RULES]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe(`${RULES}:5\theavy to WA by StarTrack`);
    expect(r.stderr).toContain('5 rules, no problems');
    const json = JSON.parse((await runShipbook(['rules', 'check', RULES, '--json'])).stdout) as { valid: boolean; rules: Array<{ name: string }> };
    expect(json.valid).toBe(true);
    expect(json.rules.map((x) => x.name)).toContain('cap');
  });

  it('reports every problem of a bad file at file:line:col, exit 2', async () => {
    const bad = file(
      'bad.yaml',
      'rules:\n  - name: heavy\n    when: { weight_kgs: { gt: 20 } }\n    prefer: { carrier: StarTrack }\n  - name: nothing to do\n',
    );
    const r = await runShipbook(['rules', 'check', bad]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${bad}:3:13`);
    expect(r.stderr).toContain('rules[0].when.weight_kgs');
    expect(r.stderr).toContain('unknown field');
    expect(r.stderr).toContain(`${bad}:5:5`);
    expect(r.stderr).toContain('a rule needs an action');
    expect(r.stderr).not.toMatch(/at .*\.ts:\d+/);
  });
});

describe('shipbook rules test', () => {
  it('prints each case with its choice and reason, and exits 0 when every expectation agrees', async () => {
    const r = await runShipbook(['rules', 'test', RULES, CASES]);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe(
      'ok\theavy parcel to Perth goes StarTrack, within 10 % of the cheapest\tSB-DOM-ROAD\tStarTrack Road Express 131.56 AUD: rule "heavy to WA by StarTrack" prefers StarTrack within 10 % of the cheapest (Couriers Please Standard 129.14 AUD)',
    );
    expect(lines[1]).toContain('rule "no Couriers Please to rural postcodes" denies: SB-CP-STD (Couriers Please)');
    expect(r.stderr).toContain('3 with an expectation: 3 agree, 0 disagree');
  });

  it('exits 8 and says FAIL with what was expected when a case disagrees', async () => {
    const cases = file(
      'cases.yaml',
      `cases:\n  - name: agrees\n    order: ${resolve('fixtures/rules/orders/heavy-perth.yaml')}\n    expect: { service: SB-DOM-ROAD }\n  - name: wrong on purpose\n    order: ${resolve('fixtures/rules/orders/rural-broome.yaml')}\n    expect: { service: SB-CP-STD }\n`,
    );
    const r = await runShipbook(['rules', 'test', RULES, cases]);
    expect(r.code).toBe(8);
    const fail = r.stdout.split('\n').find((l) => l.startsWith('FAIL'));
    expect(fail).toContain('wrong on purpose');
    expect(fail).toContain('expected SB-CP-STD, got SB-DOM-ROAD');
    expect(r.stderr).toContain('1 agree, 1 disagree');
    expect(r.stderr).toContain(`${cases}:5 "wrong on purpose"`);
  });

  it('decides from a quote answer in a file, inline orders, and reports a document left with no service', async () => {
    const quote = file(
      'quote.json',
      JSON.stringify({
        code: 200,
        message: 'OK',
        result: {
          services: [
            { code: 'X-AX', name: 'Road', carrier: 'Aramex', global_mail: false, price: { currency: 'AUD', amount: 40, insurance: 0, gst: 4, total: 44 } },
            {
              code: 'X-CP',
              name: 'Std',
              carrier: 'Couriers Please',
              global_mail: false,
              price: { currency: 'AUD', amount: 30, insurance: 0, gst: 3, total: 33 },
            },
          ],
        },
      }),
    );
    const rules = file(
      'only-cp.yaml',
      'rules:\n  - name: no Aramex\n    deny: { carrier: Aramex }\n  - name: StarTrack only\n    allow: { carrier: StarTrack }\n',
    );
    const cases = file(
      'left.yaml',
      `cases:\n  - name: nothing left\n    quote: ${quote}\n    order: { order: { shipments: [ { delivery: { country: AU, postcode: "3000" }, packages: [ { length: 10, width: 10, height: 10, weight: 1, unit: cm } ] } ] } }\n    expect: { service: none }\n`,
    );
    const r = await runShipbook(['rules', 'test', rules, cases, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { cases: Array<{ agrees: boolean; shipments: Array<{ how: string; reason: string; removed: unknown[] }> }> };
    expect(doc.cases[0]!.agrees).toBe(true);
    expect(doc.cases[0]!.shipments[0]!.how).toBe('none_left');
    expect(doc.cases[0]!.shipments[0]!.reason).toBe(
      'no service is left: rule "no Aramex" denies: X-AX (Aramex); rule "StarTrack only" does not allow: X-CP (Couriers Please)',
    );
  });
});

describe('shipbook schema rules', () => {
  it('prints the JSON Schema of a rules file', async () => {
    const r = await runShipbook(['schema', 'rules']);
    expect(r.code, r.stderr).toBe(0);
    const schema = JSON.parse(r.stdout) as { title: string; properties: Record<string, unknown> };
    expect(schema.title).toBe('shipbook rules file');
    expect(Object.keys(schema.properties)).toContain('rules');
  });
});
