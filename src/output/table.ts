/**
 * Tables: boxed tables (cli-table3) on a terminal, tab-separated lines without one (no header,
 * tabs and line breaks in cells replaced by spaces), so `cut -f` and `awk -F'\t'` work.
 */
import Table from 'cli-table3';
import type { IOStreams } from '../io.js';
import { paint } from './style.js';

/** A column: its heading and alignment. */
export interface Column {
  header: string;
  align?: 'left' | 'right';
}

/** Renders rows under `columns` in the form that fits the streams (see module doc). */
export function renderTable(io: IOStreams, columns: Column[], rows: string[][]): string {
  if (!io.stdoutIsTTY) {
    return rows.map((row) => row.map((cell) => cell.replace(/[\t\r\n]+/g, ' ')).join('\t')).join('\n') + (rows.length ? '\n' : '');
  }
  const table = new Table({
    head: columns.map((c) => paint(io, 'bold', c.header)),
    colAligns: columns.map((c) => c.align ?? 'left'),
    style: { head: [], border: [] },
    // No rule between body rows: compact, like gh and stripe.
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
  });
  for (const row of rows) table.push(row);
  return `${table.toString()}\n`;
}

/** Prints a table on stdout. */
export function printTable(io: IOStreams, columns: Column[], rows: string[][]): void {
  io.out(renderTable(io, columns, rows));
}
