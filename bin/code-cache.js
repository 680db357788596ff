'use strict';
// Loads the program (dist/main.cjs, one CommonJS bundle) with a V8 code cache, on every Node.js
// version: the bytecode of what a command ran is kept in the user's cache directory, so its next
// start skips parsing and compiling most of the bundle (start-up time is measured in bench/RESULTS.md).
//
// - The bundle may require parts of itself built as bundles of their own (`./chunks/<name>.cjs`,
//   see scripts/build.mjs): each is loaded the same way, with a cache file of its own per command
//   (`<name>.` before the file name below).
// - One cache file per command (`quote`, `validate`, …), written once, when the first successful
//   run of that command with this build on this Node.js exits (exit code 0): it then holds the
//   functions the command ran, not only the top level of the bundle. A failed run (a mistyped
//   command, an interrupted one) writes nothing.
// - Where: $SHIPBOOK_CACHE_DIR/v8, else the platform's cache directory + shipbook/v8
//   ($XDG_CACHE_HOME or ~/.cache on Linux, ~/Library/Caches on macOS, %LOCALAPPDATA% on Windows).
//   The directory is created 0700 and the files 0600: cached bytecode is code, so only its owner
//   may write it.
// - NODE_DISABLE_COMPILE_CACHE=1 (Node.js's own switch for its compile cache) turns it off.
// - A cache that cannot be read or written only costs speed. V8 rejects one made by another
//   V8 version or with other flags, and it is then written again; files of other builds are
//   removed when a new one is written.
const { closeSync, existsSync, fstatSync, mkdirSync, openSync, readdirSync, readSync, renameSync, rmSync, writeFileSync } = require('node:fs');
const Module = require('node:module');
const { homedir } = require('node:os');
const { dirname, join } = require('node:path');
const { Script } = require('node:vm');

/** The cache directory of this platform, or undefined when there is no home to put it in. */
function cacheDirectory(env) {
  if (env.SHIPBOOK_CACHE_DIR) return join(env.SHIPBOOK_CACHE_DIR, 'v8');
  let home;
  try {
    home = homedir();
  } catch {
    return undefined;
  }
  if (process.platform === 'win32') return join(env.LOCALAPPDATA || join(home, 'AppData', 'Local'), 'shipbook', 'Cache', 'v8');
  if (process.platform === 'darwin') return join(home, 'Library', 'Caches', 'shipbook', 'v8');
  return join(env.XDG_CACHE_HOME || join(home, '.cache'), 'shipbook', 'v8');
}

/** The command a run invokes: its first word that is not an option or a global option's value. */
function commandOf(args) {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--profile' || a === '--output' || a === '--request-timeout' || a === '--rate' || a === '--jq' || a === '--template') i++;
    else if (!a.startsWith('-')) return /^[a-z][a-z-]{0,30}$/.test(a) ? a : 'other';
  }
  return 'none';
}

/**
 * Where the cache of this bundle, this Node.js and this command lives: `{dir, file, prefix}`
 * (`prefix` starts the name of every file of this bundle file, whatever the Node.js), or
 * undefined without one.
 * The key holds the content hash scripts/build.mjs appends to the bundle as its last line, and the
 * bundle's size and time (a bundle edited by hand): V8 checks its own version and flags, but of
 * the source only its length.
 */
