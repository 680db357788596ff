/**
 * Claims of the manual checked by running them: the `config` examples work in order on a fresh
 * install, and the validate example shows every problem validate finds.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runShipbook } from '../helpers/run.js';
import { ROOT } from '../helpers/cli.js';

const page = (name: string) => readFileSync(join(ROOT, 'docs', name), 'utf8');

/** The first ```sh block after `heading`, as commands (comments and blank lines dropped). */
function shBlockAfter(markdown: string, heading: string): string[][] {
  const at = markdown.indexOf(heading);
  expect(at, heading).toBeGreaterThan(-1);
  const block = /```sh\n([\s\S]*?)```/.exec(markdown.slice(at))![1]!;
  return block
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter((l) => l.startsWith('shipbook '))
    .map((l) => l.split(/\s+/).slice(1));
}

describe('the manual', () => {
  it('the config examples run as shown on a fresh install', async () => {
    const env = { SHIPBOOK_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'shipbook-readme-')) };
    const commands = shBlockAfter(page('configuration.md'), '## `shipbook config list | get | set | unset | path`');
    expect(commands.some((c) => c.includes('set'))).toBe(true);
    for (const args of commands) {
      const r = await runShipbook(args, { env });
      expect(r.code, `shipbook ${args.join(' ')}\n${r.stderr}`).toBe(0);
    }
  });

  it('the validate example shows every problem of the file it names', async () => {
    const inputFiles = page('input-files.md');
    const at = inputFiles.indexOf('On a terminal you get a line per file and a table of problems:');
    expect(at).toBeGreaterThan(-1);
    const example = /```\n([\s\S]*?)```/.exec(inputFiles.slice(at))![1]!;
    const shown = example.split('\n').filter((l) => l.includes('fixtures/invalid/order-too-long.yaml:')).length;
    const r = await runShipbook(['validate', 'fixtures/invalid/order-too-long.yaml']);
    const found = r.stdout.split('\n').filter((l) => l.startsWith('fixtures/invalid/order-too-long.yaml:')).length;
    expect(found).toBeGreaterThan(0);
    expect(shown).toBe(found);
  });
});
