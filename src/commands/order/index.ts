/** `shipbook order …`: create, accept (optionally waiting for the booking result), get and cancel. */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { orderAcceptCommand } from './accept.js';
import { orderCancelCommand } from './cancel.js';
import { orderCreateCommand } from './create.js';
import { orderGetCommand } from './get.js';
import { orderListCommand } from './list.js';

/** The `order` command group. */
export function orderCommand(ctx: Context): Command {
  return new Command('order')
    .summary('create, accept, show, cancel and list orders')
    .addCommand(orderCreateCommand(ctx))
    .addCommand(orderAcceptCommand(ctx))
    .addCommand(orderGetCommand(ctx))
    .addCommand(orderCancelCommand(ctx))
    .addCommand(orderListCommand(ctx));
}
