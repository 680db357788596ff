/**
 * Text that came from outside (a callback body, a service's error message, a file's content) made
 * safe to print on a terminal: control characters and the Unicode controls that
 * reorder or hide text are shown as visible escapes instead of reaching the terminal, so an
 * `ESC [ 2 J` in a callback's message cannot clear the screen, recolour the output or move the cursor.
 *
 * Replaced: C0 controls (U+0000–U+001F) except those kept by `keep`, DEL (U+007F), C1 controls
 * (U+0080–U+009F, where U+009B is a one-byte CSI on some terminals), and the bidirectional
 * embedding/override/isolate controls (U+202A–U+202E, U+2066–U+2069) that make text read other
 * than it is. Each becomes `\xHH` or `\u{HHHH}`.
 */
const UNPRINTABLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|\t|\n/g;

/**
 * `text` with every unprintable character as a visible escape (see the module documentation).
 * @param keep `'lines'` keeps `\n` and `\t` (multi-line messages); `'none'` (default) escapes
 *   them too, for text that must stay on one line or in one tab-separated cell.
 */
export function printable(text: string, keep: 'none' | 'lines' = 'none'): string {
  return text.replace(UNPRINTABLE, (c) => {
    if (keep === 'lines' && (c === '\n' || c === '\t')) return c;
    if (c === '\n') return '\\n';
    if (c === '\t') return '\\t';
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`;
  });
}

/** What {@link terminalSafe} lets through: line breaks, tabs, and the sequences shipbook itself writes (colours, erasing the line, hiding the cursor). */
const OWN_SEQUENCE = /^(?:\r\x1b\[2K|\x1b\[[0-9;]*m|\x1b\[[0-2]?K|\x1b\[\?25[lh])/;
const ANY_UNPRINTABLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const UNPRINTABLE_OR_OWN = /\r\x1b\[2K|\x1b\[[0-9;]*m|\x1b\[[0-2]?K|\x1b\[\?25[lh]|[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * The last line of defence, applied to everything written to stderr and stdout: any unprintable
 * character that is not part of shipbook's own terminal sequences (colour, erasing the line) is
 * written as a `\uXXXX` escape, so text from outside that reached a message without going through
 * {@link printable} still cannot clear the screen, set the title, ring the bell or reorder text.
 * The `\uXXXX` form keeps JSON output valid and meaning the same (`JSON.parse` reads it back).
 */
export function terminalSafe(text: string): string {
  if (!ANY_UNPRINTABLE.test(text)) return text;
  return text.replace(UNPRINTABLE_OR_OWN, (m) => (OWN_SEQUENCE.test(m) ? m : `\\u${m.charCodeAt(0).toString(16).padStart(4, '0')}`));
}
