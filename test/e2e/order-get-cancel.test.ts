/** End-to-end: `order get` and `order cancel` on the assumed fetch-order-data and cancel-order paths (the interface document names these operations but not their paths; docs/assumptions.md lists the ones assumed). */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { useSandbox } from '../helpers/sandbox.js';
import { runShipbook } from '../helpers/run.js';
import { createOrder } from '../helpers/orders.js';

// The shared sandbox start (test/helpers/sandbox.ts): private home, key, base URL.
const fixture = useSandbox({ processingDelayMs: 50 });
let sandbox: Sandbox;
let env: Record<string, string>;
beforeAll(() => {
  ({ sandbox, env } = fixture);
});

describe('order get', () => {
  it('shows a pending order: status, price and shipments without tracking numbers yet', async () => {
    const id = await createOrder(env);
    const r = await runShipbook(['order', 'get', id], { env });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => l.split('\t'));
    expect(lines[0]).toEqual(['order', id, 'pending']);
    expect(lines.find((l) => l[0] === 'total')?.[1]).toMatch(/^\d+\.\d{2}$/);
    const shipment = lines.find((l) => l[0]!.startsWith('SHP-'))!;
    expect(shipment[4]).toBe('pending');
    expect(shipment[5]).toBe('—');
    expect(r.stderr).toContain(`shipbook order accept ${id}`);
  });

  it('shows a booked order with every tracking number, as JSON with --json', async () => {
    const booked = await runShipbook(['book', 'fixtures/orders/domestic-syd-mel.yaml', '--poll', '100ms', '--json'], { env });
    expect(booked.code, booked.stderr).toBe(0);
    const { order: fromBook } = JSON.parse(booked.stdout) as { order: { id: string } };
    const r = await runShipbook(['order', 'get', fromBook.id, '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    const { order } = JSON.parse(r.stdout) as {
      order: { id: string; status: string; price: { total: string }; shipments: Array<{ tracking_number: string }> };
    };
    expect(order.status).toBe('processed');
    expect(order.price.total).toMatch(/^\d+\.\d{2}$/);
    expect(order.shipments.map((s) => s.tracking_number)).toEqual(sandbox.state.shipmentsOf(sandbox.state.getOrder(order.id)).map((s) => s.trackingNumber));
    expect(order.shipments[0]!.tracking_number).toMatch(/^SBX\d{10}$/);
  });

  it('reports an unknown order with exit 3', async () => {
    const r = await runShipbook(['order', 'get', 'ORD-NOSUCH00'], { env });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('order ORD-NOSUCH00 not found');
  });
});

describe('order cancel', () => {
  it('cancels a pending order; accepting it afterwards is refused with 409 (exit 3)', async () => {
    const id = await createOrder(env);
    const cancelled = await runShipbook(['order', 'cancel', id], { env });
    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(cancelled.stdout).toBe(`order\t${id}\tcancelled\n`);
    expect(sandbox.state.getOrder(id).status).toBe('cancelled');

    const accept = await runShipbook(['order', 'accept', id, '--payment', 'credit', '--wait', '--json'], { env });
    expect(accept.code).toBe(3);
    const { error } = JSON.parse(accept.stdout) as { error: { status: number; message: string } };
    expect(error.status).toBe(409);
    expect(error.message).toContain(`order ${id} cannot be accepted`);
    expect(accept.stderr).toMatch(/error: order \S+ cannot be accepted: it is cancelled/);
  });

  it('refuses to cancel an accepted order with the 409 message (exit 3), and prints JSON with --json', async () => {
    const id = await createOrder(env);
    const accepted = await runShipbook(['order', 'accept', id, '--payment', 'credit'], { env });
    expect(accepted.code, accepted.stderr).toBe(0);
    const r = await runShipbook(['order', 'cancel', id, '--json'], { env });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`order ${id} cannot be cancelled`);
    expect((JSON.parse(r.stdout) as { error: { status: number } }).error.status).toBe(409);

    const pending = await createOrder(env);
    const ok = await runShipbook(['order', 'cancel', pending, '--json'], { env });
    expect(ok.code, ok.stderr).toBe(0);
    expect((JSON.parse(ok.stdout) as { order: { id: string; status: string } }).order).toMatchObject({ id: pending, status: 'cancelled' });
  });
});
