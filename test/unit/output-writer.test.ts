/** The one output layer: the format chosen once from the flags and the terminal, and how each serialises. */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { UsageError } from '../../src/errors.js';
import { Money } from '../../src/schema/money.js';
import { prepareYaml, createWriter, serialize } from '../../src/output/writer.js';
import { chooseFormat } from '../../src/output/format.js';

await prepareYaml();

describe('choosing the format', () => {
  it('takes --output, else --json, else table on a terminal and tsv without one', () => {
    expect(chooseFormat({ output: 'yaml' }, true)).toBe('yaml');
    expect(chooseFormat({ json: true }, true)).toBe('json');
    expect(chooseFormat({ json: true, output: 'json' }, false)).toBe('json');
    expect(chooseFormat({}, true)).toBe('table');
    expect(chooseFormat({}, false)).toBe('tsv');
  });

  it('refuses two formats and an unknown one', () => {
    expect(() => chooseFormat({ json: true, output: 'ndjson' }, false)).toThrow(UsageError);
    expect(() => chooseFormat({ output: 'xml' }, false)).toThrow('--output must be one of table, tsv, json, yaml, ndjson (got "xml")');
  });
});

describe('serialising', () => {
  const value = { order: { id: 'ORD-1', price: { total: new Money(4730) } } };
  it('writes money as two-decimal strings in every machine format', () => {
    expect(serialize('json', value)).toBe(`${JSON.stringify({ order: { id: 'ORD-1', price: { total: '47.30' } } }, null, 2)}\n`);
    expect(serialize('ndjson', value)).toBe('{"order":{"id":"ORD-1","price":{"total":"47.30"}}}\n');
    expect(parse(serialize('yaml', value))).toEqual({ order: { id: 'ORD-1', price: { total: '47.30' } } });
  });

  it('hands table and tsv to the human renderer, machine formats to stdout, errors only in machine formats', () => {
    let out = '';
    const human: string[] = [];
    const tsv = createWriter({ out: (t) => void (out += t) }, 'tsv');
    tsv.write(value, () => human.push('drawn'));
    tsv.error({ error: { code: 'x' } }, (t) => t);
    expect(human).toEqual(['drawn']);
    expect(out).toBe('');
    const yaml = createWriter({ out: (t) => void (out += t) }, 'yaml');
    yaml.write(value, () => human.push('not drawn'));
    yaml.error({ error: { code: 'sk_live_secret' } }, (t) => t.replace('sk_live_secret', '****'));
    expect(human).toEqual(['drawn']);
    expect(out).toContain('id: ORD-1');
    expect(out).toContain('code: "****"');
    expect(parse(out.slice(out.indexOf('error:')))).toEqual({ error: { code: '****' } });
  });
});

describe('the target of the run', () => {
  const target = { kind: 'service' as const, base_url: 'https://api.example.com/', profile: 'production' };

  it('is carried by every machine result and error once set, in json, yaml and ndjson', () => {
    for (const format of ['json', 'yaml', 'ndjson'] as const) {
      let out = '';
      const writer = createWriter({ out: (t) => void (out += t) }, format);
      writer.write({ order: { id: 'ORD-1' } }, () => {});
      writer.setTarget(target);
      writer.write({ order: { id: 'ORD-2' } }, () => {});
      writer.error({ error: { code: 'api_error' } }, (t) => t);
      const docs =
        format === 'yaml'
          ? out.split(/^(?=order:|error:)/m).map((d) => parse(d) as Record<string, unknown>)
          : format === 'json'
            ? out.split(/^(?=\{)/m).map((d) => JSON.parse(d) as Record<string, unknown>)
            : out
                .trim()
                .split('\n')
                .map((d) => JSON.parse(d) as Record<string, unknown>);
      expect(docs, format).toEqual([{ order: { id: 'ORD-1' } }, { order: { id: 'ORD-2' }, target }, { error: { code: 'api_error' }, target }]);
      expect(writer.target).toEqual(target);
    }
  });

  it('follows the sandbox marker, and changes when set again', () => {
    let out = '';
    const writer = createWriter({ out: (t) => void (out += t) }, 'ndjson');
    writer.setTarget(target);
    writer.markSandbox();
    writer.setTarget({ ...target, kind: 'sandbox' });
    writer.data({ id: 'x' });
    expect(JSON.parse(out)).toEqual({ id: 'x', sandbox: true, target: { ...target, kind: 'sandbox' } });
  });

  it('leaves tsv lines alone: the sandbox marker line is what a sandbox run prints there', () => {
    let out = '';
    const writer = createWriter({ out: (t) => void (out += t) }, 'tsv');
    writer.setTarget({ kind: 'builtin-sandbox', base_url: 'http://127.0.0.1:1/', profile: 'sandbox' });
    writer.markSandbox();
    writer.write({ order: { id: 'ORD-1' } }, () => void (out += 'order\tORD-1\n'));
    expect(out).toBe('sandbox\tsimulated service, nothing is really booked\norder\tORD-1\n');
  });
});
