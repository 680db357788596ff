/**
 * `order accept --wait` of an order that is processed already (booked before, by hand or by
 * another run): no callback will come for it, so the command ends at once with that order instead
 * of waiting for its timeout.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runShipbook } from '../helpers/run.js';

describe('accepting an order that is processed already', () => {
  it('order accept --wait shows the processed order at once (exit 0), on the built-in sandbox', async () => {
    const env = { SHIPBOOK_STATE_DIR: mkdtempSync(join(tmpdir(), 'shipbook-accept-processed-')) };
    const booked = await runShipbook(['book', 'fixtures/orders/domestic-syd-mel.yaml', '--json'], { env });
    expect(booked.code, booked.stderr).toBe(0);
    const order = (JSON.parse(booked.stdout) as { order: { id: string } }).order.id;
    const again = await runShipbook(['order', 'accept', order, '--payment', 'credit', '--wait', '--wait-timeout', '20s', '--json'], { env });
    expect(again.code, again.stderr).toBe(0);
    const shown = JSON.parse(again.stdout) as { order: { id: string; status: string; shipments: Array<{ tracking_number: string | null }> } };
    expect(shown.order).toMatchObject({ id: order, status: 'processed' });
    expect(shown.order.shipments.every((s) => typeof s.tracking_number === 'string' && s.tracking_number !== '')).toBe(true);
    expect(again.stderr).not.toContain('waiting for the booking result');
  });
});
