/**
 * The list of orders for people (`shipbook order list`): a table on a terminal (order, status,
 * references, tracking numbers, total, created, who), tab-separated lines otherwise, one order per
 * row. Rows come from the ledger (src/ledger/reports/orders.ts) or from a sandbox's own list of orders.
 */
import { shownTime } from './local-time.js';
import type { IOStreams } from '../io.js';
import type { OutputFormat } from './format.js';
import { renderTable, type Column } from './table.js';

/** One row of the list, from the ledger or from a sandbox. */
export interface OrderListRow {
  /** The order id; absent for a create whose answer never came (`unknown`). */
  order_id?: string;
  status: string;
  references: string[];
  tracking_numbers: string[];
  total?: string;
  created_at: string | null;
  user?: string;
  host?: string;
  /** The document's identity in the ledger (rows from the ledger only). */
  identity?: string;
  /** What service-selection rules chose for each shipment, when the ledger recorded it: service, rule, how, reason. */
  service_choice?: Array<{ service?: string; rule?: string; how?: string; reason: string }>;
}

/** The columns of the table. */
const COLUMNS: Column[] = [
  { header: 'order', atomic: true },
  { header: 'status', atomic: true },
  { header: 'references', dropPriority: 2 },
  { header: 'tracking', dropPriority: 1 },
  { header: 'total', align: 'right', atomic: true },
  { header: 'created', atomic: true, dropPriority: 3 },
  { header: 'who', dropPriority: 4 },
  { header: 'identity', dropPriority: 5 },
  { header: 'service choice', dropPriority: 6 },
];

/** A row's cells, in {@link COLUMNS} order; the time local to this machine in a table, as recorded (ISO 8601, UTC) in tab-separated lines. */
function cells(r: OrderListRow, format: OutputFormat): string[] {
  return [
    r.order_id ?? '—',
    r.status,
    r.references.join(' '),
    r.tracking_numbers.join(' '),
    r.total ?? '',
    r.created_at === null ? '' : shownTime(r.created_at, format),
    r.user === undefined ? '' : `${r.user}@${r.host ?? ''}`,
    r.identity ?? '',
    (r.service_choice ?? []).map(choiceCell).join('; '),
  ];
}

/** One shipment's choice in a cell: `SB-DOM-ROAD: rule "heavy to WA by StarTrack"`, or how it was chosen without a rule. */
function choiceCell(c: NonNullable<OrderListRow['service_choice']>[number]): string {
  const by = c.rule !== undefined ? `rule "${c.rule}"` : c.how === 'written' ? 'named in the order' : (c.how ?? 'chosen');
  return `${c.service ?? 'none'}: ${by}`;
}

/** Prints rows: a table for `table`, tab-separated lines otherwise. */
export function printOrderList(io: IOStreams, format: OutputFormat, rows: readonly OrderListRow[]): void {
  io.out(
    renderTable(
      io,
      format,
      COLUMNS,
      rows.map((r) => cells(r, format)),
    ),
  );
}
