/**
 * Reading input documents (fixtures): JSON or YAML files, or standard input with `-`. Both are
 * parsed with the `yaml` package (JSON is YAML), keeping source positions so every problem can
 * name its line and column. Parsing is safe:
 *
 * - the YAML 1.2 core schema only: an explicit tag other than `!!str`, `!!int`, `!!float`,
 *   `!!bool`, `!!null`, `!!map`, `!!seq` (e.g. `!!js/function`, `!!binary`, `!foo`) is an error;
 * - at most {@link MAX_YAML_ALIASES} aliases, and a cap on what they expand to ("billion laughs");
 * - at most {@link MAX_INPUT_BYTES} bytes;
 * - clear errors, with a line, for binary or non-UTF-8 content, an empty file, several documents
 *   in one file, duplicate fields, and a document that is not an object.
 *
 * The top-level `request` wrapper of the wire form is optional, and a top-level `"$schema"` (how a
 * JSON file names its JSON Schema for editors) is ignored.
 */
import { close, open, read, stat } from 'node:fs';
import { promisify } from 'node:util';
import type { Readable } from 'node:stream';
import { LineCounter, parseDocument, isAlias, isMap, isPair, isScalar, isSeq, visit, type Document, type Node } from 'yaml';
import type * as z from 'zod';
import { ValidationError, type InputIssue } from '../errors.js';
import { safeParseHot } from '../schema/hot.js';
import { closestField, formatPath, knownFieldsAt, schemaProblems } from '../schema/issues.js';
import { readAll } from '../stream.js';

/** Largest input document accepted, in bytes (5 MiB). */
export const MAX_INPUT_BYTES = 5 * 1024 * 1024;
/** Largest number of aliases (`*name`) in a YAML document; their expansion is capped as well. */
const MAX_YAML_ALIASES = 100;
/** Lists and mappings nest at most this deep (shipbook's documents nest about six levels). */
const MAX_NESTING = 64;

/** Explicit tags allowed: those of the YAML 1.2 core schema, and the non-specific `!`. */
const CORE_TAGS: ReadonlySet<string> = new Set(['str', 'int', 'float', 'bool', 'null', 'map', 'seq'].map((t) => `tag:yaml.org,2002:${t}`).concat(['!']));

/** A 1-based line and column in a file. */
export interface Position {
  line: number;
  column: number;
  /** The column's header, for a spreadsheet (CSV) input, where a column has a name. */
  column_name?: string;
}

/** A parsed document and a way back from a field path to its position in the source. */
export interface LoadedDocument {
  /** The file name as the user gave it (`-` for standard input). */
  file: string;
  /** The parsed value, with the `request` wrapper removed when present. */
  data: unknown;
  /** Path segments that the wrapper removed (`['request']` or `[]`), prepended when locating. */
  wrapper: PropertyKey[];
  /**
   * 1-based line and column of the value at `path` (inside the wrapper), or of the nearest
   * existing parent. With `{key: true}`, of the field's name rather than its value (for
   * "unknown field").
   */
  locate(path: ReadonlyArray<PropertyKey>, options?: { key?: boolean }): Position | undefined;
}

