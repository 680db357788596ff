/**
 * End-to-end: the rules' choice in the ledger, and what it is used for afterwards. A booking under
 * a rules file records, on the order's create, the rule, the reason and the quote with every
 * price (read back with `history --json`); `rules diff` re-prices the recorded orders under two
 * rule sets from those quotes, with no network; a rule's `max_total` caps each order of a batch.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from '../helpers/cli.js';
import { runShipbook } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const fx = useSandbox({ processingDelayMs: 20 });
const RULES = 'fixtures/rules/shipping.yaml';
const dir = mkdtempSync(join(tmpdir(), 'shipbook-rules-ledger-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface HistoryChoice {
  service: string;
  rule?: string;
  how: string;
  reason: string;
  chosen: { code: string; total: string };
  quote: Array<{ code: string; name: string; carrier: string; global_mail: boolean; total: string }>;
  facts?: { delivery_state?: string; weight_kg: number };
}

/** The history rows of the create steps, with the choice each carries. */
async function createRows(env: Record<string, string>): Promise<Array<{ order_id: string; step: string; service_choice?: HistoryChoice[] }>> {
  const h = await runShipbook(['history', '--json'], { env });
  expect(h.code, h.stderr).toBe(0);
  return (JSON.parse(h.stdout) as { history: Array<{ order_id: string; step: string; service_choice?: HistoryChoice[] }> }).history.filter(
    (r) => r.step === 'create_order',
  );
}

/** `count` copies of the 24 kg Sydney → Perth order, each its own shipment (`weight` kg, to `postcode`). */
function batchFile(name: string, count: number, make: (i: number) => { weight: number; postcode: string; city: string }): string {
  const base = parse(readFileSync(join(ROOT, 'fixtures/rules/orders/heavy-perth.yaml'), 'utf8')) as { order: { shipments: Array<Record<string, any>> } };
  const docs = Array.from({ length: count }, (_, i) => {
    const d = structuredClone(base);
    const s = d.order.shipments[0]!;
    const m = make(i);
    s.transient_id = `${name}-${i}`;
    s.collection.pickup.date = '2031-12-02';
    s.delivery.postcode = m.postcode;
    s.delivery.city = m.city;
    s.packages[0].weight = m.weight;
    return d;
  });
  const file = join(dir, `${name}.ndjson`);
  writeFileSync(file, `${docs.map((d) => JSON.stringify(d)).join('\n')}\n`);
  return file;
}

describe('the ledger carries the rules choice', () => {
  it('records the rule, the reason and the quote with every price on the order create; history --json shows it', async () => {
    const env = { ...fx.env, SHIPBOOK_STATE_DIR: join(dir, 'state-1') };
    const r = await runShipbook(['book', 'fixtures/rules/orders/heavy-perth.yaml', '--rules', RULES, '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    const orderId = (JSON.parse(r.stdout) as { order: { id: string } }).order.id;
    const rows = await createRows(env);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.order_id).toBe(orderId);
    const choice = rows[0]!.service_choice!;
    expect(choice).toHaveLength(1);
    expect(choice[0]).toMatchObject({
      service: 'SB-DOM-ROAD',
      rule: 'heavy to WA by StarTrack',
      how: 'prefer',
      chosen: { code: 'SB-DOM-ROAD', total: '131.56' },
      facts: { delivery_state: 'WA', weight_kg: 24 },
    });
    expect(choice[0]!.reason).toContain('rule "heavy to WA by StarTrack" prefers StarTrack within 10 % of the cheapest');
    // Every entry of the quote, with its price, as the sandbox answered it.
    expect(choice[0]!.quote).toHaveLength(6);
    expect(choice[0]!.quote.find((e) => e.code === 'SB-CP-STD')).toEqual({
      code: 'SB-CP-STD',
      name: expect.any(String),
      carrier: 'Couriers Please',
      global_mail: false,
      total: '129.14',
    });
    // An order booked with no rules carries no choice: older and rule-less records read as before.
    const plain = await runShipbook(['book', 'fixtures/rules/orders/light-melbourne.yaml'], { env });
    expect(plain.code, plain.stderr).toBe(0);
    const after = await createRows(env);
    expect(after).toHaveLength(2);
    expect(after[1]!.service_choice).toBeUndefined();
  });
});
