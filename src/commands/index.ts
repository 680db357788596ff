/** Every top-level command, in the order `shipbook --help` lists them. Add new commands here. */
import type { Command } from 'commander';
import type { Context } from '../context.js';
import { authCommand } from './auth/index.js';
import { bookCommand } from './book.js';
import { callbackCommand } from './callback/index.js';
import { cardCommand } from './card/index.js';
import { installCompletion } from './completion.js';
import { configCommand } from './config/index.js';
import { doctorCommand } from './doctor.js';
import { journalCommand } from './journal/index.js';
import { applyHelpExtras } from './help-examples.js';
import { installHelpCommand } from './help-topics.js';
import { orderCommand } from './order/index.js';
import { quoteCommand } from './quote.js';
import { sandboxCommand } from './sandbox.js';
import { schemaCommand } from './schema.js';
import { serviceCommand } from './service/index.js';
import { shipmentCommand } from './shipment/index.js';
import { validateCommand } from './validate.js';

/** Adds every command to the root program. */
export function registerCommands(program: Command, ctx: Context): void {
  program.addCommand(quoteCommand(ctx));
  program.addCommand(orderCommand(ctx));
  program.addCommand(shipmentCommand(ctx));
  program.addCommand(serviceCommand(ctx));
  program.addCommand(cardCommand(ctx));
  program.addCommand(bookCommand(ctx));
  program.addCommand(journalCommand(ctx));
  program.addCommand(validateCommand(ctx));
  program.addCommand(schemaCommand(ctx));
  program.addCommand(callbackCommand(ctx));
  program.addCommand(sandboxCommand(ctx));
  program.addCommand(authCommand(ctx));
  program.addCommand(configCommand(ctx));
  program.addCommand(doctorCommand(ctx));
  // These read the finished tree: keep them last.
  installHelpCommand(program, ctx);
  installCompletion(program, ctx);
  applyHelpExtras(program);
}
