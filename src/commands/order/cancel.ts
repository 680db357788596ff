/**
 * `shipbook order cancel <order-id>`: cancels a pending order with cancel-order (assumed
 * `PUT /orders/{order_id}/cancel/`, a setting of the profile; docs/assumptions.md). Only a pending order
 * can be cancelled; the service answers 409 otherwise (exit 3 with its message).
 */
import { idArgument } from '../common/input.js';
import { Command } from 'commander';
import { cancelOrder } from '../../api/orders.js';
import type { Context } from '../../context.js';
import { orderHeading } from '../../output/order.js';

/** Options of `order cancel`. */
interface OrderCancelOptions {
  orderId: string;
}

/**
 * Cancels the order and prints its heading (`order <id> cancelled`), or `{order}` in a machine format.
 * @throws ApiError (3): 404 unknown id, 409 the order is not pending
 */
async function runOrderCancel(o: OrderCancelOptions, ctx: Context): Promise<void> {
  const profile = await ctx.profile();
  const order = await cancelOrder(await ctx.api(), o.orderId, profile.paths);
  ctx.output.write({ order }, () => ctx.io.out(orderHeading(ctx.io, ctx.output.format, order)));
}

/** The `order cancel` command. */
export function orderCancelCommand(ctx: Context): Command {
  return new Command('cancel')
    .summary('cancel a pending order')
    .description(
      'Cancel a pending order with cancel-order (PUT /orders/{order_id}/cancel/ unless the profile says otherwise). An accepted order cannot be cancelled.',
    )
    .argument('<order-id>', 'id of the pending order', idArgument)
    .addHelpText('after', '\nExamples:\n  shipbook order cancel ORD-1A2B3C4D\n  shipbook order cancel ORD-1A2B3C4D --json\n')
    .action(async (orderId: string) => runOrderCancel({ orderId }, ctx));
}
