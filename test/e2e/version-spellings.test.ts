/** `shipbook version` and `shipbook -v` print the version, as `--version` and `-V` do (the launcher and the program alike). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runShipbook } from '../helpers/run.js';
import { runCli } from '../helpers/cli.js';
import { VERSION } from '../../src/version.js';

const version = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;

describe('the version, however it is asked for', () => {
  it.each([['version'], ['-v'], ['--version'], ['-V']])('shipbook %s', async (arg) => {
    // The launcher answers from package.json; the program in process from its own constant.
    for (const [run, expected] of [
      [runCli, version],
      [runShipbook, VERSION],
    ] as const) {
      const r = await run([arg]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.trim()).toBe(expected);
    }
  });
});
