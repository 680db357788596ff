/**
 * The characters the papers can print. The papers use the PDF standard fonts (Helvetica), which
 * hold the Windows-1252 (WinAnsi) characters: Latin letters with the accents of Western European
 * languages, and `€ ‚ ƒ „ … † ‡ ˆ ‰ Š ‹ Œ Ž ‘ ’ “ ” • – — ˜ ™ š › œ ž Ÿ`. Any other character of
 * a name or address is printed as its letter without the accent where it has one (`ő` as `o`,
 * `Ł` as `L`), and otherwise as `?`; {@link unprintable} lists them for the user.
 */

/** The Windows-1252 characters outside Latin-1. */
const CP1252_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

/** Letters whose accent Unicode does not decompose, with their plain letter. */
const PLAIN: Record<string, string> = { ł: 'l', Ł: 'L', đ: 'd', Đ: 'D', ı: 'i', ħ: 'h', Ħ: 'H', ŧ: 't', Ŧ: 'T' };

/** True for a character the standard fonts print. */
function printableChar(ch: string): boolean {
  const c = ch.codePointAt(0)!;
  return (c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xff) || CP1252_EXTRA.has(ch);
}

/** How a character is shown: itself, its letter without the accent, or `?`. */
function shown(ch: string): string {
  if (printableChar(ch)) return ch;
  if (ch === '\t' || ch === '\n' || ch === '\r') return ' ';
  const plain = PLAIN[ch];
  if (plain !== undefined) return plain;
  const base = ch.normalize('NFD').replace(/\p{M}+/gu, '');
  if (base !== '' && [...base].every(printableChar)) return base;
  return '?';
}

/** `s` as the papers print it. */
export function printable(s: string): string {
  let out = '';
  for (const ch of s.normalize('NFC')) out += shown(ch);
  return out;
}

/** The characters of `texts` the fonts cannot print, each with how it is shown (first seen first). */
export function unprintable(texts: Iterable<string>): Array<{ char: string; shown_as: string }> {
  const seen = new Map<string, string>();
  for (const s of texts) for (const ch of s.normalize('NFC')) if (!printableChar(ch) && !seen.has(ch) && !/[\t\n\r]/.test(ch)) seen.set(ch, shown(ch));
  return [...seen.entries()].map(([char, shown_as]) => ({ char, shown_as }));
}
