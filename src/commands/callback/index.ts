/** `shipbook callback …`: tools for the booking callback (interface document, "Events"). */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { callbackListenCommand } from './listen.js';

/** The `callback` command group. */
export function callbackCommand(ctx: Context): Command {
  return new Command('callback').summary('receive booking callbacks on this machine').addCommand(callbackListenCommand(ctx));
}
