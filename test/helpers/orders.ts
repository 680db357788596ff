/** Orders made through shipbook itself, for tests that need one to exist first. */
import { expect } from 'vitest';
import { runShipbook } from './run.js';

/**
 * Creates a new pending order (Sydney to Melbourne, fixtures/orders/domestic-syd-mel.yaml) with
 * `shipbook order create --again --json` (`--again`: a new order on every call, even where the
 * ledger knows the file as created before), run in-process against the service `env` points at (its
 * `SHIPBOOK_BASE_URL` and key, or the built-in sandbox), and returns the order's id. Fails the
 * test, with shipbook's stderr, when the command does not exit 0.
 */
export async function createOrder(env: Record<string, string | undefined>): Promise<string> {
  const r = await runShipbook(['order', 'create', 'fixtures/orders/domestic-syd-mel.yaml', '--again', '--json'], { env });
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { order: { id: string } }).order.id;
}
