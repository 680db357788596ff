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

describe('rules diff: what a change of rules would have cost', () => {
  it('re-prices a batch booked under OLD from the recorded quotes, per service and in total, with no network', async () => {
    const env = { ...fx.env, SHIPBOOK_STATE_DIR: join(dir, 'state-2') };
    // Heavy parcels to Perth (StarTrack preferred under OLD), to Broome (Couriers Please denied), light ones to Perth (the cheapest).
    const places = [
      { weight: 24, postcode: '6000', city: 'Perth' },
      { weight: 18, postcode: '6725', city: 'Broome' },
      { weight: 12, postcode: '6000', city: 'Perth' },
    ];
    const file = batchFile('diff', 9, (i) => places[i % 3]!);
    const r = await runShipbook(['book', file, '--rules', RULES, '--json'], { env });
    expect(r.code, r.stderr.slice(-2000)).toBe(0);
    const booked = JSON.parse(r.stdout) as {
      summary: { total: string };
      orders: Array<{ order_id: string; line: number; service_choice: Array<{ service: string }> }>;
    };
    const heavyPerth = booked.orders.filter((o) => o.line % 3 === 1);
    expect(heavyPerth.map((o) => o.service_choice[0]!.service)).toEqual(['SB-DOM-ROAD', 'SB-DOM-ROAD', 'SB-DOM-ROAD']);
    const requestsBefore = fx.sandbox.state.orders.size;

    const d = await runShipbook(['rules', 'diff', RULES, 'fixtures/rules/shipping-cheapest.yaml', '--since', '7d', '--json'], { env });
    expect(d.code, d.stderr).toBe(0);
    const diff = JSON.parse(d.stdout) as {
      orders: number;
      shipments: number;
      services: Array<{ service: string; old: { shipments: number; total: string }; new: { shipments: number; total: string }; change: string }>;
      total: { old: string; new: string; change: string };
      changed: Array<{ order_id: string; old: { service: string; total: string }; new: { service: string; total: string } }>;
    };
    expect(diff.orders).toBe(9);
    expect(diff.shipments).toBe(9);
    // Under OLD, what was booked: the batch's own total.
    expect(diff.total.old).toBe(booked.summary.total);
    // Under NEW the three heavy Perth parcels go Couriers Please at 129.14 instead of StarTrack at 131.56.
    expect(diff.changed.map((c) => c.order_id).sort()).toEqual(heavyPerth.map((o) => o.order_id).sort());
    for (const c of diff.changed) {
      expect(c.old).toEqual({ service: 'SB-DOM-ROAD', total: '131.56', rule: 'heavy to WA by StarTrack' });
      expect(c.new).toEqual({ service: 'SB-CP-STD', total: '129.14' });
    }
    expect(diff.total.change).toBe('-7.26');
    const cents = (s: string) => Math.round(Number(s) * 100);
    expect(cents(diff.total.new)).toBe(cents(diff.total.old) - 726);
    const road = diff.services.find((s) => s.service === 'SB-DOM-ROAD')!;
    expect(road.old.shipments - road.new.shipments).toBe(3);
    const cp = diff.services.find((s) => s.service === 'SB-CP-STD')!;
    expect(cp.new.shipments - cp.old.shipments).toBe(3);
    // Offline: nothing new at the service.
    expect(fx.sandbox.state.orders.size).toBe(requestsBefore);

    // The table on a terminal's stdout, what changed on stderr.
    const t = await runShipbook(['rules', 'diff', RULES, 'fixtures/rules/shipping-cheapest.yaml', '--since', '7d'], { env });
    expect(t.code, t.stderr).toBe(0);
    expect(t.stdout).toMatch(/^service\s+carrier\s+old\s+old AUD\s+new\s+new AUD\s+change AUD$/m);
    expect(t.stdout).toMatch(new RegExp(`^total\\s+9\\s+${diff.total.old}\\s+9\\s+${diff.total.new}\\s+-7\\.26$`, 'm'));
    expect(t.stderr).toContain(`${heavyPerth[0]!.order_id}: SB-DOM-ROAD 131.56 → SB-CP-STD 129.14`);
    expect(t.stderr).toContain('9 orders (9 shipments)');
    expect(t.stderr).toContain('3 shipments would change');

    // --since after the bookings: none of them.
    const later = await runShipbook(
      ['rules', 'diff', RULES, 'fixtures/rules/shipping-cheapest.yaml', '--since', new Date(Date.now() + 60_000).toISOString(), '--json'],
      {
        env,
      },
    );
    expect(later.code, later.stderr).toBe(0);
    expect((JSON.parse(later.stdout) as { orders: number }).orders).toBe(0);
  });
});

describe("a rule's max_total in a batch", () => {
  it('caps each order the rule applies to: dearer ones are refused and cancelled, the others booked', async () => {
    const env = { ...fx.env, SHIPBOOK_STATE_DIR: join(dir, 'state-3') };
    const rules = join(dir, 'capped.yaml');
    writeFileSync(
      rules,
      'rules:\n  - name: heavy to WA by StarTrack\n    when: { delivery_state: WA, weight_kg: { gt: 20 } }\n    prefer: { carrier: StarTrack, within_percent: 10 }\n' +
        '  - name: small orders only to WA\n    when: { delivery_state: WA }\n    max_total: 100\n',
    );
    // 24 kg to Perth costs 131.56 (over the rule's 100); 12 kg to Perth is under it; Melbourne is not in WA (no cap).
    const places = [
      { weight: 24, postcode: '6000', city: 'Perth' },
      { weight: 12, postcode: '6000', city: 'Perth' },
      { weight: 60, postcode: '3000', city: 'Melbourne' },
    ];
    const file = batchFile('cap', 3, (i) => places[i]!);
    const report = join(dir, 'cap-report.json');
    const r = await runShipbook(['book', file, '--rules', rules, '--report', report], { env });
    expect(r.code, r.stderr.slice(-2000)).toBe(9);
    const rows = (
      JSON.parse(readFileSync(report, 'utf8')) as {
        orders: Array<{ line: number; status: string; total?: string; order_id?: string; hint?: string; error?: { message: string } }>;
      }
    ).orders;
    const byLine = new Map(rows.map((o) => [o.line, o]));
    expect(byLine.get(1)!.status).toBe('over_limit');
    expect(byLine.get(1)!.error?.message).toContain('costs 131.56 AUD, above the max_total 100.00 AUD of rule "small orders only to WA"');
    expect(byLine.get(1)!.hint).toContain("raise that rule's max_total to 131.56 or more, then run the same command again");
    expect(byLine.get(2)!.status).toBe('booked');
    expect(byLine.get(3)!.status).toBe('booked');
    // 60 kg to Melbourne costs more than 100 and is booked: the cap is that rule's, for WA orders only.
    expect(Number(byLine.get(3)!.total)).toBeGreaterThan(100);
    // The refused order was cancelled at the service, not left pending.
    const refused = byLine.get(1)!.order_id!;
    expect(fx.sandbox.state.getOrder(refused).status).toMatch(/cancel/i);
    // The hint works: with the rule's max_total raised, the same command books it.
    writeFileSync(rules, readFileSync(rules, 'utf8').replace('max_total: 100', 'max_total: 140'));
    const again = await runShipbook(['book', file, '--rules', rules, '--report', report], { env });
    expect(again.code, again.stderr.slice(-2000)).toBe(0);
    const after = (JSON.parse(readFileSync(report, 'utf8')) as { orders: Array<{ line: number; status: string }> }).orders;
    expect(after.find((o) => o.line === 1)!.status).toBe('booked');
  });
});
