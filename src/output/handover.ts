/**
 * The hand-over sheet for people and spreadsheets: a table (or tab-separated lines) on stdout, and
 * CSV. The PDF is src/output/handover-pdf.ts; JSON is the sheet itself (src/ledger/reports/sheet.ts).
 */
import { stringify } from 'csv-stringify/sync';
import type { IOStreams } from '../io.js';
import type { Sheet, SheetLine } from '../ledger/index.js';
import type { OutputFormat } from './format.js';
import { localTime } from './local-time.js';
import { renderTable } from './table.js';

/** The sheet's title. */
export const SHEET_TITLE = 'Hand-over sheet';

/** The footer of every page: what the sheet is not. */
export const SHEET_FOOTER = 'Made by shipbook from its ledger. This is not a carrier manifest.';

/** Kilograms with up to three decimals, no trailing zeros (`12.5`, `0.454`). */
export function kgText(kg: number): string {
  return String(Math.round(kg * 1000) / 1000);
}

/**
 * What the dock says of a shipment, in a few words: `scanned 14:02 by ann at dock-1, to Sam Lee`
 * (the time of day in this machine's zone), `not handed over`, or `not scanned`.
 */
export function scanText(l: Pick<SheetLine, 'scanned' | 'not_handed_over'>): string {
  if (l.not_handed_over) return 'not handed over';
  const s = l.scanned;
  if (s === undefined) return 'not scanned';
  const time = localTime(s.at).slice(11, 16);
  const driver = s.driver !== undefined ? `, to ${s.driver}${s.vehicle !== undefined ? ` (${s.vehicle})` : ''}` : '';
  return `scanned ${time}${s.by !== undefined ? ` by ${s.by}` : ''} at ${s.station}${driver}`;
}

/** A line for a sheet that may be short: the orders whose result was not read. */
export function mayBeMissingText(sheet: Pick<Sheet, 'may_be_missing'>): string | undefined {
  const n = sheet.may_be_missing ?? 0;
  if (n === 0) return undefined;
  return `${n} accepted order(s) of the day whose booking result was not read may be missing from this sheet`;
}

/** The columns of the CSV form, one row per shipment. */
const CSV_HEADER = [
  'section',
  'collection',
  'pickup_date',
  'carrier',
  'tracking_number',
  'order_id',
  'shipment_id',
  'city',
  'country',
  'packages',
  'weight_kg',
  'service',
  'scanned_at',
  'scanned_by',
  'station',
  'driver',
  'dock',
] as const;

/**
 * The sheet as CSV: a header, one row per shipment (`section` `handover`), then those without a
 * tracking number yet (`section` `no_tracking_yet`, tracking empty). Cells that a spreadsheet would
 * run as formulas are escaped.
 */
export function sheetCsv(sheet: Sheet): string {
  const rows: string[][] = [[...CSV_HEADER]];
  for (const s of sheet.sections)
    for (const c of s.carriers)
      for (const l of c.lines)
        rows.push([
          'handover',
          s.collection,
          s.pickup_date,
          c.carrier,
          l.tracking,
          l.order_id,
          l.shipment_id,
          l.city,
          l.country,
          String(l.packages),
          kgText(l.weight_kg),
          l.service,
          l.scanned?.at ?? '',
          l.scanned?.by ?? '',
          l.scanned?.station ?? '',
          l.scanned?.driver ?? '',
          l.not_handed_over ? 'not_handed_over' : l.scanned !== undefined ? 'scanned' : 'not_scanned',
        ]);
  for (const p of sheet.no_tracking_yet)
    rows.push([
      'no_tracking_yet',
      '',
      '',
      '',
      '',
      p.order_id,
      p.shipment_id,
      p.city,
      p.country,
      String(p.packages),
      kgText(p.weight_kg),
      p.service,
      '',
      '',
      '',
      '',
      '',
    ]);
  return stringify(rows, { escape_formulas: true });
}

