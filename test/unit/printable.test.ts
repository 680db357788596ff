import { describe, expect, it } from 'vitest';
import { printable } from '../../src/output/printable.js';

describe('printable', () => {
  it('shows C0, DEL, C1 and bidi controls as escapes', () => {
    expect(printable('a\u001b[2Jb\u0007\u007f\u009b\u202e\u2066c')).toBe('a\\x1b[2Jb\\x07\\x7f\\x9b\\u{202e}\\u{2066}c');
  });
  it('escapes line breaks and tabs unless asked to keep them', () => {
    expect(printable('a\tb\nc\rd')).toBe('a\\tb\\nc\\x0dd');
    expect(printable('a\tb\nc\rd', 'lines')).toBe('a\tb\nc\\x0dd');
  });
  it('leaves ordinary text, including non-Latin letters and emoji, alone', () => {
    const text = 'Zürich 東京 — ✔ 📦 $1,234.50';
    expect(printable(text)).toBe(text);
  });
});