/** Line and column of a byte offset in raw bytes (for problems found before decoding). */
function bytePosition(bytes: Buffer, offset: number): Position {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < bytes.length; i++) {
    if (bytes[i] === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** Offset of the first byte that is not valid UTF-8, or -1 when all of `bytes` is valid UTF-8. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    let need: number;
    let min: number;
    if (b < 0x80) {
      i++;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else {
      return i;
    }
    let cp = b & (0xff >> (need + 2));
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

function fail(file: string, message: string, position?: Position): never {
  throw new ValidationError([{ file, path: '', message, severity: 'error', ...position }], `${file}: ${message}`);
}

const tooLarge = () => `larger than ${MAX_INPUT_BYTES / 1024 / 1024} MiB; is this the right file?`;

function readStream(stream: Readable, file: string): Promise<Buffer> {
  return readAll(stream, { bytes: MAX_INPUT_BYTES, tooLarge: () => fail(file, tooLarge()) });
}

// node:fs's callback API, promised: node:fs/promises would load its own module graph (readline,
// file watchers, web streams) at every start-up of validate and the sending commands, for four calls.
const statFile = promisify(stat);
const openFile = promisify(open);
const readFile = promisify(read);
const closeFile = promisify(close);

/**
 * Reads the raw bytes of `file` (or standard input for `-`).
 * @throws ValidationError (exit 2) when the file is missing, unreadable, a directory or too large.
 */
export async function readInput(file: string, stdin?: Readable): Promise<Buffer> {
  if (file === '-') {
    if (!stdin) fail(file, 'standard input is not available');
    return readStream(stdin, file);
  }
  try {
    const info = await statFile(file);
    if (info.isDirectory()) fail(file, 'is a directory, not a file');
    // A device (/dev/zero), a FIFO with no writer or a socket would never end, or never start:
    // only regular files are read (standard input is "-").
    if (!info.isFile()) fail(file, 'is not a regular file (a device, FIFO or socket); give a file, or "-" for standard input');
    if (info.size > MAX_INPUT_BYTES) fail(file, tooLarge());
    // Read at most one byte past the limit whatever stat said (a file that grows while read).
    const fd = await openFile(file, 'r');
    try {
      const buf = Buffer.alloc(Math.min(info.size, MAX_INPUT_BYTES) + 1);
      let filled = 0;
      for (;;) {
        const { bytesRead } = await readFile(fd, buf, filled, buf.length - filled, filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
        if (filled === buf.length) {
          if (filled > MAX_INPUT_BYTES) fail(file, tooLarge());
          break;
        }
      }
      return buf.subarray(0, filled);
    } finally {
      await closeFile(fd);
    }
  } catch (err) {
    if (err instanceof ValidationError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'ENOENT') fail(file, 'no such file');
    if (code === 'EACCES' || code === 'EPERM') fail(file, 'permission denied');
    fail(file, `cannot read (${code ?? String(err)})`);
  }
}

/**
 * The first place where `[`/`{` nest deeper than {@link MAX_NESTING} (outside double-quoted
 * strings), as an offset, or -1. Run before parsing, so a document built to be deep ("[[[[…")
 * is refused at once instead of exhausting the parser's stack.
 */
function tooDeepAt(text: string): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > MAX_NESTING) return i;
    } else if ((c === 0x5d /* ] */ || c === 0x7d) /* } */ && depth > 0) depth--;
  }
  return -1;
}

/** The node an alias stands for, or the node itself. */
function resolved(doc: Document, node: unknown): unknown {
  return isAlias(node) ? node.resolve(doc) : node;
}

/**
 * The pairs of each mapping by key, built the first time a path goes through that mapping: so
 * locating every problem of a document costs one pass over each mapping in all, not one per
 * problem (a file with 40,000 unknown fields would otherwise be walked 40,000 times). The first
 * pair wins for a repeated key, as a search from the start would find it.
 */
type PairIndex = WeakMap<object, Map<string, { key: unknown; value: unknown }>>;

/**
 * The work spent locating problems in documents, in steps (a pair of a mapping indexed, a segment
 * of a path followed), counted since the process started: a test checks that it grows with the
 * size of a document, not with its size times its problems. Counting costs an addition per step.
 */
export const locateWork = { steps: 0 };

function pairOf(index: PairIndex, map: { items: unknown[] }, seg: PropertyKey): { key: unknown; value: unknown } | undefined {
  let byKey = index.get(map);
  if (byKey === undefined) {
    byKey = new Map();
    locateWork.steps += map.items.length;
    for (const p of map.items) {
      if (isPair(p) && isScalar(p.key)) {
        const k = String(p.key.value);
        if (!byKey.has(k)) byKey.set(k, p);
      }
    }
    index.set(map, byKey);
  }
  return byKey.get(String(seg));
}

