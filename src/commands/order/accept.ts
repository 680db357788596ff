/** `shipbook order accept <order-id>`: pay for a pending order; booking then runs asynchronously. */
import { Command } from 'commander';
import { acceptOrder } from '../../api/orders.js';
import { buildAcceptRequest, type PaymentFlags } from '../../booking/payment.js';
import type { Context } from '../../context.js';
import { printJson } from '../../output/json.js';
import { printOrder } from '../../output/order.js';
import { addPaymentOptions } from '../payment-options.js';

/** Options of `order accept`. */
export interface OrderAcceptOptions extends PaymentFlags {
  orderId: string;
}

/** Builds the accept request (validated before sending), accepts, prints the acknowledgement. */
export async function runOrderAccept(o: OrderAcceptOptions, ctx: Context): Promise<void> {
  const profile = await ctx.profile();
  const accept = await buildAcceptRequest(o.orderId, o, profile.defaultPayment, { now: ctx.now, stdin: ctx.io.stdin });
  const accepted = await acceptOrder(await ctx.api(), o.orderId, accept);
  if (ctx.json) return printJson(ctx.io, { order: accepted });
  printOrder(ctx.io, accepted);
  ctx.io.err(`Booking runs asynchronously. See the result with: shipbook order get ${accepted.id}\n`);
}

/** The `order accept` command. */
export function orderAcceptCommand(ctx: Context): Command {
  return addPaymentOptions(
    new Command('accept')
      .summary('accept a pending order with payment')
      .description('Accept a pending order (PUT /orders/{order_id}/accept/). The answer only acknowledges receipt; booking runs asynchronously.')
      .argument('<order-id>', 'id of the pending order'),
  )
    .addHelpText(
      'after',
      '\nExamples:\n  shipbook order accept ORD-1A2B3C4D --payment credit\n  shipbook order accept ORD-1A2B3C4D --payment stored_card --card card_visa_4242\n  shipbook order accept ORD-1A2B3C4D --payment credit_card --payment-file fixtures/payments/credit-card.yaml\n',
    )
    .action(async (orderId: string, flags: PaymentFlags) => runOrderAccept({ ...flags, orderId }, ctx));
}
