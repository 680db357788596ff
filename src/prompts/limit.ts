/**
 * `--max-total <AUD>`: a limit on the exact price of an order. The order's price is
 * known only once it exists (create order answers with it, pending); when its total is above the
 * limit the pending order is cancelled and the booking ends with exit 9, the message saying the
 * price and the limit (docs/exit-codes.md, exit 9).
 */
import { LimitRefusedError, UsageError, cmd } from '../errors.js';
import { displayCents, parseAmountInput } from '../schema/money.js';

/** Reads `--max-total <AUD>` into cents. @throws UsageError (exit 2) for anything but a non-negative amount with at most 2 decimals */
export function parseMaxTotal(raw: string): number {
  const parsed = parseAmountInput(raw);
  if ('problem' in parsed)
    throw new UsageError(`--max-total: ${parsed.problem}`, {
      suggestion: 'Give the most the order may cost in AUD, e.g. --max-total 50 or --max-total 49.95.',
    });
  if (parsed.cents < 0) throw new UsageError(`--max-total must not be negative (got ${raw})`);
  return parsed.cents;
}

/**
 * Refuses an order whose total (cents) is above `limitCents`: cancels it with `cancel`, then
 * throws. A cancel that fails is said in the message (the order then stays pending).
 * @throws LimitRefusedError (exit 9)
 */
export async function enforceMaxTotal(
  order: { id: string; totalCents: number },
  limitCents: number,
  cancel: (orderId: string) => Promise<unknown>,
): Promise<void> {
  if (order.totalCents <= limitCents) return;
  const price = `${displayCents(order.totalCents)} AUD`;
  const limit = `${displayCents(limitCents)} AUD`;
  try {
    await cancel(order.id);
  } catch (err) {
    throw new LimitRefusedError(
      order.id,
      order.totalCents,
      limitCents,
      `order ${order.id} costs ${price}, above --max-total ${limit}, and cancelling it failed: ${(err as Error).message}`,
      {
        suggestion: ['The order is still pending: cancel it with "', cmd('order', 'cancel', order.id), '".'],
        cause: err,
        stage: 'order_created',
      },
    );
  }
  throw new LimitRefusedError(
    order.id,
    order.totalCents,
    limitCents,
    `order ${order.id} costs ${price}, above --max-total ${limit}: not accepted, the pending order was cancelled`,
  );
}
