/**
 * Answers that are well formed but do not answer what was sent (test/helpers/fault-server.ts): a
 * create order listing other shipments than those sent (more of them, another `transient_id`,
 * another service code), a create shipment with another service code, `transient_id` or status,
 * an accept with a status the interface does not list (`DECLINED`). Each is exit 5 with its
 * outcome unknown and a hint that works when pasted, is recorded in the ledger as unknown (never
 * as created or accepted), and is never sent again by itself. A status of no list is shown as it
 * came, never as a known state.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readJournal } from '../../src/ledger/file/read.js';
import { hostileServiceEnv } from '../helpers/fault-server.js';
import { runCli } from '../helpers/cli.js';
import { runShipbook } from '../helpers/run.js';

const { server, env } = hostileServiceEnv('sk_test_mismatch0123456789');
const dir = mkdtempSync(join(tmpdir(), 'shipbook-mismatch-'));
let states = 0;
/** The environment of a run with a ledger of its own (a state directory), unless `state` is given. */
const envWith = (state = join(dir, `state-${++states}`)) => env({ SHIPBOOK_STATE_DIR: state });

/** The domestic fixture's shipment as the service would answer it, with `over` replacing members. */
const domestic = (id: string, over: Record<string, unknown> = {}) => ({
  id,
  status: 'PEN',
  transient_id: 'SO-10482',
  tracking_number: 'N/A',
  service: { code: 'SB-DOM-ROAD', name: 'Road' },
  ...over,
});
const created = (shipments: unknown[]) => ({ mode: 'ok' as const, result: { order: { id: 'ORD-M1', status: 'new', price: { total: 47.3 }, shipments } } });

/** The records of `history --json` in the ledger of `state`: step and status of each. */
async function ledgerOf(state: string): Promise<Array<{ step: string; status: string; order_id?: string }>> {
  const h = await runShipbook(['history', '--json'], { env: envWith(state) });
  expect(h.code, h.stderr).toBe(0);
  return (JSON.parse(h.stdout) as { history: Array<{ step: string; status: string; order_id?: string }> }).history.map(({ step, status, order_id }) => ({
    step,
    status,
    ...(order_id ? { order_id } : {}),
  }));
}

describe('a create order answered with other shipments than those sent', () => {
  const cases: Array<[string, unknown[], string]> = [
    [
      'three shipments for the one sent, with other transient_ids',
      [domestic('SHP-1', { transient_id: 'X-1' }), domestic('SHP-2', { transient_id: 'X-2' }), domestic('SHP-3', { transient_id: 'X-3' })],
      'order ORD-M1 lists 3 shipments for the 1 sent',
    ],
    ['one shipment with another transient_id', [domestic('SHP-1', { transient_id: 'X-1' })], 'has a transient_id that was not sent (sent SO-10482)'],
    [
      'one shipment with another service code',
      [domestic('SHP-1', { service: { code: 'SB-DOM-EXP', name: 'Express' } })],
      'has the service code SB-DOM-EXP, not SB-DOM-ROAD as sent',
    ],
  ];
  for (const [what, shipments, message] of cases) {
    it(`order create: ${what} is an unknown outcome (exit 5), with a hint that works when pasted`, async () => {
      server.set('POST /orders/', created(shipments));
      server.set('GET /orders/ORD-M1/', { mode: 'ok', result: created(shipments).result });
      const state = join(dir, `create-${++states}`);
      const r = await runShipbook(['order', 'create', 'fixtures/orders/domestic-syd-mel.yaml'], { env: envWith(state) });
      expect(r.code, r.stderr).toBe(5);
      expect(r.stderr).toContain(message);
      expect(r.stderr).toContain('the order may have been created, so its outcome is unknown');
      expect(r.stdout).not.toContain('ORD-M1');
      const hint = /see what the service made of it with: (shipbook order get ORD-M1)/.exec(r.stderr);
      expect(hint, r.stderr).not.toBeNull();
      const pasted = await runShipbook(hint![1]!.split(' ').slice(1), { env: envWith(state) });
      expect(pasted.code, pasted.stderr).toBe(0);
      expect(pasted.stdout).toContain('ORD-M1');
      expect(await ledgerOf(state)).toEqual([{ step: 'create_order', status: 'unknown' }]);
    });
  }

  it('--json: the error says bad_response, sent, and the endpoint', async () => {
    server.set('POST /orders/', created([domestic('SHP-1'), domestic('SHP-2')]));
    const r = await runShipbook(['order', 'create', 'fixtures/orders/domestic-syd-mel.yaml', '--json'], { env: envWith() });
    expect(r.code, r.stderr).toBe(5);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'bad_response', exit_code: 5, sent: true, endpoint: { name: 'createOrder' } });
  });

  it('book (single, then as a batch): never "created", recorded unknown, never sent again by itself', async () => {
    const extra = [domestic('SHP-1'), domestic('SHP-2', { transient_id: 'X-2' })];
    server.set('POST /orders/', created(extra));
    const state = join(dir, `book-single-${++states}`);
    const args = ['book', 'fixtures/orders/domestic-syd-mel.yaml', '--payment', 'credit'];
    const first = await runCli(args, { env: envWith(state) });
    expect(first.code, first.stderr).toBe(5);
    expect(first.stderr).toContain('order ORD-M1 lists 2 shipments for the 1 sent');
    expect(first.stderr).not.toMatch(/order ORD-M1 created/);
    const again = await runShipbook(args, { env: envWith(state) });
    expect(again.code, again.stderr).toBe(5);
    expect(again.stderr).toContain('not booked: a create_order request for this document was sent by an earlier run');
    expect(await ledgerOf(state)).toEqual([{ step: 'create_order', status: 'unknown' }]);

    const journal = join(dir, `journal-${++states}.ndjson`);
    const batch = ['book', 'fixtures/orders/domestic-syd-mel.yaml', '--journal', journal, '--payment', 'credit', '--report', join(dir, 'report.json')];
    const b = await runShipbook(batch, { env: envWith() });
    expect(b.code, b.stderr).toBe(8);
    expect([...readJournal(journal).values()].map((s) => s.stage)).toEqual(['unknown']);
    const creates = () => server.requests.filter((q) => q.method === 'POST' && q.path === '/orders/').length;
    expect(creates()).toBe(2);
    const b2 = await runShipbook(batch, { env: envWith() });
    expect(b2.code, b2.stderr).toBe(8);
    expect(creates()).toBe(2);
    expect(server.requests.filter((q) => q.path.endsWith('/accept/'))).toEqual([]);
  });
});