/** The node at `path` inside a YAML document (through aliases), or the deepest existing parent. */
function nodeAt(doc: Document, path: ReadonlyArray<PropertyKey>, index: PairIndex = new WeakMap()): { node: Node | undefined; exact: boolean; key?: Node } {
  let node = doc.contents as Node | null;
  let keyNode: Node | undefined;
  locateWork.steps += path.length;
  for (const seg of path) {
    const target = resolved(doc, node);
    if (isMap(target)) {
      const pair = pairOf(index, target, seg);
      if (!pair) return { node: node ?? undefined, exact: false };
      keyNode = pair.key as Node;
      node = (pair.value as Node | null) ?? (pair.key as Node);
    } else if (isSeq(target) && typeof seg === 'number') {
      const item = target.items[seg] as Node | undefined;
      if (!item) return { node: node ?? undefined, exact: false };
      keyNode = undefined;
      node = item;
    } else {
      return { node: node ?? undefined, exact: false };
    }
  }
  return { node: node ?? undefined, exact: true, key: keyNode };
}

/** Where the tag of a node that starts at `valueStart` begins (the `!` before it on its line), or `valueStart`. */
function tagStart(text: string, valueStart: number): number {
  let i = text.lastIndexOf('!', valueStart);
  if (i < 0 || text.slice(i, valueStart).includes('\n')) return valueStart;
  while (i > 0 && !/[\s,[{]/.test(text[i - 1]!)) i--;
  return i;
}

/** A yaml parse error in shipbook's words; `source` is the text from where the error is. */
function parseErrorMessage(code: string, message: string, source: string): string {
  const first = message.split('\n')[0]!.replace(/\s+at line \d+, column \d+:?$/, '');
  switch (code) {
    case 'DUPLICATE_KEY': {
      const m = /^\s*(?:"([^"\n]*)"|'([^'\n]*)'|([^:,{}[\]\n]+?))\s*:/.exec(source);
      const key = m ? (m[1] ?? m[2] ?? m[3]) : undefined;
      return key ? `field ${key} is given twice` : 'a field is given twice';
    }
    case 'MULTIPLE_DOCS':
      return 'holds more than one YAML document (---); put one document in each file';
    case 'TAB_AS_INDENT':
      return 'tabs are not allowed for indentation in YAML; indent with spaces';
    default:
      return `not valid JSON or YAML: ${first}`;
  }
}

/** Syntax errors of one document reported one by one; the rest are counted in one more issue. */
const MAX_SYNTAX_ISSUES = 10;

/**
 * Parses bytes as a JSON or YAML document with positions.
 * @throws ValidationError (exit 2) for binary, non-UTF-8, empty, malformed or non-object input,
 *   custom tags and too many aliases; every issue has a line.
 */
export function parseInput(file: string, bytes: Buffer): LoadedDocument {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    fail(file, 'is UTF-16 text; save it as UTF-8', { line: 1, column: 1 });
  }
  const nul = bytes.indexOf(0);
  if (nul >= 0) fail(file, 'is a binary file, not JSON or YAML', bytePosition(bytes, nul));
  const invalid = firstInvalidUtf8(bytes);
  if (invalid >= 0) fail(file, 'is not UTF-8 text; save it as UTF-8', bytePosition(bytes, invalid));
  const text = new TextDecoder('utf-8').decode(bytes);
  if (text.trim() === '') fail(file, 'is empty', { line: 1, column: 1 });

  const lineCounter = new LineCounter();
  const tooDeep = tooDeepAt(text);
  if (tooDeep >= 0) {
    const before = text.slice(0, tooDeep);
    const line = before.split('\n').length;
    fail(file, `nests lists or mappings more than ${MAX_NESTING} levels deep`, { line, column: tooDeep - before.lastIndexOf('\n') });
  }
  // Duplicate keys are found below in one pass (the yaml library's own check is quadratic).
  const doc = parseDocument(text, { lineCounter, schema: 'core', prettyErrors: false, uniqueKeys: false, strict: true });
  const pos = (offset: number): Position => {
    const p = lineCounter.linePos(Math.max(0, Math.min(offset, text.length)));
    return { line: p.line, column: p.col };
  };
  // The yaml library reads on after a syntax error and reports each token that follows as one
  // more (a JSON-lines file read as YAML gives one per token, hundreds of thousands): the first
  // few say what is wrong, and one more line says how many were left out.
  const issues: InputIssue[] = doc.errors.slice(0, MAX_SYNTAX_ISSUES).map((e) => ({
    file,
    ...pos(e.pos[0]),
    path: '',
    message: parseErrorMessage(e.code, e.message, text.slice(e.pos[0], e.pos[0] + 80)),
    severity: 'error',
  }));
  if (doc.errors.length > MAX_SYNTAX_ISSUES) {
    const more = doc.errors.length - MAX_SYNTAX_ISSUES;
    issues.push({
      file,
      ...pos(doc.errors[MAX_SYNTAX_ISSUES]!.pos[0]),
      path: '',
      message: `not valid JSON or YAML: ${more} more syntax error${more === 1 ? '' : 's'} after these, most of them following from the first`,
      severity: 'error',
    });
  }
  let aliases = 0;
  let tooDeepReported = false;
  visit(doc, (_key, node, path) => {
    if (isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
        if (key === undefined) continue;
        if (seen.has(key)) {
          const at = (pair.key as Node).range?.[0] ?? 0;
          issues.push({ file, ...pos(at), path: '', message: `field ${key} is given twice`, severity: 'error' });
        }
        seen.add(key);
      }
    }
    if (!tooDeepReported && (isMap(node) || isSeq(node)) && path.filter((p) => isMap(p) || isSeq(p)).length >= MAX_NESTING) {
      tooDeepReported = true;
      issues.push({
        file,
        ...pos((node as Node).range?.[0] ?? 0),
        path: '',
        message: `nests lists or mappings more than ${MAX_NESTING} levels deep`,
        severity: 'error',
      });
      return visit.SKIP;
    }
    // A list or mapping used as a key ({a: 1}: x, or "? [a, b]") has no JSON form; the yaml library
    // would stringify it with a Node warning. Report it here, where it is.
    if (isPair(node) && (isMap(node.key) || isSeq(node.key))) {
      const keyNode = node.key as Node;
      issues.push({
        file,
        ...pos(keyNode.range?.[0] ?? 0),
        path: '',
        message: `not valid JSON or YAML: a key must be plain text, not a ${isMap(keyNode) ? 'mapping' : 'list'}`,
        severity: 'error',
      });
      return;
    }
    if (isAlias(node)) {
      aliases++;
      if (aliases === MAX_YAML_ALIASES + 1) {
        issues.push({ file, ...pos(node.range?.[0] ?? 0), path: '', message: `more than ${MAX_YAML_ALIASES} YAML aliases (*name)`, severity: 'error' });
      }
      const target = node.resolve(doc);
      if (target === undefined) {
        issues.push({
          file,
          ...pos(node.range?.[0] ?? 0),
          path: '',
          message: `alias *${node.source} has no anchor &${node.source} before it`,
          severity: 'error',
        });
      } else if ((path as readonly unknown[]).includes(target)) {
        // An alias inside what its anchor names would be an endless document (and has no JSON form).
        issues.push({
          file,
          ...pos(node.range?.[0] ?? 0),
          path: '',
          message: `alias *${node.source} is inside &${node.source}, the value it stands for: a recursive alias has no end`,
          severity: 'error',
        });
      }
      return;
    }
    const tag = (node as { tag?: string } | null)?.tag;
    if (tag !== undefined && !CORE_TAGS.has(tag)) {
      const shown = tag.replace(/^tag:yaml\.org,2002:/, '!!');
      issues.push({
        file,
        ...pos(tagStart(text, (node as Node).range?.[0] ?? 0)),
        path: '',
        message: `YAML tag ${shown} is not allowed: write plain values`,
        severity: 'error',
      });
    }
  });
  if (issues.length > 0) {
    issues.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
    throw new ValidationError(issues, `${file}: not valid JSON or YAML`);
  }
  if (doc.contents === null) fail(file, 'is empty (only comments)', { line: 1, column: 1 });
  const rootPos = pos(doc.contents.range?.[0] ?? 0);
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (err) {
    const message = (err as Error).message ?? String(err);
    fail(file, /alias/i.test(message) ? 'YAML aliases expand to too much data ("billion laughs"?)' : `cannot be read: ${message}`, rootPos);
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    const what = data === null ? 'nothing' : Array.isArray(data) ? 'a list' : typeof data === 'string' ? 'text' : `a ${typeof data}`;
    fail(file, `must hold an object (a mapping of fields), not ${what}`, rootPos);
  }
  // A JSON file names its JSON Schema for editors with a top-level "$schema": not a field.
  if (typeof (data as Record<string, unknown>).$schema === 'string') delete (data as Record<string, unknown>).$schema;
  let wrapper: PropertyKey[] = [];
  const keys = Object.keys(data as object);
  if (keys.length === 1 && keys[0] === 'request') {
    const inner = (data as { request: unknown }).request;
    if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) {
      const found = nodeAt(doc, ['request']);
      fail(file, '"request" must hold an object', found.node?.range ? pos(found.node.range[0]) : rootPos);
    }
    data = inner;
    wrapper = ['request'];
  }
  const index: PairIndex = new WeakMap();
  return {
    file,
    data,
    wrapper,
    locate(path, options = {}) {
      const found = nodeAt(doc, [...wrapper, ...path], index);
      const target = options.key && found.exact && found.key ? found.key : found.node;
      const range = target?.range;
      return range ? pos(range[0]) : rootPos;
    },
  };
}

