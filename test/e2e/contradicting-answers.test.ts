/**
 * Answers that contradict the request (test/helpers/fault-server.ts): an accept answered about
 * another order, a create without an id, a combine without the shipments sent, a processed order
 * without tracking numbers. Each is exit 5; for a mutating call the message says its outcome is
 * unknown and how to find out, and a batch's journal keeps the create unknown (never sent again).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readJournal } from '../../src/ledger/file/read.js';
import { hostileServiceEnv } from '../helpers/fault-server.js';
import { runCli } from '../helpers/cli.js';

const KEY = 'sk_test_contradict0123456789';
const { server, env } = hostileServiceEnv(KEY);

const shipment = (id: string, tracking = 'N/A') => ({ id, status: 'NEW', tracking_number: tracking });

describe('an answer that contradicts the request', () => {
  it('an accept answered about another order: exit 5, outcome unknown, and how to find out', async () => {
    server.set('PUT /orders/ORD-A1/accept/', { mode: 'ok', status: 201, result: { order: { id: '5', status: 'ACC', shipments: [] } } });
    const r = await runCli(['order', 'accept', 'ORD-A1', '--payment', 'credit'], { env: env() });
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toContain(
      'contradicts the request: it is about order 5, not ORD-A1; the order may have been accepted (and paid for), so its outcome is unknown',
    );
    expect(r.stderr).toContain('Find out with: shipbook order get ORD-A1');
    const json = await runCli(['order', 'accept', 'ORD-A1', '--payment', 'credit', '--json'], { env: env() });
    expect(JSON.parse(json.stdout).error).toMatchObject({ code: 'bad_response', exit_code: 5, sent: true, endpoint: { name: 'acceptOrder' } });
  });

  it('a create answered without an order id: exit 5, outcome unknown', async () => {
    server.set('POST /orders/', { mode: 'ok', status: 201, result: { order: { id: '', status: 'NEW', shipments: [shipment('SHP-1')] } } });
    const r = await runCli(['order', 'create', 'fixtures/orders/domestic-syd-mel.yaml'], { env: env() });
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toContain('contradicts the request: it has no order id; the order may have been created, so its outcome is unknown');
    expect(r.stderr).toContain('Do not create it again yet');
  });

  it('a combine whose parent does not list the shipments sent: exit 5, outcome unknown', async () => {
    server.set('PUT /shipments/', { mode: 'ok', result: { order: { id: 'ORD-P1', status: 'NEW', shipments: [shipment('SHP-A'), shipment('SHP-M')] } } });
    const r = await runCli(['shipment', 'combine', 'SHP-A', 'SHP-B', '--main', 'fixtures/shipments/main-to-hub.yaml'], { env: env() });
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toContain(
      'parent order ORD-P1 does not list shipment SHP-B that was sent; the shipments may have been combined into a parent order, so its outcome is unknown',
    );
  });

  it('a processed order without tracking numbers is not reported booked: exit 5, naming the shipments', async () => {
    server.set('PUT /orders/ORD-T1/accept/', {
      mode: 'ok',
      status: 201,
      result: { order: { id: 'ORD-T1', status: 'ACC', shipments: [shipment('SHP-1'), shipment('SHP-2')] } },
    });
    server.set('GET /orders/ORD-T1/', {
      mode: 'ok',
      result: { order: { id: 'ORD-T1', status: 'processed', shipments: [shipment('SHP-1', 'TRK123456'), shipment('SHP-2')] } },
    });
    const r = await runCli(['order', 'accept', 'ORD-T1', '--payment', 'credit', '--wait', '--poll', '20ms'], { env: env() });
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toContain('the service says order ORD-T1 is processed but gives no tracking number for shipment SHP-2');
    expect(r.stderr).toContain('shipbook order get ORD-T1');
    expect(r.stdout).not.toMatch(/booked|processed/);
  });

  it('in a batch, a create answered without an id stays unknown in the journal and is never sent again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shipbook-contradict-'));
    const journal = join(dir, 'journal.ndjson');
    server.set('POST /orders/', { mode: 'ok', status: 201, result: { order: { id: '', status: 'NEW', shipments: [] } } });
    const args = ['book', 'fixtures/orders/domestic-syd-mel.yaml', '--journal', journal, '--payment', 'credit'];
    const first = await runCli(args, { env: env() });
    expect(first.code, first.stderr).toBe(8);
    expect(first.stderr).toContain('it has no order id');
    expect([...readJournal(journal).values()].map((s) => s.stage)).toEqual(['unknown']);
    const again = await runCli(args, { env: env() });
    expect(again.code).toBe(8);
    expect(again.stderr).toContain('unknown');
    expect(server.requests.filter((q) => q.method === 'POST' && q.path === '/orders/')).toHaveLength(1);
  });
});
