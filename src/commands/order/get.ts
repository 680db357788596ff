/**
 * `shipbook order get <order-id>`: the order's current status, price and shipments with their
 * tracking numbers, from fetch-order-data (assumed `GET /orders/{order_id}/`, a setting of the
 * profile; docs/assumptions.md). This is how to see a booking later, after a wait timed out or was interrupted.
 */
import { cmd } from '../../errors.js';
import { hintText } from '../../output/hints.js';
import { idArgument } from '../common/input.js';
import { Command } from 'commander';
import { fetchOrderWithMessage } from '../../api/orders.js';
import type { Context } from '../../context.js';
import { orderEndedLine, printOrder } from '../../output/order.js';
import { orderStatusWord } from '../../schema/status.js';
import { withWarnings } from '../common/warnings.js';
import { orderWarnings, recordLearned } from '../../booking/index.js';
import { openLedgerFor } from '../common/record.js';

/** Options of `order get`. */
interface OrderGetOptions {
  orderId: string;
}

/**
 * Fetches and prints the order: heading (id and status word: pending, accepted, processed,
 * cancelled, failed), price table (AUD) and shipments with tracking numbers, and for a booking that
 * failed or was cancelled the service's reason (stderr; `reason` beside `order` in a machine format).
 * @throws ApiError (3) for an unknown id (404)
 */
async function runOrderGet(o: OrderGetOptions, ctx: Context): Promise<void> {
  const profile = await ctx.profile();
  const { order, message } = await fetchOrderWithMessage(await ctx.api(), o.orderId, profile.paths);
  const word = orderStatusWord(order.status);
  // The service gives the reason of a booking that failed (or was cancelled) as the envelope's message.
  const reason = word === 'failed' || word === 'cancelled' ? message : undefined;
  // What the service says now goes into the ledger when it is news there (a booking processed since).
  if (word === 'processed' || word === 'cancelled' || word === 'failed') {
    try {
      const ledger = await openLedgerFor(ctx, { op: 'order get', command: hintText([cmd('order', 'get', o.orderId)], ctx.settings.hints) });
      await recordLearned(ledger, order, message);
    } catch (err) {
      ctx.io.err(`note: the ledger could not record what order ${order.id} is now: ${(err as Error).message}\n`);
    }
  }
  ctx.output.write(withWarnings(ctx, { order, ...(reason === undefined ? {} : { reason }) }, orderWarnings(order)), () => {
    printOrder(ctx.io, ctx.output.format, order);
    if (reason !== undefined) ctx.io.err(`${orderEndedLine(order, reason)}\n`);
    if (word === 'pending') {
      ctx.io.err(
        `Accept it with: ${hintText([cmd('order', 'accept', order.id)], ctx.settings.hints)}  (or cancel it: ${hintText([cmd('order', 'cancel', order.id)], ctx.settings.hints)})\n`,
      );
    }
    if (word === 'accepted') ctx.io.err('The booking is still running; run this command again later to see the tracking numbers.\n');
  });
}

/** The `order get` command. */
export function orderGetCommand(ctx: Context): Command {
  return new Command('get')
    .summary('show an order: status, price and tracking numbers')
    .description(
      'Show an order with fetch-order-data (GET /orders/{order_id}/ unless the profile says otherwise): its status, price and every shipment with its tracking number.',
    )
    .argument('<order-id>', 'id of the order', idArgument)
    .addHelpText('after', '\nExamples:\n  shipbook order get ORD-1A2B3C4D\n  shipbook order get ORD-1A2B3C4D --json\n')
    .action(async (orderId: string) => runOrderGet({ orderId }, ctx));
}
