/**
 * What the built program loads at start (start-up speed): Node.js built-ins that a command does not
 * need stay unloaded, and `validate` of an order with a pickup date reads the public holidays from
 * the table the build made (dist/vendor/date-holidays.cjs), not date-holidays itself. Loading undici (the HTTP client, dist/chunks/undici.cjs) loads neither
 * node:http (its client and server) nor node:assert, and `validate` does not load node:tty for
 * chalk's colour detection. Run on dist/ (`npm run build` first), in a fresh Node.js process each.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const home = mkdtempSync(join(tmpdir(), 'shipbook-start-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** The built-in modules a Node.js process running `script` (CommonJS, in the checkout) loaded, besides those loaded before it. */
function builtinsLoadedBy(script: string): { loaded: string[]; output: string; status: number | null } {
  const preamble =
    "const before = new Set(process.moduleLoadList); process.on('exit', () => process.stderr.write('\\nLOADED ' + JSON.stringify(process.moduleLoadList.filter((m) => !before.has(m) && m.startsWith('NativeModule ')).map((m) => m.slice(13)))));";
  const r = spawnSync(process.execPath, ['-e', `${preamble}\n${script}`], {
    cwd: root,
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH,
      HOME: home,
      NO_COLOR: '1',
      CI: '1',
      NODE_DISABLE_COMPILE_CACHE: '1',
      SHIPBOOK_CONFIG_DIR: join(home, 'config'),
      SHIPBOOK_STATE_DIR: join(home, 'state'),
    },
  });
  const m = /LOADED (\[.*\])/.exec(r.stderr);
  if (m === null) throw new Error(`no module list: ${r.stderr}`);
  return { loaded: JSON.parse(m[1]!) as string[], output: r.stdout + r.stderr, status: r.status };
}

describe('built-ins loaded at start', () => {
  it('loading the HTTP client (undici) loads neither node:http nor node:assert', () => {
    const { loaded } = builtinsLoadedBy(
      "const { Agent, request } = require('./bin/code-cache.js').loadBundle(require('node:path').resolve('dist/chunks/undici.cjs'), ['quote']); if (typeof Agent !== 'function' || typeof request !== 'function') throw new Error('no undici');",
    );
    expect(loaded).not.toContain('http');
    expect(loaded).not.toContain('_http_client');
    expect(loaded).not.toContain('assert');
  });

  it('validate checks a file without loading node:tty (chalk colour detection) or node:http', () => {
    const { loaded, output, status } = builtinsLoadedBy(
      "process.argv = [process.argv[0], 'bin/shipbook.js', 'validate', 'fixtures/orders/domestic-syd-mel.yaml']; require('./bin/shipbook.js');",
    );
    expect(status).toBe(0);
    expect(output).toContain('1 file checked: 1 valid');
    expect(loaded).not.toContain('tty');
    expect(loaded).not.toContain('http');
  });

  it('validate of an order with a pickup date reads the holidays table, not date-holidays, and no other vendored package', () => {
    // bench/loaded-bytes.cjs lists the program files of dist/ a run read, `bytes path` a line.
    const list = join(home, 'loaded-validate.txt');
    const r = spawnSync(
      process.execPath,
      ['-r', join(root, 'bench', 'loaded-bytes.cjs'), 'bin/shipbook.js', 'validate', 'fixtures/orders/domestic-syd-mel.yaml'],
      {
        cwd: root,
        encoding: 'utf8',
        env: {
          PATH: process.env.PATH,
          HOME: home,
          NO_COLOR: '1',
          CI: '1',
          SHIPBOOK_BENCH_LOADED: list,
          SHIPBOOK_CONFIG_DIR: join(home, 'config'),
          SHIPBOOK_STATE_DIR: join(home, 'state'),
        },
      },
    );
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(join(root, 'fixtures', 'orders', 'domestic-syd-mel.yaml'), 'utf8')).toMatch(/pickup:\n\s+date: next/);
    const read = new Map(
      readFileSync(list, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => [l.split(' ')[1]!, Number(l.split(' ')[0])] as const),
    );
    expect([...read.keys()].sort()).toEqual(['chunks/addresses.cjs', 'main.cjs', 'vendor/date-holidays.cjs']);
    // The table is about a quarter of date-holidays (rules, parser, zone data: 220 kB).
    expect(read.get('vendor/date-holidays.cjs')).toBeLessThan(100_000);
  });
});
