/**
 * The command reference (docs/reference/) and the man pages (man/) are generated from the command
 * tree by scripts/gen-docs.mjs: they must be what the generator writes today (else `npm run docs`
 * was forgotten), and every option and example that `shipbook <command> --help` prints must be in
 * the reference page of that command.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runShipbook } from '../helpers/run.js';
import { ROOT } from '../helpers/cli.js';

const scratch = mkdtempSync(join(tmpdir(), 'shipbook-reference-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const STALE = 'differs from what the command tree gives: run npm run docs and commit docs/reference/, man/ and package.json';

describe('the generated reference', () => {
  it('is up to date: regenerating it changes nothing', () => {
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'gen-docs.mjs'), '--out', scratch], { stdio: ['ignore', 'ignore', 'pipe'] });
    for (const dir of [join('docs', 'reference'), 'man']) {
      const fresh = readdirSync(join(scratch, dir)).sort();
      expect(readdirSync(join(ROOT, dir)).sort(), `${dir}/ ${STALE}`).toEqual(fresh);
      for (const name of fresh) {
        const committed = readFileSync(join(ROOT, dir, name), 'utf8');
        expect(committed === readFileSync(join(scratch, dir, name), 'utf8'), `${dir}/${name} ${STALE}`).toBe(true);
      }
    }
  });

  it('installs every man page through package.json', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { man: string[]; files: string[] };
    const pages = readdirSync(join(ROOT, 'man'))
      .filter((f) => f.endsWith('.1'))
      .map((f) => `./man/${f}`);
    expect([...pkg.man].sort(), `the man field of package.json ${STALE}`).toEqual(pages.sort());
    expect(pkg.files).toContain('man');
    expect(pages).toEqual(expect.arrayContaining(['./man/shipbook.1', './man/shipbook-book.1']));
  });

  it('holds every option and example each command prints with --help', async () => {
    const index = readFileSync(join(ROOT, 'docs', 'reference', 'README.md'), 'utf8');
    const pages = readdirSync(join(ROOT, 'docs', 'reference')).filter((f) => f !== 'README.md');
    let checked = 0;
    for (const page of pages) {
      const text = readFileSync(join(ROOT, 'docs', 'reference', page), 'utf8');
      expect(index, `the index links ${page}`).toContain(`](${page})`);
      const commands = [...text.matchAll(/^#+ shipbook (.+)$/gm)].map((m) => m[1]!.split(' '));
      expect(commands.length).toBeGreaterThan(0);
      for (const path of commands) {
        const help = await runShipbook([...path, '--help']);
        expect(help.code, path.join(' ')).toBe(0);
        expect(help.stdout).toMatch(new RegExp(`^Usage: shipbook ${path.join(' ')}\\b`, 'm'));
        // The command's own options as commander lists them under "Options:": two spaces, the term, two or more spaces.
        const own = /^Options:\n([\s\S]*?)(?:\n\n|$)/m.exec(help.stdout)?.[1] ?? '';
        const options = [...own.matchAll(/^ {2}(-\S.*?)(?: {2,}|$)/gm)].map((m) => m[1]!).filter((t) => t !== '-h, --help');
        for (const term of options) expect(text, `${path.join(' ')}: option ${term}`).toContain(`\`${term.replace(/\|/g, '\\|')}\``);
        const examples = help.stdout
          .split(/^Examples:$/m)
          .slice(1)
          .flatMap((s) =>
            s
              .split('\n\n')[0]!
              .split('\n')
              .filter((l) => l.startsWith('  ')),
          );
        for (const line of examples) expect(text, `${path.join(' ')}: example ${line.trim()}`).toContain(line.trim());
        checked += options.length + examples.length;
      }
    }
    expect(checked).toBeGreaterThan(100);
  }, 120_000);
});
