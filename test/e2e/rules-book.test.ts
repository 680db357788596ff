/**
 * End-to-end: rules applied where orders are sent. `book` and `order create` print the chosen
 * service with the rule and the runner-up and carry it in `--json`; a written code a rule denies
 * and a document no rule leaves a service for send nothing; a batch of 200 mixed orders books each
 * order on the service the rules imply (decided here offline, from the sandbox's price list) and
 * every report row carries a reason.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { decideOrder, loadRules, orderShipments, ratedEntry } from '../../src/booking/rules/index.js';
import { quoteRequestFor } from '../../src/prompts/service.js';
import { quoteResult } from '../../src/schema/quote.js';
import { sandboxQuoteResult } from '../../src/sandbox/price-list.js';
import { ROOT } from '../helpers/cli.js';
import { runShipbook } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const fx = useSandbox({ processingDelayMs: 20 });
const RULES = 'fixtures/rules/shipping.yaml';
const dir = mkdtempSync(join(tmpdir(), 'shipbook-rules-book-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Orders the sandbox has stored so far. */
const orderCount = () => fx.sandbox.state.orders.size;

/** The service code each shipment of an order was booked on at the sandbox. */
function bookedCodes(orderId: string): string[] {
  const state = fx.sandbox.state;
  return state.shipmentsOf(state.getOrder(orderId)).map((s) => s.service.code);
}

