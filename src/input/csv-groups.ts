/**
 * The rows of a spreadsheet input grouped into orders, streaming: the header bound once, then
 * each run of consecutive rows with one `order_ref` (an `order_ref` used again further down, or
 * missing, makes its group a problem), or the problems that end the file (not text shipbook can
 * read, not CSV, an empty file).
 */
import type { AddressSettings } from '../address/settings.js';
import type { PickupRule } from './pickup.js';
import { CsvError } from 'csv-parse';
import { cmd, type InputIssue } from '../errors.js';
import type { CsvMapping } from './csv-map.js';
import type { SenderRecord } from './senders.js';
import { bind, issueAt, type Binding } from './csv-bind.js';
import { controlCharacterMessage } from './control.js';
import {
  ControlCharacterError,
  NotUtf8Error,
  csvDelimiterOf,
  csvRows,
  delimiterName,
  headBytes,
  type CsvDelimiter,
  type CsvRow,
  type CsvSource,
} from './csv-bytes.js';

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
  /** The run's pickup rule (src/input/pickup.ts): `next` in the pickup_date column and dates no carrier collects on. */
  pickup?: PickupRule;
  /** How strictly addresses are checked: the run's settings (warnings only warn when not given). */
  addresses?: AddressSettings;
}

/** A profile's saved senders and the profile's name (for messages). */
export interface SavedSenders {
  senders: Readonly<Record<string, SenderRecord>> | undefined;
  profile: string;
}

/** A group of consecutive rows with one `order_ref`. */
export interface RowGroup {
  ref: string;
  rows: CsvRow[];
  /** Set when the group cannot be an order (no order_ref, or the order_ref was used by earlier rows). */
  problem?: InputIssue;
}

/** What {@link csvGroups} yields: the binding once, then each group of rows, or problems that end the file. */
type GroupEvent = { kind: 'binding'; binding: Binding } | { kind: 'group'; group: RowGroup } | { kind: 'issues'; line: number; issues: InputIssue[] };

/** The header bound, then the rows grouped by order, streaming; a CSV syntax error ends the file with its issue. */
export async function* csvGroups(source: CsvSource, options: CsvReadOptions): AsyncGenerator<GroupEvent> {
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
    for await (const r of csvRows(source, delimiter)) {
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
    if (err instanceof ControlCharacterError) {
      yield {
        kind: 'issues',
        line: err.line,
        issues: [{ file, line: err.line, column: err.column, path: '', message: controlCharacterMessage(err.character), severity: 'error' }],
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
      issues: [
        {
          file,
          line: 1,
          path: '',
          message: 'is empty: the first row must be the header',
          next: [' (see "', cmd('csv', 'template'), '")'],
          severity: 'error',
        },
      ],
    };
}
