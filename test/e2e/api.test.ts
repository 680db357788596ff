/**
 * `shipbook api <METHOD> <path>` against a sandbox on 127.0.0.1: one request typed by hand through
 * the client of every command (the key, redaction, --dry-run), its answer printed as it came; a
 * create order and an accept go through the ledger first, a repeat is refused, and `history` shows
 * them as "api (by hand)".
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runShipbook } from '../helpers/run.js';
import { E2E_API_KEY, useSandbox } from '../helpers/sandbox.js';

const fx = useSandbox();
const state = mkdtempSync(join(tmpdir(), 'shipbook-api-'));
afterAll(() => rmSync(state, { recursive: true, force: true }));
/** The sandbox, and one state directory: one ledger for every run of the file. */
const env = () => ({ ...fx.env, SHIPBOOK_STATE_DIR: state });

interface Envelope<T> {
  message: string;
  code: number;
  result: T;
  target?: { base_url: string };
}

describe('shipbook api', () => {
  it('POST quote/ with --input sends the body in its request wrapper and prints the envelope as it came', async () => {
    const r = await runShipbook(['api', 'POST', 'quote/', '--input', 'fixtures/api/quote.json', '--json'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as Envelope<{ services: Array<{ code: string; price: { total: unknown } }> }>;
    expect(doc.code).toBe(200);
    expect(doc.message).toBe('OK');
    expect(doc.result.services.map((s) => s.code)).toEqual(['SB-DOM-ROAD', 'SB-DOM-EXP', 'SB-AX-ROAD', 'SB-CP-STD', 'SB-AP-PARCEL', 'SB-ST-PREM']);
    // As the service sent it: prices are numbers on the wire (a quote command would print "20.90").
    expect(typeof doc.result.services[0]!.price.total).toBe('number');
    expect(doc.target?.base_url).toBe(fx.sandbox.url);
    const quoted = JSON.parse((await runShipbook(['quote', 'fixtures/quotes/syd-mel-single.yaml', '--json'], { env: env() })).stdout) as {
      services: Array<{ code: string; price: { total: string } }>;
    };
    // The same prices as quote shows (quote lists them cheapest first, api as the service sent them).
    const byCode = (list: Array<{ code: string; total: string }>) => Object.fromEntries(list.map((s) => [s.code, s.total]));
    expect(byCode(doc.result.services.map((s) => ({ code: s.code, total: Number(s.price.total).toFixed(2) })))).toEqual(
      byCode(quoted.services.map((s) => ({ code: s.code, total: s.price.total }))),
    );
  });

  it('GET quote/ takes its fields as query parameters', async () => {
    const fields = [
      'collection_country=AU',
      'collection_postcode=2000',
      'collection_city=Sydney',
      'delivery_country=AU',
      'delivery_postcode=3000',
      'delivery_city=Melbourne',
    ];
    const r = await runShipbook(
      [
        'api',
        'GET',
        'quote/',
        ...fields.flatMap((f) => ['-f', f]),
        '-F',
        'length=30',
        '-F',
        'width=20',
        '-F',
        'height=15',
        '-F',
        'weight=2.5',
        '-f',
        'unit=cm',
        '-f',
        'currency=AUD',
        '--jq',
        '.result.services[0].code',
      ],
      { env: env() },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('SB-DOM-ROAD\n');
  });

  it('creates an order, accepts it, refuses both repeats from the ledger (exit 2, nothing sent), and history shows them by hand', async () => {
    const before = fx.sandbox.state.orders.size;
    const created = await runShipbook(['api', 'POST', 'orders/', '--input', 'fixtures/api/order.json', '--jq', '.result.order.id'], { env: env() });
    expect(created.code, created.stderr).toBe(0);
    const orderId = created.stdout.trim();
    expect(orderId).toMatch(/^ORD-/);
    expect(fx.sandbox.state.orders.size).toBe(before + 1);

    const again = await runShipbook(['api', 'POST', 'orders/', '--input', 'fixtures/api/order.json'], { env: env() });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`not sent: this order was created before (order ${orderId})`);
    expect(again.stderr).toContain('shipbook api POST orders/ --input fixtures/api/order.json --again');
    expect(fx.sandbox.state.orders.size).toBe(before + 1);

    const accepted = await runShipbook(['api', 'PUT', `orders/${orderId}/accept/`, '-f', 'order[payment][type]=credit', '--json'], { env: env() });
    expect(accepted.code, accepted.stderr).toBe(0);
    const ack = JSON.parse(accepted.stdout) as Envelope<{ order: { id: string; status: string } }>;
    expect(ack.code).toBe(201);
    expect(ack.result.order).toMatchObject({ id: orderId, status: 'ACC' });

    const twice = await runShipbook(['api', 'PUT', `orders/${orderId}/accept/`, '-f', 'order[payment][type]=credit'], { env: env() });
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain(`not sent: order ${orderId} was accepted before`);

    const history = JSON.parse((await runShipbook(['history', '--json'], { env: env() })).stdout) as {
      history: Array<{ operation: string; step: string; order_id?: string; status: string }>;
    };
    const mine = history.history.filter((h) => h.order_id === orderId);
    expect(mine.map((h) => [h.operation, h.step, h.status])).toEqual([
      ['api (by hand)', 'create_order', 'done'],
      ['api (by hand)', 'accept', 'done'],
    ]);
    // order create of the same content is the same document in the ledger: not created again either.
    const body = JSON.parse((await runShipbook(['api', 'GET', `orders/${orderId}/`, '--json'], { env: env() })).stdout) as Envelope<{
      order: { status: string };
    }>;
    expect(body.result.order.status).toMatch(/ACC|processed/);
  });

  it('--again creates the document once more; --dry-run sends nothing and shows the key masked', async () => {
    const before = fx.sandbox.state.orders.size;
    const again = await runShipbook(['api', 'POST', 'orders/', '--input', 'fixtures/api/order.json', '--again', '--jq', '.result.order.id'], { env: env() });
    expect(again.code, again.stderr).toBe(0);
    expect(fx.sandbox.state.orders.size).toBe(before + 1);
    const dry = await runShipbook(['api', 'POST', 'orders/', '--input', 'fixtures/api/order.json', '--again', '--dry-run'], { env: env() });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(`POST ${fx.sandbox.url}orders/`);
    expect(dry.stdout).not.toContain(E2E_API_KEY);
    expect(fx.sandbox.state.orders.size).toBe(before + 1);
  });

  it('a cancel by hand is recorded and shown by history; an error answer exits 3 with the service message', async () => {
    const created = await runShipbook(['order', 'create', 'fixtures/orders/insured-bne-per.yaml', '--jq', '.order.id'], { env: env() });
    expect(created.code, created.stderr).toBe(0);
    const id = created.stdout.trim();
    const cancel = await runShipbook(['api', 'PUT', `orders/${id}/cancel/`, '--jq', '.result.order.status'], { env: env() });
    expect(cancel.code, cancel.stderr).toBe(0);
    const history = JSON.parse((await runShipbook(['history', '--json'], { env: env() })).stdout) as {
      history: Array<{ operation: string; step: string; order_id?: string }>;
    };
    expect(history.history.filter((h) => h.order_id === id).map((h) => [h.operation, h.step])).toContainEqual(['api (by hand)', 'cancel']);
    const missing = await runShipbook(['api', 'GET', 'orders/ORD-NOSUCH1/'], { env: env() });
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain('not found');
  });

  it('refuses an absolute URL, a body on a GET, a field without "=", and a create without order.shipments (exit 2, nothing sent)', async () => {
    const dir = mkdtempSync(join(state, 'bodies-'));
    writeFileSync(join(dir, 'empty.json'), '{"order": {}}');
    for (const args of [
      ['api', 'GET', 'https://api.example.com/orders/'],
      ['api', 'GET', 'quote/', '--input', 'fixtures/api/quote.json'],
      ['api', 'POST', 'quote/', '-f', 'currency'],
      ['api', 'POST', 'orders/', '--input', join(dir, 'empty.json')],
      ['api', 'TRACE', 'quote/'],
    ]) {
      const r = await runShipbook(args, { env: env() });
      expect(r.code, args.join(' ')).toBe(2);
    }
  });
});
