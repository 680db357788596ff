/**
 * The signals that interrupt a run, by platform (injected): Ctrl-C and SIGTERM everywhere; on
 * Windows also Ctrl-Break (SIGBREAK) and closing the console window (SIGHUP). Elsewhere SIGHUP keeps
 * its default, so `nohup shipbook book …` still outlives its terminal.
 */
import { describe, expect, it } from 'vitest';
import { interruptSignals, signalExitCode } from '../../src/main.js';

describe('signals that interrupt a run', () => {
  it('on Linux and macOS: Ctrl-C (exit 130) and SIGTERM (exit 143), and not SIGHUP', () => {
    for (const platform of ['linux', 'darwin'] as const) {
      const signals = interruptSignals(platform);
      expect(signals.map((s) => [s.signal, signalExitCode(s.as), s.told])).toEqual([
        ['SIGINT', 130, 'interrupted (Ctrl-C)'],
        ['SIGTERM', 143, 'terminated (SIGTERM)'],
      ]);
    }
  });

  it('on Windows also Ctrl-Break, an interruption like Ctrl-C, and the console window closing, a termination', () => {
    const signals = interruptSignals('win32');
    expect(signals.map((s) => [s.signal, signalExitCode(s.as), s.told])).toEqual([
      ['SIGINT', 130, 'interrupted (Ctrl-C)'],
      ['SIGTERM', 143, 'terminated (SIGTERM)'],
      ['SIGBREAK', 130, 'interrupted (Ctrl-Break)'],
      ['SIGHUP', 143, 'terminated (the console window was closed)'],
    ]);
  });
});
