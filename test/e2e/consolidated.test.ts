/**
 * End-to-end, in-process: consolidated mail against sandboxes on 127.0.0.1 —
 * shipment create, shipment combine, accepting the parent, `book` for a consolidated file, and
 * the errors on the way.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { readCents } from '../../src/schema/money.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { waitFor } from '../sandbox/helpers.js';
import { runShipbook } from '../helpers/run.js';
import { makeHome } from '../helpers/cli.js';

let sandbox: Sandbox;
let freePickup: Sandbox;
let env: Record<string, string>;
let freeEnv: Record<string, string>;
const home = makeHome();
const scratch = mkdtempSync(join(tmpdir(), 'shipbook-consolidated-'));

beforeAll(async () => {
  [sandbox, freePickup] = await Promise.all([startSandbox({ processingDelayMs: 100 }), startSandbox({ processingDelayMs: 100, freePickup: true })]);
  const base = { SHIPBOOK_API_KEY: 'sk_test_e2e_0123456789', HOME: home.home, XDG_CONFIG_HOME: home.home };
  env = { ...base, SHIPBOOK_BASE_URL: sandbox.url };
  freeEnv = { ...base, SHIPBOOK_BASE_URL: freePickup.url };
});
afterAll(async () => {
  await Promise.all([sandbox.close(), freePickup.close()]);
  home.cleanup();
  rmSync(scratch, { recursive: true, force: true });
});

/** Exact cents of a displayed or wire amount (`1,234.56`, `"41.50"`). */
function cents(v: string | number | undefined): number {
  const c = readCents(typeof v === 'string' ? v.replace(/,/g, '') : v);
  if (c === undefined) throw new Error(`not an amount: ${String(v)}`);
  return c;
}

/** Writes a variant of a fixture into the scratch directory and returns its path. */
function variant(fixture: string, name: string, change: (doc: Record<string, any>) => void): string {
  const doc = parse(readFileSync(fixture, 'utf8')) as Record<string, any>;
  change(doc);
  const path = join(scratch, name);
  writeFileSync(path, stringify(doc));
  return path;
}

/** `shipment create <file> --json` → the shipment. */
async function createShipment(file: string, e = env): Promise<{ id: string; status: string; service: { price: Record<string, string> } }> {
  const r = await runShipbook(['shipment', 'create', file, '--json'], { env: e });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout).shipment;
}

/** The tab-separated rows of stdout, split into cells. */
const rows = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((l) => l.split('\t'));

describe('shipment create', () => {
  it('prints the shipment id and its exact price', async () => {
    const r = await runShipbook(['shipment', 'create', 'fixtures/shipments/au-us-1.yaml'], { env });
    expect(r.code, r.stderr).toBe(0);
    const lines = rows(r.stdout);
    expect(lines[0]).toEqual(['shipment', expect.stringMatching(/^SHP-[A-Z0-9]{8}$/), 'pending']);
    expect(Object.fromEntries(lines.filter((l) => l.length === 2).map(([k, v]) => [k, v]))).toEqual({
      amount: '41.50',
      insurance: '0.00',
      GST: '0.00',
      total: '41.50',
    });
    // The next step in words, with this shipment's id; no command with a placeholder to paste.
    expect(r.stderr).toContain(`combine them all with "shipbook shipment combine", giving ${lines[0]![1]}, their ids`);
    expect(r.stderr).not.toContain('<other shipment ids>');
  });

  it("refuses a domestic service code with the sandbox's message (exit 3)", async () => {
    const file = variant('fixtures/shipments/au-us-1.yaml', 'domestic-code.yaml', (d) => (d.shipment.service.code = 'SB-DOM-ROAD'));
    const r = await runShipbook(['shipment', 'create', file], { env });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('error: shipment create is only for the consolidated-mail service (SB-GLOBAL-MAIL); use order create for SB-DOM-ROAD');
    expect(r.stderr).toMatch(/shipment\.service\.code +SB-DOM-ROAD is not a consolidated-mail service/);
    expect(r.stdout).toBe('');
  });

  it('warns about a 40 kg package like order create does, and still creates the shipment', async () => {
    const file = variant('fixtures/shipments/au-us-1.yaml', 'heavy.yaml', (d) => (d.shipment.packages[0].weight = 40));
    const r = await runShipbook(['shipment', 'create', file], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/heavy\.yaml:\d+:\d+ +shipment\.packages\[0\]\.weight +warning: over \d+ kg for one package \(got 40 kg\)/);
    expect(rows(r.stdout)[0]![0]).toBe('shipment');
  });

  it('refuses a shipment that stays in Australia before sending anything (exit 2, file:line and field)', async () => {
    const file = variant('fixtures/shipments/au-us-1.yaml', 'domestic-destination.yaml', (d) => {
      d.shipment.delivery.country = 'AU';
    });
    const before = sandbox.state.shipments.size;
    const r = await runShipbook(['shipment', 'create', file], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /domestic-destination\.yaml:\d+:\d+ +shipment\.delivery\.country +create shipment \(consolidated mail\) is only for shipments leaving Australia/,
    );
    expect(sandbox.state.shipments.size).toBe(before);
  });
});

