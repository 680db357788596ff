// Builds src/ and its dependencies into one CommonJS file, dist/main.cjs, with esbuild, so that
// bin/shipbook.js runs it on plain Node.js.
//
// Why one CommonJS file (issue 13, measured in bench/RESULTS.md): bin/code-cache.js compiles it
// with a V8 code cache, which Node.js 20 offers only for scripts (vm.Script), not for ES modules.
// With the cache, `validate` and `quote` start in about two thirds of the time the code-split ES
// module build took. Code a command does not use is in the file but never runs: esbuild wraps
// each lazily imported module in a function that runs on its first import.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { appendFile, readFile, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
const outfile = fileURLToPath(new URL('../dist/main.cjs', import.meta.url));

// Start from an empty dist/, so nothing of an earlier build is left to load.
await rm(new URL('../dist/', import.meta.url), { recursive: true, force: true });

await build({
  entryPoints: ['src/main.ts'],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20.19',
  // The file is the function Node.js would wrap a CommonJS module in, so bin/code-cache.js
  // compiles it as it is (no 2 MB string to build at every start). import.meta.url (used to
  // find files next to the program) is the bundle's own URL.
  banner: { js: "(function (exports, require, module, __filename, __dirname) { 'use strict'; const __sbImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  footer: { js: '})' },
  // Pure ASCII (licence texts go to main.cjs.LEGAL.txt), so it is read without UTF-8 decoding.
  charset: 'ascii',
  legalComments: 'external',
  define: { SHIPBOOK_VERSION: JSON.stringify(pkg.version), 'import.meta.url': '__sbImportMetaUrl' },
  // BUILD_NO_MINIFY=1 keeps names readable, for CPU profiles (node --cpu-prof).
  minify: !process.env.BUILD_NO_MINIFY,
  // dist/main.cjs.map (about 6 MB) stays in the checkout, where --debug maps stack traces through
  // it and bench/profile.mjs reads it; package.json's `files` leaves it out of the tarball.
  sourcemap: true,
  logLevel: 'warning',
});

const bytes = await readFile(outfile);
const nonAscii = bytes.findIndex((b) => b > 0x7f);
// (A BUILD_NO_MINIFY build keeps its comments, some not ASCII: read as latin1 they only look odd.)
if (nonAscii !== -1 && !process.env.BUILD_NO_MINIFY) throw new Error(`dist/main.cjs is not pure ASCII at byte ${nonAscii}: bin/code-cache.js reads it as latin1`);
// The content hash, as the last line: bin/code-cache.js keys its cache on it (V8 itself checks
// only the length of a cached script's source).
const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
await appendFile(outfile, `\n//# shipbook-build ${hash}\n`);

// The top-level help, as commander lays it out for output that is not a terminal (80 columns).
// bin/shipbook.js prints this file for `shipbook --help` into a pipe or file without loading the
// program (start-up, issue 13). It is rendered by the program just built, so it cannot drift;
// test/e2e/cli-experience.test.ts compares it with the program's own help.
const help = execFileSync(
  process.execPath,
  ['-e', "require(process.argv[1]).loadBundle(process.argv[2], []).run(['node', 'shipbook', '--help'])", fileURLToPath(new URL('../bin/code-cache.js', import.meta.url)), outfile],
  { encoding: 'utf8', env: { PATH: process.env.PATH, NO_COLOR: '1', NODE_DISABLE_COMPILE_CACHE: '1' }, stdio: ['ignore', 'pipe', 'inherit'] },
);
await writeFile(new URL('../dist/help.txt', import.meta.url), help);
