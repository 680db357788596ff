/**
 * Input built to be slow or to carry bytes no address holds: a YAML alias bomb (10,000 aliases in
 * block style, 1,000,000 in flow style) is refused at its 101st alias before the document is
 * composed, and a control character (NUL, U+0001, ESC) is refused by one rule in every input
 * format (YAML, JSON, NDJSON, CSV, TSV), at its file:line:col, by `validate` and by `book` with
 * nothing sent. Run through bin/shipbook.js; the process timeout turns the old quadratic cost
 * (7.5 s of CPU at 10,000 aliases, far more at a million) into a failure; the benchmark measures
 * the time (`node bench/run.mjs --only aliases`).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hostileServiceEnv } from '../helpers/fault-server.js';
import { runCli } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'shipbook-alias-control-'));
const { server, env } = hostileServiceEnv('sk_test_alias_control_0123456789');
const RULE = 'no input may hold control characters other than tab and line breaks; remove it';
const ORDER_YAML = readFileSync('fixtures/orders/domestic-syd-mel.yaml', 'utf8');
const ORDER_LINE = readFileSync('fixtures/batch/orders.ndjson', 'utf8').split('\n')[0]!;
const ORDER_CSV = readFileSync('fixtures/csv/orders.csv', 'utf8');

/** Writes `text` to a file of the test's directory and returns its path. */
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('a YAML alias bomb', () => {
  it('is refused at its 101st alias, 10,000 in block style and 1,000,000 in flow style (alone or in a stream), by validate and by book with nothing sent', async () => {
    const block = file('aliases-10000.yaml', `order:\n  description: &a x\n  list:\n${'    - *a\n'.repeat(10_000)}`);
    const flow = file('aliases-1000000.yaml', `order:\n  description: &a x\n  list: [${'*a,'.repeat(999_999)}*a]\n`);
    // A stream of two orders whose second is the bomb: refused before the stream is composed too.
    const stream = file('aliases-stream.yaml', `order: {}\n---\norder:\n  description: &a x\n  list: [${'*a,'.repeat(999_999)}*a]\n`);
    for (const [path, at] of [
      [block, '104:7'],
      [flow, `3:${10 + 3 * 100}`],
      [stream, `5:${10 + 3 * 100}`],
    ] as const) {
      const v = await runCli(['validate', path], { timeoutMs: 10_000 });
      expect(v.code, v.stderr).toBe(2);
      expect(v.stdout).toContain(`${path}:${at}\t\terror\tmore than 100 YAML aliases (*name)`);
      const b = await runCli(['book', path, '--payment', 'credit'], { env: env(), timeoutMs: 10_000 });
      expect(b.code, b.stderr).toBe(2);
      expect(b.stderr).toContain(`${path}:${at}`);
      expect(b.stderr).toContain('more than 100 YAML aliases');
    }
    expect(server.requests).toEqual([]);
  });
});

describe('a control character in any input format', () => {
  // The same character in the same field (the sender's company), in each format.
  const cases = (ch: string) => [
    { name: 'yaml', path: file(`order-${ch.charCodeAt(0)}.yaml`, ORDER_YAML.replace('Harbour Homewares', `Harbour${ch}Homewares`)), at: '12:25' },
    {
      name: 'json',
      path: file(`order-${ch.charCodeAt(0)}.json`, `${ORDER_LINE.replace('Harbour Homewares', `Harbour${ch}Homewares`)}\n`),
      at: `1:${ORDER_LINE.indexOf('Harbour Homewares') + 8}`,
    },
    {
      name: 'ndjson',
      path: file(
        `orders-${ch.charCodeAt(0)}.ndjson`,
        `${ORDER_LINE}\n${ORDER_LINE.replace('BATCH-1', 'BATCH-9').replace('Harbour Homewares', `Harbour${ch}Homewares`)}\n`,
      ),
      at: `2:${ORDER_LINE.indexOf('Harbour Homewares') + 8}`,
    },
    { name: 'csv', path: file(`orders-${ch.charCodeAt(0)}.csv`, ORDER_CSV.replace('Harbour Homewares', `Harbour${ch}Homewares`)), at: '2:57' },
    {
      name: 'tsv',
      path: file(`orders-${ch.charCodeAt(0)}.tsv`, ORDER_CSV.replaceAll(',', '\t').replace('Harbour Homewares', `Harbour${ch}Homewares`)),
      at: '2:57',
    },
  ];

  for (const [ch, what] of [
    ['\u0000', 'U+0000 (NUL), as a binary file does'],
    ['\u0001', 'U+0001'],
    ['\u001b', 'U+001B (ESC)'],
  ] as const) {
    it(`refuses ${what.split(',')[0]} in YAML, JSON, NDJSON, CSV and TSV alike, at its line and column`, async () => {
      for (const c of cases(ch)) {
        const r = await runCli(['validate', c.path]);
        expect(r.code, `${c.name}: ${r.stdout}${r.stderr}`).toBe(2);
        expect(r.stdout, c.name).toContain(`${c.path}:${c.at}\t\terror\tholds the control character ${what}: ${RULE}`);
      }
    });
  }

  it('refuses it written as an escape too (JSON \\u0001, YAML "\\e"), and book sends nothing', async () => {
    const escaped = file('escaped.json', `${ORDER_LINE.replace('Harbour Homewares', 'Harbour\\u0001Homewares')}\n`);
    const yamlEscape = file('escaped.yaml', ORDER_YAML.replace('company: Harbour Homewares Pty Ltd', 'company: "Harbour\\eHomewares Pty Ltd"'));
    for (const [path, what] of [
      [escaped, 'U+0001'],
      [yamlEscape, 'U+001B (ESC)'],
    ] as const) {
      const r = await runCli(['validate', path]);
      expect(r.code, r.stdout).toBe(2);
      expect(r.stdout).toContain(`holds the control character ${what}: ${RULE}`);
    }
    for (const c of cases('\u0000')) {
      const b = await runCli(['book', c.path, '--payment', 'credit'], { env: env() });
      expect(b.code, `${c.name}: ${b.stderr}`).toBe(2);
      expect(b.stderr, c.name).toContain(`${c.path}:${c.at}`);
    }
    expect(server.requests).toEqual([]);
  });
});
