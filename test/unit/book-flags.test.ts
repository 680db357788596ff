/**
 * The parse step of `book`, alone: flags → options, without a sandbox or a context (as gh's
 * `NewCmd…` tests do): what makes a batch, the batch's options and their refusals, the wait and
 * the price caps.
 */
import { describe, expect, it } from 'vitest';
import { batchOptions, isBatch } from '../../src/commands/book/batch.js';
import { batchWait, waitSettings } from '../../src/commands/common/wait-options.js';
import { capsOfFlags } from '../../src/commands/common/caps.js';
import { UsageError } from '../../src/errors.js';

const noDirectory = () => false;
const wait = waitSettings({});

describe('book: flags → options', () => {
  it('books one file alone, and makes a batch of several inputs, a directory, NDJSON, a spreadsheet or a batch flag', () => {
    expect(isBatch(['order.yaml'], {}, noDirectory)).toBe(false);
    expect(isBatch(['-'], {}, () => true)).toBe(false);
    expect(isBatch([], {}, noDirectory)).toBe(false);
    expect(isBatch(['a.yaml', 'b.yaml'], {}, noDirectory)).toBe(true);
    expect(isBatch(['orders/'], {}, (p) => p === 'orders/')).toBe(true);
    expect(isBatch(['orders.ndjson'], {}, noDirectory)).toBe(true);
    expect(isBatch(['orders.CSV'], {}, noDirectory)).toBe(true);
    expect(isBatch(['order.yaml'], { report: 'r.json' }, noDirectory)).toBe(true);
    expect(isBatch(['order.yaml'], { skipInvalid: true }, noDirectory)).toBe(true);
  });

  it('gives a batch a concurrency of 4, no shard and no skipping unless told', () => {
    const o = batchOptions(['orders.ndjson'], {}, wait);
    expect(o).toMatchObject({ inputs: ['orders.ndjson'], concurrency: 4, skipInvalid: false, wait });
    expect(o.shard).toBeUndefined();
    expect(o.journal).toBeUndefined();
  });

  it('reads --concurrency, --shard i/n, --journal, the reports and --skip-invalid', () => {
    const o = batchOptions(
      ['a.yaml', 'b.yaml'],
      { concurrency: '8', shard: '2/4', journal: 'j.ndjson', report: 'r.csv', junit: 'j.xml', skipInvalid: true, maxTotal: '90' },
      wait,
    );
    expect(o).toMatchObject({
      concurrency: 8,
      shard: { index: 2, count: 4 },
      journal: 'j.ndjson',
      report: 'r.csv',
      junit: 'j.xml',
      skipInvalid: true,
      maxTotal: '90',
    });
  });

  it('refuses a concurrency that is not a whole number from 1 to 256, and a shard that is not i/n', () => {
    for (const concurrency of ['0', '257', '2.5', 'many']) expect(() => batchOptions(['a.ndjson'], { concurrency }, wait)).toThrow(UsageError);
    expect(() => batchOptions(['a.ndjson'], { concurrency: 'many' }, wait)).toThrow('--concurrency must be a whole number from 1 to 256 (got "many")');
    for (const shard of ['5/4', '0/4', '2', 'a/b']) expect(() => batchOptions(['a.ndjson'], { shard }, wait)).toThrow(UsageError);
    let refusal: unknown;
    try {
      batchOptions(['a.ndjson'], { shard: '5/4' }, wait);
    } catch (err) {
      refusal = err;
    }
    expect(refusal).toBeInstanceOf(UsageError);
    expect(JSON.stringify((refusal as UsageError).suggestion)).toContain('--shard 2/4');
  });

  it('waits by callback for 10 minutes unless told, polls with --poll, and a batch polls every second where it must', () => {
    expect(waitSettings({})).toMatchObject({ route: 'callback', timeoutMs: 600_000 });
    expect(waitSettings({ poll: '5s', waitTimeout: '30m' })).toEqual({ route: 'poll', pollMs: 5_000, timeoutMs: 1_800_000 });
    expect(batchWait({}).pollMs).toBe(1_000);
    expect(batchWait({ poll: '3s' }).pollMs).toBe(3_000);
    expect(() => waitSettings({ poll: '5s', listen: '127.0.0.1:8787' })).toThrow(UsageError);
    expect(() => waitSettings({ waitTimeout: '1m', timeout: '2m' })).toThrow('give --wait-timeout once');
  });

  it('reads the price caps in cents and refuses one that is not an amount above 0', () => {
    expect(capsOfFlags({ maxTotal: '90', budget: '200.50' })).toEqual({ maxTotalCents: 9_000, budgetCents: 20_050 });
    expect(capsOfFlags({})).toEqual({});
    for (const maxTotal of ['abc', '-5', '0']) expect(() => capsOfFlags({ maxTotal })).toThrow(UsageError);
  });
});
