/**
 * The package as a user gets it: packed from a clean copy of the sources (the prepack script
 * builds dist/), installed globally into a scratch prefix (from the npm cache where it can), and run from another
 * directory. Installing must run no script (npm warns about every package with install scripts)
 * and fetch only what package.json's `dependencies` lists: dist/main.cjs is one bundle holding the
 * libraries shipbook imports, so only those it loads at run time from node_modules (through
 * `createRequire`) are dependencies; the rest are devDependencies, needed to build.
 */
import { execFileSync, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

/** `man` reads the installed pages; without it (a minimal image) that one check is skipped, saying so. */
const hasMan = spawnSync('sh', ['-c', 'command -v man'], { encoding: 'utf8' }).status === 0;

/**
 * What the package may weigh: the tarball, and the installed tree. The tarball's 1.9 MB leaves room
 * for the PDF and barcode code of `handover --pdf` (dist/vendor/pdf-lib.cjs and bwip-js.cjs, about
 * 0.2 MB compressed), read by no other command, and for the public holidays of pickup days
 * (dist/vendor/date-holidays-rules.cjs, 60 kB compressed, read only for a year outside the 7 kB table
 * of dist/vendor/date-holidays.cjs that a pickup date is worked out with),
 * and for jq (dist/vendor/jq-wasm.cjs: jq compiled to WebAssembly and inlined, about 0.5 MB
 * compressed), read only with --jq.
 */
const TARBALL_LIMIT = 1_900_000;
const INSTALL_LIMIT = 25_000_000;

const work = mkdtempSync(join(tmpdir(), 'shipbook-package-'));
const stage = join(work, 'stage');
const prefix = join(work, 'prefix');
const elsewhere = join(work, 'elsewhere');
const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/**
 * npm's environment without the variables `npm test` sets for its own scripts (its project, its
 * prefix, its lifecycle), which would point npm at this checkout; where npm keeps its cache and
 * which registry and user configuration it reads stay.
 */
function npmEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!/^npm_/i.test(k) || /^npm_config_(cache|registry|userconfig)$/i.test(k)) env[k] = v;
  }
  env.PATH = `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`;
  env.NO_UPDATE_NOTIFIER = '1';
  return env;
}

/** The size of every file under `dir`, in bytes. */
function treeSize(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += treeSize(path);
    else if (entry.isFile()) total += statSync(path).size;
  }
  return total;
}

interface PackResult {
  filename: string;
  size: number;
  unpackedSize: number;
  files: { path: string }[];
}

let packed: PackResult;
let install: SpawnSyncReturns<string>;

beforeAll(() => {
  // A copy of what a clean clone holds for packing (no dist/), with this checkout's dependencies.
  mkdirSync(stage);
  for (const name of ['package.json', 'tsconfig.json', 'README.md', 'bin', 'scripts', 'src', 'fixtures', 'man', 'docs']) {
    if (existsSync(join(ROOT, name))) cpSync(join(ROOT, name), join(stage, name), { recursive: true });
  }
  symlinkSync(join(ROOT, 'node_modules'), join(stage, 'node_modules'), 'dir');
  const out = execFileSync('npm', ['pack', '--json', '--pack-destination', work], {
    cwd: stage,
    env: npmEnv(),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  packed = (JSON.parse(out.slice(out.indexOf('[\n'))) as PackResult[])[0]!;
  mkdirSync(elsewhere);
  install = spawnSync('npm', ['install', '--global', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', join(work, packed.filename)], {
    cwd: elsewhere,
    env: npmEnv(),
    encoding: 'utf8',
  });
}, 240_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Runs the installed `shipbook` from a directory outside the sources, with private state and config. */
function shipbook(args: string[]): SpawnSyncReturns<string> {
  return spawnSync(join(prefix, 'bin', 'shipbook'), args, {
    cwd: elsewhere,
    encoding: 'utf8',
    timeout: 60_000,
    env: {
      PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`,
      HOME: elsewhere,
      CI: '1',
      NO_COLOR: '1',
      SHIPBOOK_STATE_DIR: join(work, 'state'),
      SHIPBOOK_CONFIG_DIR: join(work, 'config'),
      SHIPBOOK_CACHE_DIR: join(work, 'cache'),
      SHIPBOOK_SANDBOX_DELAY_MS: '100',
    },
  });
}

describe('the packed package', () => {
  it('is built at pack time and ships the bundle, without its source map, under 1.9 MB', () => {
    const files = packed.files.map((f) => f.path);
    expect(files).toEqual(expect.arrayContaining(['bin/shipbook.js', 'bin/code-cache.js', 'dist/main.cjs', 'dist/help.txt', 'package.json']));
    expect(files.filter((f) => f.endsWith('.map'))).toEqual([]);
    // The example files ship once, inside the program's directory (shipbook examples), not as fixtures/.
    expect(files).toContain('dist/examples.json');
    expect(files.filter((f) => f.startsWith('fixtures/'))).toEqual([]);
    // the build wrote the map beside the bundle (for --debug in a checkout); it is left out of the tarball
    expect(existsSync(join(stage, 'dist', 'main.cjs.map'))).toBe(true);
    expect(packed.size).toBeLessThan(TARBALL_LIMIT);
  });

  it('installs globally with no install script, only its run-time dependencies, under 25 MB', () => {
    expect(install.status, install.stderr).toBe(0);
    expect(install.stderr).not.toMatch(/install-scripts|prepare|prepack/);
    const installed = join(prefix, 'lib', 'node_modules', 'shipbook');
    const dependencies = Object.keys((JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { dependencies?: object }).dependencies ?? {});
    for (const name of dependencies) expect(existsSync(join(installed, 'node_modules', name, 'package.json')), name).toBe(true);
    expect(treeSize(installed)).toBeLessThan(INSTALL_LIMIT);
  });

  it('runs from another directory: --version, --help, and book on the built-in sandbox', () => {
    const v = shipbook(['--version']);
    expect(v.stdout.trim()).toBe(version);
    const example = shipbook(['examples', 'fixtures/orders/domestic-syd-mel.yaml']);
    expect(example.status, example.stderr).toBe(0);
    expect(example.stdout).toBe(readFileSync(join(ROOT, 'fixtures', 'orders', 'domestic-syd-mel.yaml'), 'utf8'));
    const help = shipbook(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: shipbook /m);
    const booked = shipbook(['book', join(ROOT, 'fixtures', 'orders', 'domestic-syd-mel.yaml')]);
    expect(booked.status, booked.stderr).toBe(0);
    expect(booked.stdout).toMatch(/^order\tORD-\S+\tprocessed$/m);
    expect(booked.stdout).toMatch(/\tprocessed\tSBX\d+\t/);
    expect(booked.stderr).toContain('[sandbox] nothing was really booked');
  });

  it.skipIf(!hasMan)(`installs its man pages, which man renders${hasMan ? '' : ' (skipped: man is not installed)'}`, () => {
    for (const page of ['shipbook.1', 'shipbook-book.1']) expect(existsSync(join(prefix, 'share', 'man', 'man1', page)), page).toBe(true);
    const shown = spawnSync('man', ['-l', join(prefix, 'share', 'man', 'man1', 'shipbook-book.1')], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, MANWIDTH: '100', MANPAGER: 'cat', PAGER: 'cat', LANG: 'C.UTF-8' },
    });
    expect(shown.status, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/^SHIPBOOK-BOOK\(1\)/m);
    expect(shown.stdout).toMatch(/shipbook-book - create, accept and wait for a booking in one go/);
    expect(shown.stdout).toContain('--max-total <aud>');
  });
});
