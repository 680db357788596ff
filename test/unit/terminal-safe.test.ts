/**
 * Text from outside on a terminal: the last line of defence on every write (terminalSafe) and the
 * quoting of ids in pasted hints (shellArg).
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { terminalSafe } from '../../src/output/printable.js';
import { shellArg } from '../../src/shell.js';

describe('terminalSafe', () => {
  it("keeps shipbook's own colours and line erasing, and escapes every other control character", () => {
    const out = terminalSafe('\x1b[31mred\x1b[39m \x1b]0;title\x07 \r\x1b[2Kline\rX \u009b31m \u202eevil\n\ttab');
    expect(out).toBe('\x1b[31mred\x1b[39m \\u001b]0;title\\u0007 \r\x1b[2Kline\\u000dX \\u009b31m \\u202eevil\n\ttab');
  });

  it('leaves JSON text valid and meaning the same', () => {
    const value = { id: 'ORD-\u009b2J\u202e', note: 'a\u007fb' };
    expect(JSON.parse(terminalSafe(JSON.stringify(value)))).toEqual(value);
  });
});

describe('shellArg', () => {
  it('writes control characters of an id as ANSI-C escapes that bash turns back into the same argument', () => {
    const id = "ORD-\x1b[2J'x\u009b\u202e";
    const quoted = shellArg(id, 'posix');
    expect(quoted).toBe("$'ORD-\\x1b[2J\\'x\\u009b\\u202e'");
    expect(quoted).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e]/);
    const echoed = execFileSync('bash', ['-c', `printf %s ${quoted}`], { encoding: 'utf8' });
    expect(echoed).toBe(id);
  });
});
