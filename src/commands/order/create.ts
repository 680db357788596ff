/** `shipbook order create <file>`: validate an order file and create it (pending, exact price). */
import { Command } from 'commander';
import { createOrder } from '../../api/orders.js';
import { shellCommand } from '../../shell.js';
import type { Context } from '../../context.js';
import { checkMaxTotal, readOrderInput, type OrderInputFlags } from '../common/order-input.js';
import { printOrder } from '../../output/order.js';
import { withWarnings } from '../common/warnings.js';
import { orderWarnings } from '../../booking/price-check.js';

/** Options of `order create`. */
interface OrderCreateOptions extends OrderInputFlags {
  /** The order file; none on a terminal: asked step by step. */
  file?: string;
}

/** Validates the file (nothing is sent while a problem remains), creates the order, prints it. */
async function runOrderCreate(o: OrderCreateOptions, ctx: Context): Promise<void> {
  const { order, maxTotalCents } = await readOrderInput(o.file, o, ctx, { command: 'shipbook order create', withPayment: false });
  const created = await createOrder(await ctx.api(), order);
  await checkMaxTotal(ctx, created, maxTotalCents);
  ctx.output.write(withWarnings(ctx, { order: created }, orderWarnings(created)), () => {
    printOrder(ctx.io, ctx.output.format, created);
    ctx.io.err(`Accept it with: ${shellCommand('order', 'accept', created.id)}\n`);
  });
}

/** The `order create` command. */
export function orderCreateCommand(ctx: Context): Command {
  return new Command('create')
    .summary('create a pending order from a file')
    .description('Validate an order file (JSON or YAML, `request` wrapper optional) and create it with POST /orders/.')
    .argument('[file]', 'order file ("-" for standard input); none on a terminal: asked step by step')
    .option('--service <cheapest|code>', 'for shipments without service.code: the cheapest service of a live quote, or this code')
    .option('--max-total <aud>', 'cancel the new order if its exact total is above this (AUD), exit 9')
    .option('--save-as <file>', 'write the order as a file that creates it again without prompts')
    .addHelpText(
      'after',
      '\nExamples:\n  shipbook order create fixtures/orders/domestic-syd-mel.yaml\n  shipbook order create fixtures/wizard/no-service.yaml --service cheapest --max-total 50\n',
    )
    .action(async (file: string | undefined, flags: OrderInputFlags) => runOrderCreate({ ...flags, file }, ctx));
}
