/**
 * Orders from a spreadsheet: CSV and TSV files in the layout of src/input/csv-layout.ts (one row
 * per package; consecutive rows with the same `order_ref` form one order, rows with the same
 * `shipment_ref` within it one shipment; a row may also carry one customs item), or in a shop's
 * own headers through a mapping file (src/input/csv-map.ts). Read as a stream, one order at a
 * time, so memory stays flat however many rows the file holds.
 *
 * The reading is split by concern: the bytes, their encoding and delimiter (csv-bytes.ts), the
 * header bound to the layout (csv-bind.ts), rows grouped into orders (csv-groups.ts), and one
 * order document built from its rows (csv-order.ts). This module holds what reads them: the
 * orders `book` books, the report `validate` prints, and the rows the results are written beside.
 *
 * Every problem names the file, the row (the header is row 1) and the column's header, and the
 * field path of the order document, as for YAML
 * (`orders.csv:14:delivery_postcode  order.shipments[0].delivery.postcode  required`).
 */
import type { InputIssue } from '../errors.js';
import type { Binding } from './csv-bind.js';
import type { CsvRow, CsvSource } from './csv-bytes.js';
import { csvGroups, type CsvReadOptions, type SavedSenders } from './csv-groups.js';
import { buildOrder, type CsvOrder } from './csv-order.js';
import { checkDocument, type FileReport } from './validate.js';

/**
 * Every order of a CSV source, in file order, as order documents whose `locate` gives a field's
 * row and column header; or problems (a header that is not a column, rows that cannot form an
 * order, a file that is not CSV). Streams: one order's rows are held at a time.
 */
export async function* csvOrders(source: CsvSource, options: CsvReadOptions = {}): AsyncGenerator<CsvOrder> {
  let binding: Binding | undefined;
  let senders: SavedSenders | undefined;
  for await (const e of csvGroups(source, options)) {
    if (e.kind === 'binding') {
      binding = e.binding;
      if (binding.byName.has('sender')) senders = typeof options.senders === 'function' ? await options.senders() : options.senders;
    } else if (e.kind === 'issues') yield { file: source.file, line: e.line, issues: e.issues };
    else {
      const { senders: _lazy, ...rest } = options;
      yield buildOrder(source.file, e.group, binding!, senders ? { ...rest, senders } : rest);
    }
  }
}

/**
 * `shipbook validate orders.csv`: every order of a CSV file checked offline (as `shipbook book
 * orders.csv --dry-run` checks them), reported as one file of kind `order` with every problem,
 * warnings included, at its row and column.
 */
export async function validateCsvFile(source: CsvSource, options: CsvReadOptions & { now: () => Date }): Promise<FileReport> {
  const issues: InputIssue[] = [];
  let documents = 0;
  for await (const o of csvOrders(source, options)) {
    documents++;
    if ('issues' in o) issues.push(...o.issues);
    else
      issues.push(
        ...checkDocument(o.doc, {
          kind: 'order',
          now: options.now,
          ...(options.addresses !== undefined ? { addresses: options.addresses } : {}),
          ...(options.pickup !== undefined ? { pickup: options.pickup } : {}),
        }).issues,
      );
  }
  const errors = issues.filter((i) => i.severity === 'error');
  return {
    file: source.file,
    kind: 'order',
    valid: errors.length === 0,
    documents,
    issues: [...errors, ...issues.filter((i) => i.severity !== 'error')],
  };
}

/** One row of a CSV input, with the order it belongs to (for writing results beside it). */
interface CsvRowOfOrder extends CsvRow {
  /** The row that starts its order (the order's `line` in the batch's results). */
  orderRow: number;
  /** Its shipment's place in the order (0-based), in first-appearance order of `shipment_ref`. */
  shipment: number;
}

/**
 * The header row, then every row of a CSV source with its order's first row and its shipment's
 * place, streaming (for the report that writes the results beside the input rows). A source that
 * cannot be read as CSV yields its header (if any) and stops.
 */
export async function* csvRowsWithOrders(source: CsvSource, options: CsvReadOptions = {}): AsyncGenerator<{ header: string[] } | CsvRowOfOrder> {
  let binding: Binding | undefined;
  for await (const e of csvGroups(source, options)) {
    if (e.kind === 'binding') {
      binding = e.binding;
      yield { header: binding.header };
    } else if (e.kind === 'group') {
      const shipments = new Map<string, number>();
      const orderRow = e.group.rows[0]!.row;
      for (const r of e.group.rows) {
        const sref = binding!.shipmentRef?.read(r.cells).trim() ?? '';
        if (!shipments.has(sref)) shipments.set(sref, shipments.size);
        yield { ...r, orderRow, shipment: shipments.get(sref)! };
      }
    }
  }
}
