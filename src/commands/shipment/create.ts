/** `shipbook shipment create <file>`: validate a consolidated-mail shipment and create it (status new, exact price). */
import { Command } from 'commander';
import { createShipment } from '../../api/shipments.js';
import { shellCommand } from '../../output/shell.js';
import type { Context } from '../../context.js';
import { printCreatedShipment } from '../../output/consolidated.js';
import { loadValidated } from '../input.js';

/** Options of `shipment create`. */
export interface ShipmentCreateOptions {
  /** The shipment file: `{shipment: …}` (create-shipment request form, `request` wrapper optional) or a bare shipment; `-` for stdin. */
  file: string;
}

/**
 * Validates the file (nothing is sent while a problem remains; the shipment must leave
 * Australia), creates the shipment with `POST /shipments/` and prints its id and price.
 * @throws ValidationError (exit 2), ApiError (exit 3, e.g. a service code that is not consolidated mail)
 */
export async function runShipmentCreate(o: ShipmentCreateOptions, ctx: Context): Promise<void> {
  // Through the kinds registry like every sending command, so warnings (a 40 kg package) show too.
  const { shipment } = await loadValidated(o.file, 'shipment', ctx);
  const created = await createShipment(await ctx.api(), { shipment });
  ctx.output.write({ shipment: created }, () => {
    printCreatedShipment(ctx.io, created);
    ctx.io.err(`Combine it with the others: ${shellCommand('shipment', 'combine', created.id)} <other shipment ids> --main <main shipment file>\n`);
  });
}

/** The `shipment create` command. */
export function shipmentCreateCommand(ctx: Context): Command {
  return new Command('create')
    .summary('create a consolidated-mail shipment from a file')
    .description(
      'Validate a shipment file and create it with POST /shipments/ (consolidated mail: a service with ' +
        'global_mail: true in the quote, leaving Australia). The file holds {shipment: …} (the request ' +
        'wrapper is optional) or the shipment itself. Prints the shipment id and its exact price.',
    )
    .argument('<file>', 'shipment file (JSON or YAML, "-" for standard input)')
    .addHelpText('after', '\nExamples:\n  shipbook shipment create fixtures/shipments/au-us-1.yaml\n  shipbook shipment create fixtures/shipments/au-gb-2.yaml --json\n')
    .action(async (file: string) => runShipmentCreate({ file }, ctx));
}
