/**
 * `shipbook handover`: the day's hand-over sheet, what the driver takes away and signs for (not a
 * carrier manifest: the carrier never sees it). Made from the ledger of the target
 * (src/ledger/history.ts `sheetOrders`, src/ledger/sheet.ts `buildSheet`); the carrier of each
 * service code is asked of the service once per code (fetch-service-data), the code standing in
 * when the service cannot be reached. A table on a terminal, tab-separated lines otherwise, JSON
 * or YAML with `--json`/`--output`, and files: `--pdf` (with a Code 128 barcode per tracking
 * number; pdf-lib and bwip-js are loaded only then) and `--csv`.
 */
import { writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Command, Option } from 'commander';
import type { Context } from '../../context.js';
import { ShipbookError, UsageError } from '../../errors.js';
import { checkOutputFiles } from '../../output-paths.js';
import { localDay, buildSheet, type SheetFilter } from '../../ledger/index.js';
import { fetchServiceData } from '../../api/services.js';
import { noMatch } from '../../booking/index.js';
import { printSheet, sheetCsv } from '../../output/handover.js';
import { noMatchMessage } from '../../output/dock.js';
import { dayCarriers, dayOrders } from '../dock/day.js';

/** Flags of `handover`. */
interface HandoverFlags {
  date?: string;
  collection?: string;
  carrier?: string;
  driver?: string;
  offline?: boolean;
  pdf?: string;
  csv?: string;
  paper: 'a4' | 'letter';
}

/**
 * Writes a file of the sheet.
 * @throws ShipbookError `file_unwritable` (exit 2) naming the file and the flag when it cannot be written
 */
async function writeSheet(path: string, data: string | Uint8Array, flag: string): Promise<void> {
  try {
    await writeFile(path, data);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const words: Record<string, string> = {
      ENOENT: `the directory ${dirname(path)} does not exist`,
      ENOTDIR: `${dirname(path)} is not a directory`,
      EACCES: 'permission denied',
      EPERM: 'permission denied',
      EISDIR: 'it is a directory',
      EROFS: 'read-only file system',
      ENOSPC: 'no space left on the device',
    };
    throw new ShipbookError('file_unwritable', `cannot write ${path} (${flag}): ${(code && words[code]) ?? code ?? (err as Error).message}`, 'input', {
      suggestion: `Give ${flag} a file in a directory you can write.`,
      cause: err,
    });
  }
}

/**
 * Makes the sheet of the day and writes it in the files asked for (`--pdf FILE`, `--csv FILE`), or
 * on stdout when none is.
 * @throws UsageError (exit 2) for a date that is not YYYY-MM-DD; ShipbookError `file_unwritable` (exit 2) for a file that cannot be written
 */
async function runHandover(flags: HandoverFlags, ctx: Context): Promise<void> {
  const date = sheetDay(flags.date, ctx.now());
  // The files are checked before the ledger is read and the carriers asked of the service.
  checkOutputFiles([
    ...(flags.pdf !== undefined ? [{ flag: '--pdf', path: flags.pdf }] : []),
    ...(flags.csv !== undefined ? [{ flag: '--csv', path: flags.csv }] : []),
  ]);
  const day = await dayOrders(ctx, date, { offline: flags.offline === true, op: 'handover' });
  // Only the codes of the day's shipments are asked about.
  const carrierOf = await dayCarriers(ctx, day.orders, date, flags.offline === true);
  const filter: SheetFilter = {
    date,
    ...(flags.collection !== undefined ? { collection: flags.collection } : {}),
    ...(flags.carrier !== undefined ? { carrier: flags.carrier } : {}),
    ...(flags.driver !== undefined ? { driver: flags.driver } : {}),
    ...(ctx.globals.profile !== undefined ? { profile: ctx.globals.profile } : {}),
  };
  const sheet = buildSheet(day.orders, filter, carrierOf);
  if (day.mayBeMissing > 0) sheet.may_be_missing = day.mayBeMissing;
  const miss = noMatch(sheet, day.orders, filter, carrierOf);
  if (miss !== undefined)
    throw new UsageError(noMatchMessage(miss, date), {
      suggestion:
        miss.nearest !== undefined
          ? `Did you mean ${miss.flag} "${miss.nearest}"? Without ${miss.flag} the sheet lists the whole day.`
          : `Without ${miss.flag} the sheet lists the whole day.`,
    });
  const made = ctx.now().toISOString();
  if (flags.pdf !== undefined) {
    const { renderSheetPdf } = await import('../../output/handover-pdf.js');
    await writeSheet(flags.pdf, await renderSheetPdf(sheet, flags.paper, made), '--pdf');
    ctx.io.err(`Wrote the hand-over sheet of ${date} to ${flags.pdf} (PDF, ${flags.paper === 'a4' ? 'A4' : 'US Letter'}).\n`);
  }
  if (flags.csv !== undefined) {
    await writeSheet(flags.csv, sheetCsv(sheet), '--csv');
    ctx.io.err(`Wrote the hand-over sheet of ${date} to ${flags.csv} (CSV).\n`);
  }
  if (flags.pdf !== undefined || flags.csv !== undefined) return;
  ctx.output.write({ handover: sheet }, () => printSheet(ctx.io, ctx.output.format, sheet));
}

