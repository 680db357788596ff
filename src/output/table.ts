/**
 * Tables: boxed tables in the `table` format (the default on a terminal), fitted to its width (src/output/fit.ts: long values wrap
 * inside their cell, the least useful columns are left out first, ids and tracking numbers are
 * never split); tab-separated lines in every other format (no header, tabs and line breaks in cells
 * replaced by spaces), so `cut -f` and `awk -F'\t'` work.
 */
import { scrubCell } from '../api/redact.js';
import type { IOStreams } from '../io.js';
import type { OutputFormat } from './format.js';
import type { fitTable as FitTable } from './fit.js';
import { printable } from './printable.js';
import { paint, type Style } from './style.js';

/** A column: its heading, alignment and how it behaves when the terminal is narrow (see {@link fitTable}). */
export interface Column {
  header: string;
  align?: 'left' | 'right';
  /** Never wrapped, shortened or split: ids, tracking numbers, codes, amounts. */
  atomic?: boolean;
  /** Left out first when space is short (lowest first); never left out when undefined. */
  dropPriority?: number;
  /** `truncate` keeps one line ending in `…` instead of wrapping. */
  overflow?: 'wrap' | 'truncate';
  /** Narrowest width the column is squeezed to (default 10). */
  minWidth?: number;
  /** Characters after which a long value may be broken (`./:` for locations and field paths). */
  breakAfter?: string;
  /** Paints a cell (on a terminal, after its text was made printable), e.g. severities red or yellow. */
  style?: (cell: string) => Style | undefined;
}

/** The table fitter (cli-table3, string-width, wrap-ansi), loaded by {@link prepareTables} only for tables. */
let fitTable: typeof FitTable | undefined;

/**
 * Loads the table fitter; prepareOutput (src/output/setup.ts) calls it once the format is `table` (tab-separated output and the
 * machine formats never need it: start-up stays light). Safe to call twice.
 */
export async function prepareTables(): Promise<void> {
  fitTable ??= (await import('./fit.js')).fitTable;
}

/**
 * Width of the terminal in columns: the stream's, else `COLUMNS`; unbounded when neither is known
 * (a forced `--output table` into a file keeps its natural width).
 */
function terminalWidth(io: Pick<IOStreams, 'stdout' | 'env'>): number {
  const cols = io.stdout.columns ?? Number(io.env.COLUMNS);
  return Number.isFinite(cols) && cols > 0 ? cols : Number.POSITIVE_INFINITY;
}

/**
 * Renders rows under `columns` in `format` (see module doc): a table for `table`, tab-separated
 * lines otherwise. Cells are plain
 * text, often from outside (a service's names, a file's values): control characters are shown as
 * escapes, never sent to the terminal; colour comes only from {@link Column.style}. Secrets in
 * cells are masked (`scrubCell` in src/api/redact.ts).
 */
export function renderTable(io: IOStreams, format: OutputFormat, columns: Column[], given: string[][]): string {
  return fittedTable(io, format, columns, given).text;
}

/** {@link renderTable}, with the headers of the columns left out to fit the terminal (none outside `table`). */
function fittedTable(io: IOStreams, format: OutputFormat, columns: Column[], given: string[][]): { text: string; dropped: string[] } {
  // Cells come from outside: a service may echo a request (card number, CVV) inside a name.
  const rows = given.map((row) => row.map(scrubCell));
  if (format !== 'table') {
    return {
      text: rows.map((row) => row.map((cell) => printable(cell.replace(/[\t\r\n]+/g, ' '))).join('\t')).join('\n') + (rows.length ? '\n' : ''),
      dropped: [],
    };
  }
  const safe = rows.map((row) =>
    row.map((cell, i) => {
      const text = printable(cell, 'lines');
      const style = columns[i]?.style?.(cell);
      return style === undefined ? text : paint(io, style, text);
    }),
  );
  if (fitTable === undefined) throw new Error('internal: the table fitter is not loaded (prepareTables was not called)');
  const painted = columns.map((c) => paint(io, 'bold', c.header));
  const fitted = fitTable(
    columns.map((c, i) => ({ ...c, header: painted[i]! })),
    safe,
    terminalWidth(io),
  );
  return { text: fitted.text, dropped: columns.filter((_, i) => fitted.dropped.includes(painted[i]!)).map((c) => c.header) };
}

/**
 * Prints a table on stdout, in `format` (see {@link renderTable}). Columns left out to fit a narrow
 * terminal are named on stderr, with how to see them, so that nothing disappears unsaid.
 */
export function printTable(io: IOStreams, format: OutputFormat, columns: Column[], rows: string[][]): void {
  const { text, dropped } = fittedTable(io, format, columns, rows);
  io.out(text);
  if (dropped.length > 0) {
    const width = terminalWidth(io);
    io.err(
      `${paint(io, 'yellow', 'note:')} left out to fit ${Number.isFinite(width) ? `${width} columns` : 'the width'}: ${dropped.join(', ')} (a wider terminal, --output tsv or --json shows every column)\n`,
    );
  }
}
