/** Every top-level command, in the order `shipbook --help` lists them. Add new commands here. */
import type { Command } from 'commander';
import type { Context } from '../context.js';
import { bookCommand } from './book.js';
import { orderCommand } from './order/index.js';
import { quoteCommand } from './quote.js';
import { sandboxCommand } from './sandbox.js';

/** Adds every command to the root program. */
export function registerCommands(program: Command, ctx: Context): void {
  program.addCommand(quoteCommand(ctx));
  program.addCommand(orderCommand(ctx));
  program.addCommand(bookCommand(ctx));
  program.addCommand(sandboxCommand(ctx));
}
