/** `shipbook shipment create <file>`: validate a consolidated-mail shipment and create it (status new, exact price). */
import { cmd } from '../../errors.js';
import { hintText } from '../../output/hints.js';
import { Command } from 'commander';
import { openLedgerFor } from '../common/record.js';
import { changeIdentity, recordedRequest, priceWarnings } from '../../booking/index.js';
import { createShipment } from '../../api/shipments.js';
import type { Context } from '../../context.js';
import { printCreatedShipment } from '../../output/consolidated.js';
import { readShipmentInput } from './input.js';
import { withWarnings } from '../common/warnings.js';

/** Options of `shipment create`. */
interface ShipmentCreateOptions {
  /** The shipment file: `{shipment: …}` (create-shipment request form, `request` wrapper optional) or a bare shipment; `-` for stdin. */
  file?: string;
  /** `--service cheapest|<code>`: for a shipment without `service.code`, from the consolidated-mail services of a live quote. */
  service?: string;
  /** `--save-as <file>`: write what was entered as a shipment file. */
  saveAs?: string;
  /** `--collection-from-service`: collection_type and collection from fetch-service-data (refused when the file has a different one). */
  collectionFromService?: boolean;
}

/**
 * Validates the file (nothing is sent while a problem remains; the shipment must leave
 * Australia), creates the shipment with `POST /shipments/` and prints its id and price.
 * @throws ValidationError (exit 2), ApiError (exit 3, e.g. a service code that is not consolidated mail)
 */
async function runShipmentCreate(o: ShipmentCreateOptions, ctx: Context): Promise<void> {
  // Through the kinds registry like every sending command, so warnings (a 40 kg package) show too.
  // No file, or a partial one, on a terminal: the missing parts are asked (src/commands/shipment/input.ts).
  const { shipment } = await readShipmentInput(o.file, o, ctx);
  const api = await ctx.api();
  const ledger = await openLedgerFor(ctx, {
    op: 'shipment create',
    command: hintText([cmd('shipment', 'create', ...(o.file === undefined ? [] : [o.file]))], ctx.settings.hints),
  });
  // The intent on disk before the create leaves; the shipment's id and price recorded as they come.
  const created = await recordedRequest(
    ledger,
    { id: changeIdentity() },
    { step: 'create_shipment' },
    () => createShipment(api, { shipment }),
    (s) => ({ kind: 'shipment_created', shipmentIds: [s.id], ...(s.service?.price?.total ? { total: s.service.price.total.toString() } : {}) }),
  );
  ctx.output.write(withWarnings(ctx, { shipment: created }, priceWarnings(`shipment ${created.id}`, created.service?.price)), () => {
    printCreatedShipment(ctx.io, ctx.output.format, created);
    // No placeholder in a command: the ids of the others are not known here, so the next step is said in words.
    ctx.io.err(
      `Next: create the other shipments of the consolidation, then combine them all with "${hintText([cmd('shipment', 'combine')], ctx.settings.hints)}", giving ${created.id}, their ids and --main with the main shipment's file; how: ${hintText([cmd('shipment', 'combine', '--help')], ctx.settings.hints)}\n`,
    );
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
    .argument('[file]', 'shipment file (JSON or YAML, "-" for standard input); none on a terminal: asked step by step')
    .option('--service <cheapest|code>', 'without service.code: the cheapest consolidated-mail service of a live quote, or this code')
    .option('--save-as <file>', 'write the shipment as a file that creates it again without prompts')
    .option(
      '--collection-from-service',
      'fill collection_type and collection from the service data (shipbook service show <code>); refused when the file has a different collection',
    )
    .addHelpText(
      'after',
      '\nExamples:\n  shipbook shipment create fixtures/shipments/au-us-1.yaml\n  shipbook shipment create fixtures/shipments/au-nz-no-collection.yaml --collection-from-service\n  shipbook shipment create fixtures/shipments/au-gb-2.yaml --json\n  shipbook shipment create                 # on a terminal: asked step by step\n',
    )
    .action(async (file: string | undefined, flags: { service?: string; saveAs?: string; collectionFromService?: boolean }) => {
      await ctx.usePickupRule({});
      return runShipmentCreate({ ...flags, file }, ctx);
    });
}
