/** `shipbook service …`: the data of a service. */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { serviceShowCommand } from './show.js';

/** The `service` command group. */
export function serviceCommand(ctx: Context): Command {
  return new Command('service')
    .summary('show the data of a service')
    .description('The data of a service (fetch-service-data): name, carrier, global_mail and, for consolidated mail, the collection data its shipments carry.')
    .addHelpText('after', '\nExamples:\n  shipbook service show SB-GLOBAL-MAIL\n  shipbook service show SB-GLOBAL-MAIL --json\n')
    .addCommand(serviceShowCommand(ctx));
}
