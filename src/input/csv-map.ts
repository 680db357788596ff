/**
 * Mapping files (`shipbook book export.csv --map mapping.yaml`): a shop's or ERP's own headers
 * mapped onto the CSV layout's columns (src/input/csv-layout.ts), so an export books without
 * being edited. A mapping is YAML:
 *
 * ```yaml
 * columns:                                  # layout column: where its value comes from
 *   order_ref: Name                         #   a header of the file
 *   delivery_first_name: { column: Shipping Name, part: first }   # its first word (rest: the others)
 *   delivery_phone: { first_of: [Shipping Phone, Phone] }         # the first non-empty cell
 *   service_code: { column: Shipping Method, values: { Standard: SB-DOM-ROAD } } # cells translated
 *   delivery_address_lines: [Shipping Address1, Shipping Address2] # non-empty cells, one line each
 *   customs_description: { join: [Name, Notes], with: " " }       # cells joined
 *   customs_reason: { value: Sale }         #   a constant
 * package: { length: 30, width: 20, height: 10, weight: 1.5, unit: cm }  # for shipments whose rows give none
 * ignore: [Financial Status, Paid at]       # headers left out on purpose ("*": every other header)
 * ```
 *
 * Every header of the file must be used or ignored, so that a misspelt header is an error rather
 * than a field quietly left out.
 */
import * as z from 'zod';
import { cmd, type InputIssue, ValidationError } from '../errors.js';
import { closestField } from '../schema/issues.js';
import { CSV_COLUMNS, CSV_COLUMN_BY_NAME } from './csv-layout.js';
import { documentProblems } from './problems.js';
import { loadDocument } from './load.js';
import type { LoadedDocument } from './loaded.js';

const header = z
  .string({ error: (iss) => (iss.input === undefined ? 'required' : 'expected a header of the file (text)') })
  .min(1, { error: 'expected a header of the file' });

const source = z.union(
  [
    header,
    z.array(header).min(1, { error: 'at least 1 header' }),
    z.strictObject({
      column: header,
      part: z.enum(['first', 'rest'], { error: 'first (the first word) or rest (the words after it)' }).optional(),
      values: z
        .record(z.string(), z.union([z.string(), z.number(), z.boolean()]), {
          error: 'expected the cells and what each stands for, e.g. {Standard: SB-DOM-ROAD}',
        })
        .optional(),
    }),
    z.strictObject({ first_of: z.array(header).min(1, { error: 'at least 1 header' }) }),
    z.strictObject({ join: z.array(header).min(1, { error: 'at least 1 header' }), with: z.string().optional() }),
    z.strictObject({ value: z.union([z.string(), z.number(), z.boolean()], { error: 'expected a value (text, number, true or false)' }) }),
  ],
  { error: 'expected a header, a list of headers, {column, part, values}, {first_of}, {join, with} or {value}' },
);

const mappingSchema = z.strictObject(
  {
    columns: z.record(z.string(), source, { error: 'expected the layout columns, each with its header or value' }),
    package: z
      .strictObject({
        length: z.number(),
        width: z.number(),
        height: z.number(),
        weight: z.number(),
        unit: z.enum(['cm', 'in'], { error: 'cm or in' }),
      })
      .optional(),
    ignore: z.union([z.literal('*'), z.array(header)], { error: 'expected a list of headers, or "*" for every header not mapped' }).optional(),
  },
  { error: 'expected a mapping: columns, package, ignore' },
);

/** Where a layout column's value comes from in one row. */
type MapSource =
  | { kind: 'column'; header: string; part?: 'first' | 'rest'; values?: Readonly<Record<string, string>> }
  | { kind: 'join'; headers: string[]; with: string }
  | { kind: 'value'; value: string }
  | { kind: 'line'; headers: string[]; index: number };

/** A loaded, checked mapping file. */
export interface CsvMapping {
  /** The mapping file's name, for messages. */
  file: string;
  /** Layout column → its source (`*_address_lines` lists already split into `*_address_line_N`). */
  columns: ReadonlyMap<string, MapSource>;
  /** The package of a shipment whose rows give none (the export has no package columns). */
  package?: { length: number; width: number; height: number; weight: number; unit: 'cm' | 'in' };
  /** Headers left out on purpose, or every header not used. */
  ignore: ReadonlySet<string> | 'all';
  /** Line and column of a field of the mapping file, for problems found against a CSV header. */
  locate: LoadedDocument['locate'];
}

const LINES = /^(collection|delivery)_address_lines$/;

/** Names a mapping may map to: the layout's columns and `collection_address_lines` / `delivery_address_lines`. */
function targets(): string[] {
  return [...CSV_COLUMNS.map((c) => c.name), 'collection_address_lines', 'delivery_address_lines'];
}