/**
 * The offset of the quote that closes the JSON string opened at `open`: the next one not escaped
 * (after an even run of backslashes), or -1 when there is none.
 */
export function closingQuote(text: string, open: number): number {
  let j = open;
  for (;;) {
    j = text.indexOf('"', j + 1);
    if (j === -1) return -1;
    let b = j - 1;
    while (text.charCodeAt(b) === 0x5c) b--;
    if ((j - 1 - b) % 2 === 0) return j;
  }
}

/**
 * For a text that JSON.parse accepted as `data`: true when an object repeats a key or lists and
 * mappings nest deeper than {@link MAX_NESTING}, which only the full parse reports (with their
 * lines). One pass over the text counts the keys written and the nesting (strings are skipped
 * whole, so braces inside them do not count); a repeated key is one that JSON.parse folded into
 * another, so `data` then holds fewer keys than the text wrote.
 */
function needsFullParse(text: string, data: unknown): boolean {
  // Per open bracket, whether it is an object (whose strings after `{` or `,` are keys).
  const inObject: boolean[] = [];
  let depth = 0;
  let expectKey = false;
  let keys = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const j = closingQuote(text, i);
      if (j === -1) return true; // not JSON after all: the full parse says what is wrong
      if (expectKey) {
        keys++;
        expectKey = false;
      }
      i = j;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > MAX_NESTING) return true;
      inObject[depth] = c === 0x7b;
      expectKey = c === 0x7b;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
      expectKey = false;
    } else if (c === 0x2c) {
      expectKey = depth > 0 && inObject[depth] === true;
    }
  }
  return keys !== keyCount(data);
}

