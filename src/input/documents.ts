/**
 * Files that hold several documents, as a batch reads them: a JSON array of orders (each element
 * on its own, at its own line), a YAML file of several documents (`---`), and NDJSON (`.ndjson`,
 * `.jsonl`: one document per line). Every document keeps its file and its line in that file, so a
 * problem is reported where it is. `book` reads its inputs through these (src/batch/inputs.ts,
 * which streams NDJSON), and `validate` checks such a file document by document.
 */
import { extname } from 'node:path';
import { parseAllDocuments, parseDocument } from 'yaml';
import { ValidationError, type InputIssue } from '../errors.js';
import { parseInput, parseJsonLine, type LoadedDocument } from './load.js';

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

/** The 1-based line of `offset` in `text`. */
function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
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
 * {@link documentsOfText} then finds one document.
 */
export function mayHoldSeveralDocuments(text: string): boolean {
  const start = text.trimStart();
  if (start.startsWith('[')) return true;
  const marker = /^---(?:[ \t]|$)/gm;
  let m: RegExpExecArray | null;
  while ((m = marker.exec(text)) !== null) {
    // A marker before any content (blank lines, comments, %directives) only opens the first document.
    if (
      text
        .slice(0, m.index)
        .replace(/^\s*(?:[#%].*)?$/gm, '')
        .trim() !== ''
    )
      return true;
    if (marker.lastIndex === m.index) marker.lastIndex++;
  }
  return false;
}

/**
 * The documents of a whole file's text, in order: each element of a JSON array, each document of
 * a YAML stream, or the text as one document (also when the array or stream cannot be read as
 * such: the full parse then reports why, at its line).
 */
export function documentsOfText(file: string, text: string): DocumentInput[] {
  if (text.trimStart().startsWith('[')) {
    const doc = parseDocument(text, { schema: 'core' });
    const items = (doc.contents as { items?: Array<{ range?: [number, number, number] }> } | null)?.items;
    if (doc.errors.length > 0 || !Array.isArray(items)) return [parseSlice(file, text, 1)];
    return items.map((item) => {
      const [start, end] = item.range ?? [0, 0];
      return parseSlice(file, text.slice(start, end), lineOf(text, start));
    });
  }
  const docs = parseAllDocuments(text);
  if (!Array.isArray(docs) || docs.length <= 1) return [parseSlice(file, text, 1)];
  const out: DocumentInput[] = [];
  for (const d of docs) {
    const [start, , end] = d.range;
    // The slice starts after the `---` line, so it parses as a single document.
    const body = text.slice(start, end).replace(/^---[^\n]*\n?/, '');
    const startLine = lineOf(text, start) + (text.slice(start, end).startsWith('---') ? 1 : 0);
    if (body.trim() === '') continue;
    out.push(parseSlice(file, body, startLine));
  }
  return out;
}
