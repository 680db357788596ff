/**
 * The inputs of a batch: any number of files and directories; a YAML file may hold several
 * documents (`---`), a JSON file an array of orders, and an NDJSON file (`.ndjson`, `.jsonl`) one
 * order per line, read as a stream so memory does not grow with the number of lines. Regular and
 * consolidated orders may be mixed. Every document keeps its file and line for messages. A CSV or
 * TSV file (`.csv`, `.tsv`, or any input with `--input-format csv`, standard input `-` included)
 * holds orders in the spreadsheet layout of src/input/csv-layout.ts, read by src/input/csv.ts as a
 * stream as well. Standard input (`-`) takes every format a file takes, told from its content
 * (src/input/documents.ts `documentsOf`), or CSV/TSV with `--input-format`.
 */
import type { ServiceChoice } from '../rules/record.js';
import type { AddressSettings } from '../../address/settings.js';
import type { LoadedDocument } from '../../input/loaded.js';
import type { PickupRule } from '../../input/pickup.js';
import { readdir, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { documentsOf, isNdjsonName, type DocumentInput } from '../../input/documents.js';
import { ReadAhead } from '../../input/read-ahead.js';
import { csvOrders } from '../../input/csv.js';
import type { CsvDelimiter } from '../../input/csv-bytes.js';
import type { CsvReadOptions } from '../../input/csv-groups.js';

/** Extensions read from a directory. */
const BATCH_EXTENSIONS = ['.json', '.yaml', '.yml', '.ndjson', '.jsonl', '.csv', '.tsv'] as const;

/** How the inputs are read, beyond their names: the spreadsheet (CSV) settings and standard input. */
export interface BatchInputOptions {
  /** Read every input as CSV or TSV whatever its name (standard input `-` is read only so). */
  format?: 'csv' | 'tsv';
  /** Delimiter, decimal comma, mapping, saved senders. */
  csv?: CsvReadOptions;
  /** Standard input's bytes, read once (a batch reads its inputs twice). */
  stdin?: () => Promise<Buffer>;
  /** The run's pickup rule (src/input/pickup.ts), applied to every document as it is validated. */
  pickup?: PickupRule;
  /** How strictly addresses are checked: the run's settings (warnings only warn when not given). */
  addresses?: AddressSettings;
  /**
   * Called with each order document (not consolidated mail) and its identity before it is
   * validated; what it returns is validated and booked, while the identity stays that of the
   * document as read (service-selection rules fill in the service here, and give their `choice`,
   * which goes with the order to the booking; with `mail`, the order goes by consolidated mail and
   * comes back in the consolidated form, combined with the others of its `key`). A ValidationError it throws makes the document
   * invalid, with its issues.
   */
  prepare?: (doc: LoadedDocument, id: string) => Promise<LoadedDocument & { choice?: ServiceChoice; mail?: { key: string } }>;
}

/** True when `file` is read as CSV: by `--input-format`, or a `.csv`/`.tsv` name. */
export function isCsvInput(file: string, options: BatchInputOptions | undefined): boolean {
  return options?.format !== undefined || /\.(csv|tsv)$/i.test(file);
}

/** The CSV settings of one input: `--input-format tsv` means tab-delimited unless `--delimiter` says otherwise. */
function csvOptionsOf(options: BatchInputOptions | undefined): CsvReadOptions {
  const tab: CsvDelimiter | undefined = options?.format === 'tsv' ? '\t' : undefined;
  return {
    ...options?.csv,
    ...((options?.csv?.delimiter ?? tab) ? { delimiter: options?.csv?.delimiter ?? tab } : {}),
    ...(options?.pickup !== undefined ? { pickup: options.pickup } : {}),
    ...(options?.addresses !== undefined ? { addresses: options.addresses } : {}),
  };
}

/** One document of the batch, or the problems that kept it from being read. */
type BatchInput = DocumentInput;

/** The files named by `paths` (directories walked, sorted, `*.schema.json` left out), in order. */
export async function batchFiles(paths: readonly string[]): Promise<Array<{ file: string; problem?: string }>> {
  const out: Array<{ file: string; problem?: string }> = [];
  for (const path of paths) {
    let info;
    try {
      info = await stat(path);
    } catch {
      out.push({ file: path, problem: 'no such file or directory' });
      continue;
    }
    if (!info.isDirectory()) {
      out.push({ file: path });
      continue;
    }
    const names = (await readdir(path))
      .filter((n) => (BATCH_EXTENSIONS as readonly string[]).includes(extname(n).toLowerCase()) && !n.endsWith('.schema.json'))
      .sort();
    if (names.length === 0) out.push({ file: path, problem: `holds no ${BATCH_EXTENSIONS.join(', ')} file` });
    for (const n of names) out.push({ file: join(path, n) });
  }
  return out;
}

/** Every document of one file, in order: a spreadsheet's orders, else the documents `validate` reads from it too. */
async function* fileDocuments(file: string, options?: BatchInputOptions): AsyncGenerator<BatchInput> {
  if (isCsvInput(file, options)) yield* csvOrders({ file }, csvOptionsOf(options));
  else yield* documentsOf({ file });
}

/**
 * Every document of every input, in order; files that cannot be found come back as problems.
 * Files read whole are read a few at once ahead of the one being checked
 * (src/input/read-ahead.ts); spreadsheets and NDJSON files are streamed, one at a time.
 */
export async function* batchDocuments(paths: readonly string[], options?: BatchInputOptions): AsyncGenerator<BatchInput> {
  const files = await batchFiles(paths.filter((p) => p !== '-'));
  const streamed = (file: string) => isCsvInput(file, options) || isNdjsonName(file);
  const reads = new ReadAhead(
    files.map((f) => f.file),
    (i) => files[i]!.problem === undefined && !streamed(files[i]!.file),
  );
  for (const [i, { file, problem }] of files.entries()) {
    if (problem !== undefined) {
      yield { file, line: 0, issues: [{ file, path: '', message: problem, severity: 'error' }] };
      continue;
    }
    if (streamed(file)) {
      yield* fileDocuments(file, options);
      continue;
    }
    const read = await reads.take(i);
    if ('issues' in read) yield { file, line: 1, issues: read.issues };
    else yield* documentsOf({ file, bytes: read.bytes });
  }
  // Standard input comes last, read once (kept for the batch's second pass): a spreadsheet with
  // --input-format, else every format a file takes, told from what it holds.
  if (paths.includes('-') && options?.stdin) {
    const bytes = await options.stdin();
    if (options.format !== undefined) yield* csvOrders({ file: '-', bytes }, csvOptionsOf(options));
    else yield* documentsOf({ file: '-', bytes });
  }
}
