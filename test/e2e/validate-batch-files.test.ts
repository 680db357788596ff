/**
 * `validate` checks the files `book` books from: NDJSON (one order per line), a JSON array of
 * orders and a YAML file of several documents, each document on its own and every problem at its
 * line in the file; and a file that is no JSON or YAML gets a few syntax errors and a count, not
 * one per token.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runShipbook } from '../helpers/run.js';

const dir = mkdtempSync(join(tmpdir(), 'shipbook-validate-batch-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const order = parse(readFileSync('fixtures/orders/domestic-syd-mel.yaml', 'utf8')) as { order: { shipments: Array<Record<string, unknown>> } };
const line = (i: number) => {
  const o = structuredClone(order);
  o.order.shipments[0]!.transient_id = `V-${i}`;
  return JSON.stringify(o);
};
const at = (name: string, text: string) => {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
};
type Report = { file: string; kind: string | null; valid: boolean; issues: Array<{ line: number; path: string; message: string }> };
const reportsOf = (stdout: string) => JSON.parse(stdout) as Report[];

describe('validate of files that hold many orders', () => {
  it('checks every line of an NDJSON file as an order, problems at their line; blank lines are skipped', async () => {
    const bad = structuredClone(order);
    delete (bad.order.shipments[0] as { delivery?: unknown }).delivery;
    const file = at('orders.ndjson', `${line(1)}\n\n${line(2)}\n${JSON.stringify(bad)}\nnot json\n`);
    const r = await runShipbook(['validate', file, '--json']);
    expect(r.code).toBe(2);
    const [report] = reportsOf(r.stdout);
    expect(report).toMatchObject({ file, kind: 'order', valid: false });
    expect(report!.issues.map((i) => [i.line, i.path, i.message])).toEqual([
      [4, 'order.shipments[0].delivery', 'required'],
      [5, '', 'must hold an object (a mapping of fields), not text'],
    ]);

    const good = at('good.jsonl', `${Array.from({ length: 300 }, (_, i) => line(i)).join('\n')}\n`);
    const ok = await runShipbook(['validate', good, '--output', 'table']);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/good\.jsonl\s+order\s+\d+ orders\s+valid/);
  });

  it('reads an NDJSON file larger than one document may be (5 MiB) line by line, as book does', async () => {
    const lines = Array.from({ length: 5000 }, (_, i) => line(i));
    lines[3210] = lines[3210]!.replace('"SB-DOM-ROAD"', '"SB-DOM-ROAD", "colour": "red"');
    const file = at('big.ndjson', `${lines.join('\r\n')}\r\n`);
    expect(readFileSync(file).length).toBeGreaterThan(5 * 1024 * 1024);
    const r = await runShipbook(['validate', file, '--json']);
    expect(r.code).toBe(2);
    expect(reportsOf(r.stdout)[0]!.issues.map((i) => [i.line, i.path, i.message])).toEqual([[3211, 'order.shipments[0].service.colour', 'unknown field']]);
  });

  it('checks each element of a JSON array and each document of a YAML stream, at its own line', async () => {
    const array = at('orders.json', `[\n${line(1)},\n${line(2).replace('"SB-DOM-ROAD"', '"SB-DOM-ROAD", "colour": "red"')}\n]\n`);
    const r = await runShipbook(['validate', array, '--json']);
    expect(r.code).toBe(2);
    expect(reportsOf(r.stdout)[0]!.issues.map((i) => [i.line, i.path, i.message])).toEqual([[3, 'order.shipments[0].service.colour', 'unknown field']]);

    const yamlText = readFileSync('fixtures/orders/domestic-syd-mel.yaml', 'utf8');
    const stream = at('orders.yaml', `${yamlText}---\n${yamlText}`);
    const ok = await runShipbook(['validate', stream, '--json']);
    expect(ok.code, ok.stdout).toBe(0);
    expect(reportsOf(ok.stdout)[0]).toMatchObject({ kind: 'order', valid: true });
  });

  it('reports an empty NDJSON file', async () => {
    const r = await runShipbook(['validate', at('empty.ndjson', '\n\n'), '--json']);
    expect(r.code).toBe(2);
    expect(reportsOf(r.stdout)[0]!.issues.map((i) => i.message)).toEqual(['is empty: no document on any line']);
  });

  it('gives the first ten syntax errors of a file that is no JSON or YAML, and counts the rest', async () => {
    // JSON lines under a .yaml name: the YAML reader meets a token it cannot place at every step.
    const file = at('lines.yaml', Array.from({ length: 20 }, (_, i) => line(i)).join(' '));
    const r = await runShipbook(['validate', file, '--json']);
    expect(r.code).toBe(2);
    const messages = reportsOf(r.stdout)[0]!.issues.map((i) => i.message);
    // Ten of the parser's, the count of the rest, and what shipbook's own checks find (a mapping as a key).
    expect(messages.filter((m) => m.startsWith('not valid JSON or YAML') && !m.includes('a key must be plain text'))).toHaveLength(11);
    expect(messages.length).toBeLessThanOrEqual(13);
    expect(messages.at(-1)).toMatch(/^not valid JSON or YAML: \d+ more syntax errors after these, most of them following from the first$/);
  });
});
