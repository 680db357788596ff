/**
 * One rule for a file of many orders, whatever the command: a YAML file of several documents
 * (`---`), a JSON array and NDJSON hold many orders; `book` of such a single file books it as a
 * batch, `--dry-run` lists each order, and `validate` checks each one, all three agreeing. Standard
 * input (`-`) takes every format a file takes, told from what it holds.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { runShipbook } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const fixture = useSandbox({ processingDelayMs: 20 });
const dir = mkdtempSync(join(tmpdir(), 'shipbook-many-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const order = parse(readFileSync('fixtures/orders/domestic-syd-mel.yaml', 'utf8')) as { order: { shipments: Array<Record<string, unknown>> } };
/** The fixture's order with its own transient id, so the sandbox can tell the orders apart. */
const orderWith = (id: string) => {
  const o = structuredClone(order);
  o.order.shipments[0]!.transient_id = id;
  return o;
};
const at = (name: string, text: string) => {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
};
/** The transient ids of every order the sandbox holds. */
const bookedIds = () =>
  [...fixture.sandbox.state.orders.values()]
    .flatMap((o) => o.shipmentIds)
    .map((id) => (fixture.sandbox.state.shipments.get(id)?.request as { transient_id?: string } | undefined)?.transient_id);

describe('a single file of many orders: book, --dry-run and validate agree', () => {
  it('books a YAML file of several documents as a batch, each order once', async () => {
    const file = at('two.yaml', `${stringify(orderWith('Y-1'))}---\n${stringify(orderWith('Y-2'))}`);
    const v = await runShipbook(['validate', file, '--json']);
    expect(v.code, v.stdout).toBe(0);
    const dry = await runShipbook(['book', file, '--dry-run'], { env: fixture.env });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout.trim().split('\n')).toHaveLength(2);
    expect(dry.stderr).toContain('2 order(s) valid');
    const r = await runShipbook(['book', file, '--json'], { env: fixture.env });
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { summary: { booked: number } }).summary.booked).toBe(2);
    expect(
      bookedIds()
        .filter((id) => id?.startsWith('Y-'))
        .sort(),
    ).toEqual(['Y-1', 'Y-2']);
    // Booked before: a second run books nothing.
    const again = await runShipbook(['book', file, '--json'], { env: fixture.env });
    expect(again.code, again.stderr).toBe(0);
    expect(bookedIds().filter((id) => id?.startsWith('Y-'))).toHaveLength(2);
  });

  it('books a JSON array as a batch; a one-element array too', async () => {
    const file = at('orders.json', JSON.stringify([orderWith('J-1'), orderWith('J-2')], null, 2));
    const r = await runShipbook(['book', file], { env: fixture.env });
    expect(r.code, r.stderr).toBe(0);
    expect(
      bookedIds()
        .filter((id) => id?.startsWith('J-'))
        .sort(),
    ).toEqual(['J-1', 'J-2']);
    const one = at('one.json', JSON.stringify([orderWith('J-3')]));
    const dry = await runShipbook(['book', one, '--dry-run'], { env: fixture.env });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/one\.json:1\s+[0-9a-f]{16}-1\s+book/);
  });

  it('refuses an invalid document of such a file in book and validate alike, at its line', async () => {
    const bad = orderWith('Y-BAD') as { order: { shipments: Array<Record<string, unknown>> } };
    delete bad.order.shipments[0]!.delivery;
    const first = stringify(orderWith('Y-3'));
    const file = at('bad.yaml', `${first}---\n${stringify(bad)}`);
    const v = await runShipbook(['validate', file, '--json']);
    expect(v.code).toBe(2);
    const [issue] = (JSON.parse(v.stdout) as Array<{ issues: Array<{ line: number; path: string }> }>)[0]!.issues;
    expect(issue).toMatchObject({ path: 'order.shipments[0].delivery' });
    // In the second document, past the first one's lines.
    expect(issue!.line).toBeGreaterThan(first.split('\n').length);
    const where = `bad.yaml:${issue!.line}:`;
    const b = await runShipbook(['book', file], { env: fixture.env });
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/1 of 2 orders are not valid; nothing was sent/);
    expect(b.stderr).toContain(where);
    expect(b.stderr).not.toContain('put one document in each file');
    expect(bookedIds()).not.toContain('Y-3');
    const dry = await runShipbook(['book', file, '--dry-run'], { env: fixture.env });
    expect(dry.code).toBe(2);
    expect(dry.stderr).toContain(where);
  });

  it('says so in docs/input-files.md and docs/batch.md alike', () => {
    const inputFiles = readFileSync('docs/input-files.md', 'utf8');
    expect(inputFiles).not.toMatch(/several documents in one file,?\s+duplicate/);
    expect(inputFiles).toMatch(/`shipbook book` of one such file books it as a batch/);
    expect(readFileSync('docs/batch.md', 'utf8')).toMatch(/one file that holds several orders is a batch too/);
  });
});

describe('standard input takes every format a file takes', () => {
  it('reads NDJSON on standard input: validate, --dry-run and book', async () => {
    const text = `${['S-1', 'S-2', 'S-3'].map((id) => JSON.stringify(orderWith(id))).join('\n')}\n`;
    const v = await runShipbook(['validate', '-', '--json'], { input: text });
    expect(v.code, v.stdout).toBe(0);
    const dry = await runShipbook(['book', '-', '--dry-run'], { env: fixture.env, input: text });
    expect(dry.code, dry.stderr).toBe(0);
    expect(
      dry.stdout
        .trim()
        .split('\n')
        .map((l) => l.split('\t')[0]),
    ).toEqual(['-:1', '-:2', '-:3']);
    const r = await runShipbook(['book', '-'], { env: fixture.env, input: text });
    expect(r.code, r.stderr).toBe(0);
    expect(
      bookedIds()
        .filter((id) => id?.startsWith('S-'))
        .sort(),
    ).toEqual(['S-1', 'S-2', 'S-3']);
  });

  it('reads a JSON array and a YAML stream on standard input as many orders, and one document as a single booking', async () => {
    const array = await runShipbook(['book', '-', '--dry-run'], { env: fixture.env, input: JSON.stringify([orderWith('A-1'), orderWith('A-2')]) });
    expect(array.code, array.stderr).toBe(0);
    expect(array.stderr).toContain('2 order(s) valid');
    const stream = await runShipbook(['book', '-', '--dry-run'], {
      env: fixture.env,
      input: `${stringify(orderWith('A-3'))}---\n${stringify(orderWith('A-4'))}`,
    });
    expect(stream.code, stream.stderr).toBe(0);
    expect(stream.stderr).toContain('2 order(s) valid');
    const single = await runShipbook(['book', '-', '--json'], { env: fixture.env, input: stringify(orderWith('A-5')) });
    expect(single.code, single.stderr).toBe(0);
    expect((JSON.parse(single.stdout) as { order: { status: string } }).order.status).toBe('processed');
    const one = await runShipbook(['book', '-', '--dry-run'], { env: fixture.env, input: JSON.stringify(orderWith('A-6')) });
    expect(one.code, one.stderr).toBe(0);
    expect(one.stderr).toContain('dry run: the input is valid');
  });
});
