/**
 * The one rule for control characters in every input format (JSON, NDJSON, YAML, CSV and TSV):
 * no input may hold a C0 control character other than tab, line feed and carriage return, nor
 * DEL (U+007F) or a C1 control (U+0080–U+009F), whether written as the character itself or, in
 * a JSON or YAML string, as an escape (`"\u0000"`). Such a character is refused where it stands
 * (file:line:col), not sent to the service in an address or a description.
 */

/** A control character that no input may hold (tab, line feed and carriage return are allowed). */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/** The offset of the first control character that no input may hold in `text`, or -1. */
export function firstControlCharacter(text: string): number {
  const m = CONTROL.exec(text);
  return m === null ? -1 : m.index;
}

/** Short names of the control characters people meet in files. */
const NAMES: Record<number, string> = { 0: 'NUL', 0x1b: 'ESC', 0x7f: 'DEL', 0x0c: 'form feed', 0x0b: 'vertical tab', 0x08: 'backspace' };

/**
 * The message of a control character found in an input: `holds the control character U+0000
 * (NUL): no input may hold control characters other than tab and line breaks; remove it`
 * (`a binary file?` for NUL, which text files do not hold).
 */
export function controlCharacterMessage(ch: string): string {
  const code = ch.codePointAt(0) ?? 0;
  const name = NAMES[code];
  const u = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  return `holds the control character ${u}${name ? ` (${name})` : ''}${code === 0 ? ', as a binary file does' : ''}: no input may hold control characters other than tab and line breaks; remove it`;
}

/**
 * Follows text given in chunks (a stream being decoded) and finds the line and column of its
 * first control character (see {@link firstControlCharacter}).
 */
export class ControlCharacterScan {
  #line = 1;
  #column = 1;

  /**
   * Reads the next chunk of text: the position and character of the first control character in
   * it, or undefined (and the position moves on past the chunk).
   */
  next(text: string): { line: number; column: number; character: string } | undefined {
    const at = firstControlCharacter(text);
    const upTo = at < 0 ? text.length : at;
    for (let i = 0; i < upTo; i++) {
      if (text.charCodeAt(i) === 0x0a) {
        this.#line++;
        this.#column = 1;
      } else this.#column++;
    }
    return at < 0 ? undefined : { line: this.#line, column: this.#column, character: text[at]! };
  }
}

/**
 * The path of the first string (a value or a key) that holds a control character inside a parsed
 * document, with the character, or undefined. For characters written as escapes, which the text
 * check does not see.
 */
export function controlCharacterInValues(value: unknown): { path: PropertyKey[]; character: string; key: boolean } | undefined {
  const path: PropertyKey[] = [];
  const walk = (v: unknown): { character: string; key: boolean } | undefined => {
    if (typeof v === 'string') {
      const at = firstControlCharacter(v);
      return at < 0 ? undefined : { character: v[at]!, key: false };
    }
    if (v === null || typeof v !== 'object') return undefined;
    const entries: Array<[PropertyKey, unknown]> = Array.isArray(v) ? v.map((x, i) => [i, x]) : Object.entries(v);
    for (const [k, x] of entries) {
      path.push(k);
      if (typeof k === 'string') {
        const at = firstControlCharacter(k);
        if (at >= 0) return { character: k[at]!, key: true };
      }
      const found = walk(x);
      if (found !== undefined) return found;
      path.pop();
    }
    return undefined;
  };
  const found = walk(value);
  return found === undefined ? undefined : { path, ...found };
}
