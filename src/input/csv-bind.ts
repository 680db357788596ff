/**
 * The header row of a spreadsheet input bound to the layout of src/input/csv-layout.ts: directly
 * (headers are column names, in any case, spaces for underscores) or through a mapping file
 * (src/input/csv-map.ts). Every problem names the file, row 1 and the header.
 */
import { cmd, type Hint, type InputIssue } from '../errors.js';
import { closestField } from '../schema/issues.js';
import { CSV_COLUMNS, CSV_COLUMN_BY_NAME, normaliseHeader, type CsvColumn } from './csv-layout.js';
import { sourceHeaders, sourceValue, type CsvMapping } from './csv-map.js';
import type { CsvDelimiter } from './csv-bytes.js';

/** A column of the file bound to a layout column: its header for messages, its place, and how to read its cell. */
export interface Bound {
  column: CsvColumn;
  /** The header shown in messages (the file's own, through a mapping). */
  header: string;
  /** 1-based place of that header in the file; 0 for a mapping's constant. */
  index: number;
  /**
   * Whether a shipment's later rows must leave the cell empty or repeat it: for the file's own
   * columns; a mapping's joins, words and constants take the first row's value.
   */
  repeated: boolean;
  read(cells: readonly string[]): string;
  /** What is wrong with the row's cell beyond its field's rules (a mapping's `values` without it). */
  problem?(cells: readonly string[]): string | undefined;
}

/** The file's header bound to the layout. */
export interface Binding {
  delimiter: CsvDelimiter;
  header: string[];
  bound: Bound[];
  byName: Map<string, Bound>;
  orderRef: Bound;
  shipmentRef?: Bound;
}

/** An issue of the file at a row and column (`column` a bound column, or a header name and place). */
export function issueAt(
  file: string,
  row: number,
  where: { header: string; index: number } | undefined,
  path: string,
  message: string,
  next?: Hint,
): InputIssue {
  return { file, line: row, ...(where ? { column: where.index, column_name: where.header } : {}), path, message, ...(next ? { next } : {}), severity: 'error' };
}

/**
 * Binds the header row to the layout, directly (headers are column names, in any case, spaces for
 * underscores) or through the mapping. Every header must be a column (or mapped or ignored).
 */
export function bind(file: string, header: string[], delimiter: CsvDelimiter, mapping: CsvMapping | undefined): { binding?: Binding; issues: InputIssue[] } {
  const issues: InputIssue[] = [];
  const bound: Bound[] = [];
  const place = new Map<string, number>();
  header.forEach((h, i) => {
    const name = mapping ? h.trim() : normaliseHeader(h);
    if (name === '') return;
    if (place.has(name))
      issues.push(issueAt(file, 1, { header: h.trim(), index: i + 1 }, '', `column ${h.trim()} is given twice (also column ${place.get(name)})`));
    else place.set(name, i + 1);
  });
  if (mapping) {
    const used = new Set<string>();
    for (const [name, src] of mapping.columns) {
      const column = CSV_COLUMN_BY_NAME.get(name)!;
      const headers = sourceHeaders(src);
      const missing = headers.filter((h) => !place.has(h));
      for (const h of missing) {
        const guess = closestField(h, [...place.keys()]);
        issues.push({
          file: mapping.file,
          ...mapping.locate(['columns', name]),
          path: `columns.${name}`,
          message: `the file ${file} has no column "${h}"${guess ? ` (did you mean "${guess}"?)` : ''}`,
          severity: 'error',
        });
      }
      headers.forEach((h) => used.add(h));
      const first = headers[0];
      const at = (h: string) => place.get(h)! - 1;
      bound.push({
        column,
        header: first ?? name,
        index: first !== undefined ? (place.get(first) ?? 0) : 0,
        repeated: src.kind === 'column' && src.part === undefined,
        read(cells) {
          const v = sourceValue(src, (h) => cells[at(h)] ?? '', mapping.file);
          return typeof v === 'string' ? v : (cells[at(headers[0]!)] ?? '');
        },
        problem(cells) {
          const v = sourceValue(src, (h) => cells[at(h)] ?? '', mapping.file);
          return typeof v === 'string' ? undefined : v.problem;
        },
      });
    }
    if (mapping.ignore !== 'all') {
      const ignore = mapping.ignore;
      for (const [h, i] of place) {
        if (used.has(h) || ignore.has(h)) continue;
        const guess = closestField(h, [...mapping.columns.values()].flatMap(sourceHeaders).concat([...ignore]));
        issues.push(
          issueAt(
            file,
            1,
            { header: h, index: i },
            '',
            `column "${h}" maps to nothing in ${mapping.file}${guess ? ` (did you mean "${guess}"?)` : ''}: map it under columns, or list it under ignore`,
          ),
        );
      }
    }
  } else {
    for (const [name, i] of place) {
      const column = CSV_COLUMN_BY_NAME.get(name);
      if (!column) {
        const guess = closestField(
          name,
          CSV_COLUMNS.map((c) => c.name),
        );
        issues.push(
          issueAt(file, 1, { header: header[i - 1]!.trim(), index: i }, '', `unknown column${guess ? ` (did you mean ${guess}?)` : ''}`, [
            '; the columns are listed by "',
            cmd('schema', 'csv'),
            '", or map your own headers with --map',
          ]),
        );
        continue;
      }
      bound.push({ column, header: header[i - 1]!.trim(), index: i, repeated: true, read: (cells) => cells[i - 1] ?? '' });
    }
  }
  const byName = new Map(bound.map((b) => [b.column.name, b]));
  const orderRef = byName.get('order_ref');
  if (!orderRef && !mapping) {
    issues.push(
      issueAt(file, 1, undefined, '', 'no order_ref column: consecutive rows with the same order_ref form one order', [
        ' (see "',
        cmd('csv', 'template'),
        '")',
      ]),
    );
  }
  if (issues.length > 0 || !orderRef) return { issues };
  return {
    binding: { delimiter, header, bound, byName, orderRef, ...(byName.has('shipment_ref') ? { shipmentRef: byName.get('shipment_ref')! } : {}) },
    issues,
  };
}
