/**
 * No test reads or writes the developer's own shipbook directories: every test file runs with a
 * home, config and state directory of its own (test/setup/isolate.ts), and each kind of run a
 * test starts (in process, a spawned bin/shipbook.js, a pseudo-terminal) keeps its state there,
 * even when the test gives no state directory of its own.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runShipbook } from '../helpers/run.js';
import { Terminal, hasTmux, killTerminals } from '../helpers/terminal.js';
import { isolatedEnv, runCli } from '../helpers/cli.js';

afterAll(() => killTerminals());

/** The directory `doctor` reports for the built-in sandbox's state (`sandbox-state ok <dir>`). */
const stateDirOf = (text: string) => /sandbox-state\s+ok\s+(\S+)/.exec(text)?.[1];
const home = process.env.HOME!;

describe("tests run in a home of their own, never the developer's", () => {
  it('the test process has its own home, config, state and cache directories under the temporary directory', () => {
    expect(home.startsWith(tmpdir())).toBe(true);
    for (const name of ['XDG_CONFIG_HOME', 'XDG_STATE_HOME', 'XDG_CACHE_HOME', 'XDG_DATA_HOME']) expect(process.env[name]?.startsWith(home), name).toBe(true);
    for (const name of ['SHIPBOOK_STATE_DIR', 'SHIPBOOK_CONFIG_DIR', 'SHIPBOOK_API_KEY', 'SHIPBOOK_BASE_URL', 'SHIPBOOK_PROFILE'])
      expect(process.env[name], name).toBeUndefined();
    expect(isolatedEnv().HOME).toBe(home);
  });

  it('a spawned run and an in-process run that name no state directory keep their state in that home', async () => {
    for (const run of [runCli, runShipbook]) {
      const r = await run(['doctor', '--output', 'tsv'], { env: { SHIPBOOK_STATE_DIR: undefined } });
      expect(stateDirOf(r.stdout), r.stdout + r.stderr).toBe(join(home, '.local', 'state', 'shipbook'));
    }
  });

  it.skipIf(!hasTmux)('a run in a pseudo-terminal keeps its state in that home', async () => {
    const t = Terminal.start(['doctor', '--output', 'tsv'], {});
    const { screen } = await t.exit();
    expect(stateDirOf(screen), screen).toBe(join(process.env.XDG_STATE_HOME!, 'shipbook'));
  });
});
