/**
 * `shipbook dock`: scan the day's parcels against its bookings before the driver leaves. Codes come
 * from a barcode scanner in keyboard mode (a code and Enter) or are typed; on a terminal a live
 * screen (src/commands/dock/screen.ts), otherwise one code per line on standard input with a line
 * per scan on stdout (`--json`: NDJSON) and a summary at the end. The matching is
 * src/booking/dock/session.ts; the records src/booking/record.ts.
 */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { scanData, scanLine, summaryData, summaryText } from '../../output/dock.js';
import { endOfSession, openStation, type DockFlags } from './station.js';

/**
 * Without a terminal: a code per line on standard input, a line per scan, the summary at the end.
 * @throws as {@link openStation}; ShipbookError `dock_incomplete` (exit 8) when a parcel is missing or a scan was an exception
 */
async function runLines(flags: DockFlags, ctx: Context): Promise<void> {
  const { station, mark } = await openStation(flags, ctx);
  const machine = ctx.output.machine;
  const { createInterface } = await import('node:readline');
  const lines = createInterface({ input: ctx.io.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim() === '') continue;
    const event = await station.scan(line);
    ctx.io.out(machine ? `${JSON.stringify(scanData(event))}\n` : scanLine(event, ctx.output.format));
  }
  const summary = await station.finish({ confirmedMissing: false });
  const who = {
    station: mark.station,
    session: mark.session,
    ...(mark.driver !== undefined ? { driver: mark.driver } : {}),
    ...(mark.vehicle !== undefined ? { vehicle: mark.vehicle } : {}),
  };
  if (machine) ctx.io.out(`${JSON.stringify(summaryData(summary, who))}\n`);
  ctx.io.err(summaryText(summary, mark.driver));
  endOfSession(summary);
}

/** The `dock` command. */
export function dockCommand(ctx: Context): Command {
  return new Command('dock')
    .summary("scan the day's parcels against its bookings before the driver leaves")
    .description(
      "Scan every parcel of the day against the ledger's bookings (the shared ledger included): a barcode scanner in " +
        'keyboard mode types each code and Enter, typed codes work the same. A code is a tracking number (or what the ' +
        "profile's scan-pattern setting extracts from a label's barcode), or a shipment or order id. Each parcel scanned is " +
        'recorded in the ledger (who, when, station, driver); the exceptions are: unknown code, cancelled order, another ' +
        "day's parcel, another collection address's, already scanned (by whom, when), not yet processed. First the result " +
        'of every order of the day accepted but not processed is read from the service and recorded (not with --offline). ' +
        'On a terminal a live screen; otherwise (or with --no-input) one code per line on standard input, a line per scan ' +
        '(--json: NDJSON) and a summary on stderr. Exit 0 when every expected parcel was scanned and nothing was wrong, ' +
        '8 otherwise.',
    )
    .option('--date <day>', "the day: today, tomorrow, yesterday or YYYY-MM-DD (default: today, in this machine's time zone)")
    .option('--collection <text>', 'only the collection address containing this text (default: all of them)')
    .option('--driver <name>', "the driver's name, recorded with each scan (on a terminal it is asked at the end otherwise)")
    .option('--vehicle <text>', "the driver's vehicle (registration), recorded with the driver")
    .option('--station <name>', 'the name of this scanning station (default: the host name)')
    .option('--offline', 'do not read the result of the accepted orders of the day first; the summary says how many may be missing')
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  shipbook dock\n' +
        '  shipbook dock --no-input --driver "Sam Lee" < scans.txt\n' +
        '  shipbook dock --no-input --json --driver "Sam Lee" --vehicle "XYZ-123" --station dock-2 < scans.txt\n' +
        '  shipbook dock --collection "Unit 4" --date tomorrow --offline\n',
    )
    .action(async (flags: DockFlags) => {
      if (ctx.io.canPrompt) {
        const { runScreen } = await import('./screen.js');
        return runScreen(flags, ctx);
      }
      return runLines(flags, ctx);
    });
}
