/**
 * Orders from a spreadsheet: CSV and TSV files in the layout of src/input/csv-layout.ts (one row
 * per package; consecutive rows with the same `order_ref` form one order, rows with the same
 * `shipment_ref` within it one shipment; a row may also carry one customs item), or in a shop's
 * own headers through a mapping file (src/input/csv-map.ts). Read with csv-parse as a stream, one
 * order at a time, so memory stays flat however many rows the file holds.
 *
 * Real files: UTF-8 with or without a byte-order mark, UTF-16 LE with its byte-order mark (Excel's
 * "Unicode text"), CRLF or LF, quoted cells holding commas,
 * quotes and line breaks, `,` `;` or tab delimiters (told from the header row, or given), empty
 * rows (skipped, still counted). Rows are numbered as a spreadsheet numbers them: the header is
 * row 1. Every problem names the file, the row and the column's header, and the field path of the
 * order document, as for YAML (`orders.csv:14:delivery_postcode  order.shipments[0].delivery.postcode  required`).
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { parse, CsvError } from 'csv-parse';
import type { InputIssue } from '../errors.js';
import { closestField, formatPath } from '../schema/issues.js';
import { CSV_COLUMNS, CSV_COLUMN_BY_NAME, normaliseHeader, samePath, type CsvColumn, type CsvLevel } from './csv-layout.js';
import { sourceHeaders, sourceValue, type CsvMapping } from './csv-map.js';
import { firstInvalidUtf8, type LoadedDocument, type Position } from './load.js';
import { resolveSenders, type SenderRecord } from './senders.js';
import { checkDocument, type FileReport } from './validate.js';

/** A cell delimiter: comma, semicolon or tab. */
export type CsvDelimiter = ',' | ';' | '\t';

/** How to read a CSV input. */
export interface CsvReadOptions {
  /** The delimiter; told from the header row when not given (a `.tsv` file: tab). */
  delimiter?: CsvDelimiter;
  /** Numbers may be written with a decimal comma (`2,5`): only in files delimited by `;`. */
  decimalComma?: boolean;
  /** The shop's own headers mapped onto the layout. */
  mapping?: CsvMapping;
  /**
   * The active profile's saved senders, for `@name` in the `sender` column; a function is called
   * (once) only for a file that has a sender column, so other files never need the profile.
   */
  senders?: SavedSenders | (() => Promise<SavedSenders>);
  /** The clock (pickup dates in the past are warnings). */
  now?: () => Date;
}

/** A profile's saved senders and the profile's name (for messages). */
interface SavedSenders {
  senders: Readonly<Record<string, SenderRecord>> | undefined;
  profile: string;
}

/** Where a CSV comes from: a file, or bytes already read (standard input, named `-`). */
interface CsvSource {
  file: string;
  bytes?: Buffer;
}

/** One order of the file as a document, or the problems that keep it from being one. */
export type CsvOrder = { file: string; line: number; doc: LoadedDocument } | { file: string; line: number; issues: InputIssue[] };

/** A row of the file: its spreadsheet number (header = 1) and its cells. */
interface CsvRow {
  row: number;
  cells: string[];
}

/** A column of the file bound to a layout column: its header for messages, its place, and how to read its cell. */
interface Bound {
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
interface Binding {
  delimiter: CsvDelimiter;
  header: string[];
  bound: Bound[];
  byName: Map<string, Bound>;
  orderRef: Bound;
  shipmentRef?: Bound;
}

const DELIMITERS: readonly CsvDelimiter[] = [',', ';', '\t'];

/** Shows a delimiter in a message. */
function delimiterName(d: CsvDelimiter): string {
  return d === '\t' ? 'tab' : `"${d}"`;
}

/**
 * The delimiter of a file from its first row: the one of `,` `;` tab found most often outside
 * quotes (`fallback` when none is).
 */
function detectDelimiter(firstLine: string, fallback: CsvDelimiter = ','): CsvDelimiter {
  const counts = new Map<string, number>();
  let quoted = false;
  for (const ch of firstLine) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === ',' || ch === ';' || ch === '\t')) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
  }
  let best = fallback;
  let most = 0;
  for (const d of DELIMITERS) {
    const n = counts.get(d) ?? 0;
    if (n > most) {
      best = d;
      most = n;
    }
  }
  return best;
}

