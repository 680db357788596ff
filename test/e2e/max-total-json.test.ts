/**
 * The JSON error of `--max-total` once the order exists carries what docs/output-formats.md
 * promises of every error after an order exists: `order_id` and `stage` (with the price and the
 * limit), in the run that refused it and in the next one, which sends nothing.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runShipbook } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const fx = useSandbox({ processingDelayMs: 20 });

type ErrorJson = { error: { code: string; exit_code: number; order_id?: string; stage?: string; total?: string; max_total?: string } };

describe('--max-total refusing an order, in JSON', () => {
  it('names the cancelled order and its stage, then and on the next run', async () => {
    const args = ['book', 'fixtures/orders/domestic-syd-mel.yaml', '--max-total', '30', '--json'];
    // One state directory for both runs: the second finds the refusal in the ledger.
    const env = { ...fx.env, SHIPBOOK_STATE_DIR: mkdtempSync(join(tmpdir(), 'shipbook-max-total-')) };
    const r = await runShipbook(args, { env });
    expect(r.code, r.stderr).toBe(9);
    const { error } = JSON.parse(r.stdout) as ErrorJson;
    expect(error).toMatchObject({ code: 'limit_refused', exit_code: 9, stage: 'cancelled', max_total: '30.00' });
    expect(error.order_id).toMatch(/^ORD-/);
    expect(Number(error.total)).toBeGreaterThan(30);
    expect(fx.sandbox.state.orders.get(error.order_id!)?.status).toBe('cancelled');

    const again = await runShipbook(args, { env });
    expect(again.code, again.stderr).toBe(9);
    expect((JSON.parse(again.stdout) as ErrorJson).error).toMatchObject({
      code: 'limit_refused',
      order_id: error.order_id,
      stage: 'cancelled',
      total: error.total,
    });
  });
});
