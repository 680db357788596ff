/** `shipbook service …`: the data of a service (issue 16). */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { serviceShowCommand } from './show.js';

/** The `service` command group. */
export function serviceCommand(ctx: Context): Command {
  return new Command('service').summary('show the data of a service').addCommand(serviceShowCommand(ctx));
}
