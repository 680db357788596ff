/**
 * The fast path for YAML files (and whole JSON files): the plain YAML an order export writes
 * (block mappings and lists, one-line plain and quoted values, one-line flow mappings and lists
 * of values, comments) read in one pass over its lines into the value the `yaml` package would
 * give under the YAML 1.2 core schema (src/input/parse.ts), without building a YAML document, a
 * token stream or a line index. Positions are found only when a message needs one, by the full
 * parse, which is then dropped with the document.
 *
 * Anything else (anchors and aliases, tags, block scalars `|` `>`, values over several lines,
 * quoted keys, escapes beyond JSON's, tabs, `\r`, directives, keys given twice, an odd indent) is
 * left to the full parse: the fast path answers undefined, and the full parse reads the text as
 * before, so what it accepts, refuses or reports is unchanged. A test compares both readings on
 * every fixture and on thousands of edited ones.
 */
import { controlCharacterInValues, firstControlCharacter } from './control.js';
import { parseJsonLine } from './json-line.js';
import { unwrapRequest, type LoadedDocument } from './loaded.js';
import { parseInput } from './parse.js';

/** A line with content: its indentation (in spaces) and the rest. */
interface Row {
  indent: number;
  body: string;
}

/** Thrown inside the reader when the text leaves the plain subset; caught once, at the top. */
const LEAVE = Symbol('not plain YAML');

/** Nesting the fast path reads (the full parse takes over past it, and refuses past 64). */
const MAX_DEPTH = 40;

