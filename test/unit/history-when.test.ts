/** `history --since` and `--until`: a date, a time or a duration back from now. */
import { describe, expect, it } from 'vitest';
import { parseWhen } from '../../src/commands/history/index.js';

describe('parseWhen', () => {
  const now = new Date('2026-11-26T12:00:00Z');
  it('reads a date as midnight in the machine time zone, a time as given, a duration back from now', () => {
    expect(parseWhen('--since', '2026-11-20', now)).toBe(new Date(2026, 10, 20).getTime());
    expect(parseWhen('--since', '2026-11-20T09:30:00Z', now)).toBe(Date.parse('2026-11-20T09:30:00Z'));
    expect(parseWhen('--since', '2d', now)).toBe(now.getTime() - 2 * 86_400_000);
    expect(parseWhen('--since', '12h', now)).toBe(now.getTime() - 12 * 3_600_000);
    expect(parseWhen('--since', '30m', now)).toBe(now.getTime() - 30 * 60_000);
    expect(parseWhen('--since', '1w', now)).toBe(now.getTime() - 7 * 86_400_000);
  });

  it('refuses anything else with exit 2, naming the flag and an example', () => {
    for (const bad of ['yesterday', '2026-13-45x', '5 days', '']) {
      expect(() => parseWhen('--until', bad, now)).toThrow(expect.objectContaining({ kind: 'input', message: expect.stringContaining('--until') }));
    }
  });
});
