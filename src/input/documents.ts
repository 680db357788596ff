/**
 * Files that hold several documents, as a batch reads them: a JSON array of orders (each element
 * on its own, at its own line), a YAML file of several documents (`---`), and NDJSON (`.ndjson`,
 * `.jsonl`: one document per line). Every document keeps its file and its line in that file, so a
 * problem is reported where it is. {@link documentsOf} is the one reading of such a file: `book`
 * reads its inputs through it (src/booking/batch/inputs.ts) and `validate` checks a file document by
 * document through it (src/input/validate.ts).
 */
import { stat } from 'node:fs';
import { extname } from 'node:path';
import type { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { parseAllDocuments, parseDocument } from 'yaml';
import { ValidationError, type InputIssue } from '../errors.js';
import { closingQuote, parseJsonLine } from './json-line.js';
import { MAX_YAML_ALIASES, parseInput } from './parse.js';
import { aliasBeyond } from './yaml-aliases.js';
import type { LoadedDocument } from './loaded.js';
import { MAX_INPUT_BYTES, readInput } from './read.js';
import { firstInvalidUtf8 } from './utf8.js';
import { parsePlainDocument } from './yaml-plain.js';

/** One document of a file: parsed, at `line`, or the problems that kept it from being parsed. */
export type DocumentInput = { file: string; line: number; doc: LoadedDocument } | { file: string; line: number; issues: InputIssue[] };

/** True for the names of NDJSON files (`.ndjson`, `.jsonl`): one document per line. */
export function isNdjsonName(file: string): boolean {
  const ext = extname(file).toLowerCase();
  return ext === '.ndjson' || ext === '.jsonl';
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
function parseSlice(file: string, text: string, firstLine: number): DocumentInput {
  try {
    return { file, line: firstLine, doc: shifted(parseInput(file, Buffer.from(text, 'utf8')), firstLine) };
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    return { file, line: firstLine, issues: err.issues.map((i) => ({ ...i, file, line: (i.line ?? 1) + firstLine - 1 })) };
  }
}

/**
 * The 1-based lines of offsets in `text`, asked in increasing order: each call counts only from
 * the offset asked before, so the elements of a long array or stream cost one pass, not one each.
 */
function lineCounter(text: string): (offset: number) => number {
  let at = 0;
  let line = 1;
  return (offset) => {
    if (offset < at) {
      at = 0;
      line = 1;
    }
    for (; at < offset; at++) if (text.charCodeAt(at) === 10) line++;
    return line;
  };
}

/**
 * The document on line `n` of an NDJSON file, or undefined for a blank line. Most lines are plain
 * JSON objects: read with JSON.parse, their positions found only when a message needs one.
 */
export function documentOfLine(file: string, line: string, n: number): DocumentInput | undefined {
  if (line.trim() === '') return undefined;
  const fast = parseJsonLine(file, line);
  return fast ? { file, line: n, doc: shifted(fast, n) } : parseSlice(file, line, n);
}

/**
 * True when `text` may hold several documents: it starts with `[` (a JSON array), or a YAML
 * document marker (`---`) follows some content. A false positive costs only a closer look:
 * {@link jsonOrYamlDocuments} then finds one document.
 */
export function mayHoldSeveralDocuments(text: string): boolean {
  const start = text.trimStart();
  if (start.startsWith('[')) return true;
  const marker = /^---(?:[ \t]|$)/gm;
  let from = 0;
  let m: RegExpExecArray | null;
  while ((m = marker.exec(text)) !== null) {
    // A marker before any content (blank lines, comments, %directives) only opens the first
    // document. Only the text since the last marker is looked at, so a file of markers alone
    // costs one pass.
    if (
      text
        .slice(from, m.index)
        .replace(/^\s*(?:[#%].*)?$/gm, '')
        .trim() !== ''
    )
      return true;
    from = m.index + m[0].length;
    if (marker.lastIndex === m.index) marker.lastIndex++;
  }
  return false;
}

/**
 * The elements of a JSON array text, as `[start, end)` offsets of their text, or undefined when
 * the text is not JSON (the YAML reader then reads it, and reports what is wrong where it is).
 * JSON.parse checks the whole text first; one pass then finds where each element starts and
 * ends, skipping strings whole: reading a large array through the YAML reader cost seconds.
 */
function jsonArrayElements(text: string): Array<[number, number]> | undefined {
  try {
    if (!Array.isArray(JSON.parse(text))) return undefined;
  } catch {
    return undefined;
  }
  const out: Array<[number, number]> = [];
  let depth = 0;
  let start = -1;
  let last = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      if (depth === 1 && start < 0) start = i;
      // JSON.parse took the text, so every string is closed.
      i = closingQuote(text, i);
      last = i;
    } else if (c === 0x5b || c === 0x7b) {
      if (depth === 1 && start < 0) start = i;
      depth++;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
      if (depth === 0 && start >= 0) out.push([start, last + 1]);
      last = i;
    } else if (c === 0x2c && depth === 1) {
      out.push([start, last + 1]);
      start = -1;
    } else if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) {
      if (depth === 1 && start < 0) start = i;
      last = i;
    }
  }
  return out;
}

/**
 * The documents of a whole file's text, in order: each element of a JSON array, each document of
 * a YAML stream, or the text as one document (also when the array or stream cannot be read as
 * such: the full parse then reports why, at its line). One at a time: a document is parsed when
 * it is asked for, so only the one at hand is held.
 */
export function* jsonOrYamlDocuments(file: string, text: string): Generator<DocumentInput> {
  if (text.trimStart().startsWith('[')) {
    const elements = jsonArrayElements(text);
    if (elements !== undefined) {
      const lineOf = lineCounter(text);
      for (const [start, end] of elements) {
        // Spaces in place of what comes before the element on its line, so columns are the file's too.
        const slice = `${' '.repeat(start - (text.lastIndexOf('\n', start - 1) + 1))}${text.slice(start, end)}`;
        const line = lineOf(start);
        const fast = parseJsonLine(file, slice);
        yield fast ? { file, line, doc: shifted(fast, line) } : parseSlice(file, slice, line);
      }
      return;
    }
    const doc = parseDocument(text, { schema: 'core' });
    const items = (doc.contents as { items?: Array<{ range?: [number, number, number] }> } | null)?.items;
    if (doc.errors.length > 0 || !Array.isArray(items)) {
      yield parseSlice(file, text, 1);
      return;
    }
    const lineOf = lineCounter(text);
    for (const item of items) {
      const [start, end] = item.range ?? [0, 0];
      yield parseSlice(file, text.slice(start, end), lineOf(start));
    }
    return;
  }
  // An alias bomb in one of the documents is refused before the stream is composed (which costs
  // seconds for a million aliases), at the alias beyond the limit, as a single document is.
  const bomb = aliasBeyond(text, MAX_YAML_ALIASES);
  if (bomb >= 0) {
    const line = lineCounter(text)(bomb);
    const issue: InputIssue = {
      file,
      line,
      column: bomb - text.lastIndexOf('\n', bomb - 1),
      path: '',
      message: `more than ${MAX_YAML_ALIASES} YAML aliases (*name)`,
      severity: 'error',
    };
    yield { file, line, issues: [issue] };
    return;
  }
  const docs = parseAllDocuments(text);
  if (!Array.isArray(docs) || docs.length <= 1) {
    yield parseSlice(file, text, 1);
    return;
  }
  const lineOf = lineCounter(text);
  for (const d of docs) {
    const [start, , end] = d.range;
    // The slice starts after the `---` line, so it parses as a single document.
    const body = text.slice(start, end).replace(/^---[^\n]*\n?/, '');
    const startLine = lineOf(start) + (text.slice(start, end).startsWith('---') ? 1 : 0);
    if (body.trim() === '') continue;
    yield parseSlice(file, body, startLine);
  }
}

/**
 * True when `text` reads as NDJSON whatever its name: two or more lines that are not blank, the
 * first a whole JSON object and the second starting with `{`, while the whole text is not one
 * JSON value. Standard input has no name to tell its format by, and a file of orders one per line
 * saved as `.json` is read as what it holds rather than refused as broken JSON.
 */
function looksLikeNdjson(text: string): boolean {
  const start = text.trimStart();
  if (!start.startsWith('{')) return false;
  const lines = start.split('\n', 64).filter((l) => l.trim() !== '');
  if (lines.length < 2 || !lines[1]!.trimStart().startsWith('{')) return false;
  try {
    const first: unknown = JSON.parse(lines[0]!);
    if (first === null || typeof first !== 'object' || Array.isArray(first)) return false;
  } catch {
    return false;
  }
  try {
    JSON.parse(text);
    return false;
  } catch {
    return true;
  }
}

/** True when `file` is read one document per line: an NDJSON name, or (for any name) NDJSON content. */
function isNdjsonText(file: string, text: string): boolean {
  return isNdjsonName(file) || looksLikeNdjson(text);
}

/**
 * True when the text of `file` may hold several documents (NDJSON, a JSON array, a YAML stream
 * with `---` between documents). A false positive costs only a closer look ({@link documentsOfText}
 * then finds one document).
 */
function holdsSeveralDocuments(file: string, text: string): boolean {
  return isNdjsonText(file, text) || mayHoldSeveralDocuments(text);
}

/** The documents of an NDJSON text, one per line that is not blank, each parsed when asked for. */
function* ndjsonLines(file: string, text: string): Generator<DocumentInput> {
  let n = 0;
  for (const line of text.split('\n')) {
    const doc = documentOfLine(file, line.endsWith('\r') ? line.slice(0, -1) : line, ++n);
    if (doc !== undefined) yield doc;
  }
}

/**
 * The documents of a file's whole text: one per line for NDJSON (by its name, `.ndjson` or
 * `.jsonl`, or by what it holds, see {@link looksLikeNdjson}; standard input `-` included), each
 * element of a JSON array, each document of a YAML stream, or the text as one document. Each keeps
 * its line in the file.
 */
export function documentsOfText(file: string, text: string): Generator<DocumentInput> {
  return isNdjsonText(file, text) ? ndjsonLines(file, text) : jsonOrYamlDocuments(file, text);
}

/** The whole of `bytes` as one document, or the problems that keep it from being one (at the file's lines). */
function wholeDocument(file: string, bytes: Buffer): DocumentInput {
  try {
    return { file, line: 1, doc: parseInput(file, bytes) };
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    return { file, line: 1, issues: err.issues };
  }
}

/**
 * The documents of a file's bytes (see {@link documentsOfText}). Bytes that are not UTF-8 text
 * (UTF-16, a Windows code page) are refused as a whole, at the line and column where they stop
 * being so, as a single document would be, rather than read with replacement characters; so is
 * text that cannot hold more than one document.
 */
export function documentsOfBytes(file: string, bytes: Buffer): Iterable<DocumentInput> {
  if (firstInvalidUtf8(bytes) >= 0) return [wholeDocument(file, bytes)];
  const text = bytes.toString('utf8');
  if (holdsSeveralDocuments(file, text)) return documentsOfText(file, text);
  // Most files are plain YAML or a JSON object: read without building a YAML document (src/input/yaml-plain.ts).
  const plain = parsePlainDocument(file, text);
  return [plain !== undefined ? { file, line: 1, doc: plain } : wholeDocument(file, bytes)];
}

/** Where a file of documents comes from: its name (`-` for standard input), and its bytes when already read. */
interface DocumentSource {
  file: string;
  bytes?: Buffer;
}

// node:fs's callback API, promised: node:fs/promises costs its own module graph at start-up.
const statPath = promisify(stat);

/** The size of a regular file, or undefined for anything else (missing, a directory, a device). */
async function regularFileSize(file: string): Promise<number | undefined> {
  try {
    const info = await statPath(file);
    return info.isFile() ? info.size : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The documents of one input file, in order, each at its line: the one reading of "a file of
 * many documents" that `book` (src/booking/batch/inputs.ts) and `validate` (src/input/validate.ts) share,
 * so what one accepts the other accepts. The bytes are read safely (src/input/read.ts; a file
 * that cannot be read comes back as one entry with its problem), then split by
 * {@link documentsOfBytes}. An NDJSON file larger than one document may be
 * ({@link MAX_INPUT_BYTES}) is streamed line by line instead, so memory does not grow with it.
 */
export async function* documentsOf(source: DocumentSource, options: { stdin?: Readable } = {}): AsyncGenerator<DocumentInput> {
  const { file } = source;
  if (source.bytes === undefined && file !== '-' && isNdjsonName(file) && ((await regularFileSize(file)) ?? 0) > MAX_INPUT_BYTES) {
    yield* streamNdjsonFile(file);
    return;
  }
  let bytes = source.bytes;
  if (bytes === undefined) {
    try {
      bytes = await readInput(file, options.stdin);
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      yield { file, line: 1, issues: err.issues };
      return;
    }
  }
  yield* documentsOfBytes(file, bytes);
}

/**
 * The documents of an NDJSON file read as a stream, line by line, so that memory does not grow
 * with the file (a batch of a million orders). node:readline is loaded only here: it costs every
 * other command its start-up time.
 */
async function* streamNdjsonFile(file: string): AsyncGenerator<DocumentInput> {
  const [{ createInterface }, { createReadStream }] = await Promise.all([import('node:readline'), import('node:fs')]);
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  let n = 0;
  for await (const line of lines) {
    const doc = documentOfLine(file, line, ++n);
    if (doc !== undefined) yield doc;
  }
}

/**
 * True when the text of `file` is a list of documents rather than one: NDJSON, a JSON array (of
 * any length, even one), or a YAML stream of more than one document. `book` books such a file as
 * a batch, as it would several files.
 */
export function isDocumentList(file: string, text: string): boolean {
  if (!holdsSeveralDocuments(file, text)) return false;
  if (isNdjsonText(file, text) || text.trimStart().startsWith('[')) return true;
  let n = 0;
  for (const d of jsonOrYamlDocuments(file, text)) {
    void d;
    if (++n > 1) return true;
  }
  return false;
}
