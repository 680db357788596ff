/**
 * Tables: boxed tables on a terminal, fitted to its width (src/output/fit.ts: long values wrap
 * inside their cell, the least useful columns are left out first, ids and tracking numbers are
 * never split); tab-separated lines without one (no header, tabs and line breaks in cells
 * replaced by spaces), so `cut -f` and `awk -F'\t'` work.
 */
import type { IOStreams } from '../io.js';
import { fitTable } from './fit.js';
import { paint } from './style.js';

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
}

/**
 * Width of the terminal in columns: the stream's, else `COLUMNS`; unbounded when neither is known
 * (a forced `--output table` into a file keeps its natural width).
 */
export function terminalWidth(io: Pick<IOStreams, 'stdout' | 'env'>): number {
  const cols = io.stdout.columns ?? Number(io.env.COLUMNS);
  return Number.isFinite(cols) && cols > 0 ? cols : Number.POSITIVE_INFINITY;
}

/** Renders rows under `columns` in the form that fits the streams (see module doc). */
export function renderTable(io: IOStreams, columns: Column[], rows: string[][]): string {
  if (!io.stdoutIsTTY) {
    return rows.map((row) => row.map((cell) => cell.replace(/[\t\r\n]+/g, ' ')).join('\t')).join('\n') + (rows.length ? '\n' : '');
  }
  return fitTable(
    columns.map((c) => ({ ...c, header: paint(io, 'bold', c.header) })),
    rows,
    terminalWidth(io),
  ).text;
}

/** Prints a table on stdout. */
export function printTable(io: IOStreams, columns: Column[], rows: string[][]): void {
  io.out(renderTable(io, columns, rows));
}