/** The first 64 KiB of a source (to tell its encoding and delimiter). */
async function headBytes(source: CsvSource): Promise<Buffer> {
  if (source.bytes) return source.bytes.subarray(0, 65536);
  const handle = await open(source.file, 'r');
  try {
    const buf = Buffer.alloc(65536);
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** A file that is not UTF-8 text (a spreadsheet saved as "CSV" in a Windows code page), from the line where it stops being so. */
class NotUtf8Error extends Error {
  constructor(readonly line: number) {
    super('is not UTF-8 text');
  }
}

/**
 * Bytes to UTF-8 text, refusing anything else ({@link NotUtf8Error} with its line) rather than
 * turning accented names into replacement characters.
 */
function utf8Decoder(): Transform {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let line = 1;
  const newlines = (b: Uint8Array, end = b.length) => {
    let n = 0;
    for (let i = 0; i < end; i++) if (b[i] === 10) n++;
    return n;
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      try {
        const text = decoder.decode(chunk, { stream: true });
        line += newlines(chunk);
        done(null, text);
      } catch {
        const at = firstInvalidUtf8(chunk);
        done(new NotUtf8Error(line + newlines(chunk, at < 0 ? chunk.length : at)));
      }
    },
    flush(done) {
      try {
        done(null, decoder.decode());
      } catch {
        done(new NotUtf8Error(line));
      }
    },
  });
}

/** True when the bytes start with UTF-16 LE's byte-order mark (FF FE), as Excel's "Unicode text" does. */
function isUtf16le(head: Uint8Array): boolean {
  return head.length >= 2 && head[0] === 0xff && head[1] === 0xfe;
}

/**
 * UTF-16 LE bytes (after their byte-order mark, which is dropped) to text; a file cut in the middle
 * of a character or holding a lone surrogate is refused ({@link NotUtf8Error}: not text shipbook
 * can read) with the line where it stops.
 */
function utf16leDecoder(): Transform {
  const decoder = new TextDecoder('utf-16le', { fatal: true });
  let line = 1;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      try {
        const text = decoder.decode(chunk, { stream: true });
        line += text.split('\n').length - 1;
        done(null, text);
      } catch {
        done(new NotUtf8Error(line));
      }
    },
    flush(done) {
      try {
        done(null, decoder.decode());
      } catch {
        done(new NotUtf8Error(line));
      }
    },
  });
}

/** The text of the first bytes of a source, in its encoding (UTF-16 LE with its mark, else UTF-8), without a byte-order mark. */
function headText(head: Buffer): string {
  return (isUtf16le(head) ? new TextDecoder('utf-16le').decode(head.subarray(0, head.length - (head.length % 2))) : head.toString('utf8')).replace(
    /^\uFEFF/,
    '',
  );
}

/** True for a `.tsv` or `.tab` file name. */
function isTsvName(file: string): boolean {
  return /\.(tsv|tab)$/i.test(file);
}

/** The delimiter a source is read with: the one given, else told from its header row (a `.tsv` file: tab by default). */
export async function csvDelimiterOf(source: CsvSource, options: Pick<CsvReadOptions, 'delimiter'>): Promise<CsvDelimiter> {
  return options.delimiter ?? detectDelimiter(headText(await headBytes(source)), isTsvName(source.file) ? '\t' : ',');
}

/**
 * Every row of a source, header first, as a stream (csv-parse), with spreadsheet row numbers;
 * rows whose cells are all empty are skipped.
 * @throws CsvError for a file that is not CSV (a quote never closed …), with its line
 */
