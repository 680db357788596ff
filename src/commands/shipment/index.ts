/** `shipbook shipment …`: consolidated mail — create shipments and combine them into a parent order. */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { shipmentCombineCommand } from './combine.js';
import { shipmentCreateCommand } from './create.js';

/** The `shipment` command group. */
export function shipmentCommand(ctx: Context): Command {
  return new Command('shipment')
    .summary('consolidated mail: create shipments and combine them into a parent order')
    .description(
      'Consolidated mail (Australia → anywhere): create each shipment, combine them into a parent order ' +
        'with the main shipment that carries them to the hub, then accept the parent with "shipbook order ' +
        'accept". "shipbook book" does all of it in one go for a file listing the shipments.',
    )
    .addCommand(shipmentCreateCommand(ctx))
    .addCommand(shipmentCombineCommand(ctx));
}