/**
 * Reads and checks a mapping file: its shape, and that every target is a column of the layout
 * (with the column it was probably meant to be).
 * @throws ValidationError (exit 2) with every problem, each at its line and column
 */
export async function loadCsvMapping(file: string): Promise<CsvMapping> {
  const doc = await loadDocument(file);
  const checked = documentProblems(doc, mappingSchema);
  if (!checked.success) throw new ValidationError(checked.issues, `${file}: not a valid CSV mapping`);
  const m = checked.value;
  const issues: InputIssue[] = [];
  const columns = new Map<string, MapSource>();
  const known = targets();
  for (const [target, src] of Object.entries(m.columns)) {
    const lines = LINES.exec(target);
    if (!CSV_COLUMN_BY_NAME.has(target) && !lines) {
      const guess = closestField(target, known);
      issues.push({
        file,
        ...doc.locate(['columns', target], { key: true }),
        path: `columns.${target}`,
        message: `not a column of the CSV layout${guess ? ` (did you mean ${guess}?)` : ''}`,
        next: ['; see "', cmd('schema', 'csv'), '"'],
        severity: 'error',
      });
      continue;
    }
    if (lines) {
      const headers =
        typeof src === 'string'
          ? [src]
          : Array.isArray(src)
            ? src
            : 'column' in src
              ? [src.column]
              : 'join' in src
                ? src.join
                : 'first_of' in src
                  ? src.first_of
                  : undefined;
      if (headers === undefined) {
        issues.push({
          file,
          ...doc.locate(['columns', target]),
          path: `columns.${target}`,
          message: 'address lines come from headers (a list of them), not a value',
          severity: 'error',
        });
        continue;
      }
      for (let i = 0; i < 3; i++) columns.set(`${lines[1]}_address_line_${i + 1}`, { kind: 'line', headers, index: i });
      continue;
    }
    if (typeof src === 'string') columns.set(target, { kind: 'column', header: src });
    else if (Array.isArray(src)) columns.set(target, { kind: 'join', headers: src, with: ' ' });
    else if ('column' in src) {
      const values = src.values && Object.fromEntries(Object.entries(src.values).map(([k, v]) => [k, String(v)]));
      columns.set(target, { kind: 'column', header: src.column, ...(src.part ? { part: src.part } : {}), ...(values ? { values } : {}) });
    } else if ('first_of' in src) columns.set(target, { kind: 'line', headers: src.first_of, index: 0 });
    else if ('join' in src) columns.set(target, { kind: 'join', headers: src.join, with: src.with ?? ' ' });
    else columns.set(target, { kind: 'value', value: String(src.value) });
  }
  if (!columns.has('order_ref')) {
    issues.push({
      file,
      ...doc.locate(['columns']),
      path: 'columns',
      message: 'order_ref is not mapped: it is what groups rows into orders (e.g. order_ref: Name)',
      severity: 'error',
    });
  }
  if (issues.length > 0) throw new ValidationError(issues, `${file}: not a valid CSV mapping`);
  return {
    file,
    columns,
    ...(m.package ? { package: m.package } : {}),
    ignore: m.ignore === '*' ? 'all' : new Set(m.ignore ?? []),
    locate: doc.locate,
  };
}

/** The headers a source reads. */
export function sourceHeaders(src: MapSource): string[] {
  return src.kind === 'column' ? [src.header] : src.kind === 'value' ? [] : src.headers;
}

/**
 * The cell a source gives for one row, from `cell(header)` (the row's cell under that header, or
 * ''); a problem when a translated cell is not among the mapping's `values`.
 */
export function sourceValue(src: MapSource, cell: (header: string) => string, mappingFile = 'the mapping'): string | { problem: string } {
  switch (src.kind) {
    case 'value':
      return src.value;
    case 'column': {
      const v = cell(src.header).trim();
      if (src.values !== undefined && v !== '') {
        if (Object.hasOwn(src.values, v)) return src.values[v]!;
        return { problem: `"${v}" is not listed under values of ${src.header} in ${mappingFile} (listed: ${Object.keys(src.values).join(', ')})` };
      }
      if (src.part === undefined) return v;
      const words = v.split(/\s+/).filter((w) => w !== '');
      return src.part === 'first' ? (words[0] ?? '') : words.slice(1).join(' ');
    }
    case 'join':
      return src.headers
        .map((h) => cell(h).trim())
        .filter((v) => v !== '')
        .join(src.with);
    case 'line':
      return src.headers.map((h) => cell(h).trim()).filter((v) => v !== '')[src.index] ?? '';
  }
}
