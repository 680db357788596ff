/**
 * `order accept` of an order accepted or processed before (booked before, by hand or by another
 * run): the service refuses the accept (409), so nothing is accepted or paid now, and shipbook says
 * so instead of "accepted". A processed order is shown at once (exit 0, no wait for a callback that
 * will not come); an order accepted and not processed is shown with exit 7 (its result not read
 * yet), or waited for by polling with `--wait`. `history` records no accept as done for it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runShipbook } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const fx = useSandbox({ processingDelayMs: 1500 });

type Row = { operation: string; step: string; status: string; order_id?: string; error?: string };

/** The `order accept` rows of `history` for one order. */
async function acceptRows(env: Record<string, string>, order: string): Promise<Row[]> {
  const h = await runShipbook(['history', '--order', order, '--json'], { env });
  expect(h.code, h.stderr).toBe(0);
  return (JSON.parse(h.stdout) as { history: Row[] }).history.filter((r) => r.operation === 'order accept');
}

describe('accepting an order that is processed already', () => {
  it('order accept --wait says nothing was accepted, shows the processed order at once (exit 0), and history records no accept as done', async () => {
    const env = { SHIPBOOK_STATE_DIR: mkdtempSync(join(tmpdir(), 'shipbook-accept-processed-')) };
    const booked = await runShipbook(['book', 'fixtures/orders/domestic-syd-mel.yaml', '--json'], { env });
    expect(booked.code, booked.stderr).toBe(0);
    const order = (JSON.parse(booked.stdout) as { order: { id: string } }).order.id;
    const again = await runShipbook(['order', 'accept', order, '--payment', 'credit', '--wait', '--wait-timeout', '20s', '--json'], { env });
    expect(again.code, again.stderr).toBe(0);
    const shown = JSON.parse(again.stdout) as {
      order: { id: string; status: string; shipments: Array<{ tracking_number: string | null }> };
      already: string;
      accepted_now: boolean;
    };
    expect(shown.order).toMatchObject({ id: order, status: 'processed' });
    expect(shown).toMatchObject({ already: 'processed', accepted_now: false });
    expect(shown.order.shipments.every((s) => typeof s.tracking_number === 'string' && s.tracking_number !== '')).toBe(true);
    expect(again.stderr).toContain(`order ${order} was already processed; nothing was accepted (nothing was paid now)`);
    expect(again.stderr).not.toContain('accepted; booking runs asynchronously');
    expect(again.stderr).not.toContain('waiting for the booking result');

    // Without --wait: the same words, the same exit code.
    const plain = await runShipbook(['order', 'accept', order, '--payment', 'credit'], { env });
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stderr).toContain(`order ${order} was already processed; nothing was accepted (nothing was paid now)`);

    // History: both attempts, neither done; and no second result recorded for an order the ledger knew processed.
    const rows = await acceptRows(env, order);
    expect(rows.map((r) => [r.step, r.status])).toEqual([
      ['accept', 'failed'],
      ['accept', 'failed'],
    ]);
    expect(rows[0]!.error).toBe(`order ${order} was already processed; nothing was accepted`);
  });
});

describe('accepting an order that is accepted already, not yet processed', () => {
  it('says nothing was accepted: exit 7 without --wait, and with --wait polls for its result (exit 0)', async () => {
    const env = { ...fx.env, SHIPBOOK_STATE_DIR: mkdtempSync(join(tmpdir(), 'shipbook-accept-accepted-')) };
    const created = await runShipbook(['order', 'create', 'fixtures/orders/domestic-syd-mel.yaml', '--json'], { env });
    expect(created.code, created.stderr).toBe(0);
    const order = (JSON.parse(created.stdout) as { order: { id: string } }).order.id;
    const first = await runShipbook(['order', 'accept', order, '--payment', 'credit'], { env });
    expect(first.code, first.stderr).toBe(0);
    const paidBefore = fx.sandbox.state.orders.get(order)?.acceptedAt;

    const second = await runShipbook(['order', 'accept', order, '--payment', 'credit', '--json'], { env });
    expect(second.code, second.stderr).toBe(7);
    expect(second.stderr).toContain(`order ${order} was already accepted; nothing was accepted (nothing was paid now)`);
    expect(JSON.parse(second.stdout)).toMatchObject({ order: { id: order }, already: 'accepted', accepted_now: false });

    const waited = await runShipbook(['order', 'accept', order, '--payment', 'credit', '--wait', '--poll', '200ms', '--wait-timeout', '20s', '--json'], {
      env,
    });
    expect(waited.code, waited.stderr).toBe(0);
    expect(waited.stderr).toContain(`order ${order} was already accepted before this command; nothing was accepted (nothing was paid now)`);
    expect(JSON.parse(waited.stdout)).toMatchObject({ order: { id: order, status: 'processed' }, already: 'accepted', accepted_now: false });
    // The service took one accept only: the first one's.
    expect(fx.sandbox.state.orders.get(order)?.acceptedAt).toEqual(paidBefore);
    const rows = await acceptRows(env, order);
    expect(rows.filter((r) => r.step === 'accept').map((r) => r.status)).toEqual(['done', 'failed', 'failed']);
  });
});
