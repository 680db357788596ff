/**
 * `shipbook order cancel <order-id>`: cancels a pending order with cancel-order (assumed
 * `PUT /orders/{order_id}/cancel/`, a setting of the profile; docs/assumptions.md). Only a pending order
 * can be cancelled; the service answers 409 otherwise (exit 3 with its message), except for an order
 * that is already cancelled: that is done (exit 0, a note on stderr, `already_cancelled` in JSON).
 */
import { hintText } from '../../output/hints.js';
import { idArgument } from '../common/input.js';
import { Command } from 'commander';
import { cancelOrder, fetchOrder } from '../../api/orders.js';
import { ApiError, cmd } from '../../errors.js';
import { orderState } from '../../output/state.js';
import { printable } from '../../output/printable.js';
import type { OrderResponse } from '../../schema/order.js';
import type { Context } from '../../context.js';
import { orderHeading } from '../../output/order.js';
import { DEFAULT_WAIT_TIMEOUT_MS, claimDocument, identityOfOrder, recordLearned, recordedRequest } from '../../booking/index.js';
import { claimRun, openLedgerFor } from '../common/record.js';

/** Options of `order cancel`. */
interface OrderCancelOptions {
  orderId: string;
}

/**
 * Cancels the order and prints its heading (`order <id> cancelled`), or `{order}` in a machine format.
 * @throws ApiError (3): 404 unknown id, 409 the order is accepted, processed or failed
 */
async function runOrderCancel(o: OrderCancelOptions, ctx: Context): Promise<void> {
  const profile = await ctx.profile();
  // The cancel goes through the ledger: a run booking this order right now is waited for, and the
  // intent is on disk before the request leaves.
  const ledger = await openLedgerFor(ctx, { op: 'order cancel', command: hintText([cmd('order', 'cancel', o.orderId)], ctx.settings.hints) });
  const id = identityOfOrder(ledger, o.orderId);
  await claimDocument(ledger, id, { again: true, timeoutMs: DEFAULT_WAIT_TIMEOUT_MS, what: `order ${o.orderId}` }, claimRun(ctx));
  const api = await ctx.api();
  let order: OrderResponse;
  try {
    order = await recordedRequest(
      ledger,
      { id },
      { step: 'cancel', orderId: o.orderId },
      () => cancelOrder(api, o.orderId, profile.paths),
      (cancelled) => ({ kind: 'cancelled', orderId: cancelled.id }),
    );
  } catch (err) {
    // Cancelling what is already cancelled is done, as gh and Stripe treat it: exit 0 with a note.
    if (!(err instanceof ApiError) || err.status !== 409) throw err;
    const now = await fetchOrder(api, o.orderId, profile.paths).catch(() => undefined);
    if (now === undefined || orderState(now.status) !== 'cancelled') throw err;
    await recordLearned(ledger, now, undefined);
    ctx.io.err(`note: order ${printable(o.orderId)} was already cancelled; nothing changed\n`);
    ctx.output.write({ order: now, already_cancelled: true }, () => ctx.io.out(orderHeading(ctx.io, ctx.output.format, now)));
    return;
  }
  ctx.output.write({ order }, () => ctx.io.out(orderHeading(ctx.io, ctx.output.format, order)));
}

/** The `order cancel` command. */
export function orderCancelCommand(ctx: Context): Command {
  return new Command('cancel')
    .summary('cancel a pending order')
    .description(
      'Cancel a pending order with cancel-order (PUT /orders/{order_id}/cancel/ unless the profile says otherwise). An accepted order cannot be cancelled; an order already cancelled is done (exit 0, with a note).',
    )
    .argument('<order-id>', 'id of the pending order', idArgument)
    .addHelpText('after', '\nExamples:\n  shipbook order cancel ORD-1A2B3C4D\n  shipbook order cancel ORD-1A2B3C4D --json\n')
    .action(async (orderId: string) => runOrderCancel({ orderId }, ctx));
}
