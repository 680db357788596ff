/** `shipbook order …`: create, accept (and, with the booking-result work, get and cancel). */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { orderAcceptCommand } from './accept.js';
import { orderCreateCommand } from './create.js';

/** The `order` command group. */
export function orderCommand(ctx: Context): Command {
  return new Command('order')
    .summary('create and accept orders')
    .addCommand(orderCreateCommand(ctx))
    .addCommand(orderAcceptCommand(ctx));
}
