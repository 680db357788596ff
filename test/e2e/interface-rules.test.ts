/**
 * The interface's rules as the commands keep them: quoting by GET for a single package only, the
 * payment of accept order (type one of three, card details where they are needed), the digital
 * signature, send_documents, account_number and the callback URL, in accept files that validate
 * checks and in the flags that order accept sends.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runShipbook } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const fx = useSandbox({ processingDelayMs: 20 });
const dir = mkdtempSync(join(tmpdir(), 'shipbook-rules-'));
const file = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAABAAAAAGCAAAAADvF0E7AAAAGUlEQVR42mP4jwYYsAkwIDOAmAEJYFeBCgAVMk2zgTvzGgAAAABJRU5ErkJggg==';

async function pendingOrder(): Promise<string> {
  const r = await runShipbook(['order', 'create', 'fixtures/orders/domestic-syd-mel.yaml', '--json'], { env: fx.env });
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { order: { id: string } }).order.id;
}

describe('quote --get: GET /quote/ for a single package only', () => {
  it('quotes one package by GET, and refuses a quote of several packages before anything is sent (exit 2)', async () => {
    const one = await runShipbook(['quote', 'fixtures/quotes/syd-mel-single.yaml', '--get', '--json'], { env: fx.env });
    expect(one.code, one.stderr).toBe(0);
    expect((JSON.parse(one.stdout) as { services: unknown[] }).services.length).toBeGreaterThan(0);
    const many = await runShipbook(['quote', 'fixtures/quotes/syd-per-multi.yaml', '--get'], { env: fx.env });
    expect(many.code).toBe(2);
    expect(many.stderr).toContain('--get quotes exactly one package (this quote has 3)');
  });
});

describe('accept files: validate says what the service would refuse, at the line', () => {
  it('payment required, payment.type required and one of credit_card, stored_card, credit', async () => {
    const noType = file('no-type.yaml', 'order:\n  payment: {}\n');
    const r1 = await runShipbook(['validate', noType], { env: fx.env });
    expect(r1.code).toBe(2);
    expect(r1.stdout).toMatch(/no-type\.yaml:2:\d+\torder\.payment\.type\terror\trequired/);
    const cash = file('cash.yaml', 'order:\n  payment:\n    type: cash\n');
    const r2 = await runShipbook(['validate', cash], { env: fx.env });
    expect(r2.code).toBe(2);
    expect(r2.stdout).toContain(`${cash}:3:11\torder.payment.type\terror\tmust be one of credit_card, stored_card, credit (got "cash")`);
    const ok = await runShipbook(['validate', 'fixtures/payments/credit.yaml'], { env: fx.env });
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
  });

  it('card details required for credit_card (each of them) and a stored card id for stored_card', async () => {
    const noCard = file('no-card.yaml', 'order:\n  payment:\n    type: credit_card\n');
    const r1 = await runShipbook(['validate', noCard], { env: fx.env });
    expect(r1.code).toBe(2);
    expect(r1.stdout).toContain(`${noCard}:3:5\torder.payment.credit_card\terror\trequired for credit_card`);
    const partial = file('partial-card.yaml', 'order:\n  payment:\n    type: credit_card\n    credit_card:\n      number: "4111 1111 1111 1111"\n');
    const r2 = await runShipbook(['validate', partial], { env: fx.env });
    expect(r2.code).toBe(2);
    for (const field of ['cvv', 'holder_name', 'expire']) expect(r2.stdout).toContain(`order.payment.credit_card.${field}\terror\trequired`);
    const noStored = file('no-stored.yaml', 'order:\n  payment:\n    type: stored_card\n');
    const r3 = await runShipbook(['validate', noStored], { env: fx.env });
    expect(r3.code).toBe(2);
    expect(r3.stdout).toContain(`${noStored}:3:5\torder.payment.credit_card\terror\trequired for stored_card: the stored card id`);
  });

  it('the digital signature, send_documents, account_number and the callback URL', async () => {
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1').toString('base64');
    const bad = file(
      'bad-options.yaml',
      `order:\n  payment:\n    type: credit\n  options:\n    digital_signature: ${gif}\noptions:\n  send_documents: "yes"\n  account_number: [1]\ncallback: ftp://hooks.example.com/sb\n`,
    );
    const r = await runShipbook(['validate', bad], { env: fx.env });
    expect(r.code).toBe(2);
    expect(r.stdout).toContain(`${bad}:5:24\torder.options.digital_signature\terror\tmust be a BASE64-encoded PNG or JPG image`);
    expect(r.stdout).toContain(`${bad}:7:19\toptions.send_documents\terror\texpected true or false`);
    expect(r.stdout).toMatch(/bad-options\.yaml:8:\d+\toptions\.account_number\terror\t/);
    expect(r.stdout).toContain(`${bad}:9:11\tcallback\terror\texpected an http(s) URL`);
    const good = file(
      'good-options.yaml',
      `order:\n  payment:\n    type: credit\n  options:\n    digital_signature: ${PNG}\noptions:\n  send_documents: true\n  account_number: 12345\ncallback: https://hooks.example.com/sb\n`,
    );
    const g = await runShipbook(['validate', good], { env: fx.env });
    expect(g.code, g.stdout + g.stderr).toBe(0);
  });
});

describe('order accept sends what the interface names, and the service records it', () => {
  it('--send-documents, --account-number and --callback reach the service; a signature in --payment-file too', async () => {
    const id = await pendingOrder();
    const payment = file('signed.yaml', `order:\n  payment:\n    type: credit\n  options:\n    digital_signature: ${PNG}\n`);
    const r = await runShipbook(
      ['order', 'accept', id, '--payment-file', payment, '--send-documents', '--account-number', '0042', '--callback', 'https://hooks.example.com/sb'],
      { env: fx.env },
    );
    expect(r.code, r.stderr).toBe(0);
    const order = fx.sandbox.state.getOrder(id);
    expect(order.acceptOptions).toEqual({ send_documents: true, account_number: '0042' });
    expect(order.callback).toBe('https://hooks.example.com/sb');
  });

  it('a callback that is not an http(s) URL is refused before anything is sent (exit 2), and the order stays pending', async () => {
    const id = await pendingOrder();
    const r = await runShipbook(['order', 'accept', id, '--payment', 'credit', '--callback', 'ftp://hooks.example.com/sb'], { env: fx.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('expected an http(s) URL');
    expect(fx.sandbox.state.getOrder(id).status).toBe('new');
  });
});

describe('rules shipbook adds, said in docs/assumptions.md, kept alike by validate, the commands and the sandbox', () => {
  const assumptions = readFileSync('docs/assumptions.md', 'utf8');

  it('a card holder name at most 100 characters: validate refuses 101 at its line, as order accept does before sending', async () => {
    expect(assumptions).toMatch(/holder_name` at most \*\*100 characters\*\*/);
    const long = file(
      'long-holder.yaml',
      `order:\n  payment:\n    type: credit_card\n    credit_card:\n      number: "4111 1111 1111 1111"\n      cvv: "123"\n      holder_name: ${'P'.repeat(101)}\n      expire: "08/29"\n`,
    );
    const v = await runShipbook(['validate', long], { env: fx.env });
    expect(v.code).toBe(2);
    expect(v.stdout).toContain(`${long}:7:20\torder.payment.credit_card.holder_name\terror\tat most 100 characters`);
    const id = await pendingOrder();
    const a = await runShipbook(['order', 'accept', id, '--payment-file', long], { env: fx.env });
    expect(a.code).toBe(2);
    expect(a.stderr).toContain('at most 100 characters');
    expect(fx.sandbox.state.getOrder(id).status).toBe('new');
  });

  it('order.id in a payment file: validate passes it (it knows no order), order accept and book compare it before anything is sent', async () => {
    expect(assumptions).toMatch(/`order\.id` in the accept body.*`validate` checks a file alone/);
    const named = file('named.yaml', 'order:\n  id: ORD-NOTTHIS1\n  payment:\n    type: credit\n');
    expect((await runShipbook(['validate', named], { env: fx.env })).code).toBe(0);
    const id = await pendingOrder();
    const a = await runShipbook(['order', 'accept', id, '--payment-file', named], { env: fx.env });
    expect(a.code).toBe(2);
    expect(a.stderr).toContain(`${named}: order.id is ORD-NOTTHIS1 but the order being accepted is ${id}; nothing was sent`);
    expect(fx.sandbox.state.getOrder(id).status).toBe('new');
    const before = fx.sandbox.state.allOrders().length;
    const b = await runShipbook(['book', 'fixtures/orders/domestic-syd-mel.yaml', '--payment-file', named, '--poll', '50ms'], { env: fx.env });
    expect(b.code).toBe(2);
    expect(b.stderr).toContain(`${named}: order.id is ORD-NOTTHIS1, but book creates a new order whose id is not known yet; nothing was sent`);
    expect(b.stderr).not.toContain('ORD-CHECK');
    expect(fx.sandbox.state.allOrders().length).toBe(before);
  });

  it('at most 3 address lines in a shipment and a main shipment too, not only in an order', async () => {
    expect(assumptions).toMatch(/\*\*At most 3 address lines\*\* is a rule of the address object itself/);
    expect(assumptions).not.toMatch(/at most 3 address lines and \*\*at least 1 customs item\*\* apply to orders only/);
    const shipment = readFileSync('fixtures/shipments/au-us-1.yaml', 'utf8').replace(
      '      - 245 West 34th Street\n',
      '      - 245 West 34th Street\n      - Floor 2\n      - Door B\n',
    );
    const s = await runShipbook(['validate', file('four-lines.yaml', shipment)], { env: fx.env });
    expect(s.code).toBe(2);
    expect(s.stdout).toMatch(/four-lines\.yaml:\d+:\d+\tshipment\.delivery\.address_lines\[3\]\terror\tat most 3 address lines \(got 4\)/);
    const combine = readFileSync('fixtures/combine/two-parcels-to-hub.yaml', 'utf8').replace(
      "[Unit 7, 44 O'Riordan Street]",
      "[Unit 7, 44 O'Riordan Street, Gate 2, Dock 3]",
    );
    const c = await runShipbook(['validate', file('four-lines-main.yaml', combine)], { env: fx.env });
    expect(c.code).toBe(2);
    expect(c.stdout).toMatch(/four-lines-main\.yaml:\d+:\d+\tmain_shipment\.collection\.address_lines\[3\]\terror\tat most 3 address lines \(got 4\)/);
  });
});
