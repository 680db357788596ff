/**
 * The bytes of a spreadsheet (CSV or TSV) input as rows of cells: its encoding (UTF-8 with or
 * without a byte-order mark, UTF-16 LE with its mark, anything else refused with its line), its
 * delimiter (`,` `;` or tab, told from the header row when not given), and its rows, parsed with
 * csv-parse as a stream and numbered as a spreadsheet numbers them (the header is row 1).
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { parse } from 'csv-parse';
import { parse as parseSync } from 'csv-parse/sync';
import { firstInvalidUtf8 } from './utf8.js';
import { ControlCharacterScan } from './control.js';

/** A cell delimiter: comma, semicolon or tab. */
export type CsvDelimiter = ',' | ';' | '\t';

/** Where a CSV comes from: a file, or bytes already read (standard input, named `-`). */
export interface CsvSource {
  file: string;
  bytes?: Buffer;
}

/** A row of the file: its spreadsheet number (header = 1) and its cells. */
export interface CsvRow {
  row: number;
  cells: string[];
}

const DELIMITERS: readonly CsvDelimiter[] = [',', ';', '\t'];

/** Shows a delimiter in a message. */
export function delimiterName(d: CsvDelimiter): string {
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
export async function headBytes(source: CsvSource): Promise<Buffer> {
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
export class NotUtf8Error extends Error {
  constructor(readonly line: number) {
    super('is not UTF-8 text');
  }
}

/** A control character in a spreadsheet (see src/input/control.ts): where it stands, and which. */
export class ControlCharacterError extends Error {
  constructor(
    readonly line: number,
    readonly column: number,
    readonly character: string,
  ) {
    super('holds a control character');
  }
}

/** Passes decoded text on, refusing the first control character no input may hold ({@link ControlCharacterError}, with its line and column). */
function controlCheck(): Transform {
  const scan = new ControlCharacterScan();
  return new Transform({
    decodeStrings: false,
    transform(chunk: string | Buffer, _encoding, done) {
      const text = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
      const found = scan.next(text);
      if (found === undefined) done(null, text);
      else done(new ControlCharacterError(found.line, found.column, found.character));
    },
  });
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
export async function csvDelimiterOf(source: CsvSource, options: { delimiter?: CsvDelimiter }): Promise<CsvDelimiter> {
  return options.delimiter ?? detectDelimiter(headText(await headBytes(source)), isTsvName(source.file) ? '\t' : ',');
}

/**
 * Every row of a source, header first, as a stream (csv-parse), with spreadsheet row numbers;
 * rows whose cells are all empty are skipped.
 * @throws CsvError for a file that is not CSV (a quote never closed …), with its line
 */
export async function* csvRows(source: CsvSource, delimiter: CsvDelimiter): AsyncGenerator<CsvRow> {
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
  const check = controlCheck();
  decode.on('error', (err) => parser.destroy(err));
  check.on('error', (err) => parser.destroy(err));
  input.pipe(decode).pipe(check).pipe(parser);
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

/**
 * Every row of bytes already read, header first, at once (csv-parse's synchronous parser, with the
 * options of {@link csvRows}, so the rows and their numbers are the same): for a process that must
 * write a report before it exits and cannot wait for a stream. Rows whose cells are all empty are
 * skipped.
 * @throws CsvError for bytes that are not CSV
 */
export function csvRowsSync(bytes: Buffer, delimiter: CsvDelimiter): CsvRow[] {
  const text = isUtf16le(bytes) ? new TextDecoder('utf-16le').decode(bytes.subarray(0, bytes.length - (bytes.length % 2))) : bytes.toString('utf8');
  const records = parseSync(text, {
    bom: true,
    delimiter,
    relax_column_count: true,
    relax_quotes: true,
    record_delimiter: ['\r\n', '\n', '\r'],
    skip_records_with_error: false,
  }) as string[][];
  const rows: CsvRow[] = [];
  records.forEach((cells, i) => {
    if (!cells.every((c) => c.trim() === '')) rows.push({ row: i + 1, cells });
  });
  return rows;
}