describe('shipment combine and order accept', () => {
  it('warns about a heavy main shipment package, pointing at its line, and still combines', async () => {
    const a = await createShipment('fixtures/shipments/au-us-1.yaml');
    const heavy = variant('fixtures/shipments/main-to-hub.yaml', 'heavy-main.yaml', (d) => (d.main_shipment.packages[0].weight = 40));
    const r = await runShipbook(['shipment', 'combine', a.id, '--main', heavy], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/heavy-main\.yaml:\d+:\d+ +main_shipment\.packages\[0\]\.weight +warning: over \d+ kg for one package \(got 40 kg\)/);
  });

  it('creates two shipments, combines them with the main shipment, accepts the parent and books every shipment', async () => {
    const [a, b] = await Promise.all([createShipment('fixtures/shipments/au-us-1.yaml'), createShipment('fixtures/shipments/au-gb-2.yaml')]);
    const r = await runShipbook(['shipment', 'combine', a.id, b.id, '--main', 'fixtures/shipments/main-to-hub.yaml'], { env });
    expect(r.code, r.stderr).toBe(0);
    const lines = rows(r.stdout);
    const [heading] = lines;
    expect(heading).toEqual(['order', expect.stringMatching(/^ORD-/), 'pending']);
    const parentId = heading![1]!;
    const children = lines.filter((l) => l[0] === 'child');
    const main = lines.filter((l) => l[0] === 'main');
    expect(children.map((l) => l[1])).toEqual([a.id, b.id]);
    expect(children.map((l) => l[4])).toEqual(['New York, US', 'London, GB']);
    expect(main).toHaveLength(1);
    expect(main[0]!.slice(2, 5)).toEqual(['KC-MAIN-1201', 'Road Express', 'Mascot, AU']);
    const price = Object.fromEntries(lines.filter((l) => l.length === 2).map(([k, v]) => [k!, cents(v)]));
    expect(price['children (sum)']).toBe(cents(a.service.price.total) + cents(b.service.price.total));
    expect(price['children (sum)']).toBe(children.reduce((sum, l) => sum + cents(l[7]), 0));
    expect(price['main shipment']).toBe(cents(main[0]![7]));
    expect(price.total).toBe(price['children (sum)']! + price['main shipment']!);
    expect(price.total).toBe(price.amount! + price.insurance! + price.GST!);
    expect(r.stderr).toContain(`shipbook order accept ${parentId}`);

    const accepted = await runShipbook(['order', 'accept', parentId, '--payment', 'credit', '--json'], { env });
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(JSON.parse(accepted.stdout).order.status).toBe('ACC');

    const processed = await waitFor(() => (sandbox.state.findOrder(parentId)?.status === 'processed' ? sandbox.state.findOrder(parentId) : undefined));
    const shipments = sandbox.state.shipmentsOf(processed);
    expect(shipments.map((s) => s.id)).toEqual([a.id, b.id, main[0]![1]]);
    for (const s of shipments) expect(s.trackingNumber).toMatch(/^SBX\d{10}$/);
  });

  it("takes the main shipment and ids from a combine file; ids given as arguments replace the file's", async () => {
    const [a, b] = await Promise.all([createShipment('fixtures/shipments/au-us-1.yaml'), createShipment('fixtures/shipments/au-gb-2.yaml')]);
    const r = await runShipbook(['shipment', 'combine', '--file', 'fixtures/combine/two-parcels-to-hub.yaml', a.id, b.id, '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    const { order } = JSON.parse(r.stdout);
    expect(order.status).toBe('NEW');
    expect(order.shipments.map((s: { id: string }) => s.id).slice(0, 2)).toEqual([a.id, b.id]);
    expect(order.shipments[2].transient_id).toBe('KC-MAIN-1203');
    expect(cents(order.price.summary_child_shipments)).toBe(cents(a.service.price.total) + cents(b.service.price.total));

    // Without arguments the file's own (example) ids are sent, and the service does not know them.
    const fromFile = await runShipbook(['shipment', 'combine', '--file', 'fixtures/combine/two-parcels-to-hub.yaml'], { env });
    expect(fromFile.code).toBe(3);
    expect(fromFile.stderr).toContain('error: shipments SHP-EXAMPLE1, SHP-EXAMPLE2 not found');

    const ownFile = join(scratch, 'combine-own-ids.yaml');
    const c = await createShipment('fixtures/shipments/au-jp-1.yaml');
    writeFileSync(ownFile, stringify({ ...parse(readFileSync('fixtures/combine/two-parcels-to-hub.yaml', 'utf8')), shipments: [c.id] }));
    const own = await runShipbook(['shipment', 'combine', '--file', ownFile, '--json'], { env });
    expect(own.code, own.stderr).toBe(0);
    expect(JSON.parse(own.stdout).order.shipments[0].id).toBe(c.id);
  });

  it('names an unknown shipment id (exit 3)', async () => {
    const a = await createShipment('fixtures/shipments/au-us-1.yaml');
    const r = await runShipbook(['shipment', 'combine', a.id, 'SHP-UNKNOWN1', '--main', 'fixtures/shipments/main-to-hub.yaml'], { env });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('error: shipment SHP-UNKNOWN1 not found');
    expect(r.stderr).toMatch(/shipments\[1\] +unknown shipment id SHP-UNKNOWN1/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout).toBe('');
  });

  it('refuses to combine a shipment twice, naming the parent order (exit 3, 409)', async () => {
    const a = await createShipment('fixtures/shipments/au-us-1.yaml');
    const first = await runShipbook(['shipment', 'combine', a.id, '--main', 'fixtures/shipments/main-to-hub.yaml', '--json'], { env });
    expect(first.code, first.stderr).toBe(0);
    const parentId = JSON.parse(first.stdout).order.id as string;
    const r = await runShipbook(['shipment', 'combine', a.id, '--main', 'fixtures/shipments/main-to-hub.yaml', '--json'], { env });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`error: shipment ${a.id} is already combined into parent order ${parentId} (pending)`);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'api_error', status: 409, exit_code: 3 });
  });

  it('never accepts the parent twice: the second accept says nothing was accepted (exit 7 while accepted, 0 once processed)', async () => {
    const a = await createShipment('fixtures/shipments/au-jp-1.yaml');
    const combined = await runShipbook(['shipment', 'combine', a.id, '--main', 'fixtures/shipments/main-to-hub.yaml', '--json'], { env });
    const parentId = JSON.parse(combined.stdout).order.id as string;
    const first = await runShipbook(['order', 'accept', parentId, '--payment', 'credit'], { env });
    expect(first.code, first.stderr).toBe(0);
    const again = await runShipbook(['order', 'accept', parentId, '--payment', 'credit'], { env });
    const word = /was already (accepted|processed); nothing was accepted/.exec(again.stderr)?.[1];
    expect(word, again.stderr).toBeDefined();
    expect(again.stderr).toContain(`order ${parentId} was already ${word}; nothing was accepted (nothing was paid now)`);
    expect(again.code).toBe(word === 'processed' ? 0 : 7);
  });

  it('combines without --main when the account has free pickup, and refuses that otherwise', async () => {
    const [a, b] = await Promise.all([createShipment('fixtures/shipments/au-us-1.yaml', freeEnv), createShipment('fixtures/shipments/au-jp-1.yaml', freeEnv)]);
    const r = await runShipbook(['shipment', 'combine', a.id, b.id], { env: freeEnv });
    expect(r.code, r.stderr).toBe(0);
    const lines = rows(r.stdout);
    expect(lines.filter((l) => l[0] === 'child').map((l) => l[1])).toEqual([a.id, b.id]);
    expect(lines.filter((l) => l[0] === 'main')).toEqual([]);
    const price = Object.fromEntries(lines.filter((l) => l.length === 2));
    expect(price.total).toBe(price['children (sum)']);

    const c = await createShipment('fixtures/shipments/au-us-1.yaml');
    const refused = await runShipbook(['shipment', 'combine', c.id], { env });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('error: invalid request: main_shipment is required (this account does not have the free-pickup option)');
    expect(refused.stderr).toContain('hint: Give the shipment that carries the parcels to the hub with --main <file>');
  });

  it('refuses an id given twice and a missing id before sending anything (exit 2)', async () => {
    const twice = await runShipbook(['shipment', 'combine', 'SHP-A', 'SHP-A', '--main', 'fixtures/shipments/main-to-hub.yaml'], { env });
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('shipment id SHP-A is given twice');
    const none = await runShipbook(['shipment', 'combine', '--main', 'fixtures/shipments/main-to-hub.yaml'], { env });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no shipment ids to combine');
  });
});

