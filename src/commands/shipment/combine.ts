/**
 * `shipbook shipment combine [shipment-id...] --main <file> [--file <combine-file>]`: combine
 * shipments from `shipment create` into a parent order (`PUT /shipments/`), then print the
 * children, the main shipment and the price with the sum of the children.
 */
import { hintText } from '../../output/hints.js';
import { settlePickups } from '../../input/pickup.js';
import { Command } from 'commander';
import { openLedgerFor } from '../common/record.js';
import { changeIdentity, recordedRequest, orderWarnings } from '../../booking/index.js';
import { ApiError, UsageError, cmd } from '../../errors.js';
import { combineShipments } from '../../api/shipments.js';
import { documentWarnings } from '../../input/validate.js';
import { showWarnings } from '../common/input.js';
import type { Context } from '../../context.js';
import { loadDocument } from '../../input/load.js';
import { validateDocument } from '../../input/problems.js';
import { printParentOrder } from '../../output/consolidated.js';
import type { CombineRequest } from '../../schema/combine.js';
import { combineFile, shipmentDocument, type CombineFile } from '../../schema/consolidated.js';
import type { ShipmentRequest } from '../../schema/shipment.js';
import { withWarnings } from '../common/warnings.js';

/** Options of `shipment combine`. */
interface ShipmentCombineOptions {
  /** Shipment ids given as arguments; they replace the combine file's `shipments`. */
  ids: string[];
  /** `--main <file>`: the main shipment; replaces the combine file's `main_shipment`. */
  main?: string;
  /** `--file <file>`: a combine file `{shipments: [id, …], main_shipment: …}`. */
  file?: string;
}

/**
 * Merges the command line and the combine file into the combine request: ids from the arguments,
 * else from the file; the main shipment from `--main`, else from the file, else none (accounts with
 * the free-pickup option). @throws UsageError (exit 2) without ids, or with an id given twice.
 */
export function mergeCombine(ids: readonly string[], file: CombineFile | undefined, main: ShipmentRequest | undefined): CombineRequest {
  const shipments = ids.length > 0 ? [...ids] : [...(file?.shipments ?? [])];
  if (shipments.length === 0) {
    throw new UsageError('no shipment ids to combine: give them as arguments or in the shipments list of the --file combine file', {
      suggestion: 'Example: shipbook shipment combine SHP-1A2B3C4D SHP-5E6F7G8H --main fixtures/shipments/main-to-hub.yaml',
    });
  }
  const twice = shipments.find((id, i) => shipments.indexOf(id) !== i);
  if (twice !== undefined) throw new UsageError(`shipment id ${twice} is given twice`);
  const mainShipment = main ?? file?.main_shipment;
  return mainShipment === undefined ? { shipments } : { shipments, main_shipment: mainShipment };
}

/** Where {@link shipmentDocument} finds the shipment in a file: under `shipment`, under `main_shipment`, or at the top. */
function shipmentPrefix(data: unknown): PropertyKey[] {
  if (typeof data === 'object' && data !== null && 'shipment' in data) return ['shipment'];
  if (typeof data === 'object' && data !== null && 'main_shipment' in data) return ['main_shipment'];
  return [];
}

/**
 * Reads the files, combines, prints the parent order.
 * @throws ValidationError / UsageError (exit 2) before sending; ApiError (exit 3): 404 unknown id, 409 already combined, 400 invalid
 */
