/**
 * The ledger's history for people: a table on a terminal (time, user@host, profile, operation,
 * order, total, payment, status), tab-separated lines otherwise (every field, one row per line,
 * written as each row is read).
 */
import { shownTime } from './local-time.js';
import type { IOStreams } from '../io.js';
import type { HistoryRow } from '../ledger/index.js';
import type { OutputFormat } from './format.js';
import { renderTable, type Column } from './table.js';

/** The columns of the table. */
const COLUMNS: Column[] = [
  { header: 'time', atomic: true },
  { header: 'who', dropPriority: 3 },
  { header: 'profile', dropPriority: 2 },
  { header: 'operation' },
  { header: 'order', atomic: true },
  { header: 'total', align: 'right', atomic: true },
  { header: 'payment', dropPriority: 1 },
  { header: 'status', atomic: true },
  { header: 'detail', dropPriority: 4, overflow: 'truncate' },
];

/** A row's cells, in {@link COLUMNS} order; the time local to this machine in a table, as recorded (ISO 8601, UTC) in tab-separated lines. */
function cells(r: HistoryRow, format: OutputFormat): string[] {
  const who = r.user === undefined ? '' : `${r.user}@${r.host ?? ''}`;
  const dock =
    r.station !== undefined ? ` at ${r.station}${r.driver !== undefined ? `, to ${r.driver}${r.vehicle !== undefined ? ` (${r.vehicle})` : ''}` : ''}` : '';
  const detail =
    r.error ??
    (r.tracking_numbers !== undefined ? `${r.tracking_numbers.join(' ')}${dock}` : r.order_id === undefined ? (r.shipment_ids?.join(' ') ?? '') : '');
  return [
    shownTime(r.time, format),
    who,
    r.profile ?? '',
    r.operation === 'book' || r.step === 'result' || r.station !== undefined ? `${r.operation}: ${r.step}` : r.operation,
    r.order_id ?? '',
    r.total ?? '',
    r.payment ?? '',
    r.status,
    detail,
  ];
}

/** Prints rows: a table for `table`, tab-separated lines otherwise (see the module doc). */
export function printHistory(io: IOStreams, format: OutputFormat, rows: readonly HistoryRow[]): void {
  io.out(
    renderTable(
      io,
      format,
      COLUMNS,
      rows.map((r) => cells(r, format)),
    ),
  );
}
