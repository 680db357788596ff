/**
 * `shipbook service show <code>`: the data of one service from fetch-service-data (assumed
 * `GET /services/{service_code}/`, setting `paths.fetch-service-data` of the profile):
 * name, carrier, global_mail and, for consolidated mail, the collection data its shipments carry
 * (the consolidation hub), which `--collection-from-service` fills in.
 */
import { Command } from 'commander';
import { fetchServiceData } from '../../api/services.js';
import type { Context } from '../../context.js';
import { printServiceData } from '../../output/account.js';

/**
 * Fetches and prints the service data in the run's format: field/value rows (a table for `table`,
 * tab-separated for `tsv`), `{service: …}` in a machine format.
 * @throws ApiError (exit 3), e.g. 404 for an unknown service code
 */
async function runServiceShow(code: string, ctx: Context): Promise<void> {
  const profile = await ctx.profile();
  const service = await fetchServiceData(await ctx.api(), code, profile.paths);
  ctx.output.write({ service }, () => {
    printServiceData(ctx.io, ctx.output.format, service);
    if (service.collection_data) {
      ctx.io.err('Shipments of this service carry this collection data: fill it in with --collection-from-service (shipment create, book).\n');
    }
  });
}

/** The `service show` command. */
export function serviceShowCommand(ctx: Context): Command {
  return new Command('show')
    .summary('show what a service prescribes (consolidated mail: the hub collection data)')
    .description(
      'Show the data of a service with fetch-service-data (GET /services/{service_code}/ unless the profile says otherwise): ' +
        'name, carrier, global_mail, and for a consolidated-mail service the collection data its shipments must carry ' +
        '(collection_type and collection: the consolidation hub where the parcels are split).',
    )
    .argument('<code>', 'service code, e.g. SB-GLOBAL-MAIL')
    .addHelpText('after', '\nExamples:\n  shipbook service show SB-GLOBAL-MAIL\n  shipbook service show SB-GLOBAL-MAIL --json\n')
    .action(async (code: string) => runServiceShow(code, ctx));
}
