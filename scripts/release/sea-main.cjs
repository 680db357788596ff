'use strict';
// The main script of shipbook's single executables (Node.js's single-executable applications,
// built by scripts/release.mjs). It does what bin/shipbook.js and bin/code-cache.js do for the npm
// install, reading the program from the executable's own assets instead of dist/:
// - `--version` is answered from the version the build embedded, without loading the program;
// - `--help` into a pipe or a file prints the help the build rendered (asset help.txt);
// - everything else compiles the program (asset main.cjs) with a V8 code cache kept in the
//   platform's cache directory under shipbook/sea/ (a directory of its own, so an npm install and
//   an executable of the same version never remove each other's files), one file per command,
//   written when the first successful run of that command exits. NODE_DISABLE_COMPILE_CACHE=1
//   turns it off; a cache that cannot be read or written only costs speed.
// The program requires its chunks (./chunks/<name>.cjs), its vendored packages
// (./vendor/<name>.cjs) and the country names (i18n-iso-countries): each is an asset too.
// Only Node.js's built-in modules are otherwise required: an executable's `require` has no others.
// node:os and node:vm are required where they are used: `--version` needs neither.
const sea = require('node:sea');
const { closeSync, existsSync, fstatSync, mkdirSync, openSync, readdirSync, readSync, renameSync, rmSync, writeFileSync } = require('node:fs');
const { dirname, join } = require('node:path');

/**
 * The text of the asset `name` (UTF-8, or latin1 for the program's pure ASCII bundles). getRawAsset
 * is the asset in the executable's memory, not a copy; getAsset(name, encoding) would decode it
 * with a TextDecoder, several times slower than Buffer's own decoding (and windows-1252 for latin1).
 */
const assetText = (name, encoding = 'utf8') => Buffer.from(sea.getRawAsset(name)).toString(encoding);

const meta = JSON.parse(assetText('meta.json'));
const args = process.argv.slice(2);
const onlyArg = args.length === 1 ? args[0] : undefined;

/** The cache directory of this platform (as bin/code-cache.js finds it), or undefined without a home. */
function cacheDirectory(env) {
  if (env.SHIPBOOK_CACHE_DIR) return join(env.SHIPBOOK_CACHE_DIR, 'sea');
  let home;
  try {
    home = require('node:os').homedir();
  } catch {
    return undefined;
  }
  if (process.platform === 'win32') return join(env.LOCALAPPDATA || join(home, 'AppData', 'Local'), 'shipbook', 'Cache', 'sea');
  if (process.platform === 'darwin') return join(home, 'Library', 'Caches', 'shipbook', 'sea');
  return join(env.XDG_CACHE_HOME || join(home, '.cache'), 'shipbook', 'sea');
}

/** The command a run invokes: its first word that is not an option or a global option's value. */
function commandOf(argv) {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--profile' || a === '--output' || a === '--request-timeout' || a === '--jq' || a === '--template') i++;
    else if (!a.startsWith('-')) return /^[a-z][a-z-]{0,30}$/.test(a) ? a : 'other';
  }
  return 'none';
}

/** Creates `dir` and its missing parents, 0700, one at a time (see bin/code-cache.js). */
function makeDirectory(dir) {
  const missing = [];
  for (let d = dir; !existsSync(d); d = dirname(d)) {
    if (dirname(d) === d || missing.length > 64) break;
    missing.unshift(d);
  }
  for (const d of missing) mkdirSync(d, { mode: 0o700 });
}

/**
 * One buffer for the code caches a start reads one after the other, each used up (deserialised
 * by V8 while its Script is made) before the next is read: memory a process touches for the first
 * time costs a page fault per 4 kB, and a buffer per file made about 300 more of them at each start
 * (see bin/code-cache.js).
 */
let scratch = Buffer.alloc(0);