async function* rows(source: CsvSource, delimiter: CsvDelimiter): AsyncGenerator<CsvRow> {
  const input = source.bytes ? Readable.from([source.bytes]) : createReadStream(source.file);
  const parser = parse({
    bom: true,
    delimiter,
    relax_column_count: true,
    relax_quotes: true,
    record_delimiter: ['\r\n', '\n', '\r'],
    skip_records_with_error: false,
  });
  const decode = isUtf16le(await headBytes(source)) ? utf16leDecoder() : utf8Decoder();
  decode.on('error', (err) => parser.destroy(err));
  input.pipe(decode).pipe(parser);
  let row = 0;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      row++;
      if (record.every((c) => c.trim() === '')) continue;
      yield { row, cells: record };
    }
  } finally {
    input.destroy();
  }
}

/** An issue of the file at a row and column (`column` a bound column, or a header name and place). */
function issueAt(file: string, row: number, where: { header: string; index: number } | undefined, path: string, message: string): InputIssue {
  return { file, line: row, ...(where ? { column: where.index, column_name: where.header } : {}), path, message, severity: 'error' };
}

/**
 * Binds the header row to the layout, directly (headers are column names, in any case, spaces for
 * underscores) or through the mapping. Every header must be a column (or mapped or ignored).
 */
function bind(file: string, header: string[], delimiter: CsvDelimiter, mapping: CsvMapping | undefined): { binding?: Binding; issues: InputIssue[] } {
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
          issueAt(
            file,
            1,
            { header: header[i - 1]!.trim(), index: i },
            '',
            `unknown column${guess ? ` (did you mean ${guess}?)` : ''}; the columns are listed by "shipbook schema csv", or map your own headers with --map`,
          ),
        );
        continue;
      }
      bound.push({ column, header: header[i - 1]!.trim(), index: i, repeated: true, read: (cells) => cells[i - 1] ?? '' });
    }
  }
  const byName = new Map(bound.map((b) => [b.column.name, b]));
  const orderRef = byName.get('order_ref');
  if (!orderRef && !mapping) {
    issues.push(issueAt(file, 1, undefined, '', 'no order_ref column: consecutive rows with the same order_ref form one order (see "shipbook csv template")'));
  }
  if (issues.length > 0 || !orderRef) return { issues };
  return {
    binding: { delimiter, header, bound, byName, orderRef, ...(byName.has('shipment_ref') ? { shipmentRef: byName.get('shipment_ref')! } : {}) },
    issues,
  };
}

/** A group of consecutive rows with one `order_ref`. */
interface RowGroup {
  ref: string;
  rows: CsvRow[];
  /** Set when the group cannot be an order (no order_ref, or the order_ref was used by earlier rows). */
  problem?: InputIssue;
}

/** What {@link csvGroups} yields: the binding once, then each group of rows, or problems that end the file. */
type GroupEvent = { kind: 'binding'; binding: Binding } | { kind: 'group'; group: RowGroup } | { kind: 'issues'; line: number; issues: InputIssue[] };

