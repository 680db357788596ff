/**
 * Reading input documents (fixtures): JSON or YAML files, or standard input with `-`. Both are
 * parsed with the `yaml` package (JSON is YAML), keeping source positions so every problem can
 * name its line and column. Parsing is safe: core schema only (no custom tags), a limit on alias
 * expansion, a size limit, and clear errors for binary or non-UTF-8 content, empty files and
 * documents that are not objects. The top-level `request` wrapper of the wire form is optional.
 */
import { readFile, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { LineCounter, parseDocument, isMap, isSeq, isPair, isScalar, type Node, type Document } from 'yaml';
import type { z } from 'zod';
import { ValidationError, type InputIssue } from '../errors.js';
import { schemaProblems } from '../schema/issues.js';

/** Largest input document accepted, in bytes (5 MiB). */
export const MAX_INPUT_BYTES = 5 * 1024 * 1024;
/** Largest number of alias expansions in a YAML document (guards against "billion laughs"). */
export const MAX_YAML_ALIASES = 100;

/** A parsed document and a way back from a field path to its position in the source. */
export interface LoadedDocument {
  /** The file name as the user gave it (`-` for standard input). */
  file: string;
  /** The parsed value, with the `request` wrapper removed when present. */
  data: unknown;
  /** Path segments that the wrapper removed (`['request']` or `[]`), prepended when locating. */
  wrapper: PropertyKey[];
  /** 1-based line and column of the value at `path` (or of the nearest existing parent). */
  locate(path: ReadonlyArray<PropertyKey>): { line: number; column: number } | undefined;
}

function fail(file: string, message: string, position?: { line: number; column: number }): never {
  throw new ValidationError([{ file, path: '', message, severity: 'error', ...position }], `${file}: ${message}`);
}

async function readStream(stream: Readable, file: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    size += buf.length;
    if (size > MAX_INPUT_BYTES) fail(file, `larger than ${MAX_INPUT_BYTES / 1024 / 1024} MiB; is this the right file?`);
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}

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
    const info = await stat(file);
    if (info.isDirectory()) fail(file, 'is a directory, not a file');
    if (info.size > MAX_INPUT_BYTES) fail(file, `larger than ${MAX_INPUT_BYTES / 1024 / 1024} MiB; is this the right file?`);
    return await readFile(file);
  } catch (err) {
    if (err instanceof ValidationError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'ENOENT') fail(file, 'no such file');
    if (code === 'EACCES' || code === 'EPERM') fail(file, 'permission denied');
    fail(file, `cannot read (${code ?? String(err)})`);
  }
}

/** The node at `path` inside a YAML document, or the deepest existing parent and whether it was found. */
function nodeAt(doc: Document, path: ReadonlyArray<PropertyKey>): { node: Node | undefined; exact: boolean; key?: Node } {
  let node = doc.contents as Node | null;
  let keyNode: Node | undefined;
  for (let i = 0; i < path.length; i++) {
    const seg = path[i];
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(seg));
      if (!pair) return { node, exact: false };
      keyNode = pair.key as Node;
      node = (pair.value as Node | null) ?? (pair.key as Node);
    } else if (isSeq(node) && typeof seg === 'number') {
      const item = node.items[seg] as Node | undefined;
      if (!item) return { node, exact: false };
      keyNode = undefined;
      node = item;
    } else {
      return { node: node ?? undefined, exact: false };
    }
  }
  return { node: node ?? undefined, exact: true, key: keyNode };
}

/**
 * Parses bytes as a JSON or YAML document with positions.
 * @throws ValidationError (exit 2) for binary, non-UTF-8, empty, malformed or non-object input.
 */
export function parseInput(file: string, bytes: Buffer): LoadedDocument {
  if (bytes.includes(0)) fail(file, 'is a binary file, not JSON or YAML');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    fail(file, 'is not UTF-8 text; save it as UTF-8');
  }
  if (text.trim() === '') fail(file, 'is empty');
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, schema: 'core', prettyErrors: false, uniqueKeys: true, strict: true });
  const pos = (offset: number) => {
    const p = lineCounter.linePos(offset);
    return { line: p.line, column: p.col };
  };
  const problems = [...doc.errors, ...doc.warnings.filter((w) => w.code === 'TAG_RESOLVE_FAILED' || /tag/i.test(w.message))];
  if (problems.length > 0) {
    const issues: InputIssue[] = problems.map((e) => ({
      file,
      ...pos(e.pos[0]),
      path: '',
      message: e.code === 'TAG_RESOLVE_FAILED' || /tag/i.test(e.message) ? `custom YAML tags are not allowed (${e.message.split('\n')[0]})` : e.message.split('\n')[0]!,
      severity: 'error',
    }));
    throw new ValidationError(issues, `${file}: not valid JSON or YAML`);
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (err) {
    fail(file, `cannot be read: ${(err as Error).message}`);
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    fail(file, `must hold an object (a mapping of fields), not ${data === null ? 'nothing' : Array.isArray(data) ? 'a list' : typeof data}`, pos(0));
  }
  let wrapper: PropertyKey[] = [];
  const keys = Object.keys(data as object);
  if (keys.length === 1 && keys[0] === 'request') {
    const inner = (data as { request: unknown }).request;
    if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) {
      fail(file, '"request" must hold an object');
    }
    data = inner;
    wrapper = ['request'];
  }
  return {
    file,
    data,
    wrapper,
    locate(path) {
      const found = nodeAt(doc, [...wrapper, ...path]);
      const target = found.exact ? found.node : found.node;
      const range = target?.range;
      return range ? pos(range[0]) : undefined;
    },
  };
}

/** Reads and parses `file` (or `-` for standard input). @throws ValidationError (exit 2) */
export async function loadDocument(file: string, stdin?: Readable): Promise<LoadedDocument> {
  return parseInput(file, await readInput(file, stdin));
}

/**
 * Checks a loaded document against a schema and returns the wire-ready value.
 * @throws ValidationError (exit 2) with every problem, each with file, line, column and path.
 */
export function validateDocument<S extends z.ZodType>(doc: LoadedDocument, schema: S): z.output<S> {
  const parsed = schema.safeParse(doc.data);
  if (parsed.success) return parsed.data;
  const issues: InputIssue[] = schemaProblems(parsed.error).map((p) => ({
    file: doc.file,
    ...doc.locate(p.segments),
    path: p.path,
    message: p.message,
    severity: 'error',
  }));
  throw new ValidationError(issues);
}

/** Loads and validates in one step. @throws ValidationError (exit 2) */
export async function loadAndValidate<S extends z.ZodType>(file: string, schema: S, stdin?: Readable): Promise<z.output<S>> {
  return validateDocument(await loadDocument(file, stdin), schema);
}
