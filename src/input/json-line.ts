/**
 * The fast path for JSON lines (NDJSON, and the elements of a JSON array): a line that JSON.parse
 * takes, holding an object without repeated keys or deep nesting, is read with JSON.parse, and
 * its positions are found only when a message needs one, by the full parse (src/input/parse.ts).
 */
import { MAX_NESTING, parseInput } from './parse.js';
import { firstControlCharacter } from './control.js';
import { unwrapRequest, type LoadedDocument } from './loaded.js';

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

/** A JSON escape of a control character that no input may hold (C0 but tab and line breaks, DEL, C1). */
const CONTROL_ESCAPE = /\\u00(?:0[0-8bBcCeEfF]|1[0-9a-fA-F]|7[fF]|[89][0-9a-fA-F])/;

/**
 * One line of NDJSON read by the fast path (see the module's comment), or undefined for anything
 * else: the caller parses it fully, which reports the problem.
 */
export function parseJsonLine(file: string, text: string): LoadedDocument | undefined {
  // A control character, itself or escaped (`\u0001`, `\u007f`), is refused by the full parse at its column (src/input/control.ts).
  if (!text.trimStart().startsWith('{') || firstControlCharacter(text) >= 0 || CONTROL_ESCAPE.test(text)) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data) || needsFullParse(text, data)) return undefined;
  return locatedLater(file, text, data as Record<string, unknown>);
}

/**
 * The document read by a fast path from `text`, with its `request` wrapper taken off (undefined
 * when the wrapper is not plain, for the full parse to report); its `locate` runs the full parse
 * of `text` the first time a message needs a position, and keeps it for the next.
 */
export function locatedLater(file: string, text: string, data: Record<string, unknown>): LoadedDocument | undefined {
  const unwrapped = unwrapRequest(data);
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