/** The header bound, then the rows grouped by order, streaming; a CSV syntax error ends the file with its issue. */
async function* csvGroups(source: CsvSource, options: CsvReadOptions): AsyncGenerator<GroupEvent> {
  const { file } = source;
  let delimiter: CsvDelimiter;
  try {
    const start = await headBytes(source);
    if (start[0] === 0xfe && start[1] === 0xff) {
      yield {
        kind: 'issues',
        line: 1,
        issues: [{ file, line: 1, path: '', message: 'is UTF-16 big-endian text; save it as UTF-8 (Save As, "CSV UTF-8")', severity: 'error' }],
      };
      return;
    }
    delimiter = await csvDelimiterOf(source, options);
  } catch (err) {
    const code = (err as { code?: string }).code;
    yield {
      kind: 'issues',
      line: 0,
      issues: [
        {
          file,
          path: '',
          message: code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory, not a file' : `cannot read (${code ?? String(err)})`,
          severity: 'error',
        },
      ],
    };
    return;
  }
  if (options.decimalComma && delimiter !== ';') {
    yield {
      kind: 'issues',
      line: 1,
      issues: [
        {
          file,
          line: 1,
          path: '',
          message: `--decimal-comma is for files delimited by ";" (this one is delimited by ${delimiterName(delimiter)}, where a comma separates cells)`,
          severity: 'error',
        },
      ],
    };
    return;
  }
  let binding: Binding | undefined;
  let current: RowGroup | undefined;
  const seen = new Map<string, number>();
  try {
    for await (const r of rows(source, delimiter)) {
      if (!binding) {
        const b = bind(file, r.cells, delimiter, options.mapping);
        if (!b.binding) {
          yield { kind: 'issues', line: 1, issues: b.issues };
          return;
        }
        binding = b.binding;
        yield { kind: 'binding', binding };
        continue;
      }
      const ref = binding.orderRef.read(r.cells).trim();
      if (current && ref === current.ref && ref !== '') {
        current.rows.push(r);
        continue;
      }
      if (current) yield { kind: 'group', group: current };
      current = { ref, rows: [r] };
      const ref0 = binding.orderRef;
      if (ref === '') {
        current.problem = issueAt(file, r.row, ref0, '', 'required: every row needs an order_ref (rows with the same order_ref form one order)');
      } else if (seen.has(ref)) {
        current.problem = issueAt(
          file,
          r.row,
          ref0,
          '',
          `order_ref ${ref} was used by the order at row ${seen.get(ref)}: keep the rows of an order together (sort the sheet by ${ref0.header})`,
        );
      } else {
        seen.set(ref, r.row);
      }
    }
  } catch (err) {
    if (err instanceof NotUtf8Error) {
      yield {
        kind: 'issues',
        line: err.line,
        issues: [{ file, line: err.line, path: '', message: 'is not UTF-8 text; save it as UTF-8 (in Excel: Save As, "CSV UTF-8")', severity: 'error' }],
      };
      return;
    }
    if (!(err instanceof CsvError)) throw err;
    if (current) yield { kind: 'group', group: current };
    const line = (err as CsvError & { lines?: number }).lines;
    yield {
      kind: 'issues',
      line: line ?? 0,
      issues: [{ file, ...(line ? { line } : {}), path: '', message: `not valid CSV: ${err.message.replace(/^[^:]*:\s*/, '')}`, severity: 'error' }],
    };
    return;
  }
  if (current) yield { kind: 'group', group: current };
  if (!binding)
    yield {
      kind: 'issues',
      line: 1,
      issues: [{ file, line: 1, path: '', message: 'is empty: the first row must be the header (see "shipbook csv template")', severity: 'error' }],
    };
}

