/**
 * Counting YAML aliases (`*name`) before a document is composed: the yaml library resolves each
 * alias by searching the document for its anchor, so a file of 10,000 aliases costs seconds of CPU
 * before any limit on aliases can refuse it. Counted here on the lexer's tokens, once, in linear
 * time, stopping at the first alias beyond the limit.
 */
import { Lexer } from 'yaml';

/** The lexer's markers that stand for no character of the text (document start, flow end, scalar). */
const MARKERS = new Set(['\u0002', '\u0018', '\u001f']);

/**
 * The offset in `text` of the first alias beyond `max` in one of its YAML documents (counted per
 * document of a stream), or -1 when no document has more than `max`. A `*` that starts a scalar's
 * text (inside a block scalar, a quoted string or a plain word such as `2*3`) is no alias.
 * Linear in the text; no lexing at all when the text holds at most `max` asterisks.
 */
export function aliasBeyond(text: string, max: number): number {
  let stars = 0;
  for (let i = text.indexOf('*'); i >= 0 && stars <= max; i = text.indexOf('*', i + 1)) stars++;
  if (stars <= max) return -1;
  let offset = 0;
  let count = 0;
  let previous = '';
  for (const token of new Lexer().lex(text)) {
    if (token.charCodeAt(0) === 0x2a /* * */ && previous !== '\u001f') {
      if (++count > max) return offset;
    } else if (token === '\u0002' || token === '---' || token === '...') count = 0; // a new document
    if (!MARKERS.has(token)) offset += token.length;
    previous = token;
  }
  return -1;
}