describe('book and order create under rules', () => {
  it('books the service the rules choose and says why, with the runner-up; --json carries the choice and its quote', async () => {
    const r = await runShipbook(['book', 'fixtures/rules/orders/heavy-perth.yaml', '--rules', RULES, '--json'], { env: fx.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      'service: StarTrack Road Express 131.56 AUD: rule "heavy to WA by StarTrack" prefers StarTrack within 10 % of the cheapest (Couriers Please Standard 129.14 AUD)',
    );
    const doc = JSON.parse(r.stdout) as { order: { id: string; price: { total: string } }; service_choice: Array<Record<string, any>> };
    expect(bookedCodes(doc.order.id)).toEqual(['SB-DOM-ROAD']);
    expect(doc.service_choice[0]).toMatchObject({
      service: 'SB-DOM-ROAD',
      rule: 'heavy to WA by StarTrack',
      how: 'prefer',
      runner_up: { code: 'SB-CP-STD', total: '129.14' },
    });
    expect(doc.service_choice[0]!.quote).toHaveLength(6);
    expect(doc.service_choice[0]!.chosen.total).toBe('131.56');
  });

  it('order create: takes the setting from SHIPBOOK_RULES as it does from --rules', async () => {
    const r = await runShipbook(['order', 'create', 'fixtures/rules/orders/rural-broome.yaml', '--json'], { env: { ...fx.env, SHIPBOOK_RULES: RULES } });
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { order: { id: string }; service_choice: Array<{ service: string; reason: string }> };
    expect(bookedCodes(doc.order.id)).toEqual(['SB-DOM-ROAD']);
    expect(doc.service_choice[0]!.reason).toContain('rule "no Couriers Please to rural postcodes" denies: SB-CP-STD (Couriers Please)');
  });

  it('reads tags beside order: for the rules, and sends the order without them', async () => {
    const rules = join(dir, 'tags.yaml');
    writeFileSync(
      rules,
      'rules:\n  - name: wholesale by road\n    when: { tags: wholesale }\n    allow: { carrier: [StarTrack, Aramex] }\n  - name: cheapest of the rest\n    choose: cheapest\n',
    );
    const tagged = join(dir, 'tagged.yaml');
    writeFileSync(tagged, `tags: [wholesale]\n${readFileSync('fixtures/rules/orders/heavy-perth.yaml', 'utf8')}`);
    const r = await runShipbook(['order', 'create', tagged, '--rules', rules, '--json'], { env: fx.env });
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { order: { id: string }; service_choice: Array<{ service: string; reason: string; matched: string[] }> };
    // Couriers Please (cheapest at 24 kg) is not among the wholesale carriers: StarTrack is the cheapest left.
    expect(bookedCodes(doc.order.id)).toEqual(['SB-DOM-ROAD']);
    expect(doc.service_choice[0]!.matched).toEqual(['wholesale by road', 'cheapest of the rest']);
    expect(doc.service_choice[0]!.reason).toMatch(/^StarTrack Road Express 131\.56 AUD: rule "cheapest of the rest" chooses the cheapest allowed/);
  });

  it("takes the profile's rules setting", async () => {
    const set = await runShipbook(['--profile', 'desk', 'config', 'set', 'base-url', fx.sandbox.url], { env: fx.env });
    expect(set.code, set.stderr).toBe(0);
    expect((await runShipbook(['--profile', 'desk', 'config', 'set', 'rules', RULES], { env: fx.env })).code).toBe(0);
    const r = await runShipbook(['--profile', 'desk', 'order', 'create', 'fixtures/rules/orders/heavy-perth.yaml', '--again'], { env: fx.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('service: StarTrack Road Express 131.56 AUD: rule "heavy to WA by StarTrack"');
  });

  it('refuses a written code a rule denies, naming the rule: nothing is sent (exit 2)', async () => {
    const rules = join(dir, 'no-cp.yaml');
    writeFileSync(rules, 'rules:\n  - name: never Couriers Please\n    deny: { carrier: Couriers Please }\n');
    const before = orderCount();
    const r = await runShipbook(['book', 'fixtures/rules/orders/light-melbourne.yaml', '--rules', rules], { env: fx.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('order.shipments[0].service.code  the order names SB-CP-STD (Couriers Please), but rule "never Couriers Please" denies it');
    expect(r.stderr).toContain(`hint: Try the rules on this order with: shipbook rules test ${rules} fixtures/rules/orders/light-melbourne.yaml`);
    expect(orderCount()).toBe(before);
    // In a batch the refused order is an invalid input, named with its rule: the batch sends nothing.
    const batch = await runShipbook(['book', 'fixtures/rules/orders/light-melbourne.yaml', 'fixtures/rules/orders/heavy-perth.yaml', '--rules', rules], {
      env: fx.env,
    });
    expect(batch.code).toBe(2);
    expect(batch.stderr).toContain('1 of 2 orders are not valid; nothing was sent');
    expect(batch.stderr).toContain('but rule "never Couriers Please" denies it');
    expect(orderCount()).toBe(before);
  });

  it('reports a document no rule leaves a service for, with the rules that removed each service: nothing is sent (exit 2)', async () => {
    const rules = join(dir, 'nothing.yaml');
    writeFileSync(
      rules,
      'rules:\n  - name: road carriers only\n    allow: { carrier: [StarTrack, Aramex] }\n  - name: no StarTrack to WA\n    when: { delivery_state: WA }\n    deny: { carrier: StarTrack }\n  - name: no Aramex over 20 kg\n    when: { weight_kg: { gt: 20 } }\n    deny: { carrier: Aramex }\n',
    );
    const before = orderCount();
    const r = await runShipbook(['order', 'create', 'fixtures/rules/orders/heavy-perth.yaml', '--rules', rules], { env: fx.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('the rules leave it no service');
    expect(r.stderr).toContain('rule "road carriers only" does not allow: SB-CP-STD (Couriers Please)');
    expect(r.stderr).toContain('rule "no StarTrack to WA" denies: SB-DOM-ROAD (StarTrack), SB-ST-PREM (StarTrack)');
    expect(r.stderr).toContain('rule "no Aramex over 20 kg" denies: SB-AX-ROAD (Aramex)');
    expect(orderCount()).toBe(before);
  });
});

describe('a batch of 200 mixed orders under a rules file', () => {
  it('previews with --max-total and --budget: says which orders would be refused, in markdown for a CI summary', async () => {
    const r = await runShipbook(['book', 'fixtures/batch/orders.ndjson', '--preview', '--markdown', '--max-total', '80', '--budget', '60'], { env: fx.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('| fixtures/batch/orders.ndjson:1 | BATCH-1 | SB-DOM-ROAD (StarTrack) | 47.30 |  |');
    expect(r.stdout).toContain('| fixtures/batch/orders.ndjson:2 | BATCH-2 | SB-DOM-EXP (Australia Post) | 83.70 | over --max-total 80.00 |');
    expect(r.stdout).toContain('| fixtures/batch/orders.ndjson:3 | BATCH-3 | SB-DOM-ROAD (StarTrack) | 47.30 | over --budget 60.00 (47.30 spent before it) |');
    // The total is what booking would spend (the refused orders left out); every quote is summed apart.
    expect(r.stdout).toContain('| **all** | 1 | 1 | **47.30** |');
    expect(r.stdout).toContain('Quoted for every priced order: 178.30 AUD.');
    expect(r.stderr).toContain('preview: 1 order would cost 47.30 AUD (178.30 AUD quoted); 2 would be refused by a cap;');
    // The alias gives exactly the same report.
    const alias = await runShipbook(['book', 'fixtures/batch/orders.ndjson', '--dry-run', '--quote', '--markdown', '--max-total', '80', '--budget', '60'], {
      env: fx.env,
    });
    expect(alias.code, alias.stderr).toBe(0);
    expect(alias.stdout).toBe(r.stdout);
  });

  it('books each order on the service the rules imply, and every report row carries the reason', async () => {
    const base = parse(readFileSync(join(ROOT, 'fixtures/rules/orders/heavy-perth.yaml'), 'utf8')) as { order: { shipments: Array<Record<string, any>> } };
    const places = [
      { country: 'AU', postcode: '6000', city: 'Perth' },
      { country: 'AU', postcode: '6725', city: 'Broome' },
      { country: 'AU', postcode: '3000', city: 'Melbourne' },
      { country: 'AU', postcode: '2600', city: 'Canberra' },
      { country: 'AU', postcode: '0810', city: 'Darwin' },
    ];
    const weights = [2, 12, 18, 24, 40];
    const values = [50, 200];
    const docs = Array.from({ length: 200 }, (_, i) => {
      const d = structuredClone(base);
      const s = d.order.shipments[0]!;
      s.transient_id = `R-${i}`;
      s.collection.pickup.date = '2031-12-02';
      Object.assign(s.delivery, places[i % places.length]);
      s.packages[0].weight = weights[Math.floor(i / places.length) % weights.length];
      s.customs_information.items[0].value = values[i % 2];
      return d;
    });
    const file = join(dir, 'mixed.ndjson');
    writeFileSync(file, `${docs.map((d) => JSON.stringify(d)).join('\n')}\n`);
    // What the rules imply, decided here with no network from the sandbox's own price list.
    const rules = await loadRules(RULES);
    const implied = docs.map((d) => {
      const quotes = orderShipments(d).map((s) => {
        const answer = sandboxQuoteResult(quoteRequestFor(s as object));
        if ('problem' in answer) throw new Error(answer.problem);
        return quoteResult.parse(JSON.parse(answer.json)).services.map(ratedEntry);
      });
      const decision = decideOrder(rules, d, { quotes });
      return decision.shipments.map((x) => (x.ok ? x.chosen.code : 'none'))[0]!;
    });
    // The mix exercises every rule that chooses: StarTrack preferred, Couriers Please denied, the cheapest otherwise.
    expect(new Set(implied)).toEqual(new Set(['SB-DOM-ROAD', 'SB-CP-STD', 'SB-AX-ROAD']));
    // The preview first: it creates nothing, and its total is what the booking then costs.
    const before = orderCount();
    const preview = await runShipbook(['book', file, '--rules', RULES, '--preview', '--json'], { env: fx.env });
    expect(preview.code, preview.stderr.slice(-2000)).toBe(0);
    expect(orderCount()).toBe(before);
    const previewed = (
      JSON.parse(preview.stdout) as {
        preview: {
          total_aud: string;
          quoted_total_aud: string;
          orders: Array<{ shipments: Array<{ code: string; chosen: string }> }>;
          carriers: Array<{ carrier: string }>;
        };
      }
    ).preview;
    expect(previewed.orders.map((o) => o.shipments[0]!.code)).toEqual(implied);
    expect(new Set(previewed.orders.map((o) => o.shipments[0]!.chosen))).toEqual(new Set(['rules']));
    // No cap: every priced order would be booked, so the quotes add up to the total.
    expect(previewed.quoted_total_aud).toBe(previewed.total_aud);
    expect(previewed.carriers.map((c) => c.carrier).sort()).toEqual(['Aramex', 'Couriers Please', 'StarTrack']);
    const report = join(dir, 'report.json');
    const r = await runShipbook(['book', file, '--rules', RULES, '--concurrency', '8', '--report', report, '--json'], { env: fx.env });
    expect(r.code, r.stderr.slice(-2000)).toBe(0);
    expect((JSON.parse(r.stdout) as { summary: { total: string } }).summary.total).toBe(previewed.total_aud);
    const rows = (
      JSON.parse(readFileSync(report, 'utf8')) as {
        orders: Array<{ status: string; order_id: string; line: number; service_choice?: Array<{ service: string; reason: string }> }>;
      }
    ).orders;
    expect(rows).toHaveLength(200);
    for (const row of rows) {
      expect(row.status).toBe('booked');
      expect(row.service_choice?.[0]?.reason).toMatch(/ AUD: /);
      expect(row.service_choice?.[0]?.service).toBe(implied[row.line - 1]);
      expect(bookedCodes(row.order_id)).toEqual([implied[row.line - 1]]);
    }
    // Heavy parcels to Perth go StarTrack; Broome never goes Couriers Please.
    const perthHeavy = rows.find(
      (x) => docs[x.line - 1]!.order.shipments[0]!.delivery.city === 'Perth' && docs[x.line - 1]!.order.shipments[0]!.packages[0].weight === 24,
    )!;
    expect(perthHeavy.service_choice?.[0]?.reason).toContain('rule "heavy to WA by StarTrack"');
    expect(
      rows.filter((x) => docs[x.line - 1]!.order.shipments[0]!.delivery.city === 'Broome').every((x) => x.service_choice?.[0]?.service !== 'SB-CP-STD'),
    ).toBe(true);
  }, 120_000);
});
