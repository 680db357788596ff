/**
 * The words of `journal show`: every document of a ledger or journal file as a table (identity,
 * input, stage, order, what is known and the next command), or a note when it holds none.
 */
import type { IOStreams } from '../io.js';
import type { OutputFormat } from './format.js';
import { renderTable } from './table.js';

/** One document of `journal show`, as its machine document lists it. */
interface JournalRow {
  id: string;
  file?: string | null;
  line: number | null;
  stage: string;
  order_id?: string | null;
  known: string;
  command?: string | null;
}

/** Prints the documents of `where` as a table on stdout, or says on stderr that it has none. */
export function printJournal(io: IOStreams, format: OutputFormat, where: string, orders: readonly JournalRow[]): void {
  if (orders.length === 0) {
    io.err(`${where} has no documents.\n`);
    return;
  }
  io.out(
    renderTable(
      io,
      format,
      [
        { header: 'identity', atomic: true },
        { header: 'input', dropPriority: 1 },
        { header: 'stage', atomic: true },
        { header: 'order', atomic: true },
        { header: 'known / next' },
      ],
      orders.map((r) => [
        r.id,
        r.line === null ? (r.file ?? '') : `${r.file ?? ''}:${r.line}`,
        r.stage,
        r.order_id ?? '',
        [r.known, r.command ?? ''].filter(Boolean).join(' — '),
      ]),
    ),
  );
}