describe('book a consolidated file', () => {
  it('creates three shipments, combines, accepts and waits: every child and the main shipment get a tracking number', async () => {
    const r = await runShipbook(['book', 'fixtures/consolidated/three-parcels.yaml'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.match(/✔ pending +shipment SHP-\w+ created \(\d\/3\)/g)).toHaveLength(3);
    expect(r.stderr).toMatch(/pending +parent order ORD-\w+ combined: 3 shipment\(s\) \+ main shipment SHP-\w+/);
    expect(r.stderr).toMatch(/accepted +order ORD-\w+ accepted/);
    expect(r.stderr).toMatch(/processed +order ORD-\w+ booked/);

    // Stdout holds one order, the final one, so a script reads one line: `awk '$1=="order"{print $3}'` gives processed.
    const lines = rows(r.stdout);
    const headings = lines.filter((l) => l[0] === 'order');
    expect(headings.map((l) => l[2])).toEqual(['processed']);
    const parentId = headings[0]![1]!;
    const finalBlock = lines.slice(lines.indexOf(headings[0]!) + 1).filter((l) => l[0] === 'child' || l[0] === 'main');
    expect(finalBlock.map((l) => l[0])).toEqual(['child', 'child', 'child', 'main']);
    expect(finalBlock.map((l) => l[2])).toEqual(['KC-US-4481', 'KC-GB-4482', 'KC-JP-4483', 'KC-MAIN-1202']);
    for (const l of finalBlock) {
      expect(l[5]).toBe('processed');
      expect(l[6]).toMatch(/^SBX\d{10}$/);
    }
    // The price block: summary of the children to the cent.
    const summary = cents(lines.find((l) => l[0] === 'children (sum)')![1]);
    expect(summary).toBe(finalBlock.filter((l) => l[0] === 'child').reduce((sum, l) => sum + cents(l[7]), 0));
    expect(sandbox.state.findOrder(parentId)!.status).toBe('processed');
  });

  it("prints the processed parent as JSON with --json; summary_child_shipments is the children's sum to the cent", async () => {
    const r = await runShipbook(['book', 'fixtures/consolidated/port-melbourne-nz-jp.yaml', '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    const { order } = JSON.parse(r.stdout);
    expect(order.status).toBe('processed');
    expect(order.shipments).toHaveLength(3);
    for (const s of order.shipments) expect(s.tracking_number).toMatch(/^SBX\d{10}$/);
    const [nz, jp, main] = order.shipments;
    expect([nz.delivery.country, jp.delivery.country, main.delivery.city]).toEqual(['NZ', 'JP', 'Mascot']);
    expect(cents(order.price.summary_child_shipments)).toBe(cents(nz.service.price.total) + cents(jp.service.price.total));
    expect(cents(order.price.total)).toBe(cents(order.price.summary_child_shipments) + cents(main.service.price.total));
  });

  it('books a file without a main shipment on an account with free pickup', async () => {
    const r = await runShipbook(['book', 'fixtures/consolidated/eagle-farm-free-pickup.yaml', '--json'], { env: freeEnv });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('(free pickup, no main shipment)');
    const { order } = JSON.parse(r.stdout);
    expect(order.shipments.map((s: { transient_id: string; tracking_number: string }) => [s.transient_id, s.tracking_number.slice(0, 3)])).toEqual([
      ['OT-NZ-2210', 'SBX'],
      ['OT-US-2211', 'SBX'],
    ]);
  });

  it('reports the created shipments and the combine command when combining fails, and that command then works', async () => {
    const broken = variant('fixtures/consolidated/three-parcels.yaml', 'main-abroad.yaml', (d) => {
      d.main_shipment.delivery = d.shipments[0].delivery;
    });
    const r = await runShipbook(['book', broken], { env });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/main_shipment\.delivery\.country +the main shipment carries the parcels to the consolidation hub in Australia/);
    const hint = /combine them with: (shipbook shipment combine (SHP-\w+) (SHP-\w+) (SHP-\w+) --main (\S+))/.exec(r.stderr);
    expect(hint, r.stderr).not.toBeNull();
    expect(hint![5]).toBe(broken);
    for (const id of hint!.slice(2, 5)) expect(sandbox.state.shipments.get(id)!.orderId).toBeUndefined();

    const resumed = await runShipbook(['shipment', 'combine', ...hint!.slice(2, 5), '--main', 'fixtures/consolidated/three-parcels.yaml'], { env });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(
      rows(resumed.stdout)
        .filter((l) => l[0] === 'child')
        .map((l) => l[1]),
    ).toEqual(hint!.slice(2, 5));
  });

  it('reports the shipments already created when a later one is refused', async () => {
    const broken = variant('fixtures/consolidated/three-parcels.yaml', 'second-domestic-code.yaml', (d) => {
      d.shipments[1].service = { code: 'SB-INTL-EXP' };
    });
    const r = await runShipbook(['book', broken], { env });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('use order create for SB-INTL-EXP');
    expect(r.stderr).toMatch(/hint: Shipment SHP-\w+ \(1 of 3\) was created and is not combined yet \(shipments\[1\] failed\)/);
    expect(r.stderr).toMatch(/shipbook shipment combine SHP-\w+ <ids of the other shipments> --main /);
  });

  it('reports the pending parent order and the accept command when the payment is declined', async () => {
    const declined = variant('fixtures/payments/credit-card.yaml', 'declined-card.yaml', (d) => (d.order.payment.credit_card.number = '4000 0000 0000 0002'));
    const r = await runShipbook(['book', 'fixtures/consolidated/port-melbourne-nz-jp.yaml', '--payment-file', declined], { env });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('card declined');
    const hint = /hint: Parent order (ORD-\w+) \(shipments SHP-\w+, SHP-\w+\) was created and is still pending: accept it with "shipbook order accept \1"/.exec(
      r.stderr,
    );
    expect(hint, r.stderr).not.toBeNull();
    expect(sandbox.state.findOrder(hint![1]!)!.status).toBe('new');
    expect(r.stdout + r.stderr).not.toContain('0000 0002');
  });

  it('validates the whole file before creating anything: lithium optional, signature checked by its bytes (exit 2)', async () => {
    const broken = variant('fixtures/consolidated/three-parcels.yaml', 'bad-signature.yaml', (d) => {
      d.main_shipment.options = { digital_signature: Buffer.from('GIF89a-not-a-png').toString('base64') };
      d.shipments[2].service.options = ['insurance'];
    });
    const before = sandbox.state.shipments.size;
    const r = await runShipbook(['book', broken], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bad-signature\.yaml:\d+:\d+ +shipments\[2\]\.service\.options +expected an object such as \{insurance: true\}/);
    expect(r.stderr).toMatch(/bad-signature\.yaml:\d+:\d+ +main_shipment\.options\.digital_signature +must be a BASE64-encoded PNG or JPG image/);
    expect(sandbox.state.shipments.size).toBe(before);
  });
});
