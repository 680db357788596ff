/** `--jq` and `--template` in the one output layer: decided with the other output flags, applied to every machine document the writer prints. */
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { Money } from '../../src/schema/money.js';
import { createWriter } from '../../src/output/writer.js';
import { resolveOutput } from '../../src/output/format.js';
import { prepareOutput } from '../../src/output/setup.js';

const terminal = { stdoutIsTTY: false, color: false };

/** A writer for the flags, with what it printed. */
async function writerFor(flags: { jq?: string; template?: string }) {
  const choice = resolveOutput(flags, terminal);
  await prepareOutput(choice);
  let out = '';
  return { writer: createWriter({ out: (s) => void (out += s) }, choice), out: () => out };
}

describe('--jq and --template', () => {
  it('make the format json, and are refused beside another format, --quiet or each other', () => {
    expect(resolveOutput({ jq: '.a' }, terminal)).toMatchObject({ format: 'json', machine: true, pick: { kind: 'jq', expression: '.a' } });
    expect(resolveOutput({ template: '{{a}}', json: true }, terminal)).toMatchObject({ format: 'json', pick: { kind: 'template' } });
    expect(() => resolveOutput({ jq: '.a', output: 'yaml' }, terminal)).toThrow('--jq picks from the JSON document; --output yaml asks for another format');
    expect(() => resolveOutput({ jq: '.a', quiet: true }, terminal)).toThrow(UsageError);
    expect(() => resolveOutput({ jq: '.a', template: '{{a}}' }, terminal)).toThrow('--jq and --template ask for two outputs');
    expect(() => resolveOutput({ jq: ' ' }, terminal)).toThrow('--jq needs an expression');
  });

  it("a jq syntax error is a usage error when the output is set up, with jq's message", async () => {
    await expect(prepareOutput(resolveOutput({ jq: '.a | (' }, terminal))).rejects.toThrow(/^--jq: jq: error: syntax error/);
    // A filter that only fails at run time (over null) is not refused up front.
    await expect(prepareOutput(resolveOutput({ jq: '.[]' }, terminal))).resolves.toBeUndefined();
  });

  it('every machine document goes through the pick: money in its JSON form, the target added, records of a stream as one document', async () => {
    const { writer, out } = await writerFor({ jq: '.order.price.total, .target.kind' });
    writer.setTarget({ kind: 'service', base_url: 'https://api.example.com/', profile: 'default' });
    writer.write({ order: { price: { total: new Money(4730) } } }, () => {});
    expect(out()).toBe('47.30\nservice\n');
    const t = await writerFor({ template: '{{#each orders}}{{id}} {{/each}}' });
    const stream = t.writer.stream<{ id: string }>();
    stream.add({ id: 'ORD-1' }, () => {});
    stream.add({ id: 'ORD-2' }, () => {});
    stream.end((orders) => ({ orders }));
    expect(t.out()).toBe('ORD-1 ORD-2 \n');
  });

  it('an error body is not written on stdout under a pick (stderr carries the error)', async () => {
    const { writer, out } = await writerFor({ jq: '.' });
    writer.error({ error: { code: 'x' } }, (s) => s);
    expect(out()).toBe('');
  });

  it("a filter that fails on the document throws a usage error with jq's message", async () => {
    const { writer } = await writerFor({ jq: '.services.code' });
    expect(() => writer.data({ services: [] })).toThrow('--jq: jq: error (at /dev/stdin:0): Cannot index array with string ("code")');
  });
});
