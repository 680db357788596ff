/**
 * The inputs of a batch: any number of files and directories; a YAML file may hold several
 * documents (`---`), a JSON file an array of orders, and an NDJSON file (`.ndjson`, `.jsonl`) one
 * order per line, read as a stream so memory does not grow with the number of lines. Regular and
 * consolidated orders may be mixed. Every document keeps its file and line for messages. A CSV or
 * TSV file (`.csv`, `.tsv`, or any input with `--input-format csv`, standard input `-` included)
 * holds orders in the spreadsheet layout of src/input/csv-layout.ts, read by src/input/csv.ts as a
 * stream as well.
 */
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseAllDocuments, parseDocument } from 'yaml';
import { ValidationError, type InputIssue } from '../errors.js';
import { parseInput, parseJsonLine, readInput, type LoadedDocument } from '../input/load.js';
import { csvOrders, type CsvDelimiter, type CsvReadOptions } from '../input/csv.js';

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
}

/** True when `file` is read as CSV: by `--input-format`, or a `.csv`/`.tsv` name. */
export function isCsvInput(file: string, options: BatchInputOptions | undefined): boolean {
  return options?.format !== undefined || /\.(csv|tsv)$/i.test(file);
}

/** The CSV settings of one input: `--input-format tsv` means tab-delimited unless `--delimiter` says otherwise. */
function csvOptionsOf(options: BatchInputOptions | undefined): CsvReadOptions {
  const tab: CsvDelimiter | undefined = options?.format === 'tsv' ? '\t' : undefined;
  return { ...options?.csv, ...((options?.csv?.delimiter ?? tab) ? { delimiter: options?.csv?.delimiter ?? tab } : {}) };
}

/** One document of the batch, or the problems that kept it from being read. */
type BatchInput = { file: string; line: number; doc: LoadedDocument } | { file: string; line: number; issues: InputIssue[] };

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

/** A document parsed from a slice of a file that starts at line `firstLine`: its positions are shifted to the file's. */
function shifted(doc: LoadedDocument, firstLine: number): LoadedDocument {
  if (firstLine === 1) return doc;
  return {
    ...doc,
    locate(path, options) {
      const p = doc.locate(path, options);
      return p && { line: p.line + firstLine - 1, column: p.column };
    },
  };
}

/** Parses a slice of `file` starting at `firstLine`; problems come back with the file's line numbers. */
function parseSlice(file: string, text: string, firstLine: number): BatchInput {
  try {
    return { file, line: firstLine, doc: shifted(parseInput(file, Buffer.from(text, 'utf8')), firstLine) };
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    return { file, line: firstLine, issues: err.issues.map((i) => ({ ...i, file, line: (i.line ?? 1) + firstLine - 1 })) };
  }
}

const lineOf = (text: string, offset: number) => {
  let line = 1;
  for (let i = 0; i < offset; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
};

/** Every document of one file, in order. */
async function* fileDocuments(file: string, options?: BatchInputOptions): AsyncGenerator<BatchInput> {
  if (isCsvInput(file, options)) {
    yield* csvOrders({ file }, csvOptionsOf(options));
    return;
  }
  const ext = extname(file).toLowerCase();
  if (ext === '.ndjson' || ext === '.jsonl') {
    const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
    let n = 0;
    for await (const line of lines) {
      n++;
      if (line.trim() === '') continue;
      // Most lines are plain JSON objects: read with JSON.parse, positions found only when needed.
      const fast = parseJsonLine(file, line);
      yield fast ? { file, line: n, doc: shifted(fast, n) } : parseSlice(file, line, n);
    }
    return;
  }
  let bytes: Buffer;
  try {
    bytes = await readInput(file);
  } catch (err) {
    if (err instanceof ValidationError) {
      yield { file, line: 1, issues: err.issues };
      return;
    }
    throw err;
  }
  const text = bytes.toString('utf8');
  const first = text.trimStart()[0];
  if (first === '[') {
    // A JSON array of orders: each element on its own, at its own line.
    const doc = parseDocument(text, { schema: 'core' });
    const items = (doc.contents as { items?: Array<{ range?: [number, number, number] }> } | null)?.items;
    if (doc.errors.length > 0 || !Array.isArray(items)) {
      yield parseSlice(file, text, 1);
      return;
    }
    for (const item of items) {
      const [start, end] = item.range ?? [0, 0];
      yield parseSlice(file, text.slice(start, end), lineOf(text, start));
    }
    return;
  }
  const docs = parseAllDocuments(text);
  if (!Array.isArray(docs) || docs.length <= 1) {
    yield parseSlice(file, text, 1);
    return;
  }
  for (const d of docs) {
    const [start, , end] = d.range;
    // The slice starts after the `---` line, so it parses as a single document.
    const body = text.slice(start, end).replace(/^---[^\n]*\n?/, '');
    const startLine = lineOf(text, start) + (text.slice(start, end).startsWith('---') ? 1 : 0);
    if (body.trim() === '') continue;
    yield parseSlice(file, body, startLine);
  }
}

/** Every document of every input, in order; files that cannot be found come back as problems. */
export async function* batchDocuments(paths: readonly string[], options?: BatchInputOptions): AsyncGenerator<BatchInput> {
  for (const { file, problem } of await batchFiles(paths.filter((p) => p !== '-'))) {
    if (problem !== undefined) {
      yield { file, line: 0, issues: [{ file, path: '', message: problem, severity: 'error' }] };
      continue;
    }
    yield* fileDocuments(file, options);
  }
  // Standard input comes last, read once (kept for the batch's second pass).
  if (paths.includes('-') && options?.stdin) yield* csvOrders({ file: '-', bytes: await options.stdin() }, csvOptionsOf(options));
}
