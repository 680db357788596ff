/**
 * JSON and YAML documents parsed with positions: both are parsed with the `yaml` package (JSON is
 * YAML), keeping source positions so every problem can name its line and column. Parsing is safe:
 *
 * - the YAML 1.2 core schema only: an explicit tag other than `!!str`, `!!int`, `!!float`,
 *   `!!bool`, `!!null`, `!!map`, `!!seq` (e.g. `!!js/function`, `!!binary`, `!foo`) is an error;
 * - at most {@link MAX_YAML_ALIASES} aliases, counted on the lexer's tokens before the document is
 *   composed (so a file of a million aliases is refused in linear time), and a cap on what they
 *   expand to ("billion laughs");
 * - no control character but tab and line breaks, written as itself or as an escape
 *   (src/input/control.ts, the rule of every input format);
 * - lists and mappings nested at most {@link MAX_NESTING} deep;
 * - clear errors, with a line, for binary or non-UTF-8 content, an empty file, several documents
 *   in one file, duplicate fields, and a document that is not an object.
 *
 * The top-level `request` wrapper of the wire form is optional, and a top-level `"$schema"` is
 * ignored (src/input/loaded.ts `unwrapRequest`).
 */
import { LineCounter, parseDocument, isAlias, isMap, isPair, isScalar, isSeq, visit, type Document, type Node } from 'yaml';
import { ValidationError, type InputIssue } from '../errors.js';
import { failInput as fail, unwrapRequest, type LoadedDocument, type Position } from './loaded.js';
import { bytePosition, firstInvalidUtf8 } from './utf8.js';
import { controlCharacterInValues, controlCharacterMessage, firstControlCharacter } from './control.js';
import { aliasBeyond } from './yaml-aliases.js';

/** Largest number of aliases (`*name`) in a YAML document; their expansion is capped as well. */
export const MAX_YAML_ALIASES = 100;
/** Lists and mappings nest at most this deep (shipbook's documents nest about six levels). */
export const MAX_NESTING = 64;

/** Explicit tags allowed: those of the YAML 1.2 core schema, and the non-specific `!`. */
const CORE_TAGS: ReadonlySet<string> = new Set(['str', 'int', 'float', 'bool', 'null', 'map', 'seq'].map((t) => `tag:yaml.org,2002:${t}`).concat(['!']));

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

/** A position in the text of a document, from an offset (clamped to the text). */
type PositionOf = (offset: number) => Position;

/**
 * The text of input bytes, refused (with the line and column where it stops being text) when it
 * is UTF-16, binary, not UTF-8, or empty.
 * @throws ValidationError (exit 2)
 */
function textOf(file: string, bytes: Buffer): string {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    fail(file, 'is UTF-16 text; save it as UTF-8', { line: 1, column: 1 });
  }
  const nul = bytes.indexOf(0);
  if (nul >= 0) fail(file, controlCharacterMessage('\u0000'), bytePosition(bytes, nul));
  const invalid = firstInvalidUtf8(bytes);
  if (invalid >= 0) fail(file, 'is not UTF-8 text; save it as UTF-8', bytePosition(bytes, invalid));
  const text = new TextDecoder('utf-8').decode(bytes);
  if (text.trim() === '') fail(file, 'is empty', { line: 1, column: 1 });
  const control = firstControlCharacter(text);
  if (control >= 0) fail(file, controlCharacterMessage(text[control]!), textPosition(text, control));
  const tooDeep = tooDeepAt(text);
  if (tooDeep >= 0) fail(file, `nests lists or mappings more than ${MAX_NESTING} levels deep`, textPosition(text, tooDeep));
  const alias = aliasBeyond(text, MAX_YAML_ALIASES);
  if (alias >= 0) fail(file, `more than ${MAX_YAML_ALIASES} YAML aliases (*name)`, textPosition(text, alias));
  return text;
}

/** Line and column of an offset in a text (for problems found before parsing). */
function textPosition(text: string, offset: number): Position {
  const before = text.slice(0, offset);
  return { line: before.split('\n').length, column: offset - before.lastIndexOf('\n') };
}

/**
 * The yaml library's syntax errors in shipbook's words. It reads on after a syntax error and
 * reports each token that follows as one more (a JSON-lines file read as YAML gives one per token,
 * hundreds of thousands): the first few say what is wrong, and one more says how many were left out.
 */
function syntaxIssues(file: string, doc: Document, text: string, pos: PositionOf): InputIssue[] {
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
  return issues;
}

/** The messages, with their offsets, of a mapping's keys given twice (one pass; the yaml library's own check is quadratic). */
function duplicateKeys(node: { items: unknown[] }): Array<{ at: number; message: string }> {
  const out: Array<{ at: number; message: string }> = [];
  const seen = new Set<string>();
  for (const pair of node.items) {
    if (!isPair(pair) || !isScalar(pair.key)) continue;
    const key = String(pair.key.value);
    if (seen.has(key)) out.push({ at: (pair.key as Node).range?.[0] ?? 0, message: `field ${key} is given twice` });
    seen.add(key);
  }
  return out;
}

