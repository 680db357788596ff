/**
 * The fast path for YAML files (and whole JSON files): a file of one plain document, as order
 * exports write them, is read by js-yaml under the YAML 1.2 core schema, which gives the value the
 * `yaml` package gives (src/input/parse.ts) at about a tenth of the cost, because it builds no
 * YAML document, token stream or line index. Positions are found only when a message needs one,
 * by the full parse, which is then dropped with the document.
 *
 * The two packages agree on plain YAML but not on every corner of the language, so text that
 * uses a corner (anchors and aliases, tags, merge keys, explicit keys, directives, tabs, a lone
 * `\r`, control characters) is left to the full parse, and so is anything js-yaml refuses: the
 * fast path answers undefined, and the full parse reads the text as before, so what it accepts,
 * refuses or reports is unchanged. A test compares both readings on every fixture and on
 * thousands of edited ones.
 */
import { FAILSAFE_SCHEMA, Type, load } from 'js-yaml';
import { controlCharacterInValues, firstControlCharacter } from './control.js';
import { locatedLater, parseJsonLine } from './json-line.js';
import type { LoadedDocument } from './loaded.js';

/** A `\r` alone breaks a line for YAML but is a space for JSON: the full parse decides. */
const LONE_CR = /\r(?!\n)/;
/**
 * The corners the fast path steps away from: an anchor, alias or tag where a node may start
 * (after a line's indent, a `- `, a `: `, `[`, `{` or `,`), a merge key, an explicit key (`? `),
 * a directive or document marker, a key ending in a comma (`a,:`), and tabs (which the two packages read differently in
 * indentation and flow collections).
 */
const CORNERS = /(?:^|[\s[{,]|[:-] )[&*!]|<<|,:|^\s*\?(?:\s|$)|^(?:%|---|\.\.\.)|\t/m;
/**
 * The YAML 1.2 core schema as the `yaml` package reads plain scalars: js-yaml's own core schema
 * differs on a few numbers (`-.5` is text to it, a float to `yaml`), so plain scalars are
 * resolved by the tests `yaml` uses, in its order: null, booleans, integers, floats.
 */
const CORE_NULL = /^(?:~|[Nn]ull|NULL)?$/;
const CORE_BOOL = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const CORE_INT = /^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$/;
const CORE_FLOAT = /^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;
const coreNull = new Type('tag:yaml.org,2002:null', {
  kind: 'scalar',
  resolve: (s: string | null) => s === null || CORE_NULL.test(s),
  construct: () => null,
});
const coreBool = new Type('tag:yaml.org,2002:bool', {
  kind: 'scalar',
  resolve: (s: string | null) => s !== null && CORE_BOOL.test(s),
  construct: (s: string) => s[0] === 't' || s[0] === 'T',
});
const coreInt = new Type('tag:yaml.org,2002:int', {
  kind: 'scalar',
  resolve: (s: string | null) => s !== null && CORE_INT.test(s),
  construct: (s: string) => (s.startsWith('0o') ? parseInt(s.slice(2), 8) : s.startsWith('0x') ? parseInt(s.slice(2), 16) : parseInt(s, 10)),
});
const coreFloat = new Type('tag:yaml.org,2002:float', {
  kind: 'scalar',
  resolve: (s: string | null) => s !== null && CORE_FLOAT.test(s),
  construct: (s: string) => {
    const t = s.toLowerCase();
    if (t.endsWith('.nan')) return NaN;
    if (t.endsWith('.inf')) return s.startsWith('-') ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
    return parseFloat(s);
  },
});
const CORE = FAILSAFE_SCHEMA.extend({ implicit: [coreNull, coreBool, coreInt, coreFloat] });

/** Keys JavaScript treats apart; the full parse keeps them as data, as it does any key. */
const PROTO = /__proto__/;

/**
 * Whether every quoted scalar and flow collection of the text opens and closes on one line, and
 * every closing quote is followed by what YAML allows there. js-yaml is more lenient than the
 * `yaml` package with flow scalars and collections spread over lines (an under-indented
 * continuation, a `"…"#` with no space before the comment), so those texts go to the full parse.
 */
function flowOnOneLine(text: string): boolean {
  for (const line of text.split('\n')) {
    let depth = 0;
    for (let i = 0; i < line.length; i++) {
      const c = line[i]!;
      const before = i === 0 ? ' ' : line[i - 1]!;
      if (c === '#' && (before === ' ' || i === 0)) break;
      if ((c === '"' || c === "'") && /[\s[{,]/.test(before)) {
        const close = c === '"' ? /"(?:[^"\\]|\\.)*"/y : /'(?:[^']|'')*'/y;
        close.lastIndex = i;
        if (!close.test(line)) return false;
        i = close.lastIndex - 1;
        if (i + 1 < line.length && !/[\s,\]}:]/.test(line[i + 1]!)) return false;
      } else if (c === '{' || c === '[') depth++;
      else if (c === '}' || c === ']') depth--;
    }
    if (depth !== 0) return false;
  }
  return true;
}

/**
 * The value of a plain YAML text as the full parse reads it, or undefined when the text uses a
 * corner of YAML (see above) or js-yaml refuses it: then only the full parse may decide.
 */
export function plainYamlValue(text: string): unknown {
  if (CORNERS.test(text) || PROTO.test(text) || !flowOnOneLine(text)) return undefined;
  try {
    return load(text, { schema: CORE, json: false });
  } catch {
    return undefined;
  }
}

/**
 * A file holding one plain YAML document or one JSON object, read without the full parse; or
 * undefined when the full parse must read it (see above), or when its value is not one order's
 * mapping. The result's `locate` runs the full parse the first time a message needs a position.
 */
export function parsePlainDocument(file: string, text: string): LoadedDocument | undefined {
  if (LONE_CR.test(text)) return undefined;
  if (text.trimStart().startsWith('{')) return parseJsonLine(file, text);
  if (firstControlCharacter(text) >= 0) return undefined;
  const data = plainYamlValue(text);
  if (data === null || typeof data !== 'object' || Array.isArray(data) || controlCharacterInValues(data) !== undefined) return undefined;
  return locatedLater(file, text, data as Record<string, unknown>);
}