/** The longest key read here (YAML allows implicit keys of up to 1024 characters). */
const MAX_KEY = 1000;
/** A key written plainly: a letter or `_`, then letters, digits, `_` and `-`. */
const PLAIN_KEY = /^([A-Za-z_][A-Za-z0-9_-]*):(?: |$)/;
const FLOW_KEY = /[A-Za-z_][A-Za-z0-9_-]*/y;
/** Plain keys that the core schema reads as something other than text, or that JavaScript treats apart. */
const SPECIAL_KEY = /^(?:[Nn]ull|NULL|[Tt]rue|TRUE|[Ff]alse|FALSE|__proto__)$/;
/** The escapes that mean the same in a YAML double-quoted string and in JSON. */
const JSON_ESCAPES = /\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/g;
const LONE_CR = /\r(?!\n)/;
/** What may follow a closed value on its line: spaces, and a comment after at least one. */
const TAIL = /^(?: +#.*| *)$/;

function leave(): never {
  throw LEAVE;
}

/**
 * A plain scalar as the core schema reads it (the yaml package's tags, in their order: null,
 * bool, octal, decimal and hexadecimal integers, .inf/.nan, floats with and without exponent).
 */
export function coreScalar(s: string): unknown {
  if (/^(?:~|[Nn]ull|NULL)?$/.test(s)) return null;
  if (/^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/.test(s)) return s[0] === 't' || s[0] === 'T';
  const c = s.charCodeAt(0);
  // Only text that starts with a digit, a sign or a dot can be a number.
  if (!((c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e)) return s;
  if (/^0o[0-7]+$/.test(s)) return parseInt(s.substring(2), 8);
  if (/^[-+]?[0-9]+$/.test(s)) return parseInt(s, 10);
  if (/^0x[0-9a-fA-F]+$/.test(s)) return parseInt(s.substring(2), 16);
  if (/^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/.test(s)) {
    return s.slice(-3).toLowerCase() === 'nan' ? NaN : s[0] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  if (/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/.test(s)) return parseFloat(s);
  if (/^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/.test(s)) return parseFloat(s);
  return s;
}

/** A double-quoted string that starts at `at` and closes on its line: its value and where it ends (after the quote). */
function doubleQuoted(text: string, at: number): { value: string; end: number } {
  let j = at;
  for (;;) {
    j = text.indexOf('"', j + 1);
    if (j < 0) leave();
    let b = j - 1;
    while (text.charCodeAt(b) === 0x5c) b--;
    if ((j - 1 - b) % 2 === 0) break;
  }
  const inner = text.slice(at + 1, j);
  if (!inner.includes('\\')) return { value: inner, end: j + 1 };
  if (inner.replace(JSON_ESCAPES, '').includes('\\')) leave();
  return { value: JSON.parse(`"${inner}"`) as string, end: j + 1 };
}

/** A single-quoted string that starts at `at` and closes on its line (`''` is a quote). */
function singleQuoted(text: string, at: number): { value: string; end: number } {
  let j = at + 1;
  for (;;) {
    j = text.indexOf("'", j);
    if (j < 0) leave();
    if (text.charCodeAt(j + 1) !== 0x27) break;
    j += 2;
  }
  return { value: text.slice(at + 1, j).replace(/''/g, "'"), end: j + 1 };
}

/** A plain value inside `{…}` or `[…]`: up to the next `,` or the closing bracket, plain characters only. */
function flowScalar(text: string, at: number, close: string): { value: unknown; end: number } {
  const c = text[at];
  if (c === '"') return doubleQuoted(text, at);
  if (c === "'") return singleQuoted(text, at);
  let j = at;
  while (j < text.length && text[j] !== ',' && text[j] !== close) j++;
  const raw = text.slice(at, j).trimEnd();
  if (raw === '' || /[[\]{}#"'`]|: |:$/.test(raw) || /^[-?:!&*|>%@]/.test(raw)) leave();
  return { value: coreScalar(raw), end: at + raw.length };
}

/** A one-line flow mapping (`{ a: 1, b: x }`) or list (`[1, 2]`) of values, from `{`/`[` at 0 to its close. */
function flowCollection(text: string): { value: unknown; end: number } {
  const map = text[0] === '{';
  const close = map ? '}' : ']';
  const out: Record<string, unknown> | unknown[] = map ? {} : [];
  let p = 1;
  const spaces = () => {
    while (text.charCodeAt(p) === 0x20) p++;
  };
  spaces();
  if (text[p] === close) return { value: out, end: p + 1 };
  for (;;) {
    spaces();
    if (map) {
      FLOW_KEY.lastIndex = p;
      const m = FLOW_KEY.exec(text);
      if (m === null || text[p + m[0].length] !== ':' || text[p + m[0].length + 1] !== ' ' || SPECIAL_KEY.test(m[0]) || Object.hasOwn(out, m[0])) leave();
      p += m[0].length + 2;
      spaces();
      const v = flowScalar(text, p, close);
      (out as Record<string, unknown>)[m[0]] = v.value;
      p = v.end;
    } else {
      const v = flowScalar(text, p, close);
      (out as unknown[]).push(v.value);
      p = v.end;
    }
    spaces();
    if (text[p] === close) return { value: out, end: p + 1 };
    if (text[p] !== ',') leave();
    p++;
  }
}

/** A value written on the line of its key or dash: quoted, a one-line flow collection, or plain. */
function inlineValue(rest: string): unknown {
  const c = rest[0]!;
  let closed: { value: unknown; end: number } | undefined;
  if (c === '"') closed = doubleQuoted(rest, 0);
  else if (c === "'") closed = singleQuoted(rest, 0);
  else if (c === '{' || c === '[') closed = flowCollection(rest);
  if (closed !== undefined) {
    if (!TAIL.test(rest.slice(closed.end))) leave();
    return closed.value;
  }
  // Indicators that start something the fast path does not read (or an error): the full parse.
  if ('&*!|>%@`?:,]}#-'.includes(c) && !(c === '-' && /^-[0-9.]/.test(rest))) leave();
  const hash = rest.indexOf(' #');
  const raw = (hash < 0 ? rest : rest.slice(0, hash)).trimEnd();
  if (raw.includes(': ') || raw.endsWith(':')) leave();
  return coreScalar(raw);
}

/** Reads the rows of one document: block mappings and lists by indentation. */
class PlainReader {
  private i = 0;
  private depth = 0;
  constructor(private readonly rows: Row[]) {}

  document(): unknown {
    const value = this.node(-1, false);
    if (this.i !== this.rows.length) leave();
    return value;
  }

  /** The value nested under a key or dash at `parent`: a block deeper than it (a list may sit at a key's own indent), or null. */
  private node(parent: number, listAtParent: boolean): unknown {
    const row = this.rows[this.i];
    if (row === undefined) return null;
    const item = isListItem(row.body);
    if (row.indent < parent || (row.indent === parent && !(listAtParent && item))) return null;
    if (++this.depth > MAX_DEPTH) leave();
    const value = item ? this.list(row.indent) : this.mapping(row.indent);
    this.depth--;
    return value;
  }

  /** A value written on its key's or dash's line: nothing may be nested under it. */
  private inline(rest: string, indent: number): unknown {
    const value = inlineValue(rest);
    const next = this.rows[this.i];
    if (next !== undefined && next.indent > indent) leave();
    return value;
  }

  private mapping(indent: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (let row = this.rows[this.i]; row !== undefined && row.indent >= indent; row = this.rows[this.i]) {
      if (row.indent > indent) leave();
      if (isListItem(row.body)) leave();
      const m = PLAIN_KEY.exec(row.body);
      if (m === null) leave();
      const key = m[1]!;
      if (key.length > MAX_KEY || SPECIAL_KEY.test(key) || Object.hasOwn(out, key)) leave();
      const rest = row.body.slice(m[0].length).trimStart();
      this.i++;
      out[key] = rest === '' || rest[0] === '#' ? this.node(indent, true) : this.inline(rest, indent);
    }
    return out;
  }

  private list(indent: number): unknown[] {
    const out: unknown[] = [];
    for (let row = this.rows[this.i]; row !== undefined && row.indent >= indent; row = this.rows[this.i]) {
      if (row.indent > indent) leave();
      if (!isListItem(row.body)) break;
      let j = 1;
      while (row.body.charCodeAt(j) === 0x20) j++;
      const rest = row.body.slice(j);
      if (rest === '' || rest[0] === '#') {
        this.i++;
        out.push(this.node(indent, false));
      } else if (isListItem(rest) || PLAIN_KEY.test(rest)) {
        // A compact block ("- key: value", "- - x"): the rest of the line opens it, at its own column.
        this.rows[this.i] = { indent: indent + j, body: rest };
        out.push(this.node(indent, false));
      } else {
        this.i++;
        out.push(this.inline(rest, indent));
      }
    }
    return out;
  }
}

function isListItem(body: string): boolean {
  return body === '-' || body.startsWith('- ');
}

/** The rows of a text with content (comment and blank lines left out), or undefined when the text is outside the subset. */
function rowsOf(text: string): Row[] | undefined {
  if (text.includes('\t')) return undefined;
  if (text.includes('\r')) text = text.replace(/\r\n/g, '\n');
  const rows: Row[] = [];
  let start = 0;
  let first = true;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    let indent = start;
    while (text.charCodeAt(indent) === 0x20) indent++;
    if (indent < end && text.charCodeAt(indent) !== 0x23) {
      const body = text.slice(indent, end).trimEnd();
      if (indent === start && (body.startsWith('---') || body.startsWith('...') || body.startsWith('%'))) {
        // One `---` may open the document; any other marker or directive is the full parse's.
        if (!(first && body === '---')) return undefined;
      } else rows.push({ indent: indent - start, body });
      first = false;
    }
    start = end + 1;
  }
  return rows;
}

/**
 * The plain value of a YAML text in the subset the module's comment describes, or undefined when
 * the text is outside it (the caller then parses it fully).
 */
export function plainYamlValue(text: string): unknown {
  const rows = rowsOf(text);
  if (rows === undefined || rows.length === 0) return undefined;
  try {
    return new PlainReader(rows).document();
  } catch (err) {
    if (err === LEAVE) return undefined;
    throw err;
  }
}

/**
 * A whole file's text read by the fast path (JSON.parse for a JSON object, else the plain YAML
 * subset), or undefined for anything else: the caller parses it fully, which reports what is
 * wrong. Positions come from the full parse, made the first time a message needs one.
 */
export function parsePlainDocument(file: string, text: string): LoadedDocument | undefined {
  // A `\r` alone breaks a line for YAML but is a space for JSON: the full parse decides.
  if (LONE_CR.test(text)) return undefined;
  if (text.trimStart().startsWith('{')) return parseJsonLine(file, text);
  if (firstControlCharacter(text) >= 0) return undefined;
  const data = plainYamlValue(text);
  if (data === null || typeof data !== 'object' || Array.isArray(data) || controlCharacterInValues(data) !== undefined) return undefined;
  const unwrapped = unwrapRequest(data as Record<string, unknown>);
  if (unwrapped === undefined) return undefined;
  let full: LoadedDocument | undefined;
  return {
    file,
    ...unwrapped,
    locate(path, options) {
      full ??= parseInput(file, Buffer.from(text, 'utf8'));
      return full.locate(path, options);
    },
  };
}