/** What is wrong with an alias (`*name`): no anchor before it, or inside the value its anchor names (an endless document). */
function aliasProblem(doc: Document, node: { source: string; resolve(doc: Document): unknown }, path: readonly unknown[]): string | undefined {
  const target = node.resolve(doc);
  if (target === undefined) return `alias *${node.source} has no anchor &${node.source} before it`;
  if (path.includes(target)) return `alias *${node.source} is inside &${node.source}, the value it stands for: a recursive alias has no end`;
  return undefined;
}

/**
 * What the parser accepts but shipbook refuses, found in one walk of the document: keys given
 * twice, nesting too deep, a list or mapping used as a key, too many or broken aliases, tags
 * outside the core schema.
 */
function structureIssues(file: string, doc: Document, text: string, pos: PositionOf): InputIssue[] {
  const issues: InputIssue[] = [];
  const at = (offset: number, message: string) => issues.push({ file, ...pos(offset), path: '', message, severity: 'error' });
  let aliases = 0;
  let tooDeepReported = false;
  visit(doc, (_key, node, path) => {
    if (isMap(node)) for (const d of duplicateKeys(node)) at(d.at, d.message);
    if (!tooDeepReported && (isMap(node) || isSeq(node)) && path.filter((p) => isMap(p) || isSeq(p)).length >= MAX_NESTING) {
      tooDeepReported = true;
      at((node as Node).range?.[0] ?? 0, `nests lists or mappings more than ${MAX_NESTING} levels deep`);
      return visit.SKIP;
    }
    // A list or mapping used as a key ({a: 1}: x, or "? [a, b]") has no JSON form; the yaml library
    // would stringify it with a Node warning. Report it here, where it is.
    if (isPair(node) && (isMap(node.key) || isSeq(node.key))) {
      const keyNode = node.key as Node;
      at(keyNode.range?.[0] ?? 0, `not valid JSON or YAML: a key must be plain text, not a ${isMap(keyNode) ? 'mapping' : 'list'}`);
      return;
    }
    if (isAlias(node)) {
      aliases++;
      if (aliases === MAX_YAML_ALIASES + 1) at(node.range?.[0] ?? 0, `more than ${MAX_YAML_ALIASES} YAML aliases (*name)`);
      const problem = aliasProblem(doc, node, path as readonly unknown[]);
      if (problem !== undefined) at(node.range?.[0] ?? 0, problem);
      return;
    }
    const tag = (node as { tag?: string } | null)?.tag;
    if (tag !== undefined && !CORE_TAGS.has(tag)) {
      at(tagStart(text, (node as Node).range?.[0] ?? 0), `YAML tag ${tag.replace(/^tag:yaml\.org,2002:/, '!!')} is not allowed: write plain values`);
    }
  });
  return issues;
}

/**
 * The document's value as a plain object (aliases expanded, within their cap).
 * @throws ValidationError (exit 2) when it is empty, expands too far, or is not an object
 */
function objectOf(file: string, doc: Document, rootPos: Position): Record<string, unknown> {
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
  return data as Record<string, unknown>;
}

/**
 * How many texts the full parse has read since the process started: a test checks that a batch
 * of plain files builds no YAML document (src/input/yaml-plain.ts reads them) unless a message
 * needs a position. Counting costs an addition per document.
 */
export const parseWork = { documents: 0 };

/**
 * Parses bytes as a JSON or YAML document with positions.
 * @throws ValidationError (exit 2) for binary, non-UTF-8, empty, malformed or non-object input,
 *   custom tags and too many aliases; every issue has a line.
 */
export function parseInput(file: string, bytes: Buffer): LoadedDocument {
  parseWork.documents++;
  const text = textOf(file, bytes);
  const lineCounter = new LineCounter();
  // Duplicate keys are found in one pass by structureIssues (the yaml library's own check is quadratic).
  const doc = parseDocument(text, { lineCounter, schema: 'core', prettyErrors: false, uniqueKeys: false, strict: true });
  const pos: PositionOf = (offset) => {
    const p = lineCounter.linePos(Math.max(0, Math.min(offset, text.length)));
    return { line: p.line, column: p.col };
  };
  const issues = [...syntaxIssues(file, doc, text, pos), ...structureIssues(file, doc, text, pos)];
  if (issues.length > 0) {
    issues.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
    throw new ValidationError(issues, `${file}: not valid JSON or YAML`);
  }
  if (doc.contents === null) fail(file, 'is empty (only comments)', { line: 1, column: 1 });
  const rootPos = pos(doc.contents.range?.[0] ?? 0);
  const unwrapped = unwrapRequest(objectOf(file, doc, rootPos));
  if (unwrapped === undefined) {
    const found = nodeAt(doc, ['request']);
    fail(file, '"request" must hold an object', found.node?.range ? pos(found.node.range[0]) : rootPos);
  }
  const { data, wrapper } = unwrapped;
  const index: PairIndex = new WeakMap();
  const loaded: LoadedDocument = {
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
  // A control character written as an escape ("\u0000", YAML's "\e"): refused as the character itself is.
  const control = controlCharacterInValues(data);
  if (control !== undefined) fail(file, controlCharacterMessage(control.character), loaded.locate(control.path, { key: control.key }));
  return loaded;
}