/**
 * The sheet for people (a table per section) or tab-separated lines (one per shipment: collection,
 * pickup date, carrier, tracking number, order, city, country, packages, kg, service), then the
 * totals. Says so when nothing was booked for the day.
 */
export function printSheet(io: IOStreams, format: OutputFormat, sheet: Sheet): void {
  const columns = [
    { header: 'tracking number', atomic: true },
    { header: 'order', atomic: true },
    { header: 'city', dropPriority: 2 },
    { header: 'country', atomic: true },
    { header: 'packages', align: 'right' as const, atomic: true },
    { header: 'kg', align: 'right' as const, atomic: true },
    { header: 'service', dropPriority: 1 },
    { header: 'dock', dropPriority: 3 },
  ];
  if (format !== 'table') {
    for (const s of sheet.sections)
      for (const c of s.carriers)
        io.out(
          renderTable(
            io,
            format,
            [{ header: 'collection' }, { header: 'pickup' }, { header: 'carrier' }, ...columns],
            c.lines.map((l) => [
              s.collection,
              s.pickup_date,
              c.carrier,
              l.tracking,
              l.order_id,
              l.city,
              l.country,
              String(l.packages),
              kgText(l.weight_kg),
              l.service,
              scanText(l),
            ]),
          ),
        );
    const missing = mayBeMissingText(sheet);
    if (missing !== undefined) io.err(`note: ${missing} (run without --offline to read them)\n`);
    if (sheet.sections.length === 0) io.err(`Nothing was booked for ${sheet.date}: no shipment to hand over.\n`);
    return;
  }
  io.out(`${SHEET_TITLE}: ${sheet.date}${sheet.driver !== undefined ? `, driver ${sheet.driver}` : ''}\n`);
  const missing = mayBeMissingText(sheet);
  if (missing !== undefined) io.out(`Note: ${missing} (run without --offline to read them).\n`);
  if (sheet.sections.length === 0 && sheet.no_tracking_yet.length === 0) io.out('Nothing was booked for this day: no shipment to hand over.\n');
  for (const s of sheet.sections) {
    io.out(`\nCollection: ${s.collection}\nPickup date: ${s.pickup_date}\n`);
    for (const c of s.carriers) {
      io.out(`\n${c.carrier}: ${c.totals.shipments} shipment(s), ${c.totals.packages} package(s), ${kgText(c.totals.weight_kg)} kg\n`);
      io.out(
        renderTable(
          io,
          format,
          columns,
          c.lines.map((l) => [l.tracking, l.order_id, l.city, l.country, String(l.packages), kgText(l.weight_kg), l.service, scanText(l)]),
        ),
      );
    }
    io.out(`Section total: ${s.totals.shipments} shipment(s), ${s.totals.packages} package(s), ${kgText(s.totals.weight_kg)} kg\n`);
    io.out("Driver's name: ____________________  Signature: ____________________  Time: ________\n");
  }
  if (sheet.no_tracking_yet.length > 0) {
    io.out('\nNo tracking number yet (accepted, not yet processed):\n');
    io.out(
      renderTable(
        io,
        format,
        [{ header: 'order', atomic: true }, { header: 'shipment', atomic: true }, ...columns.slice(2, -1)],
        sheet.no_tracking_yet.map((p) => [p.order_id, p.shipment_id, p.city, p.country, String(p.packages), kgText(p.weight_kg), p.service]),
      ),
    );
  }
  io.out(
    `\nDay total: ${sheet.totals.shipments} shipment(s), ${sheet.totals.packages} package(s), ${kgText(sheet.totals.weight_kg)} kg; ` +
      `${sheet.no_tracking_yet.length} without tracking number yet; ${sheet.cancelled} cancelled (left out); ` +
      `${sheet.scanned} of ${sheet.totals.shipments} scanned at the dock\n${SHEET_FOOTER}\n`,
  );
}