/** A cell as the value of its field, or the problem with it. */
function cellValue(column: CsvColumn, raw: string, decimalComma: boolean): { value: unknown } | { problem: string } {
  let s = raw.trim();
  // A spreadsheet's text marker: '=… '+… (written to keep a cell from being read as a formula), '0123.
  if (/^'[=+\-@\d]/.test(s)) s = s.slice(1);
  switch (column.type) {
    case 'number':
    case 'integer': {
      if (/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(s)) return { value: Number(s) };
      if (/^[+-]?\d*,\d+$/.test(s)) {
        if (decimalComma) return { value: Number(s.replace(',', '.')) };
        return { problem: `"${s}" has a decimal comma: write ${s.replace(',', '.')} (a file delimited by ";" may use decimal commas with --decimal-comma)` };
      }
      if (/^[+-]?\d{1,3}([.,]\d{3})+([.,]\d+)?$/.test(s)) return { problem: `"${s}" has a thousands separator: write the number without it` };
      return { value: s };
    }
    case 'boolean': {
      const l = s.toLowerCase();
      if (['true', 'yes', 'y', '1'].includes(l)) return { value: true };
      if (['false', 'no', 'n', '0'].includes(l)) return { value: false };
      return { value: s };
    }
    case 'list':
      return { value: s.split(/\s*[|,;]\s*/).filter((x) => x !== '') };
    case 'sender':
      return { value: s.startsWith('@') ? s : `@${s}` };
    default:
      return { value: s };
  }
}

function setAt(target: Record<PropertyKey, unknown>, path: readonly PropertyKey[], value: unknown): void {
  let o: Record<PropertyKey, unknown> = target;
  for (let i = 0; i < path.length - 1; i++) {
    const k = path[i]!;
    const nextIsIndex = typeof path[i + 1] === 'number';
    if (o[k] === undefined || typeof o[k] !== 'object' || o[k] === null) o[k] = nextIsIndex ? [] : {};
    o = o[k] as Record<PropertyKey, unknown>;
  }
  o[path[path.length - 1]!] = value;
}

/** Layout columns of a level, in layout order. */
const LEVEL_COLUMNS = (level: CsvLevel) => CSV_COLUMNS.filter((c) => c.level === level);

/** The layout column that holds `rel` (a path relative to its level), or the one nearest to it. */
function columnFor(level: CsvLevel, rel: readonly PropertyKey[]): CsvColumn {
  const candidates = LEVEL_COLUMNS(level);
  let best = candidates[0]!;
  let bestScore = -1;
  for (const c of candidates) {
    if (samePath(c.path, rel)) return c;
    let n = 0;
    while (n < c.path.length && n < rel.length && c.path[n] === rel[n]) n++;
    if (n > bestScore) {
      best = c;
      bestScore = n;
    }
  }
  return best;
}

/**
 * Builds the order document of a group of rows: shipments by `shipment_ref` (first appearance
 * first), each row's package and customs item, shipment fields from the first row that gives
 * them (a later row may leave them empty, or repeat them). Problems of the cells (a decimal
 * comma, a value that differs between rows of one shipment) come back with the schema's, so that
 * one run reports all of them.
 */
function buildOrder(file: string, group: RowGroup, binding: Binding, options: CsvReadOptions & { senders?: SavedSenders }): CsvOrder {
  const line = group.rows[0]!.row;
  if (group.problem) return { file, line, issues: [group.problem] };
  const decimalComma = options.decimalComma === true;
  const issues: InputIssue[] = [];
  let senders = false;
  /** The `sender` cell of each shipment (`@name`), put into its collection once all its rows are read. */
  const senderOf: unknown[] = [];
  const shipmentRows: number[] = [];
  const packageRows: number[][] = [];
  const itemRows: number[][] = [];
  const shipments: Array<Record<PropertyKey, unknown>> = [];
  const shipmentOf = new Map<string, number>();
  const firstValue = new Map<string, { raw: string; row: number }>();
  const base = (s: number): PropertyKey[] => ['order', 'shipments', s];

  for (const r of group.rows) {
    const extra = r.cells.slice(binding.header.length).filter((c) => c.trim() !== '');
    if (extra.length > 0)
      issues.push(
        issueAt(
          file,
          r.row,
          undefined,
          '',
          `this row has ${r.cells.length} cells, the header ${binding.header.length}: a cell with a comma or line break must be quoted`,
        ),
      );
    const sref = binding.shipmentRef?.read(r.cells).trim() ?? '';
    let s = shipmentOf.get(sref);
    if (s === undefined) {
      s = shipments.length;
      shipmentOf.set(sref, s);
      shipments.push({});
      shipmentRows.push(r.row);
      packageRows.push([]);
      itemRows.push([]);
    }
    const shipment = shipments[s]!;
    const pkg: Record<PropertyKey, unknown> = {};
    const item: Record<PropertyKey, unknown> = {};
    // A row adds a package (an item) when any of its package (item) cells is filled, a bad one too,
    // so the next package keeps its index in messages.
    let packageCells = 0;
    let itemCells = 0;
    for (const b of binding.bound) {
      const { column } = b;
      if (column.level === 'order') continue;
      const raw = b.read(r.cells);
      if (raw.trim() === '') continue;
      const mapped = b.problem?.(r.cells);
      const read = mapped !== undefined ? { problem: mapped } : cellValue(column, raw, decimalComma);
      if (column.level === 'shipment') {
        const key = `${s}:${column.name}`;
        const earlier = firstValue.get(key);
        const path = [...base(s), ...(column.type === 'sender' ? ['collection'] : column.path)];
        if (earlier) {
          if (b.repeated && earlier.raw !== raw.trim()) {
            issues.push(
              issueAt(
                file,
                r.row,
                b,
                formatPath(path),
                `differs from row ${earlier.row} of the same shipment ("${earlier.raw}"): leave it empty on the shipment's later rows, or repeat the same value`,
              ),
            );
          }
          continue;
        }
        firstValue.set(key, { raw: raw.trim(), row: r.row });
        if ('problem' in read) {
          issues.push(issueAt(file, r.row, b, formatPath(path), read.problem));
          continue;
        }
        if (column.type === 'sender') {
          senderOf[s] = read.value;
          senders = true;
          continue;
        }
        setAt(shipment, column.path, read.value);
      } else {
        const target = column.level === 'package' ? pkg : item;
        if (column.level === 'package') packageCells++;
        else itemCells++;
        if ('problem' in read) {
          const index = column.level === 'package' ? packageRows[s]!.length : itemRows[s]!.length;
          const path =
            column.level === 'package' ? [...base(s), 'packages', index, ...column.path] : [...base(s), 'customs_information', 'items', index, ...column.path];
          issues.push(issueAt(file, r.row, b, formatPath(path), read.problem));
          continue;
        }
        setAt(target, column.path, read.value);
      }
    }
    if (packageCells > 0) {
      const packages = (shipment.packages ??= []) as unknown[];
      packageRows[s]!.push(r.row);
      packages.push(pkg);
    }
    if (itemCells > 0) {
      setAt(shipment, ['customs_information', 'items', itemRows[s]!.length], item);
      itemRows[s]!.push(r.row);
    }
  }
  shipments.forEach((shipment, s) => {
    if (!shipment.packages && options.mapping?.package) shipment.packages = [{ ...options.mapping.package }];
    shipment.packages ??= [];
    const sender = senderOf[s];
    if (sender !== undefined) {
      const collection = shipment.collection as Record<string, unknown> | undefined;
      if (collection === undefined) shipment.collection = sender;
      else {
        shipment.collection = { sender, ...collection };
      }
    }
  });

  // A field's row and column, found when a message needs one: a shipment's field at the row that
  // gave it (else the shipment's first row), a package's or item's at its own row.
  const locate = (path: ReadonlyArray<PropertyKey>): Position => {
    const pos = (row: number, column: CsvColumn): Position => {
      const bound = binding.byName.get(column.name);
      return { line: row, column: bound?.index ?? 0, column_name: bound?.header ?? column.name };
    };
    if (path[0] === 'order' && path[1] === 'shipments' && typeof path[2] === 'number') {
      const s = path[2];
      const rest = path.slice(3);
      const srow = shipmentRows[s] ?? line;
      if (rest[0] === 'packages') {
        const p = rest[1];
        return pos(typeof p === 'number' ? (packageRows[s]?.[p] ?? srow) : srow, columnFor('package', typeof p === 'number' ? rest.slice(2) : []));
      }
      if (rest[0] === 'customs_information' && rest[1] === 'items') {
        const i = rest[2];
        return pos(typeof i === 'number' ? (itemRows[s]?.[i] ?? srow) : srow, columnFor('item', typeof i === 'number' ? rest.slice(3) : []));
      }
      const sender = firstValue.get(`${s}:sender`);
      if (sender && rest[0] === 'collection' && (rest.length === 1 || rest[1] === 'sender' || !firstValue.has(`${s}:collection_${String(rest[1])}`))) {
        return pos(sender.row, CSV_COLUMN_BY_NAME.get('sender')!);
      }
      const column = columnFor('shipment', rest);
      return pos(firstValue.get(`${s}:${column.name}`)?.row ?? srow, column);
    }
    return pos(line, CSV_COLUMN_BY_NAME.get('order_ref')!);
  };

  let doc: LoadedDocument = { file, data: { order: { shipments } }, wrapper: [], locate: (path) => locate(path) };
  if (options.senders && senders) {
    const resolved = resolveSenders(doc, options.senders.senders, options.senders.profile);
    issues.push(...resolved.issues);
    if (resolved.used.length > 0) doc = { ...doc, data: resolved.data };
  }
  if (issues.length > 0) {
    // Report the schema's problems too, except at the fields already named.
    // (an unknown saved sender stands for the whole collection).
    const named = issues.map((i) => i.path.replace(/\.sender$/, ''));
    const under = (path: string) => named.some((p) => path === p || path.startsWith(`${p}.`) || path.startsWith(`${p}[`));
    const schema = checkDocument(doc, { kind: 'order', now: options.now ?? (() => new Date()) }).issues.filter((i) => i.severity === 'error' && !under(i.path));
    return { file, line, issues: [...issues, ...schema].sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0)) };
  }
  return { file, line, doc };
}

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
  for await (const o of csvOrders(source, options)) {
    if ('issues' in o) issues.push(...o.issues);
    else issues.push(...checkDocument(o.doc, { kind: 'order', now: options.now }).issues);
  }
  const errors = issues.filter((i) => i.severity === 'error');
  return { file: source.file, kind: 'order', valid: errors.length === 0, issues: [...errors, ...issues.filter((i) => i.severity !== 'error')] };
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

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let v = data;
  for (const k of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[k];
  }
  return v;
}