/** The own keys of every object in the JSON value `v`, counted. */
function keyCount(v: unknown): number {
  if (v === null || typeof v !== 'object') return 0;
  let n = 0;
  if (Array.isArray(v)) {
    for (const item of v) n += keyCount(item);
    return n;
  }
  for (const key in v) {
    if (!Object.hasOwn(v, key)) continue;
    n += 1 + keyCount((v as Record<string, unknown>)[key]);
  }
  return n;
}

/**
 * The fast path for one line of NDJSON: a line that JSON.parse takes,
 * holding an object without repeated keys or deep nesting, is read with JSON.parse, and its
 * positions are found only when a message needs one (by the full parse, {@link parseInput}).
 * Anything else returns undefined: the caller parses it fully, which reports the problem.
 */
export function parseJsonLine(file: string, text: string): LoadedDocument | undefined {
  if (!text.trimStart().startsWith('{') || text.includes('\u0000')) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data) || needsFullParse(text, data)) return undefined;
  const record = data as Record<string, unknown>;
  if (typeof record.$schema === 'string') delete record.$schema;
  let wrapper: PropertyKey[] = [];
  const keys = Object.keys(record);
  if (keys.length === 1 && keys[0] === 'request') {
    const inner = record.request;
    if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) return undefined;
    data = inner;
    wrapper = ['request'];
  }
  let full: LoadedDocument | undefined;
  return {
    file,
    data,
    wrapper,
    locate(path, options) {
      full ??= parseInput(file, Buffer.from(text, 'utf8'));
      return full.locate(path, options);
    },
  };
}