async function runShipmentCombine(o: ShipmentCombineOptions, ctx: Context): Promise<void> {
  // Every file is validated in full first; the warnings of both files are shown like every sending command's.
  let file: CombineFile | undefined;
  // The main shipment's pickup: `next` and dates no carrier collects on, as every sending command reads them.
  const pickup = o.file !== undefined || o.main !== undefined ? await ctx.usePickupRule({}) : undefined;
  if (o.file !== undefined) {
    const settled = settlePickups(await loadDocument(o.file, ctx.io.stdin), pickup!);
    const doc = settled.doc;
    file = validateDocument(doc, combineFile);
    showWarnings(ctx, { value: file, warnings: [...settled.warnings, ...documentWarnings(doc, file, [], ctx.settings.addresses)] });
  }
  let main: ShipmentRequest | undefined;
  if (o.main !== undefined) {
    if (o.main === '-' && o.file === '-') throw new UsageError('--main and --file cannot both read standard input');
    const settled = settlePickups(await loadDocument(o.main, ctx.io.stdin), pickup!);
    const doc = settled.doc;
    main = validateDocument(doc, shipmentDocument(doc.data));
    showWarnings(ctx, { value: main, warnings: [...settled.warnings, ...documentWarnings(doc, main, shipmentPrefix(doc.data), ctx.settings.addresses)] });
  }
  const request = mergeCombine(o.ids, file, main);
  let parent;
  const api = await ctx.api();
  const ledger = await openLedgerFor(ctx, {
    op: 'shipment combine',
    command: hintText([cmd('shipment', 'combine', ...request.shipments)], ctx.settings.hints),
  });
  try {
    // The intent on disk before the combine leaves; the parent order recorded as it comes, with what the hand-over sheet needs.
    parent = await recordedRequest(
      ledger,
      { id: changeIdentity() },
      { step: 'combine', shipmentIds: request.shipments },
      () => combineShipments(api, request),
      (order) => ({ kind: 'created', order }),
    );
  } catch (err) {
    if (err instanceof ApiError && request.main_shipment === undefined && err.fieldErrors.some((f) => f.field === 'main_shipment')) {
      const hint = 'Give the shipment that carries the parcels to the hub with --main <file>, e.g. --main fixtures/shipments/main-to-hub.yaml.';
      const { status, envelopeCode, message, fieldErrors, method, url, suggestion } = err;
      throw new ApiError({ status, envelopeCode, message, fieldErrors, method, url, suggestion: suggestion ? `${hint}\n${suggestion}` : hint });
    }
    throw err;
  }
  ctx.output.write(withWarnings(ctx, { order: parent }, orderWarnings(parent, request.shipments)), () => {
    printParentOrder(ctx.io, ctx.output.format, parent, request.shipments);
    ctx.io.err(`Accept the parent order with: ${hintText([cmd('order', 'accept', parent.id)], ctx.settings.hints)}\n`);
  });
}

/** The `shipment combine` command. */
export function shipmentCombineCommand(ctx: Context): Command {
  return new Command('combine')
    .summary('combine created shipments into a parent order')
    .description(
      'Combine shipments from "shipment create" into one parent order (PUT /shipments/) with the main ' +
        'shipment that carries them to the hub, where they are split. The parent is pending; accept it ' +
        'with "shipbook order accept". Ids come from the arguments or from a combine file (--file) holding ' +
        "{shipments: [ids], main_shipment: …}; ids given as arguments replace the file's, and --main " +
        'replaces its main_shipment. Without a main shipment the service must grant free pickup.',
    )
    .argument('[shipment-id...]', 'ids of shipments from "shipbook shipment create"')
    .option('--main <file>', 'the main shipment: a file holding {shipment: …}, {main_shipment: …} or the shipment itself')
    .option('--file <file>', 'combine file: {shipments: [id, …], main_shipment: …} (JSON or YAML, "-" for stdin)')
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  shipbook shipment combine SHP-1A2B3C4D SHP-5E6F7G8H --main fixtures/shipments/main-to-hub.yaml\n' +
        '  shipbook shipment combine --file fixtures/combine/two-parcels-to-hub.yaml SHP-1A2B3C4D SHP-5E6F7G8H\n' +
        '  shipbook shipment combine SHP-1A2B3C4D SHP-5E6F7G8H --main fixtures/shipments/main-to-hub.yaml --dry-run\n',
    )
    .action(async (ids: string[], flags: { main?: string; file?: string }) => runShipmentCombine({ ids, main: flags.main, file: flags.file }, ctx));
}