/** The bytes of `file`, in {@link scratch} (valid until the next call). @throws what reading throws */
function readWhole(file) {
  const fd = openSync(file, 'r');
  try {
    const { size } = fstatSync(fd);
    if (scratch.length < size) scratch = Buffer.allocUnsafeSlow(size);
    let length = 0;
    while (length < size) {
      const n = readSync(fd, scratch, length, size - length, length);
      if (n === 0) break;
      length += n;
    }
    return scratch.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}

/** Where the program's files seem to be: beside the executable (the program's __filename, for its messages). */
const home = dirname(process.execPath);

/** Assets already run, by name: each runs once, as a module does. */
const loaded = new Map();

/**
 * Compiles and runs the asset `name`, a CommonJS module (`wrapped`: already the function Node.js
 * wraps a module in, as scripts/build.mjs writes the program and its chunks), with a code cache of
 * its own when `cached`, and returns its exports.
 */
function loadAsset(name, wrapped, cached) {
  if (loaded.has(name)) return loaded.get(name).exports;
  // The program and its chunks are pure ASCII (scripts/build.mjs checks): latin1 is their text.
  let source = wrapped ? assetText(name, 'latin1') : require('node:module').wrap(assetText(name));
  const file = join(home, name);
  let cache;
  if (cached && !process.env.NODE_DISABLE_COMPILE_CACHE) {
    const dir = cacheDirectory(process.env);
    const build = /\/\/# shipbook-build ([0-9a-f]{16})\s*\}?\)?\s*$/.exec(source.slice(-80))?.[1] ?? 'unbuilt';
    const prefix = `${name.replace(/[^a-z0-9]+/g, '_')}-${build}-`;
    if (dir !== undefined) cache = { dir, prefix, file: join(dir, `${prefix}${process.version}-${process.arch}-${commandOf(args)}.bin`) };
  }
  let data;
  if (cache !== undefined) {
    try {
      data = readWhole(cache.file);
    } catch {
      data = undefined;
    }
  }
  const script = new (require('node:vm').Script)(source, { filename: file, cachedData: data });
  if (cache !== undefined && (data === undefined || script.cachedDataRejected)) {
    process.once('exit', (code) => {
      if (code !== 0) return;
      try {
        makeDirectory(cache.dir);
        const temp = `${cache.file}.${process.pid}.tmp`;
        writeFileSync(temp, script.createCachedData(), { mode: 0o600 });
        renameSync(temp, cache.file);
        const kind = cache.prefix.slice(0, cache.prefix.indexOf('-') + 1);
        for (const f of readdirSync(cache.dir)) {
          if (f.endsWith('.bin') && f.startsWith(kind) && !f.startsWith(cache.prefix)) rmSync(join(cache.dir, f), { force: true });
        }
      } catch {
        // no cache: only slower
      }
    });
  }
  const module = { exports: {}, filename: file, id: file, loaded: false };
  loaded.set(name, module);
  script.runInThisContext().call(module.exports, module.exports, assetRequire, module, file, dirname(file));
  module.loaded = true;
  return module.exports;
}

/** The embedded files of i18n-iso-countries and the examples, by the id the program requires them with. */
const PACKAGE_FILES = {
  'i18n-iso-countries/index.js': 'countries/index.js',
  'i18n-iso-countries/langs/en.json': 'countries/en.json',
  // The example files of `shipbook examples`, required next to the program.
  './examples.json': 'examples.json',
};

/** The `require` the program runs with: its chunks, vendored packages and country names from the assets, else a built-in. */
function assetRequire(id) {
  let m = /^\.\/(chunks|vendor)\/([a-z0-9-]+)\.cjs$/.exec(id);
  if (m !== null) return loadAsset(`${m[1]}/${m[2]}.cjs`, m[1] === 'chunks', m[1] === 'chunks');
  const asset = PACKAGE_FILES[id];
  if (asset !== undefined) return asset.endsWith('.json') ? JSON.parse(assetText(asset)) : loadAsset(asset, false, false);
  // A data file the address chunk reads (its localities, its phone metadata): an asset beside the chunks.
  const data = /^\.\/([a-z0-9-]+)\.(txt|json)$/.exec(id);
  if (data !== null) return data[2] === 'json' ? JSON.parse(assetText(`chunks/${id.slice(2)}`)) : assetText(`chunks/${id.slice(2)}`);
  if (id === 'node:module' || id === 'module') {
    // The program finds i18n-iso-countries with createRequire: give it this require.
    return Object.assign(Object.create(require('node:module')), { createRequire: () => assetRequire });
  }
  return require(id);
}
assetRequire.resolve = (id) => id;
assetRequire.cache = Object.create(null);

if (onlyArg === '--version' || onlyArg === '-V') {
  process.stdout.write(`${meta.version}\n`);
} else if ((onlyArg === '--help' || onlyArg === '-h') && !process.stdout.isTTY) {
  process.stdout.on('error', (err) => {
    if (err.code !== 'EPIPE') throw err;
  });
  process.stdout.write(assetText('help.txt'));
} else {
  // The V8 flags bin/shipbook.js sets with node:v8 for the commands that send requests (loading
  // node:v8 costs a start about 6 ms), and the bounds of a long run's heap, are the executable's own
  // options (scripts/release.mjs, SEA_EXEC_ARGV), for every command.
  loadAsset('main.cjs', true, true).run(process.argv);
}
