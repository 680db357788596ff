/**
 * `shipbook documents`: the customs papers of international orders (the commercial invoice with the
 * customs declaration, and the packing slip), made offline from the ledger's record of each order
 * (the shared ledger too): for orders named by id or tracking number, the orders of a day, or the
 * orders of a batch report. `--check` lists the items the product catalogue has no tariff code for.
 */
import { readFile } from 'node:fs/promises';
import { Command, Option } from 'commander';
import type { Context } from '../../context.js';
import { ShipbookError, UsageError } from '../../errors.js';
import { itemsWithoutCode } from '../../booking/index.js';
import { paperOrders } from '../../booking/index.js';
import { selectPaperOrders } from '../../booking/index.js';
import { noteText, printMadeFiles, printMissingCodes } from '../../output/papers/report.js';
import { sheetDay } from '../handover/index.js';
import { makePaperFiles, readPaperSettings } from './make.js';

/** Flags of `documents`. */
interface DocumentsFlags {
  date?: string;
  report?: string;
  invoice?: boolean;
  packingSlip?: boolean;
  prices: boolean;
  paper: 'a4' | 'letter' | '4x6';
  copies: string;
  out?: string;
  check?: boolean;
  catalogue?: string;
  signature?: string;
}

/**
 * The order ids of a batch report (`book --report FILE`, JSON: `orders[].order_id`).
 * @throws UsageError (exit 2) for a file that cannot be read or is not a batch report
 */
async function reportOrderIds(file: string): Promise<string[]> {
  let data: unknown;
  try {
    data = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    throw new UsageError(`--report ${file}: ${(err as NodeJS.ErrnoException).code ?? 'not JSON'}`, {
      suggestion: 'Give --report the JSON report of a batch (shipbook book … --report report.json).',
      cause: err,
    });
  }
  const orders = (data as { orders?: unknown }).orders;
  if (!Array.isArray(orders))
    throw new UsageError(`--report ${file} is not a batch report (no "orders" list)`, {
      suggestion: 'Give --report the JSON report of a batch (shipbook book … --report report.json).',
    });
  return orders.map((o) => (o as { order_id?: unknown }).order_id).filter((id): id is string => typeof id === 'string');
}

/**
 * The number of copies from `--copies`.
 * @throws UsageError (exit 2) for anything but a whole number from 1 to 20
 */
function copiesOf(text: string): number {
  const n = /^\d+$/.test(text.trim()) ? Number(text) : NaN;
  if (!(n >= 1 && n <= 20)) throw new UsageError(`--copies "${text}" is not a number of copies from 1 to 20`, { suggestion: 'For example --copies 3.' });
  return n;
}

/**
 * Makes the papers asked for, or lists the items without a tariff code (`--check`).
 * @throws UsageError (exit 2) for nothing named, a name the ledger does not know, a bad flag
 */
