/** `shipbook order create <file>`: validate an order file and create it (pending, exact price). */
import { Command } from 'commander';
import { createOrder } from '../../api/orders.js';
import { shellCommand } from '../../output/shell.js';
import type { Context } from '../../context.js';
import { loadValidated } from '../input.js';
import { printOrder } from '../../output/order.js';

/** Options of `order create`. */
export interface OrderCreateOptions {
  file: string;
}

/** Validates the file (nothing is sent while a problem remains), creates the order, prints it. */
export async function runOrderCreate(o: OrderCreateOptions, ctx: Context): Promise<void> {
  const order = await loadValidated(o.file, 'order', ctx);
  const created = await createOrder(await ctx.api(), order);
  ctx.output.write({ order: created }, () => {
    printOrder(ctx.io, created);
    ctx.io.err(`Accept it with: ${shellCommand('order', 'accept', created.id)}\n`);
  });
}

/** The `order create` command. */
export function orderCreateCommand(ctx: Context): Command {
  return new Command('create')
    .summary('create a pending order from a file')
    .description('Validate an order file (JSON or YAML, `request` wrapper optional) and create it with POST /orders/.')
    .argument('<file>', 'order file ("-" for standard input)')
    .addHelpText('after', '\nExample:\n  shipbook order create fixtures/orders/domestic-syd-mel.yaml\n')
    .action(async (file: string) => runOrderCreate({ file }, ctx));
}
