/**
 * An internal error (a bug in shipbook, simulated by test/helpers/simulated-bug.cjs preloaded into
 * the process) is reported in one line, exit 1, never with source code; under --debug its stack
 * points into src/ (mapped through dist/main.cjs.map), still without source code.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT, isolatedEnv } from '../helpers/cli.js';

const PRELOAD = join(ROOT, 'test', 'helpers', 'simulated-bug.cjs');

function run(bug: string, args: string[]) {
  const r = spawnSync(process.execPath, ['-r', PRELOAD, BIN, ...args], {
    cwd: ROOT,
    env: isolatedEnv({ SHIPBOOK_SIMULATED_BUG: bug }),
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { code: r.status, stderr: r.stderr };
}

/** Minified source: a long line, or the caret Node.js draws under the source line of an uncaught throw. */
const SOURCE = /.{400}|^\s*\^+\s*$/m;

describe('an internal error', () => {
  it('is one line and a hint, exit 1, without a stack or source code', () => {
    const r = run('stdout', ['validate', 'fixtures/orders/domestic-syd-mel.yaml']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('internal error: simulated bug: stdout cannot be written');
    expect(r.stderr).toContain('Run again with --debug for details');
    expect(r.stderr).not.toMatch(SOURCE);
    expect(r.stderr).not.toContain('main.cjs');
  });

  it('under --debug has a stack that points into src/, and still no source code', () => {
    const r = run('stdout', ['validate', 'fixtures/orders/domestic-syd-mel.yaml', '--debug']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/at .*\(?src\/io\.ts:\d+:\d+\)?/);
    expect(r.stderr).toMatch(/src\/commands\/validate\/index\.ts:\d+:\d+/);
    expect(r.stderr).not.toContain('main.cjs:');
    expect(r.stderr).not.toMatch(SOURCE);
  });

  it('thrown outside any command (a timer) is reported the same way, never by Node.js with the source line', () => {
    const r = run('timer', ['validate', 'fixtures/orders/domestic-syd-mel.yaml']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('internal error: simulated bug thrown by a timer');
    expect(r.stderr).not.toMatch(SOURCE);
  });
});