function cellText(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (Array.isArray(v)) return v.map(String).join('|');
  return String(v);
}

/**
 * The rows of an order document in the layout, as cells by column name (the inverse of the
 * reader, which the round-trip tests write orders with): each shipment's fields on its first row, one package and
 * one customs item per row, as many rows as the longer of the two lists. A collection written as
 * `"@name"` goes to the `sender` column. Shipments are told apart by their `transient_id`.
 */
export function orderToRows(orderRef: string, doc: { order: { shipments: readonly unknown[] } }): Array<Record<string, string>> {
  const out: Array<Record<string, string>> = [];
  for (const shipment of doc.order.shipments) {
    const packages = (valueAt(shipment, ['packages']) as unknown[] | undefined) ?? [];
    const items = (valueAt(shipment, ['customs_information', 'items']) as unknown[] | undefined) ?? [];
    const n = Math.max(1, packages.length, items.length);
    for (let k = 0; k < n; k++) {
      const row: Record<string, string> = {};
      for (const c of CSV_COLUMNS) {
        if (c.level === 'order') row[c.name] = orderRef;
        else if (c.name === 'shipment_ref') row[c.name] = cellText(valueAt(shipment, c.path));
        else if (c.level === 'shipment') {
          if (k > 0) row[c.name] = '';
          else if (c.type === 'sender') {
            const coll = valueAt(shipment, ['collection']);
            row[c.name] = typeof coll === 'string' ? coll : cellText(valueAt(coll, ['sender']));
          } else row[c.name] = cellText(valueAt(shipment, c.path));
        } else row[c.name] = cellText(valueAt(c.level === 'package' ? packages[k] : items[k], c.path));
      }
      out.push(row);
    }
  }
  return out;
}
