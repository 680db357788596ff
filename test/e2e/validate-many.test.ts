/**
 * A file with thousands of problems: on a terminal, the first 50 of each file and "… and N more"
 * with the command that lists them all; `--json` carries every one.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/main.js';
import { bufferIO, runShipbook } from '../helpers/run.js';
import { isolatedEnv } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'shipbook-many-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = join(dir, 'keys.yaml');
writeFileSync(file, Array.from({ length: 2000 }, (_, i) => `key_${i}: ${i}\n`).join(''));

describe('validate of a file with 2,001 problems', () => {
  it('shows the first 50 on a terminal and counts the rest, naming the command for all of them', async () => {
    const r = await runShipbook(['validate', '--kind', 'order', file, '--output', 'table']);
    expect(r.code).toBe(2);
    expect(r.stdout.match(/unknown field|required/g)).toHaveLength(50); // the missing order, then 49 unknown fields
    expect(r.stdout).toContain(`… and 1951 more in ${file} (every problem: shipbook validate ${file} --json)`);
  });

  it('lists every problem with --json', async () => {
    const r = await runShipbook(['validate', '--kind', 'order', file, '--json']);
    expect(r.code).toBe(2);
    expect((JSON.parse(r.stdout) as Array<{ issues: unknown[] }>)[0]!.issues).toHaveLength(2001);
  });

  it('caps the problems a sending command prints on a terminal too', async () => {
    const io = bufferIO({ env: isolatedEnv({}), tty: { stderr: true } });
    const code = await main(['node', 'shipbook', 'order', 'create', file], io);
    expect(code).toBe(2);
    const err = io.stderrText();
    expect(err.match(/unknown field|  order  required/g)).toHaveLength(50);
    expect(err).toContain(`… and 1951 more (every problem: shipbook validate ${file} --json)`);
  });
});
