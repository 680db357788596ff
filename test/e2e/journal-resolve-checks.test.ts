/**
 * `journal resolve` tells the truth about what it records: `--not-created` is checked against a
 * sandbox's list of orders (refused, naming the order, when one carries the document's reference);
 * against a service that cannot be searched by reference it says so, with the cost of a wrong
 * claim, and asks on a terminal (`--yes` without one). And a resolution answers the create it was
 * about: a newer create whose answer was lost too is a new question, so `--order` is then
 * recorded without `--force`.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { useSandbox } from '../helpers/sandbox.js';
import { hasTmux, killTerminals, Terminal } from '../helpers/terminal.js';
import { ROOT, runCli } from '../helpers/cli.js';

// Every connection to the service is closed without an answer (half of them after the request
// was processed), until a test turns it off: `shipbook sandbox --reset-rate 1`.
const faults = { resetRate: 1 };
const fx = useSandbox({ faults });
afterAll(killTerminals);

/** The ids of the sandbox's orders whose shipments carry `ref`. */
function ordersCarrying(ref: string): string[] {
  return fx.sandbox.state
    .allOrders()
    .filter((o) => fx.sandbox.state.shipmentsOf(o).some((s) => s.request.transient_id === ref))
    .map((o) => o.id);
}

/** The Sydney–Melbourne order with the reference `ref`, as a file of its own. */
function orderFile(dir: string, ref: string): string {
  const file = join(dir, `${ref}.yaml`);
  writeFileSync(file, readFileSync(join(ROOT, 'fixtures/orders/domestic-syd-mel.yaml'), 'utf8').replace(/transient_id: .*/, `transient_id: ${ref}`));
  return file;
}

/** The identity of the only document of the ledger. */
async function onlyIdentity(env: Record<string, string>): Promise<string> {
  const shown = await runCli(['journal', 'show', '--json'], { env });
  const orders = (JSON.parse(shown.stdout) as { orders: Array<{ id: string }> }).orders;
  expect(orders).toHaveLength(1);
  return orders[0]!.id;
}

describe('journal resolve against a sandbox that loses every answer', () => {
  it('checks --not-created against the sandbox’s orders, and lets a newer create’s --order supersede an earlier --not-created', async () => {
    faults.resetRate = 1;
    // A create whose answer is lost before the order is made, then (maybe after more of those) one
    // lost after: each attempt starts afresh until the first create made nothing.
    for (let attempt = 0; attempt < 20; attempt++) {
      const dir = mkdtempSync(join(tmpdir(), 'shipbook-resolve-'));
      const env = { ...fx.env, SHIPBOOK_STATE_DIR: dir };
      const ref = `RS-${attempt}-${process.pid}`;
      const file = orderFile(dir, ref);
      const first = await runCli(['book', file], { env });
      expect(first.code, first.stderr).toBe(5);
      if (ordersCarrying(ref).length > 0) continue;
      const id = await onlyIdentity(env);
      // Right, and checked: the sandbox has no order with that reference.
      const right = await runCli(['journal', 'resolve', id, '--not-created'], { env });
      expect(right.code, right.stderr).toBe(0);
      expect(right.stderr).toContain(`Checked: no order at`);
      expect(right.stderr).toContain(`carries the reference ${ref}`);
      // Booked again until a create's answer is lost after the order was made.
      let made: string[] = [];
      for (let again = 0; again < 30 && made.length === 0; again++) {
        const next = await runCli(['book', file], { env });
        expect(next.code, next.stderr).toBe(5);
        made = ordersCarrying(ref);
        if (made.length === 0) expect((await runCli(['journal', 'resolve', id, '--not-created'], { env })).code).toBe(0);
      }
      expect(made).toHaveLength(1);
      // A claim of "not created" now is wrong, and refused, naming the order.
      const wrong = await runCli(['journal', 'resolve', id, '--not-created'], { env });
      expect(wrong.code).toBe(2);
      expect(wrong.stderr).toContain(`not recorded: ${id} was created:`);
      expect(wrong.stderr).toContain(`holds order ${made[0]} (new) carrying its reference ${ref}`);
      expect(wrong.stderr).toContain(`shipbook journal resolve ${id} --order ${made[0]}`);
      // The order, with no --force: the earlier --not-created answered an earlier create.
      faults.resetRate = 0;
      const resolved = await runCli(['journal', 'resolve', id, '--order', made[0]!], { env });
      expect(resolved.code, resolved.stderr).toBe(0);
      const booked = await runCli(['book', file, '--json'], { env, timeoutMs: 60_000 });
      expect(booked.code, booked.stderr).toBe(0);
      expect((JSON.parse(booked.stdout) as { order: { id: string } }).order.id).toBe(made[0]);
      expect(ordersCarrying(ref)).toEqual(made);
      return;
    }
    throw new Error('no create in 20 attempts had its answer lost before the order was made');
  }, 120_000);
});

describe.skipIf(!hasTmux)('journal resolve --not-created against a service with no list of orders', () => {
  let server: FaultServer;
  beforeAll(async () => {
    server = await startFaultServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('says it cannot be checked and what a wrong claim costs, and asks on a terminal (default no)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shipbook-resolve-svc-'));
    const env = { SHIPBOOK_STATE_DIR: dir, HOME: dir, XDG_CONFIG_HOME: dir, SHIPBOOK_BASE_URL: server.url, SHIPBOOK_API_KEY: 'sk_test_resolve_0123456789' };
    server.set('POST /orders/', { mode: 'close-after-request' });
    expect((await runCli(['book', orderFile(dir, 'RS-SVC')], { env })).code).toBe(5);
    const id = await onlyIdentity(env);

    const no = Terminal.start(['journal', 'resolve', id, '--not-created'], env);
    const asked = await no.waitFor(`? Record ${id} as not created?`);
    expect(asked).toContain('"not created" cannot be checked');
    expect(asked).toContain('no search by reference');
    expect(asked).toContain('a second one, paid twice');
    no.keys('Enter');
    const declined = await no.exit();
    expect(declined.code, declined.screen).toBe(0);
    expect(declined.screen).toContain('Nothing was recorded.');
    expect((JSON.parse((await runCli(['journal', 'show', '--json'], { env })).stdout) as { orders: Array<{ stage: string }> }).orders[0]!.stage).toBe(
      'unknown',
    );

    const yes = Terminal.start(['journal', 'resolve', id, '--not-created'], env);
    await yes.answer(`Record ${id} as not created?`, 'y');
    const recorded = await yes.exit();
    expect(recorded.code, recorded.screen).toBe(0);
    expect(recorded.screen).toContain(`Recorded: ${id} was not created.`);
  }, 120_000);
});