describe('a create shipment answered with another shipment', () => {
  const sentShipment = {
    id: 'SHP-C1',
    status: 'NEW',
    transient_id: 'BB-JP-0918',
    tracking_number: 'N/A',
    service: { code: 'SB-GLOBAL-MAIL', name: 'Global Mail' },
  };
  for (const [what, over, message] of [
    [
      'another service code',
      { service: { code: 'SB-DOM-ROAD', name: 'Road' } },
      'shipment SHP-C1 (transient_id BB-JP-0918) has the service code SB-DOM-ROAD, not SB-GLOBAL-MAIL as sent',
    ],
    ['another transient_id', { transient_id: 'OTHER-1' }, 'shipment SHP-C1 (transient_id OTHER-1) has a transient_id that was not sent (sent BB-JP-0918)'],
    ['the status TODO', { status: 'TODO' }, 'shipment SHP-C1 (transient_id BB-JP-0918) has the status "TODO", not NEW'],
  ] as const) {
    it(`shipment create: ${what} is an unknown outcome (exit 5), recorded unknown`, async () => {
      server.set('POST /shipments/', { mode: 'ok', result: { shipment: { ...sentShipment, ...over } } });
      const state = join(dir, `shipment-${++states}`);
      const r = await runShipbook(['shipment', 'create', 'fixtures/shipments/au-jp-1.yaml'], { env: envWith(state) });
      expect(r.code, r.stderr).toBe(5);
      expect(r.stderr).toContain(message);
      expect(r.stderr).toContain('the shipment may have been created, so its outcome is unknown');
      expect(r.stdout).toBe('');
      expect(await ledgerOf(state)).toEqual([{ step: 'create_shipment', status: 'unknown' }]);
    });
  }
});

