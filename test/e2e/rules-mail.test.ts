/**
 * End-to-end: consolidated mail chosen by rules. A rule that prefers `global_mail` sends the
 * orders it wins by shipment create, combine and accept: in a batch, the orders of one collection
 * address and day are combined into one parent order (under free pickup, or with the profile's
 * main shipment); a single order goes as a parent of one; a rerun books nothing, and one whose
 * combination differs sends nothing twice; without a main shipment or free pickup the rule is not
 * applicable, said with why, and the next choice books the order as a plain order.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from '../helpers/cli.js';
import { runShipbook } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const fx = useSandbox({ processingDelayMs: 20, freePickup: true });
const RULES = 'fixtures/rules/shipping.yaml';
const dir = mkdtempSync(join(tmpdir(), 'shipbook-rules-mail-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
/** One ledger (state directory) for every run of the file: reruns find what earlier runs booked. */
const state = { SHIPBOOK_STATE_DIR: join(dir, 'state') };

type Row = {
  id: string;
  status: string;
  order_id?: string;
  line: number;
  file: string;
  tracking_numbers?: string[];
  consolidated?: { parent_order_id: string; orders: number; main_shipment: boolean; identity: string };
  service_choice?: Array<{ service: string; rule?: string; reason: string }>;
};

/** The international order fixture with its own transient id, delivered to `country`, collected by `company`. */
function abroad(i: number, o: { country?: 'NZ' | 'US'; company?: string } = {}): Record<string, any> {
  const d = parse(readFileSync(join(ROOT, `fixtures/rules/orders/${o.country === 'US' ? 'abroad-new-york' : 'abroad-auckland'}.yaml`), 'utf8')) as Record<
    string,
    any
  >;
  const s = d.order.shipments[0];
  s.transient_id = `MAIL-${i}`;
  s.collection.pickup.date = '2031-12-02';
  if (o.company !== undefined) s.collection.company = o.company;
  return d;
}

/** Writes documents as one NDJSON file. */
function ndjson(name: string, docs: unknown[]): string {
  const file = join(dir, name);
  writeFileSync(file, `${docs.map((d) => JSON.stringify(d)).join('\n')}\n`);
  return file;
}

/** Books `files` as a batch with `env`, returns the exit code, the report's rows and stderr. */
async function batch(files: string[], env: Record<string, string>, report: string) {
  const r = await runShipbook(['book', ...files, '--rules', RULES, '--report', report], { env: { ...fx.env, ...state, ...env } });
  const rows = r.code === 0 || r.code === 8 ? (JSON.parse(readFileSync(report, 'utf8')) as { orders: Row[] }).orders : [];
  return { code: r.code, stderr: r.stderr, rows };
}

