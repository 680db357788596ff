/**
 * End-to-end: the cost preview of a batch, `book --preview` and its alias `book --dry-run --quote`
 * (one output). Each order priced at its own service, else the quote's cheapest; an order that
 * cannot be priced and an invalid one are said on their rows, the preview goes on and exits 2; the
 * total is what booking would spend (an order over --max-total left out), quoted_total every
 * priced order; nothing is created.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { quoteRequestFor } from '../../src/prompts/service.js';
import { quoteResult } from '../../src/schema/quote.js';
import { sandboxQuoteResult } from '../../src/sandbox/price-list.js';
import { ROOT } from '../helpers/cli.js';
import { runShipbook } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const fx = useSandbox({ processingDelayMs: 20 });
const dir = mkdtempSync(join(tmpdir(), 'shipbook-cost-preview-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Doc = { order: { shipments: Array<Record<string, any>> } };
const batch = readFileSync(join(ROOT, 'fixtures/batch/orders.ndjson'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as Doc);

/** Four orders: one at its own (insured) service, one at a service no quote offers, one invalid, one naming no service. */
function orders(): { file: string; cheapest: { code: string; total: string } } {
  const [other, own, third] = batch.map((d) => structuredClone(d));
  other!.order.shipments[0]!.service.code = 'SB-NOPE';
  const invalid = structuredClone(own!);
  invalid.order.shipments[0]!.transient_id = 'BAD-1';
  invalid.order.shipments[0]!.packages[0].weight = 0;
  delete third!.order.shipments[0]!.service;
  // The cheapest of the sandbox's own price list for that shipment, decided here with no network.
  const answer = sandboxQuoteResult(quoteRequestFor(third!.order.shipments[0] as object));
  if ('problem' in answer) throw new Error(answer.problem);
  const services = quoteResult.parse(JSON.parse(answer.json)).services;
  const min = [...services].sort((a, b) => a.price.total.cents - b.price.total.cents || a.code.localeCompare(b.code))[0]!;
  const file = join(dir, 'mixed.ndjson');
  writeFileSync(file, `${[own, other, invalid, third].map((d) => JSON.stringify(d)).join('\n')}\n`);
  return { file, cheapest: { code: min.code, total: min.price.total.toString() } };
}

describe('the cost preview', () => {
  it('says an unpriceable and an invalid order on their rows, totals the rest, exits 2 and creates nothing; --dry-run --quote prints the same', async () => {
    const { file, cheapest } = orders();
    const before = fx.sandbox.state.orders.size;
    const r = await runShipbook(['book', file, '--preview', '--max-total', '80', '--json'], { env: fx.env });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('1 not valid, 1 could not be priced (of 4 orders); nothing was created');
    expect(r.stderr).toContain('order.shipments[0].packages[0].weight');
    const p = (JSON.parse(r.stdout) as { preview: Record<string, any> }).preview;
    expect(p.orders.map((o: Record<string, any>) => [o.line, o.state, o.total, o.shipments.map((s: { code: string }) => s.code)])).toEqual([
      [1, 'over_max_total', '83.70', ['SB-DOM-EXP']],
      [2, 'unpriceable', null, []],
      [3, 'invalid', null, []],
      [4, 'ok', cheapest.total, [cheapest.code]],
    ]);
    expect(p.orders[0].refused).toBe('over --max-total 80.00');
    expect(p.orders[1].problem).toBe(`service SB-NOPE is not in the quote of ${file}:2 shipment 1`);
    expect(p.orders[2].problem).toBe('order.shipments[0].packages[0].weight must be greater than 0 (got 0)');
    expect(p.orders[3].shipments[0].chosen).toBe('cheapest');
    expect(p.total_aud).toBe(cheapest.total);
    expect(p.quoted_total_aud).toBe((83.7 + Number(cheapest.total)).toFixed(2));
    expect([p.orders_booked, p.over_limit, p.problems, p.max_total, p.sent]).toEqual([1, 1, 2, '80.00', false]);
    expect(fx.sandbox.state.orders.size).toBe(before);

    const alias = await runShipbook(['book', file, '--dry-run', '--quote', '--max-total', '80', '--json'], { env: fx.env });
    expect(alias.code).toBe(2);
    expect(alias.stdout).toBe(r.stdout);
    for (const flags of [['--output', 'tsv'], ['--markdown']]) {
      const a = await runShipbook(['book', file, '--preview', '--max-total', '80', ...flags], { env: fx.env });
      const b = await runShipbook(['book', file, '--dry-run', '--quote', '--max-total', '80', ...flags], { env: fx.env });
      expect([a.code, b.code]).toEqual([2, 2]);
      expect(b.stdout).toBe(a.stdout);
    }
    expect(fx.sandbox.state.orders.size).toBe(before);
  });

  it('writes the tab-separated keys a CI step reads, and appends the same Markdown to --summary', async () => {
    const summary = join(dir, 'summary.md');
    writeFileSync(summary, '# job\n');
    const r = await runShipbook(['book', 'fixtures/csv/orders.csv', '--preview', '--max-total', '60', '--summary', summary, '--output', 'tsv'], {
      env: fx.env,
    });
    expect(r.code, r.stderr).toBe(0);
    const keys = Object.fromEntries(
      r.stdout
        .split('\n')
        .map((l) => l.split('\t'))
        .filter((c) => ['orders', 'total_aud', 'quoted_aud', 'over_limit'].includes(c[0]!)),
    );
    expect(keys).toEqual({ orders: '2', total_aud: '47.30', quoted_aud: '135.30', over_limit: '1' });
    expect(r.stdout).toContain('order\tfixtures/csv/orders.csv:4\tSO-10483\tSB-INTL-EXP\tDHL Express\t88.00\tover_max_total\tover --max-total 60.00\n');
    expect(r.stderr).toContain('preview: 1 order would cost 47.30 AUD (135.30 AUD quoted); 1 would be refused by a cap;');
    const md = await runShipbook(['book', 'fixtures/csv/orders.csv', '--dry-run', '--quote', '--max-total', '60', '--markdown'], { env: fx.env });
    expect(md.code, md.stderr).toBe(0);
    expect(readFileSync(summary, 'utf8')).toBe(`# job\n${md.stdout}`);
    expect(md.stdout).toContain('| **all** | 1 | 1 | **47.30** |');
  });
  it('--dry-run --quote prices an order the rules send by consolidated mail as --preview does (the service data read, nothing else sent)', async () => {
    const args = [
      'book',
      'fixtures/rules/orders/abroad-auckland.yaml',
      'fixtures/rules/orders/light-melbourne.yaml',
      '--rules',
      'fixtures/rules/shipping.yaml',
    ];
    const env = { ...fx.env, SHIPBOOK_MAIL_FREE_PICKUP: 'true' };
    const before = fx.sandbox.state.orders.size;
    const a = await runShipbook([...args, '--preview', '--output', 'tsv'], { env });
    const b = await runShipbook([...args, '--dry-run', '--quote', '--output', 'tsv'], { env });
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    expect(b.stdout).toBe(a.stdout);
    expect(a.stdout).toContain('order\tfixtures/rules/orders/abroad-auckland.yaml:1\tSO-30001\tSB-GLOBAL-MAIL\tShipBook Global Mail\t27.00\tok\t');
    expect(a.stdout).toContain('total_aud\t52.03\n');
    expect(fx.sandbox.state.orders.size).toBe(before);
  });
});