/** Reads and parses `file` (or `-` for standard input). @throws ValidationError (exit 2) */
export async function loadDocument(file: string, stdin?: Readable): Promise<LoadedDocument> {
  return parseInput(file, await readInput(file, stdin));
}

/** The value at `path` inside `data`, if every step exists. */
function valueAt(data: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let v = data;
  for (const seg of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[seg];
  }
  return v;
}

/** Options of {@link documentProblems}. */
interface DocumentProblemOptions {
  /**
   * Maps a path in the document as the schema sees it to the path in the file, when the document
   * was rewritten from a shorter form the file uses (see `src/input/kinds.ts`). Default: identity.
   */
  toFilePath?: (segments: ReadonlyArray<PropertyKey>) => PropertyKey[];
}

/**
 * Checks `data` (by default the document's own) against a schema: the value, or every problem
 * found, each with file, line, column and field path. Unknown fields are reported at their name,
 * with the known field they were probably meant to be. Never throws for bad input.
 */
export function documentProblems<S extends z.ZodType>(
  doc: LoadedDocument,
  schema: S,
  data: unknown = doc.data,
  options: DocumentProblemOptions = {},
): { success: true; value: z.output<S> } | { success: false; issues: InputIssue[] } {
  const parsed = safeParseHot(schema, data);
  if (parsed.success) return { success: true, value: parsed.data };
  const toFilePath = options.toFilePath ?? ((s) => [...s]);
  const issues: InputIssue[] = schemaProblems(parsed.error).map((p) => {
    const filePath = toFilePath(p.segments);
    let message = p.message;
    const unknown = message === 'unknown field';
    if (unknown) {
      const parent = p.segments.slice(0, -1);
      const present = valueAt(data, parent);
      const known = knownFieldsAt(schema, parent).filter((k) => present === null || typeof present !== 'object' || !Object.hasOwn(present, k));
      const guess = closestField(String(p.segments[p.segments.length - 1]), known);
      if (guess !== undefined) message = `unknown field (did you mean ${guess}?)`;
    }
    return {
      file: doc.file,
      ...doc.locate(filePath, { key: unknown }),
      path: formatPath(filePath),
      message,
      severity: 'error' as const,
    };
  });
  return { success: false, issues };
}

/**
 * Checks a loaded document against a schema and returns the wire-ready value.
 * @throws ValidationError (exit 2) with every problem, each with file, line, column and path.
 */
export function validateDocument<S extends z.ZodType>(doc: LoadedDocument, schema: S): z.output<S> {
  const result = documentProblems(doc, schema);
  if (result.success) return result.value;
  throw new ValidationError(result.issues);
}