describe('consolidated mail chosen by rules', () => {
  it('combines the orders of one collection and day into one parent under free pickup; each row names the parent and the reason; a rerun books nothing', async () => {
    const file = ndjson('mixed.ndjson', [
      abroad(1),
      abroad(2, { country: 'US' }),
      abroad(3, { company: 'Harbour Homewares Outlet' }),
      abroad(4),
      abroad(5, { country: 'US', company: 'Harbour Homewares Outlet' }),
    ]);
    const domestic = 'fixtures/rules/orders/light-melbourne.yaml';
    const ordersBefore = fx.sandbox.state.orders.size;
    // The preview prices each order as it will be booked (consolidated mail for those the rule sends), creating nothing.
    const preview = await runShipbook(['book', file, domestic, '--rules', RULES, '--preview', '--json'], {
      env: { ...fx.env, ...state, SHIPBOOK_MAIL_FREE_PICKUP: 'true' },
    });
    expect(preview.code, preview.stderr).toBe(0);
    expect(fx.sandbox.state.orders.size).toBe(ordersBefore);
    const first = await batch([file, domestic], { SHIPBOOK_MAIL_FREE_PICKUP: 'true' }, join(dir, 'first.json'));
    expect(first.code, first.stderr.slice(-2000)).toBe(0);
    // Under free pickup the parents cost their children alone: the preview's total is the batch's.
    const summary = (JSON.parse(readFileSync(join(dir, 'first.json'), 'utf8')) as { summary: { total: string } }).summary;
    expect(summary.total).toBe((JSON.parse(preview.stdout) as { preview: { total_aud: string } }).preview.total_aud);
    const mail = first.rows.filter((r) => r.consolidated !== undefined);
    expect(mail).toHaveLength(5);
    // Two collection addresses on one day: two parents, of 3 and 2 orders.
    const parents = new Map<string, Row[]>();
    for (const r of mail) parents.set(r.order_id!, [...(parents.get(r.order_id!) ?? []), r]);
    expect([...parents.values()].map((p) => p.length).sort()).toEqual([2, 3]);
    for (const r of mail) {
      expect(r.status).toBe('booked');
      expect(r.consolidated).toMatchObject({ parent_order_id: r.order_id, main_shipment: false, orders: parents.get(r.order_id!)!.length });
      expect(r.tracking_numbers).toHaveLength(1);
      expect(r.service_choice?.[0]).toMatchObject({ service: 'SB-GLOBAL-MAIL', rule: 'consolidated mail abroad' });
      expect(r.service_choice?.[0]?.reason).toContain('rule "consolidated mail abroad" prefers consolidated mail');
    }
    // At the sandbox: each parent holds its orders' consolidated-mail shipments and no main shipment.
    for (const [id, rows] of parents) {
      const shipments = fx.sandbox.state.shipmentsOf(fx.sandbox.state.getOrder(id));
      expect(shipments.map((s) => s.service.code)).toEqual(rows.map(() => 'SB-GLOBAL-MAIL'));
    }
    // The domestic order went by a plain order.
    expect(first.rows.find((r) => r.file === domestic)?.consolidated).toBeUndefined();
    expect(fx.sandbox.state.orders.size).toBe(ordersBefore + 3);

    // A rerun books nothing.
    const shipmentsBefore = fx.sandbox.state.shipments.size;
    const again = await batch([file, domestic], { SHIPBOOK_MAIL_FREE_PICKUP: 'true' }, join(dir, 'again.json'));
    expect(again.code, again.stderr.slice(-2000)).toBe(0);
    expect(again.rows.map((r) => r.status)).toEqual(again.rows.map(() => 'already_booked'));
    for (const r of again.rows.filter((x) => x.file === file)) expect(r.order_id).toBe(mail.find((m) => m.id === r.id)!.order_id);
    expect(fx.sandbox.state.shipments.size).toBe(shipmentsBefore);
    expect(fx.sandbox.state.orders.size).toBe(ordersBefore + 3);

    // A rerun whose combination differs (one order more): the orders booked stay booked, the new one goes as a parent of its own.
    const grown = ndjson('grown.ndjson', [abroad(1), abroad(2, { country: 'US' }), abroad(4), abroad(6)]);
    const third = await batch([grown], { SHIPBOOK_MAIL_FREE_PICKUP: 'true' }, join(dir, 'third.json'));
    expect(third.code, third.stderr.slice(-2000)).toBe(0);
    expect(third.rows.filter((r) => r.status === 'already_booked')).toHaveLength(3);
    const added = third.rows.find((r) => r.status === 'booked')!;
    expect(added.consolidated).toMatchObject({ orders: 1 });
    expect(fx.sandbox.state.shipments.size).toBe(shipmentsBefore + 1);
  });

  it('order list shows the rule and the reason the ledger recorded for each order', async () => {
    const r = await runShipbook(['order', 'list', '--json'], { env: { ...fx.env, ...state } });
    expect(r.code, r.stderr).toBe(0);
    const rows = (JSON.parse(r.stdout) as { orders: Array<{ identity: string; service_choice?: Array<{ rule?: string; how?: string; reason: string }> }> })
      .orders;
    const first = (JSON.parse(readFileSync(join(dir, 'first.json'), 'utf8')) as { orders: Row[] }).orders;
    for (const member of first.filter((x) => x.consolidated !== undefined)) {
      const row = rows.find((x) => x.identity === member.id);
      expect(row?.service_choice?.[0]).toMatchObject({ rule: 'consolidated mail abroad', how: 'prefer' });
      expect(row?.service_choice?.[0]?.reason).toContain('prefers consolidated mail');
    }
    // The domestic order names its service: said so, without a rule.
    const domestic = rows.find((x) => x.identity === first.find((f) => f.file.endsWith('light-melbourne.yaml'))!.id);
    expect(domestic?.service_choice?.[0]).toMatchObject({ how: 'written' });
    const table = await runShipbook(['order', 'list'], { env: { ...fx.env, ...state } });
    expect(table.stdout).toContain('SB-GLOBAL-MAIL: rule "consolidated mail abroad"');
    expect(table.stdout).toContain('SB-CP-STD: named in the order');
  });

  it('without a main shipment or free pickup: the rule is not applicable, with why, and the next choice books a plain order', async () => {
    const file = ndjson('plain.ndjson', [abroad(21), abroad(22, { country: 'US' })]);
    const r = await batch([file], {}, join(dir, 'plain.json'));
    expect(r.code, r.stderr.slice(-2000)).toBe(0);
    for (const row of r.rows) {
      expect(row.status).toBe('booked');
      expect(row.consolidated).toBeUndefined();
      expect(row.service_choice?.[0]?.service).not.toBe('SB-GLOBAL-MAIL');
      expect(row.service_choice?.[0]?.reason).toContain(
        'not applied: rule "consolidated mail abroad" (consolidated mail is not allowed: neither a main shipment to the hub (setting mail.main-shipment) nor free pickup (setting mail.free-pickup) is configured',
      );
      expect(fx.sandbox.state.shipmentsOf(fx.sandbox.state.getOrder(row.order_id!)).map((s) => s.service.code)).toEqual([row.service_choice![0]!.service]);
    }
  });

  it('books a single order as a parent of one, with the main shipment of the mail.main-shipment setting', async () => {
    const file = join(dir, 'single.json');
    writeFileSync(file, JSON.stringify(abroad(31)));
    const env = { ...fx.env, ...state, SHIPBOOK_MAIL_MAIN_SHIPMENT: 'fixtures/shipments/main-to-hub.yaml' };
    const r = await runShipbook(['book', file, '--rules', RULES, '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('service: ShipBook Global Mail Global Mail Consolidated 27.00 AUD: rule "consolidated mail abroad" prefers consolidated mail');
    expect(r.stderr).toContain(
      'consolidated mail: shipment create, combine into a parent order with the main shipment of the mail.main-shipment setting, accept',
    );
    const doc = JSON.parse(r.stdout) as { order: { id: string } };
    const shipments = fx.sandbox.state.shipmentsOf(fx.sandbox.state.getOrder(doc.order.id));
    expect(shipments.map((s) => s.service.code)).toEqual(['SB-GLOBAL-MAIL', 'SB-DOM-ROAD']);
    const again = await runShipbook(['book', file, '--rules', RULES], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(`this document was booked before (${file}): order ${doc.order.id}, processed`);
  });

  it("reads a CSV file's tags column for the rules' tags condition", async () => {
    const rules = join(dir, 'wholesale.yaml');
    writeFileSync(rules, 'rules:\n  - name: wholesale never by road\n    when: { tags: wholesale }\n    deny: { service: SB-DOM-ROAD }\n');
    // Order SO-10482 of the example sheet (service SB-DOM-ROAD), its first row tagged.
    const lines = readFileSync(join(ROOT, 'fixtures/csv/orders.csv'), 'utf8').split('\n').slice(0, 3);
    const csv = join(dir, 'tagged.csv');
    writeFileSync(csv, `${lines[0]},tags\n${lines[1]},wholesale;fragile\n${lines[2]},\n`);
    const before = fx.sandbox.state.orders.size;
    const r = await runShipbook(['book', csv, '--rules', rules], { env: { ...fx.env, ...state } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('the order names SB-DOM-ROAD (StarTrack), but rule "wholesale never by road" denies it');
    expect(fx.sandbox.state.orders.size).toBe(before);
  });
});
