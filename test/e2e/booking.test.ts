/** End-to-end, in-process: quote, order create, order accept and book against a sandbox on 127.0.0.1. */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { useSandbox } from '../helpers/sandbox.js';
import { runShipbook } from '../helpers/run.js';

// The shared sandbox start (test/helpers/sandbox.ts): private home, key, base URL.
const fixture = useSandbox({ processingDelayMs: 100 });
let sandbox: Sandbox;
let env: Record<string, string>;
beforeAll(() => {
  ({ sandbox, env } = fixture);
});

describe('quote', () => {
  it('prices a single carton from Sydney to Melbourne, one tab-separated line per service, cheapest first', async () => {
    const r = await runShipbook(['quote', 'fixtures/quotes/syd-mel-single.yaml'], { env });
    // stderr names the service, and the day a booking made now would be collected, and nothing else
    expect(r.stderr).toMatch(
      new RegExp(
        `^\\[service\\] ${sandbox.url.replace(/[.]/g, '\\.')} \\(from SHIPBOOK_BASE_URL, key \\*{4}6789\\)\nPickup: booked now, it is collected on the next collection day, \\w+ \\d+ \\w+ \\(\\d{4}-\\d{2}-\\d{2}\\); book with --pickup-date next\n$`,
      ),
    );
    expect(r.code).toBe(0);
    const rows = r.stdout
      .trim()
      .split('\n')
      .map((l) => l.split('\t'));
    const codes = rows.map((row) => row[0]);
    expect(codes).toEqual(expect.arrayContaining(['SB-DOM-ROAD', 'SB-DOM-EXP']));
    expect(codes).not.toContain('SB-INTL-EXP');
    const totals = rows.map((row) => Number(row[7]!.replace(/,/g, '')));
    expect(totals).toEqual([...totals].sort((a, b) => a - b));
    for (const row of rows) expect(row[7]).toMatch(/^\d{1,3}(,\d{3})*\.\d{2}$/);
  });

  it('prices from flags the same as from the file', async () => {
    const fromFile = await runShipbook(['quote', 'fixtures/quotes/syd-mel-single.yaml', '--json'], { env });
    const fromFlags = await runShipbook(['quote', '--from', 'AU:2000:Sydney', '--to', 'AU:3000:Melbourne', '--package', '30x20x15cm:2.5kg', '--json'], { env });
    expect(fromFlags.code).toBe(0);
    expect(JSON.parse(fromFlags.stdout)).toEqual(JSON.parse(fromFile.stdout));
  });

  it('prints JSON with exact decimal-string prices and GST only on domestic services', async () => {
    const r = await runShipbook(['quote', 'fixtures/quotes/mel-nyc-imperial.json', '--json'], { env });
    expect(r.code).toBe(0);
    const { services } = JSON.parse(r.stdout) as { services: Array<{ code: string; global_mail: boolean; price: Record<string, string> }> };
    expect(services.length).toBeGreaterThanOrEqual(3);
    expect(services.some((s) => s.global_mail)).toBe(true);
    for (const s of services) {
      expect(s.price.total).toMatch(/^\d+\.\d{2}$/);
      expect(s.price.gst).toBe('0.00');
    }
  });

  it('uses GET /quote/ for a single package with --get', async () => {
    const r = await runShipbook(['quote', 'fixtures/quotes/syd-mel-single.yaml', '--get', '--json'], { env });
    const post = await runShipbook(['quote', 'fixtures/quotes/syd-mel-single.yaml', '--json'], { env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(JSON.parse(post.stdout));
  });

  it('rejects mixed units in --package with exit code 2 and names the flag', async () => {
    const r = await runShipbook(['quote', '--from', 'AU:2000:Sydney', '--to', 'AU:3000:Melbourne', '--package', '30x20x15cm:5lb'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--package');
    expect(r.stderr).toContain('cm goes with kg');
    expect(r.stdout).toBe('');
  });
});

describe('order create and accept', () => {
  it('creates a pending order with its exact price, then accepts it with credit', async () => {
    const created = await runShipbook(['order', 'create', 'fixtures/orders/domestic-syd-mel.yaml', '--json'], { env });
    expect(created.code).toBe(0);
    const { order } = JSON.parse(created.stdout) as {
      order: { id: string; status: string; price: Record<string, string>; shipments: Array<{ tracking_number: string | null }> };
    };
    expect(order.id).toMatch(/^ORD-/);
    expect(order.status.toLowerCase()).toBe('new');
    const cents = (s: string | undefined) => Math.round(Number(s) * 100);
    expect(cents(order.price.total)).toBe(cents(order.price.amount) + cents(order.price.insurance) + cents(order.price.gst));
    expect(order.shipments[0]!.tracking_number).toBeNull(); // the wire's N/A: none yet

    const accepted = await runShipbook(['order', 'accept', order.id, '--payment', 'credit'], { env });
    expect(accepted.code).toBe(0);
    expect(accepted.stdout).toContain(`order\t${order.id}\taccepted`);
    expect(accepted.stderr).toContain(`shipbook order get ${order.id}`);
  });

  it('prints the order heading, price table and shipments as tab-separated lines', async () => {
    const r = await runShipbook(['order', 'create', 'fixtures/orders/domestic-syd-mel.yaml'], { env });
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^order\tORD-\w+\tpending$/);
    expect(lines.map((l) => l.split('\t')[0])).toEqual(expect.arrayContaining(['amount', 'insurance', 'GST', 'total']));
    expect(r.stdout).toContain('SO-10482');
  });

  it('reports an unknown order id as an API error with exit code 3', async () => {
    const r = await runShipbook(['order', 'accept', 'ORD-DOESNOTEXIST', '--payment', 'credit'], { env });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/error: .*ORD-DOESNOTEXIST/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('accepts with a stored card and with card details from a payment file', async () => {
    for (const payment of [
      ['--payment', 'stored_card', '--card', 'card_visa_4242'],
      ['--payment-file', 'fixtures/payments/credit-card.yaml'],
    ]) {
      const created = await runShipbook(['order', 'create', 'fixtures/orders/stored-card.yaml', '--json'], { env });
      const id = (JSON.parse(created.stdout) as { order: { id: string } }).order.id;
      const r = await runShipbook(['order', 'accept', id, ...payment, '--json'], { env });
      expect(r.code, r.stderr).toBe(0);
      expect((JSON.parse(r.stdout) as { order: { status: string } }).order.status).toBe('ACC');
      expect(r.stdout + r.stderr).not.toContain('4111');
    }
  });

  it('refuses --payment credit_card without a payment file, before sending anything', async () => {
    const r = await runShipbook(['order', 'accept', 'ORD-X', '--payment', 'credit_card'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--payment-file');
  });
});

describe('book', () => {
  it('books the domestic order: pending → accepted → processed, every shipment with a tracking number', async () => {
    const r = await runShipbook(['book', 'fixtures/orders/domestic-syd-mel.yaml'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/pending .*created/);
    expect(r.stderr).toMatch(/accepted .*accepted/);
    expect(r.stderr).toMatch(/processed .*booked/);
    // Stdout ends with the final order only, so a script reads one line: one `order` line, processed, its price, the shipments.
    const orderLines = r.stdout.split('\n').filter((l) => l.startsWith('order\t'));
    expect(orderLines).toEqual([expect.stringMatching(/^order\tORD-\w+\tprocessed$/)]);
    expect(r.stdout).toMatch(/^total\t\d+\.\d{2}$/m);
    const shipmentLines = r.stdout.split('\n').filter((l) => l.startsWith('SHP-'));
    expect(shipmentLines.length).toBe(1);
    for (const line of shipmentLines) {
      const cells = line.split('\t');
      expect(cells[4]).toBe('processed');
      expect(cells[5]).toMatch(/^SBX\d+/);
    }
  });

  it('prints parseable JSON with --json and nothing else on stdout', async () => {
    const r = await runShipbook(['book', 'fixtures/orders/insured-bne-per.yaml', '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    const { order } = JSON.parse(r.stdout) as { order: { status: string; shipments: Array<{ status: string; tracking_number: string }> } };
    expect(order.status).toBe('processed');
    for (const s of order.shipments) {
      expect(s.status).toBe('TODO'); // booked: the documented shipment status the sandbox gives it
      expect(s.tracking_number).toMatch(/^SBX/);
    }
  });

  it('books against the built-in sandbox when nothing is configured, marking it on stderr only', async () => {
    const r = await runShipbook(['book', 'fixtures/orders/domestic-syd-mel.yaml', '--json'], { env: { HOME: fixture.home, XDG_CONFIG_HOME: fixture.home } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('[sandbox]');
    expect(r.stdout).not.toContain('[sandbox]');
    expect(JSON.parse(r.stdout).order.status).toBe('processed');
  });
});

describe('failures', () => {
  it('reports an unreachable base URL with exit code 5 and no stack trace', async () => {
    const r = await runShipbook(['quote', 'fixtures/quotes/syd-mel-single.yaml'], { env: { ...env, SHIPBOOK_BASE_URL: 'http://127.0.0.1:9/' } });
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/cannot reach the service at http:\/\/127\.0\.0\.1:9/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('refuses plain http:// to a remote host with exit code 4', async () => {
    const r = await runShipbook(['quote', 'fixtures/quotes/syd-mel-single.yaml'], { env: { ...env, SHIPBOOK_BASE_URL: 'http://api.example.com/' } });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('plain http:// is refused');
  });

  it('rejects an invalid order file with file, line and field path, and sends nothing (exit 2)', async () => {
    const bad = `order:\n  shipments:\n    - service: { code: SB-DOM-ROAD }\n      collection_type: pickup\n      description: This description is far too long for the service\n`;
    const r = await runShipbook(['order', 'create', '-'], { env, input: bad });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/-:5:\d+ +order\.shipments\[0\]\.description +at most 35 characters \(got 48\)/);
    expect(r.stderr).toContain('order.shipments[0].delivery  required');
  });

  it('prints the error as JSON on stdout with --json', async () => {
    const r = await runShipbook(['order', 'accept', 'ORD-NOPE', '--payment', 'credit', '--json'], { env });
    expect(r.code).toBe(3);
    const { error } = JSON.parse(r.stdout) as { error: { code: string; status: number } };
    expect(error.code).toBe('api_error');
    expect(error.status).toBe(404);
  });
});