async function runDocuments(names: string[], flags: DocumentsFlags, ctx: Context): Promise<void> {
  const copies = copiesOf(flags.copies);
  const date = flags.date !== undefined ? sheetDay(flags.date, ctx.now()) : undefined;
  if (names.length === 0 && date === undefined && flags.report === undefined)
    throw new UsageError('name the orders: order ids or tracking numbers, --date or --report', {
      suggestion: 'For example: shipbook documents --date today',
    });
  const reportIds = flags.report !== undefined ? await reportOrderIds(flags.report) : undefined;
  const profile = await ctx.profile();
  const settings = await readPaperSettings({
    ...profile.papers,
    ...(flags.catalogue !== undefined ? { catalogue: flags.catalogue } : {}),
    ...(flags.signature !== undefined ? { signature: flags.signature } : {}),
  });
  const all = await paperOrders(await ctx.ledger('query'));
  const selection = selectPaperOrders(all, {
    names,
    ...(date !== undefined ? { date } : {}),
    ...(reportIds !== undefined ? { reportOrderIds: reportIds } : {}),
  });
  if (selection.unknown.length > 0)
    throw new ShipbookError(
      'unknown_order',
      `the ledger of this target has no order or tracking number ${selection.unknown.map((n) => `"${n}"`).join(', ')}; no papers made`,
      'input',
      { suggestion: 'See the orders the ledger knows with: shipbook history' },
    );
  if (flags.check === true) {
    const missing = itemsWithoutCode(selection.orders, settings.catalogue);
    ctx.output.write({ documents: { missing_codes: missing, catalogue: settings.catalogue?.file ?? null } }, () =>
      printMissingCodes(ctx.io, missing, settings.catalogue?.file),
    );
    for (const n of selection.notes) if (n.kind !== 'no_tracking_yet') ctx.io.err(`note: ${noteText(n)}\n`);
    return;
  }
  const both = flags.invoice !== true && flags.packingSlip !== true;
  const choice = { invoice: both || flags.invoice === true, packingSlip: both || flags.packingSlip === true, noPrices: !flags.prices };
  const outPath = flags.out ?? '.';
  const out = /\.pdf$/i.test(outPath) ? { file: outPath } : { dir: outPath };
  const made = await makePaperFiles(selection.orders, out, { choice, paper: flags.paper, copies }, settings);
  ctx.output.write({ documents: { files: made.files, notes: selection.notes, unprintable: made.unprintable } }, () =>
    printMadeFiles(ctx.io, made.files, selection.notes, made.unprintable),
  );
  if (made.files.length === 0) ctx.io.err('No customs papers were made: none of these orders leaves Australia with papers to print.\n');
}

/** The `documents` command. */
export function documentsCommand(ctx: Context): Command {
  return new Command('documents')
    .summary('make the customs papers of international orders: commercial invoice, packing slip')
    .argument('[orders...]', 'order ids or tracking numbers')
    .description(
      'Make the customs papers of international orders from the ledger, offline: the commercial invoice (with the ' +
        'customs declaration and a signature line) and the packing slip, as PDF on A4, US Letter or a 4x6 in label. ' +
        'Choose the orders by order id or tracking number, by day (--date: the pickup date, or the day a drop-off was ' +
        'booked) or by a batch report (--report). A domestic order needs no papers and gets none. Tariff (HS) codes ' +
        'come from the product catalogue of the profile (papers.catalogue); --check lists the items without one.',
    )
    .option('--date <day>', 'the orders of a day: today, tomorrow, yesterday or YYYY-MM-DD (pickup date; for a drop-off, the day it was booked)')
    .option('--report <file>', 'the orders of a batch report (book --report FILE, JSON)')
    .option('--invoice', 'the commercial invoice with the customs declaration (default: the invoice and the packing slip)')
    .option('--packing-slip', 'the packing slip (default: the invoice and the packing slip)')
    .option('--no-prices', 'a gift slip: the packing slip without values')
    .addOption(new Option('--paper <size>', 'paper: A4, US Letter, or a 4x6 in label for thermal printers').choices(['a4', 'letter', '4x6']).default('a4'))
    .option('--copies <n>', 'copies of each paper, one after the other (1 to 20)', '1')
    .option('--out <path>', 'a .pdf file for all the papers, or a directory for one PDF per order (default: the current directory)')
    .option('--check', 'list the items without a tariff (HS) code in the product catalogue; make no papers')
    .option('--catalogue <file>', "the product catalogue of tariff (HS) codes, CSV or YAML (default: the profile's papers.catalogue)")
    .option('--signature <file>', "the shipper's signature image, PNG or JPG, for orders that gave none (default: the profile's papers.signature)")
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  shipbook documents --date today --out papers/\n' +
        '  shipbook documents --date today --invoice --copies 3 --out invoices.pdf\n' +
        '  shipbook documents --date today --packing-slip --no-prices --paper 4x6 --out slips/\n' +
        '  shipbook documents --date today --check --catalogue fixtures/papers/catalogue.csv\n' +
        '  shipbook documents --date today --invoice --signature fixtures/papers/signature.png --out invoices.pdf\n' +
        '  shipbook documents --date yesterday --paper letter --json\n',
    )
    .action(async (names: string[], flags: DocumentsFlags) => runDocuments(names, flags, ctx));
}
