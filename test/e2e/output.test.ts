/**
 * End-to-end: the one output layer. `--output table|tsv|json|yaml|ndjson` (and `--json`) chosen
 * once for every command, errors through the same writer.
 */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runShipbook } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const fx = useSandbox();
const QUOTE = 'fixtures/quotes/syd-mel-single.yaml';

describe('--output', () => {
  it('writes the same document as JSON, YAML and one NDJSON line', async () => {
    const json = await runShipbook(['quote', QUOTE, '--json'], { env: fx.env });
    expect(json.code, json.stderr).toBe(0);
    const doc = JSON.parse(json.stdout);
    expect(doc.services.length).toBeGreaterThan(0);

    const viaOutput = await runShipbook(['quote', QUOTE, '--output', 'json'], { env: fx.env });
    expect(viaOutput.stdout).toBe(json.stdout);

    const yaml = await runShipbook(['quote', QUOTE, '--output', 'yaml'], { env: fx.env });
    expect(yaml.code, yaml.stderr).toBe(0);
    expect(parse(yaml.stdout)).toEqual(doc);
    expect(yaml.stdout).not.toContain('{');

    const nd = await runShipbook(['quote', QUOTE, '--output', 'ndjson'], { env: fx.env });
    expect(nd.stdout.split('\n')).toEqual([JSON.stringify(doc), '']);
  });

  it('draws a table with --output table even without a terminal, and tab-separated lines with tsv', async () => {
    const table = await runShipbook(['quote', QUOTE, '--output', 'table'], { env: fx.env });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).not.toContain('\t');
    expect(table.stdout).toMatch(/SB-DOM-ROAD/);
    const tsv = await runShipbook(['quote', QUOTE, '--output', 'tsv'], { env: fx.env });
    const plain = await runShipbook(['quote', QUOTE], { env: fx.env });
    expect(tsv.stdout).toBe(plain.stdout);
    expect(tsv.stdout.split('\n')[0]).toContain('\t');
  });

  it('writes errors in the chosen format too', async () => {
    const r = await runShipbook(['order', 'get', 'ORD-NOSUCH1', '--output', 'yaml'], { env: fx.env });
    expect(r.code).toBe(3);
    expect(parse(r.stdout)).toMatchObject({ error: { code: 'api_error', status: 404, exit_code: 3 } });
    expect(r.stderr).toContain('error:');
  });

  it('refuses two formats and an unknown one (exit 2)', async () => {
    const both = await runShipbook(['quote', QUOTE, '--json', '--output', 'yaml'], { env: fx.env });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--json and --output yaml ask for two formats');
    expect(both.stdout).toBe('');
    const unknown = await runShipbook(['quote', QUOTE, '--output', 'xml'], { env: fx.env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/--output <format>.*xml/s);
  });
});
