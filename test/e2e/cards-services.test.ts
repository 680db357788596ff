/**
 * Stored cards and service data end to end against the sandbox: `card list` and `service show`
 * (table, tsv, json), a card saved at acceptance appearing in the list (masked), an unknown and an
 * expired stored card refused at acceptance, `--payment stored_card` without `--card` and without
 * a terminal, `--collection-from-service` on shipment create and on a consolidated booking.
 * `card list` and the acceptance that saves a card run bin/shipbook.js; the rest runs in-process.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { runShipbook } from '../helpers/run.js';
import { runCli } from '../helpers/cli.js';
import { createOrder } from '../helpers/orders.js';

const fx = useSandbox();

describe('card list', () => {
  it('lists the seeded cards as tsv, json and a table, the expired one marked', async () => {
    const tsv = await runCli(['card', 'list'], { env: fx.env });
    expect(tsv.code, tsv.stderr).toBe(0);
    const lines = tsv.stdout
      .trim()
      .split('\n')
      .filter((l) => !l.startsWith('sandbox\t'));
    expect(lines).toContain('card_visa_4242\tVisa\t4242\t12/29\tMei Chen\tusable');
    expect(lines).toContain('card_visa_1881\tVisa\t1881\t01/25\tDaniel Brooks\texpired');
    expect(tsv.stderr).toContain('Pay with one (order accept, book): --payment stored_card --card card_visa_4242');

    const json = await runShipbook(['card', 'list', '--json'], { env: fx.env });
    const doc = JSON.parse(json.stdout) as { credit_cards: Array<Record<string, unknown>> };
    expect(doc.credit_cards[0]).toEqual({ id: 'card_visa_4242', brand: 'Visa', last_four: '4242', expire: '12/29', holder_name: 'Mei Chen', expired: false });
    expect(doc.credit_cards.find((c) => c.id === 'card_visa_1881')?.expired).toBe(true);

    const table = await runShipbook(['card', 'list', '--output', 'table'], { env: { ...fx.env, COLUMNS: '120' } });
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/id\s+│ brand\s+│ last four │ expiry │ holder/);
    expect(table.stdout).toMatch(/card_amex_0005\s+│ American Express │ 0005/);
  });

  it('shows a card saved with save: true at acceptance, masked: never the number or the CVV', async () => {
    const id = await createOrder(fx.env);
    const file = join(fx.home, 'save-card.yaml');
    writeFileSync(
      file,
      'order:\n  payment:\n    type: credit_card\n    credit_card:\n      number: "5555 5555 5555 4444"\n      cvv: "321"\n      holder_name: Priya Raman\n      expire: "11/31"\n      save: true\n',
    );
    const accepted = await runCli(['order', 'accept', id, '--payment', 'credit_card', '--payment-file', file], { env: fx.env });
    expect(accepted.code, accepted.stderr).toBe(0);
    const json = await runCli(['card', 'list', '--json'], { env: fx.env });
    const saved = (JSON.parse(json.stdout) as { credit_cards: Array<Record<string, unknown>> }).credit_cards.find((c) => c.last_four === '4444');
    expect(saved).toEqual({ id: 'card_saved_4444_1', brand: 'Mastercard', last_four: '4444', expire: '11/31', holder_name: 'Priya Raman', expired: false });
    expect(json.stdout).not.toContain('5555555555554444');
    expect(JSON.stringify(fx.sandbox.state.store.cards.values())).not.toMatch(/5555555555554444|321/);
    // The saved card pays the next order.
    const next = await createOrder(fx.env);
    const paid = await runShipbook(['order', 'accept', next, '--payment', 'stored_card', '--card', 'card_saved_4444_1'], { env: fx.env });
    expect(paid.code, paid.stderr).toBe(0);
  });
});

describe('stored cards at acceptance', () => {
  it('refuses an unknown stored card id with a 4xx naming it', async () => {
    const id = await createOrder(fx.env);
    const r = await runShipbook(['order', 'accept', id, '--payment', 'stored_card', '--card', 'card_nope_0000'], { env: fx.env });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('unknown stored card id card_nope_0000');
    expect(r.stderr).toContain('order.payment.credit_card');
  });

  it('refuses an expired stored card, naming it and its expiry', async () => {
    const id = await createOrder(fx.env);
    const r = await runShipbook(['order', 'accept', id, '--payment', 'stored_card', '--card', 'card_visa_1881', '--json'], { env: fx.env });
    expect(r.code).toBe(3);
    const body = JSON.parse(r.stdout) as { error: { message: string; status?: number } };
    expect(JSON.stringify(body)).toContain('stored card card_visa_1881 has expired (01/25)');
  });

  it('without a terminal, --payment stored_card without --card names shipbook card list (exit 2), and the hint works', async () => {
    const id = await createOrder(fx.env);
    const r = await runShipbook(['order', 'accept', id, '--payment', 'stored_card'], { env: fx.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('error: --payment stored_card needs --card <stored-card-id>');
    expect(r.stderr).toContain('hint: List the stored cards and their ids with: shipbook card list');
    const hint = await runShipbook(['card', 'list'], { env: fx.env });
    expect(hint.code).toBe(0);
  });
});

describe('service show and --collection-from-service', () => {
  it('shows the consolidated-mail service data under the shipment fields it fills (tsv, json, table)', async () => {
    const tsv = await runShipbook(['service', 'show', 'SB-GLOBAL-MAIL'], { env: fx.env });
    expect(tsv.code, tsv.stderr).toBe(0);
    expect(tsv.stdout).toContain('global_mail\ttrue\n');
    expect(tsv.stdout).toContain('collection_type\tdropoff\n');
    expect(tsv.stdout).toContain('collection.company\tShipBook Global Mail Hub\n');
    expect(tsv.stdout).toContain('collection.address_lines\t190 Coward Street\n');
    const json = JSON.parse((await runShipbook(['service', 'show', 'SB-GLOBAL-MAIL', '--json'], { env: fx.env })).stdout) as {
      service: Record<string, unknown>;
    };
    expect(json.service).toMatchObject({
      code: 'SB-GLOBAL-MAIL',
      global_mail: true,
      collection_data: { collection_type: 'dropoff', collection: { city: 'Mascot', postcode: '2020', country: 'AU' } },
    });
    const domestic = await runShipbook(['service', 'show', 'SB-DOM-ROAD', '--output', 'table'], { env: fx.env });
    expect(domestic.stdout).toMatch(/carrier\s+│ StarTrack/);
    expect(domestic.stdout).not.toContain('collection');
    const unknown = await runShipbook(['service', 'show', 'SB-NOPE'], { env: fx.env });
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toContain('unknown service code SB-NOPE');
  });

  it('fills the collection of shipment create from the service data, and refuses a file whose collection differs', async () => {
    const r = await runShipbook(['shipment', 'create', 'fixtures/shipments/au-nz-no-collection.yaml', '--collection-from-service', '--json'], { env: fx.env });
    expect(r.code, r.stderr).toBe(0);
    const id = (JSON.parse(r.stdout) as { shipment: { id: string } }).shipment.id;
    expect(fx.sandbox.state.shipments.get(id)?.request.collection).toMatchObject({ company: 'ShipBook Global Mail Hub', city: 'Mascot' });
    expect(fx.sandbox.state.shipments.get(id)?.request.collection_type).toBe('dropoff');
    // A file collected elsewhere (the warehouse) is refused, never silently replaced.
    const elsewhere = join(fx.home, 'collected-elsewhere.yaml');
    writeFileSync(elsewhere, readFileSync('fixtures/shipments/au-us-1.yaml', 'utf8').replace('city: Mascot', 'city: Alexandria'));
    const conflict = await runShipbook(['shipment', 'create', elsewhere, '--collection-from-service'], { env: fx.env });
    expect(conflict.code).toBe(2);
    // The position of the collection's value: its first member, the line after `collection:`.
    const line =
      readFileSync(elsewhere, 'utf8')
        .split('\n')
        .findIndex((l) => l.startsWith('  collection:')) + 2;
    expect(conflict.stderr).toContain(`${elsewhere}:${line}:5 shipment.collection already differs from the collection data of SB-GLOBAL-MAIL`);
    // Without the flag, the sandbox refuses it as the service would: the collection is the service's data.
    const refused = await runShipbook(['shipment', 'create', elsewhere], { env: fx.env });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain("the collection of a consolidated-mail shipment must be the service's collection data");
    expect(refused.stderr).toContain('shipbook service show SB-GLOBAL-MAIL');
  });

  it('books consolidated mail whose shipments took their collection from the service data', async () => {
    const r = await runShipbook(['book', 'fixtures/consolidated/collection-from-service.yaml', '--collection-from-service', '--poll', '100ms', '--json'], {
      env: fx.env,
    });
    expect(r.code, r.stderr).toBe(0);
    const order = (JSON.parse(r.stdout) as { order: { id: string; status: string } }).order;
    expect(order.status).toBe('processed');
    const stored = fx.sandbox.state.orders.get(order.id)!;
    expect(stored.childShipmentIds).toHaveLength(3);
    for (const child of stored.childShipmentIds!) {
      const s = fx.sandbox.state.shipments.get(child)!;
      expect(s.request.collection_type).toBe('dropoff');
      expect(s.request.collection).toMatchObject({ company: 'ShipBook Global Mail Hub', address_lines: ['190 Coward Street'], postcode: '2020' });
    }
    const order2 = await runShipbook(['book', 'fixtures/orders/domestic-syd-mel.yaml', '--collection-from-service'], { env: fx.env });
    expect(order2.code).toBe(2);
    expect(order2.stderr).toContain('--collection-from-service is for consolidated mail');
  });
});