/**
 * The day of a sheet from `--date`: `today` (also without the flag), `tomorrow`, `yesterday` (in
 * this machine's time zone, where the dock is), or a date `YYYY-MM-DD`.
 * @throws UsageError (exit 2) for anything else
 */
export function sheetDay(given: string | undefined, now: Date): string {
  const word = given?.trim().toLowerCase() ?? 'today';
  const shift = { yesterday: -1, today: 0, tomorrow: 1 }[word];
  if (shift !== undefined) return localDay(new Date(now.getFullYear(), now.getMonth(), now.getDate() + shift, 12));
  const date = given!.trim();
  const parsed = /^\d{4}-\d{2}-\d{2}$/.test(date) ? new Date(`${date}T00:00:00Z`) : undefined;
  if (parsed === undefined || Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== date)
    throw new UsageError(`--date "${given}" is not a day`, { suggestion: 'For example --date today, --date yesterday or --date 2026-11-26 (YYYY-MM-DD).' });
  return date;
}

/** The `handover` command. */
export function handoverCommand(ctx: Context): Command {
  return new Command('handover')
    .summary("print the day's hand-over sheet for the driver to sign")
    .description(
      "Make the day's hand-over sheet from the ledger: one section per collection address and pickup date, then per " +
        'carrier, each shipment with its tracking number, order, recipient city and country, packages, weight (kg) and ' +
        "service, and whether it was scanned at the dock (when, by whom, to which driver); each section's totals and lines " +
        "for the driver's name, signature and time. First the result of every order of the day accepted but not yet " +
        'processed is read from the service and recorded (not with --offline); those still not processed are listed ' +
        'apart (no tracking number yet); cancelled ones are left out and counted. A filter that matches nothing is an ' +
        'error (exit 2) naming what the day holds. It is not a ' +
        'carrier manifest. The carrier of each service is asked of the service; --profile limits the sheet to orders ' +
        'created with that profile.',
    )
    .option('--date <day>', "the day of the sheet: today, tomorrow, yesterday or YYYY-MM-DD (default: today, in this machine's time zone)")
    .option('--collection <text>', 'only collection addresses containing this text')
    .option('--carrier <name>', 'only this carrier (its name, or a service code)')
    .option('--driver <name>', 'only the shipments scanned at the dock and handed to this driver')
    .option('--offline', 'do not read the result of the orders of the day accepted but not processed; the sheet says how many may be missing')
    .option('--pdf <file>', 'write the sheet to this PDF file, with a Code 128 barcode per tracking number')
    .option('--csv <file>', 'write the sheet to this CSV file, one row per shipment')
    .addOption(new Option('--paper <size>', 'paper of the PDF').choices(['a4', 'letter']).default('a4'))
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  shipbook handover\n' +
        '  shipbook handover --date 2026-11-26 --pdf handover.pdf\n' +
        '  shipbook handover --date yesterday\n' +
        '  shipbook handover --pdf handover.pdf --paper letter --carrier StarTrack\n' +
        '  shipbook handover --csv handover.csv --collection "Unit 4"\n' +
        '  shipbook handover --json\n' +
        '  shipbook handover --offline\n',
    )
    .action(async (flags: HandoverFlags) => runHandover(flags, ctx));
}