function cacheFileOf(stat, source, args, env, chunk = '') {
  if (env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  const dir = cacheDirectory(env);
  if (dir === undefined) return undefined;
  const build = /\/\/# shipbook-build ([0-9a-f]{16})\s*$/.exec(source.slice(-64))?.[1] ?? 'unbuilt';
  const { size, mtimeMs } = stat;
  const prefix = `${chunk}${build}-${size}-${Math.trunc(mtimeMs)}-`;
  return { dir, chunk, prefix, file: join(dir, `${prefix}${process.version}-${process.arch}-${commandOf(args)}.bin`) };
}

/** The chunk a cache file belongs to (`undici.`), or '' for the main bundle's files. */
const chunkOfName = (name) => /^([a-z][a-z0-9-]*\.)/.exec(name)?.[1] ?? '';

/**
 * Creates `dir` and its missing parents, 0700, one at a time: `mkdirSync(…, {recursive: true})`
 * spins forever on some file systems (/proc answers ENOENT for ever). @throws the first failure
 */
function makeDirectory(dir) {
  const missing = [];
  for (let d = dir; !existsSync(d); d = dirname(d)) {
    if (dirname(d) === d || missing.length > 64) break;
    missing.unshift(d);
  }
  for (const d of missing) mkdirSync(d, { mode: 0o700 });
}

/**
 * Runs `fn` under the V8 flags the process was launched with. V8 accepts a code cache only under
 * the flags it was made with, and a long run changes one as it goes (see bin/shipbook.js,
 * boundHeap): a chunk loaded then, or a cache written at exit, would otherwise not match the next
 * start, which would compile and write it again. The launcher sets it with {@link compileAsLaunched}.
 */
let asLaunched = (fn) => fn();

/** Sets how {@link asLaunched} puts the launch flags back around a compile or a cache write. */
function compileAsLaunched(wrapper) {
  asLaunched = wrapper;
}

/**
 * Writes the code cache of `script` (atomically) and removes the files of other bundles (earlier
 * builds or installs); those of other Node.js versions for this bundle stay.
 */
function writeCache(script, cache) {
  try {
    makeDirectory(cache.dir);
    const temp = `${cache.file}.${process.pid}.tmp`;
    writeFileSync(
      temp,
      asLaunched(() => script.createCachedData()),
      { mode: 0o600 },
    );
    renameSync(temp, cache.file);
    for (const name of readdirSync(cache.dir)) {
      if (name.endsWith('.bin') && chunkOfName(name) === cache.chunk && !name.startsWith(cache.prefix)) rmSync(join(cache.dir, name), { force: true });
    }
  } catch {
    // no cache: only slower
  }
}

/**
 * One buffer for the files a start reads one after the other (the bundle, its chunks, their code
 * caches), each used up before the next is read: the source is copied into a string, and V8 has
 * deserialised a code cache by the time its Script exists. Memory a process touches for the first
 * time costs a page fault per 4 kB, and a buffer per file made about 500 of them (1 to 2 MB) at
 * each start of `validate` or `quote`.
 */
let scratch = Buffer.alloc(0);

/**
 * The bytes of `file` and its fs.Stats, in {@link scratch} (valid until the next call).
 * @throws what opening or reading throws (ENOENT for a file that is not there)
 */
function readWhole(file) {
  const fd = openSync(file, 'r');
  try {
    const stat = fstatSync(fd);
    if (scratch.length < stat.size) scratch = Buffer.allocUnsafeSlow(stat.size);
    let length = 0;
    while (length < stat.size) {
      const n = readSync(fd, scratch, length, stat.size - length, length);
      if (n === 0) break;
      length += n;
    }
    return { bytes: scratch.subarray(0, length), stat };
  } finally {
    closeSync(fd);
  }
}

/** Chunks already loaded, by file: each runs once, as a module does. */
const chunks = new Map();

/**
 * The `require` a bundle runs with: Node.js's, except for its chunks (`./chunks/<name>.cjs`),
 * which are loaded by {@link loadBundle} with a code cache of their own.
 */
function chunkRequire(file, args, env) {
  const base = Module.createRequire(file);
  const req = (id) => {
    // A data file beside the bundle (the address chunk's localities and phone metadata): the text
    // of a .txt file, the value of a .json file.
    const data = /^\.\/([a-z0-9-]+)\.(txt|json)$/.exec(id);
    if (data !== null) {
      const text = readWhole(join(dirname(file), `${data[1]}.${data[2]}`)).bytes.toString('utf8');
      return data[2] === 'json' ? JSON.parse(text) : text;
    }
    const m = /^\.\/chunks\/([a-z0-9-]+)\.cjs$/.exec(id);
    if (m === null) return base(id);
    const path = join(dirname(file), 'chunks', `${m[1]}.cjs`);
    let exports = chunks.get(path);
    if (exports === undefined) {
      exports = loadBundle(path, args, env, `${m[1]}.`);
      chunks.set(path, exports);
    }
    return exports;
  };
  return Object.assign(req, { resolve: base.resolve, cache: base.cache, main: base.main, extensions: base.extensions });
}

/**
 * Compiles and runs the bundle `file` (a CommonJS module already wrapped in its function, as
 * scripts/build.mjs writes it) with its code cache (see above) and returns its exports. `args`
 * are the command-line arguments: they choose the cache file.
 * @throws what reading or running the bundle throws (ENOENT when it was never built)
 */
function loadBundle(file, args, env = process.env, chunk = '') {
  // The build makes it pure ASCII and already wrapped as `(function (exports, require, module,
  // __filename, __dirname) {…})`: read as latin1, no decoding, and no wrapper to add.
  const { bytes, stat } = readWhole(file);
  const source = bytes.toString('latin1');
  const cache = cacheFileOf(stat, source, args, env, chunk);
  let cached;
  if (cache !== undefined) {
    try {
      cached = readWhole(cache.file).bytes;
    } catch {
      cached = undefined;
    }
  }
  const script = asLaunched(() => new Script(source, { filename: file, cachedData: cached }));
  if (cache !== undefined && (cached === undefined || script.cachedDataRejected)) {
    process.once('exit', (code) => {
      if (code === 0) writeCache(script, cache);
    });
  }
  const module = { exports: {}, filename: file, id: file, loaded: false };
  script.runInThisContext().call(module.exports, module.exports, chunkRequire(file, args, env), module, file, dirname(file));
  module.loaded = true;
  return module.exports;
}

module.exports = { commandOf, compileAsLaunched, loadBundle };