describe('an accept answered with a status the interface does not list', () => {
  const declined = {
    mode: 'ok' as const,
    status: 201,
    result: { order: { id: 'ORD-A1', status: 'DECLINED', shipments: [domestic('SHP-1', { status: 'NEW' })] } },
  };

  it('order accept: DECLINED is not "accepted": exit 5, outcome unknown, the pasted hint shows the order as it came', async () => {
    server.set('PUT /orders/ORD-A1/accept/', declined);
    server.set('GET /orders/ORD-A1/', {
      mode: 'ok',
      result: { order: { id: 'ORD-A1', status: 'DECLINED', shipments: [domestic('SHP-1', { status: 'VOID' })] } },
    });
    const state = join(dir, `accept-${++states}`);
    const r = await runShipbook(['order', 'accept', 'ORD-A1', '--payment', 'credit'], { env: envWith(state) });
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toContain(
      'it gives order ORD-A1 the status "DECLINED", not ACC (accepted); the order may have been accepted (and paid for), so its outcome is unknown',
    );
    expect(r.stdout).not.toMatch(/accepted/);
    const hint = /Find out with: (shipbook order get ORD-A1)/.exec(r.stderr);
    expect(hint, r.stderr).not.toBeNull();
    // The status is shown as it came, in tsv and in JSON: never "pending" or "accepted".
    const tsv = await runShipbook(hint![1]!.split(' ').slice(1), { env: envWith(state) });
    expect(tsv.code, tsv.stderr).toBe(0);
    expect(tsv.stdout).toContain('order\tORD-A1\tDECLINED');
    expect(tsv.stdout).toMatch(/SHP-1\tSO-10482\tRoad\t[^\n]*\tVOID\t/);
    expect(tsv.stdout).not.toMatch(/pending|accepted/);
    const json = await runShipbook(['order', 'get', 'ORD-A1', '--json'], { env: envWith(state) });
    const order = JSON.parse(json.stdout).order;
    expect(order).toMatchObject({ status: 'DECLINED', state: 'unknown' });
    expect(order.shipments[0]).toMatchObject({ status: 'VOID', state: 'unknown' });
    expect(await ledgerOf(state)).toEqual([{ step: 'accept', status: 'unknown', order_id: 'ORD-A1' }]);
  });

  it('book: an accept answered DECLINED is recorded unknown, not accepted, and a rerun never reports it accepted', async () => {
    server.set('POST /orders/', { mode: 'ok', result: { order: { id: 'ORD-A1', status: 'new', price: { total: 47.3 }, shipments: [domestic('SHP-1')] } } });
    server.set('PUT /orders/ORD-A1/accept/', declined);
    const state = join(dir, `book-accept-${++states}`);
    const args = ['book', 'fixtures/orders/domestic-syd-mel.yaml', '--payment', 'credit', '--poll', '20ms'];
    const r = await runShipbook(args, { env: envWith(state) });
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toContain('the status "DECLINED", not ACC');
    expect(r.stderr).not.toMatch(/order ORD-A1 accepted/);
    expect(await ledgerOf(state)).toEqual([
      { step: 'create_order', status: 'done', order_id: 'ORD-A1' },
      { step: 'accept', status: 'unknown', order_id: 'ORD-A1' },
    ]);
    // An accept may be sent again (a repeat of an accepted order is refused with 409); the order is never created again.
    const again = await runShipbook(args, { env: envWith(state) });
    expect(again.code, again.stderr).toBe(5);
    expect(again.stderr).not.toMatch(/order ORD-A1 accepted/);
    expect(server.requests.filter((q) => q.method === 'POST' && q.path === '/orders/')).toHaveLength(1);
    expect((await ledgerOf(state)).filter((r) => r.step === 'accept').map((r) => r.status)).toEqual(['unknown', 'unknown']);
  });

  it('a batch: the order is reported unknown (never accepted or failed), with the order to look at', async () => {
    server.set('POST /orders/', { mode: 'ok', result: { order: { id: 'ORD-A1', status: 'new', price: { total: 47.3 }, shipments: [domestic('SHP-1')] } } });
    server.set('PUT /orders/ORD-A1/accept/', declined);
    const report = join(dir, `report-${++states}.json`);
    const journal = join(dir, `journal-${++states}.ndjson`);
    const r = await runShipbook(['book', 'fixtures/orders/domestic-syd-mel.yaml', '--payment', 'credit', '--journal', journal, '--report', report], {
      env: envWith(),
    });
    expect(r.code, r.stderr).toBe(8);
    expect(r.stderr).toContain('0 booked');
    expect(r.stderr).toContain('1 unknown');
    expect(r.stderr).toContain('shipbook order get ORD-A1');
    // Not a create whose answer was lost: nothing to settle with journal resolve.
    expect(r.stderr).not.toContain('journal resolve');
    const entry = (JSON.parse(readFileSync(report, 'utf8')) as { orders: Array<Record<string, unknown>> }).orders[0]!;
    expect(entry).toMatchObject({ status: 'unknown', order_id: 'ORD-A1', next: { action: 'rerun', order_id: 'ORD-A1' } });
    expect(String((entry.error as { message: string }).message)).toContain('the status "DECLINED", not ACC');
  });
});
