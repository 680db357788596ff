/**
 * The fast loop: `npm run test:unit` runs the tests that need no sandbox process, pseudo-terminal
 * or end-to-end run (unit, API client, sandbox, prompts), and the README says when to
 * use it, while its Quick start stays two commands.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };

describe('npm run test:unit', () => {
  it('runs the unit, api, sandbox, prompts and property tests, and no end-to-end or property test', () => {
    const script = pkg.scripts['test:unit'];
    expect(script).toBeDefined();
    const dirs = script!
      .slice(script!.indexOf('vitest run') + 'vitest run'.length)
      .trim()
      .split(/\s+/);
    // The property tests take minutes (thousands of generated documents): they stay in npm test.
    expect(dirs).toEqual(['test/unit', 'test/api', 'test/sandbox', 'test/prompts']);
    for (const d of dirs) expect(existsSync(d), d).toBe(true);
    expect(script).not.toContain('test/e2e');
    expect(script).not.toContain('test/property');
  });

  it('the README says when to use it, and its Quick start is still two commands', () => {
    const readme = readFileSync('README.md', 'utf8');
    expect(readme).toMatch(/`npm run test:unit` is the fast loop/);
    const quick = /## Quick start\n[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)![1]!;
    expect(quick.trim().split('\n')).toHaveLength(2);
  });
});
