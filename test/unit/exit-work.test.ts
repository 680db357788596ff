/**
 * The one registry of exit work (src/exit-work.ts): what main runs as the process exits, in the
 * order it was registered, each work once, and never a work that was unregistered.
 */
import { describe, expect, it } from 'vitest';
import { exitWork } from '../../src/exit-work.js';

describe('exit work', () => {
  it('runs what is registered in the order registered, once, and skips what was unregistered', () => {
    const atExit = exitWork();
    const ran: string[] = [];
    atExit.add(() => ran.push('journal'));
    const unregister = atExit.add(() => ran.push('claims lock'));
    atExit.add(() => ran.push('summary'));
    unregister();
    atExit.run();
    atExit.run();
    expect(ran).toEqual(['journal', 'summary']);
  });

  it('runs the rest when one work throws', () => {
    const atExit = exitWork();
    const ran: string[] = [];
    atExit.add(() => {
      throw new Error('disk gone');
    });
    atExit.add(() => ran.push('lock released'));
    atExit.run();
    expect(ran).toEqual(['lock released']);
  });
});
