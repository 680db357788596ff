// Builds src/ and its dependencies into CommonJS files with esbuild, so that bin/shipbook.js runs
// them on plain Node.js: the program, dist/main.cjs; parts of it only some runs use,
// dist/chunks/*.cjs (undici for the commands that call a service, the address reference with its
// data files beside it); packages only a few commands use, dist/vendor/*.cjs.
//
// Why CommonJS files and not a code-split ES module build (measured in
// bench/RESULTS.md): bin/code-cache.js compiles dist/main.cjs and its chunks with a V8 code cache,
// which Node.js 20 offers only for scripts (vm.Script), not for ES modules. With the cache,
// `validate` and `quote` start in about two thirds of the time the code-split ES module build
// took. Code a command does not use is either in a file of its own, never read, or in the bundle
// but never run: esbuild wraps each lazily imported module in a function that runs on its first
// import.
import { build, transform } from 'esbuild';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { appendFile, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { holidayFrontFile } from './holiday-table.mjs';
import { barrelPlugin } from './barrels.mjs';

const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
const outfile = fileURLToPath(new URL('../dist/main.cjs', import.meta.url));

// Start from an empty dist/, so nothing of an earlier build is left to load.
await rm(new URL('../dist/', import.meta.url), { recursive: true, force: true });

// Packages that only a few commands use, each built into a file of its own, dist/vendor/<name>.cjs,
// which the program requires on first use: `validate`, `quote` and most runs never read or parse
// them. The inquirer prompts (with iconv-lite, through the editor prompt) are for the wizard and
// logins on a terminal, xmlbuilder2 (a DOM and a YAML library) for `--junit`, conf (ajv, semver)
// for the commands that read or write settings, @bomb.sh/tab for shell completion, pdf-lib and
// bwip-js for the PDF of the hand-over sheet, pg (node-postgres) for a ledger on a PostgreSQL server
// (docs/shared-ledger.md): read only when one is configured.
const VENDOR = {
  '@inquirer/prompts': { file: 'inquirer-prompts', exports: 'export * from "@inquirer/prompts";' },
  xmlbuilder2: { file: 'xmlbuilder2', exports: 'export * from "xmlbuilder2";' },
  // A default export is the file's module.exports: the bundle imports these files as Node.js
  // imports CommonJS (its default is module.exports).
  conf: { file: 'conf', exports: 'module.exports = require("conf").default;' },
  '@bomb.sh/tab/commander': { file: 'tab-commander', exports: 'module.exports = require("@bomb.sh/tab/commander").default;' },
  // The PDF of `handover` and its Code 128 barcodes: read only when a PDF is asked for.
  'pdf-lib': { file: 'pdf-lib', exports: 'export * from "pdf-lib";' },
  // Code 128 encoding alone: the named import lets esbuild leave out bwip-js's other symbologies.
  'bwip-js': { file: 'bwip-js', exports: 'export { code128 } from "bwip-js";' },
  pg: { file: 'pg', exports: 'module.exports = require("pg");' },
  // `--jq`: jq compiled to WebAssembly, the wasm embedded as bytes (no file to find beside the
  // program, so the single executables carry it as they carry every vendored package).
  'jq-wasm/inline': { file: 'jq-wasm', exports: 'export { loadJq } from "jq-wasm/inline";' },
  // `--template`: Handlebars (mustache syntax), its compiler included.
  handlebars: { file: 'handlebars', exports: 'module.exports = require("handlebars");' },
  // Public holidays for the next collection day: the class date-holidays exports, made as the
  // package makes it (its parser over its data), so that AUSTRALIA_ONLY can keep the Australian part
  // of that data. The program loads dist/vendor/date-holidays.cjs, a table of its answers made
  // from this file (scripts/holiday-table.mjs), which reads this one only for a question the table
  // does not hold.
  'date-holidays': {
    file: 'date-holidays-rules',
    front: 'date-holidays',
    exports:
      'const Parser = require("date-holidays-parser").default; const { data } = require("date-holidays/data"); module.exports = class Holidays extends Parser { constructor(country, state, region, opts) { super(data, country, state, region, opts); } };',
  },
};
// Optional packages a vendor file names but shipbook never uses (pg's native binding, its
// Cloudflare socket): left as requires that are never reached.
const VENDOR_EXTERNAL = ['pg-native', 'cloudflare:sockets'];
// import.meta.url (the bundle's own URL, to find files next to the program) is made on first use:
// no command needs it before it runs, and making it loads node:url's path handling at every start.
const importMetaBanner = "const __sbImportMeta = { get url() { return (this.u ??= require('node:url').pathToFileURL(__filename).href); } };";
const importMetaDefine = { 'import.meta.url': '__sbImportMeta.url' };

/** Resolves the packages of VENDOR to their own files in dist/vendor/, outside the bundle. */
const vendorPlugin = {
  name: 'vendor',
  setup(b) {
    const names = Object.keys(VENDOR).map((n) => n.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
    b.onResolve({ filter: new RegExp(`^(${names.join('|')})$`) }, (args) => ({
      path: `./vendor/${VENDOR[args.path].front ?? VENDOR[args.path].file}.cjs`,
      external: true,
    }));
  },
};

/**
 * Node.js built-ins that the bundle's first lines would load for every command though few use
 * them (about 10 ms of start-up), replaced by a module that loads them on first use: commander
 * requires child_process (for subcommands that are executables, which shipbook has none of) when
 * it loads, shipbook's own modules import crypto (hashes for the ledger and the target, random
 * tokens) at their top, and undici loads http2 (which shipbook never speaks) for its constants,
 * node:http (its client and server, about 5 ms: see UNDICI_PATCHES) for one number, and node:assert
 * for its internal checks.
 * Each function the module exports loads the built-in and calls (or constructs) its namesake
 * (node:module's are getters, as its classes must stay themselves); `constants` is copied as it
 * is; the other exports are getters. node:assert is itself
 * a function (`assert(value, message)`): the module is one that loads the built-in only when a
 * check fails, and lets it throw its AssertionError.
 */
const LAZY_BUILTINS = {
  child_process: /node_modules\/commander\//,
  crypto: /\/src\//,
  http2: /node_modules\/undici\/lib\/dispatcher\/client-h2\.js$/,
  http: /node_modules\/undici\/lib\/dispatcher\/client\.js$/,
  assert: /node_modules\/undici\//,
  // createRequire (for i18n-iso-countries' files) and SourceMap (for --debug): the executables
  // compile node:module at the start for these imports (about 2 ms) though few runs use them.
  module: /\/src\//,
};
const lazyBuiltinPlugin = {
  name: 'lazy-builtin',
  setup(b) {
    b.onResolve({ filter: /^(node:)?(child_process|crypto|http2|http|assert|module)$/ }, (args) => {
      const name = args.path.replace(/^node:/, '');
      return LAZY_BUILTINS[name].test(args.importer) ? { path: name, namespace: 'lazy-builtin' } : undefined;
    });
    b.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, async (args) => {
      if (args.path === 'assert') {
        // Called with a true value on every request: the built-in is loaded for a false one only.
        // Its other functions (assert.strictEqual …) load the built-in when called, should undici use them.
        const real = await import('node:assert');
        const lines = ["function ok(...a) { if (a.length === 0 || !a[0]) require('node:assert').apply(this, a); }"];
        for (const key of Object.keys(real.default)) {
          if (key === 'ok' || !/^[A-Za-z_$][\w$]*$/.test(key) || typeof real.default[key] !== 'function') continue;
          lines.push(`ok.${key} = function ${key}(...a) { return require('node:assert').${key}.apply(this, a); };`);
        }
        lines.push('ok.ok = ok;', 'module.exports = ok;');
        return { contents: lines.join('\n'), loader: 'js' };
      }
      const real = await import(`node:${args.path}`);
      const keys = Object.keys(real.default).filter((key) => /^[A-Za-z_$][\w$]*$/.test(key));
      // node:module's exports include classes (SourceMap, Module): a getter gives the class itself,
      // where a wrapper function would make `new` build objects without its prototype.
      const wrapped = args.path === 'module' ? [] : keys.filter((key) => key !== 'constants' && typeof real.default[key] === 'function');
      const got = keys.filter((key) => key !== 'constants' && !wrapped.includes(key));
      // Written as two loops over the names, not a statement per export: the program is parsed at
      // every start, and crypto alone has about sixty functions.
      const lines = [
        `let m; const load = () => (m ??= require('node:${args.path}'));`,
        `for (const k of ${JSON.stringify(wrapped)}) exports[k] = Object.defineProperty(function (...a) { return new.target ? Reflect.construct(load()[k], a, new.target) : load()[k].apply(this, a); }, 'name', { value: k });`,
        `for (const k of ${JSON.stringify(got)}) Object.defineProperty(exports, k, { enumerable: true, get: () => load()[k] });`,
      ];
      if (keys.includes('constants')) lines.push(`exports.constants = ${JSON.stringify(real.default.constants)};`);
      return { contents: lines.join('\n'), loader: 'js' };
    });
  },
};

/**
 * chalk's colour detection (its vendored supports-color), replaced by "no colour": it runs when
 * chalk loads and loads node:tty for it, at every start, for chalk's default instances, which
 * shipbook never uses; src/output/style.ts makes its own instance with the level it decided.
 */
const chalkDetectionPlugin = {
  name: 'chalk-no-detection',
  setup(b) {
    b.onResolve({ filter: /^#supports-color$/ }, (args) =>
      /node_modules\/chalk\//.test(args.importer) ? { path: 'supports-color', namespace: 'chalk-no-detection' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'chalk-no-detection' }, () => ({ contents: 'export default { stdout: false, stderr: false };', loader: 'js' }));
  },
};

/**
 * Parts of the program that only the commands calling a service use, built as bundles of their
 * own in dist/chunks/, wrapped and hashed like dist/main.cjs: bin/code-cache.js loads them, on
 * first use, with a code cache of their own. undici (the HTTP client) is the largest.
 */
const CHUNKS = { 'src/http/undici.ts': 'undici', 'src/address/reference.ts': 'addresses' };

/**
 * Two edits to undici's own files, so that loading it does not load node:http (its HTTP client and
 * server, about 5 ms at start): undici reads `http.maxHeaderSize` when its client module loads
 * (now when a client is created without `maxHeaderSize`, which src/api/http.ts gives it), and
 * keeps `http.IncomingMessage` to recognise a Node.js response among the streams it destroys
 * (now looked up then; no such stream exists before node:http is loaded). Each edit is of an
 * exact text: a release of undici that changes it fails the build, never a user's run.
 */
const UNDICI_PATCHES = {
  'lib/dispatcher/client.js': [
    [
      'const getDefaultNodeMaxHeaderSize = http &&\n  http.maxHeaderSize &&\n  Number.isInteger(http.maxHeaderSize) &&\n  http.maxHeaderSize > 0\n  ? () => http.maxHeaderSize\n  : () => { throw',
      'const getDefaultNodeMaxHeaderSize = () => http &&\n  http.maxHeaderSize &&\n  Number.isInteger(http.maxHeaderSize) &&\n  http.maxHeaderSize > 0\n  ? http.maxHeaderSize\n  : (() => { throw',
    ],
    ["http module not available or http.maxHeaderSize invalid') }", "http module not available or http.maxHeaderSize invalid') })()"],
  ],
  'lib/core/util.js': [
    ["const { IncomingMessage } = require('node:http')\n", ''],
    ['Object.getPrototypeOf(stream).constructor === IncomingMessage', "Object.getPrototypeOf(stream).constructor === require('node:http').IncomingMessage"],
  ],
};
const undiciPatchPlugin = {
  name: 'undici-patch',
  setup(b) {
    b.onLoad({ filter: /node_modules\/undici\/lib\/(dispatcher\/client|core\/util)\.js$/ }, async (args) => {
      const key = /lib\/.*$/.exec(args.path)[0];
      let contents = await readFile(args.path, 'utf8');
      for (const [from, to] of UNDICI_PATCHES[key]) {
        if (contents.split(from).length !== 2) throw new Error(`${args.path}: the text to edit is not there once (undici changed): ${from.slice(0, 60)}`);
        contents = contents.replace(from, () => to);
      }
      return { contents, loader: 'js' };
    });
  },
};
const chunkPlugin = {
  name: 'chunks',
  setup(b) {
    b.onResolve({ filter: /\/http\/undici\.js$/ }, (args) => (args.importer.includes('/src/') ? { path: './chunks/undici.cjs', external: true } : undefined));
  },
};
/**
 * The address reference (src/address/reference.ts: the Australian localities, libphonenumber-js,
 * postcode patterns, about 0.4 MB) is the chunk dist/chunks/addresses.cjs, loaded when the first
 * address is checked. The checks read it synchronously, so src/address/load.ts (an ordinary
 * import from source) becomes, in the program, a function that requires the chunk on first call.
 */
const addressChunkPlugin = {
  name: 'address-chunk',
  setup(b) {
    b.onResolve({ filter: /^\.\/chunks\/addresses\.cjs$/ }, (args) => ({ path: args.path, external: true }));
    b.onLoad({ filter: /\/src\/address\/load\.ts$/ }, () => ({
      contents: "let loaded; export function addressReference() { return (loaded ??= require('./chunks/addresses.cjs')); }",
      loader: 'js',
    }));
  },
};
/**
 * The data of the address chunk as files of their own in dist/chunks/, read when the chunk loads:
 * the Australian localities (src/address/au-localities.data.ts, 228 KB of text) and
 * libphonenumber-js's "min" metadata (83 KB of JSON). As a string literal and an object literal of
 * the chunk they were read, compiled and kept in its code cache at each start of `validate` (the
 * cache was larger than the chunk); a text file is only read, and JSON.parse builds the metadata
 * faster than V8 runs the literal. From source (the tests) the modules are imported as they are.
 * The loaders answer `require('./<name>.txt')` with the file's text and `require('./<name>.json')`
 * with its value: bin/code-cache.js from beside the chunk, the executable from its assets.
 */
const LOCALITIES_FILE = 'au-localities.txt';
const PHONE_METADATA_FILE = 'phone-metadata.json';
const localitiesData = await (async () => {
  const ts = await readFile(new URL('../src/address/au-localities.data.ts', import.meta.url), 'utf8');
  const { code } = await transform(ts, { loader: 'ts', format: 'cjs' });
  const module = { exports: {} };
  new Function('module', 'exports', code)(module, module.exports);
  return module.exports;
})();
const addressDataPlugin = {
  name: 'address-data-files',
  setup(b) {
    b.onResolve({ filter: /^\.\/[a-z0-9-]+\.(txt|json)$/ }, (args) =>
      args.importer.includes('/src/address/') || args.importer.includes('/libphonenumber-js/') ? { path: args.path, external: true } : undefined,
    );
    b.onLoad({ filter: /\/src\/address\/au-localities\.data\.ts$/ }, () => ({
      contents: `export const AU_LOCALITIES_SOURCE = ${JSON.stringify(localitiesData.AU_LOCALITIES_SOURCE)}; export const AU_LOCALITIES = require('./${LOCALITIES_FILE}');`,
      loader: 'js',
    }));
    b.onLoad({ filter: /\/libphonenumber-js\/metadata\.min\.json\.js$/ }, () => ({
      contents: `export default require('./${PHONE_METADATA_FILE}');`,
      loader: 'js',
    }));
  },
};
const wrapper = {
  banner: { js: `(function (exports, require, module, __filename, __dirname) { 'use strict'; ${importMetaBanner}` },
  footer: { js: '})' },
};

/**
 * The metrics of the PDF standard fonts the hand-over sheet does not use (every font but Helvetica
 * and Helvetica-Bold), left out of dist/vendor/pdf-lib.cjs: each is a compressed JSON file of
 * 5 to 15 kB that would only grow the package. Asking pdf-lib for one of them fails.
 */
const unusedFontsPlugin = {
  name: 'pdf-lib-unused-fonts',
  setup(b) {
    b.onLoad(
      { filter: /@pdf-lib[\\/]standard-fonts[\\/].*[\\/](Courier|Times|Symbol|ZapfDingbats|Helvetica-(Oblique|BoldOblique))[^\\/]*\.compressed\.json$/ },
      () => ({
        contents: '""',
        loader: 'json',
      }),
    );
  },
};

/**
 * Only the Australian part of what date-holidays carries: the holidays of AU (its states are in
 * it) with the shared holiday names, and the Australian time zones of moment-timezone (which the
 * parser uses to place a holiday's start and end). The whole data would be 1.5 MB read at the first
 * pickup date checked; shipbook collects from Australia only. Asking the file for another country
 * finds no holidays, and for another zone, UTC.
 */
const australiaOnlyPlugin = {
  name: 'australia-only',
  setup(b) {
    const req = createRequire(import.meta.url);
    b.onResolve({ filter: /^date-holidays\/data$/ }, () => ({ path: 'date-holidays-data', namespace: 'australia-only' }));
    b.onResolve({ filter: /^\.\/data\/packed\/latest\.json$/ }, (args) =>
      /moment-timezone[\\/]?$/.test(args.resolveDir) ? { path: 'moment-timezone-data', namespace: 'australia-only' } : undefined,
    );
    // The calendars no Australian holiday uses (equinoxes, the Julian, Chinese and Bengali
    // calendars), which the package's own build switches (its `noequinox` … preprocessor flags) can
    // leave out too: astronomia's planetary tables alone are half the file. Using one throws.
    b.onLoad({ filter: /date-holidays-parser[\\/]lib[\\/](Equinox|Julian|Chinese|BengaliRevised)\.cjs$/ }, (args) => ({
      contents: `module.exports = class { constructor() { throw new Error('date-holidays: the ${args.path.replace(/^.*[\\/]|\.cjs$/g, '')} calendar is left out of shipbook (Australian holidays only)'); } };`,
      loader: 'js',
    }));
    b.onLoad({ filter: /.*/, namespace: 'australia-only' }, (args) => {
      if (args.path === 'date-holidays-data') {
        const { data } = req('date-holidays/data');
        const au = { version: data.version, license: data.license, holidays: { AU: data.holidays.AU }, names: data.names };
        return { contents: `exports.data = ${JSON.stringify(au)};`, loader: 'js' };
      }
      const packed = req('moment-timezone/data/packed/latest.json');
      const zones = packed.zones.filter((z) => /^(Australia\/|Etc\/UTC\|)/.test(z));
      const links = packed.links.filter((l) => /^Australia\//.test(l) && l.split('|').every((n) => /^(Australia|Etc)\//.test(n)));
      return { contents: JSON.stringify({ version: packed.version, zones, links, countries: [] }), loader: 'json' };
    });
  },
};

for (const [name, v] of Object.entries(VENDOR)) {
  await build({
    plugins: name === 'pdf-lib' ? [unusedFontsPlugin] : name === 'date-holidays' ? [australiaOnlyPlugin] : [],
    stdin: { contents: v.exports, resolveDir: fileURLToPath(new URL('..', import.meta.url)), sourcefile: `vendor-${v.file}.js`, loader: 'js' },
    outfile: fileURLToPath(new URL(`../dist/vendor/${v.file}.cjs`, import.meta.url)),
    bundle: true,
    external: VENDOR_EXTERNAL,
    platform: 'node',
    format: 'cjs',
    target: 'node20.19',
    banner: { js: importMetaBanner },
    charset: 'ascii',
    legalComments: 'external',
    define: importMetaDefine,
    minify: !process.env.BUILD_NO_MINIFY,
    logLevel: 'warning',
  });
}

// The front of date-holidays: its answers for the years around this build, as a table.
{
  const { file, front } = VENDOR['date-holidays'];
  const rules = fileURLToPath(new URL(`../dist/vendor/${file}.cjs`, import.meta.url));
  await writeFile(new URL(`../dist/vendor/${front}.cjs`, import.meta.url), holidayFrontFile(rules, `./${file}.cjs`));
}

/** What the program and its chunks are built with alike: the files bin/code-cache.js loads. */
const loadedByTheLauncher = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20.19',
  // The file is the function Node.js would wrap a CommonJS module in, so bin/code-cache.js
  // compiles it as it is (no 2 MB string to build at every start). import.meta.url (used to
  // find files next to the program) is the bundle's own URL.
  ...wrapper,
  // Pure ASCII (licence texts go to *.LEGAL.txt), so it is read without UTF-8 decoding.
  charset: 'ascii',
  legalComments: 'external',
  // BUILD_NO_MINIFY=1 keeps names readable, for CPU profiles (node --cpu-prof).
  minify: !process.env.BUILD_NO_MINIFY,
  // dist/main.cjs.map (about 6 MB) stays in the checkout, where --debug maps stack traces through
  // it and bench/profile.mjs reads it; package.json's `files` leaves it out of the tarball.
  sourcemap: true,
  logLevel: 'warning',
};

await build({
  ...loadedByTheLauncher,
  entryPoints: ['src/main.ts'],
  outfile,
  define: { SHIPBOOK_VERSION: JSON.stringify(pkg.version), ...importMetaDefine },
  // Imports through a room's index linked to the modules behind it (scripts/barrels.mjs): a command
  // runs the modules it uses, not every module of the rooms it asks something of.
  plugins: [
    vendorPlugin,
    lazyBuiltinPlugin,
    chunkPlugin,
    addressChunkPlugin,
    chalkDetectionPlugin,
    barrelPlugin(['src/booking/index.ts', 'src/ledger/index.ts'].map((f) => fileURLToPath(new URL(`../${f}`, import.meta.url)))),
  ],
  // The files of dist/vendor/ and dist/chunks/ are CommonJS: `import()` of one becomes `require`
  // (a script compiled by node:vm has no loader for `import()`).
  supported: { 'dynamic-import': false },
});

const wrapped = [outfile];
for (const [entry, name] of Object.entries(CHUNKS)) {
  const file = fileURLToPath(new URL(`../dist/chunks/${name}.cjs`, import.meta.url));
  wrapped.push(file);
  await build({
    ...loadedByTheLauncher,
    entryPoints: [entry],
    outfile: file,
    define: importMetaDefine,
    plugins: [lazyBuiltinPlugin, undiciPatchPlugin, addressDataPlugin],
  });
}
await writeFile(new URL(`../dist/chunks/${LOCALITIES_FILE}`, import.meta.url), localitiesData.AU_LOCALITIES);
// The package's metadata.min.json (its metadata.min.json.js, which min/exports/*.js import, holds the
// same data as a module), written compact.
const phoneMetadata = createRequire(import.meta.url)('libphonenumber-js/metadata.min.json');
await writeFile(new URL(`../dist/chunks/${PHONE_METADATA_FILE}`, import.meta.url), JSON.stringify(phoneMetadata));

for (const file of wrapped) {
  const bytes = await readFile(file);
  const nonAscii = bytes.findIndex((b) => b > 0x7f);
  // (A BUILD_NO_MINIFY build keeps its comments, some not ASCII: read as latin1 they only look odd.)
  if (nonAscii !== -1 && !process.env.BUILD_NO_MINIFY) throw new Error(`${file} is not pure ASCII at byte ${nonAscii}: bin/code-cache.js reads it as latin1`);
  // The content hash, as the last line: bin/code-cache.js keys its cache on it (V8 itself checks
  // only the length of a cached script's source).
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  await appendFile(file, `\n//# shipbook-build ${hash}\n`);
}

// The top-level help, as commander lays it out for output that is not a terminal (80 columns).
// bin/shipbook.js prints this file for `shipbook --help` into a pipe or file without loading the
// program (start-up time). It is rendered by the program just built, so it cannot drift;
// test/e2e/cli-experience.test.ts compares it with the program's own help.
const help = execFileSync(
  process.execPath,
  [
    '-e',
    "require(process.argv[1]).loadBundle(process.argv[2], []).run(['node', 'shipbook', '--help'])",
    fileURLToPath(new URL('../bin/code-cache.js', import.meta.url)),
    outfile,
  ],
  { encoding: 'utf8', env: { PATH: process.env.PATH, NO_COLOR: '1', NODE_DISABLE_COMPILE_CACHE: '1' }, stdio: ['ignore', 'pipe', 'inherit'] },
);
await writeFile(new URL('../dist/help.txt', import.meta.url), help);

// The example files of fixtures/ (the ones every --help example names), for `shipbook examples`:
// one JSON file next to the program, read by that command only, so that an installed shipbook (an
// npm install or a single executable, where it is an asset) can show them and copy them into a
// directory where the examples run as printed.
const fixturesRoot = fileURLToPath(new URL('../fixtures/', import.meta.url));
const exampleFiles = {};
for (const entry of (await readdir(fixturesRoot, { recursive: true, withFileTypes: true })).sort((a, b) =>
  join(a.parentPath ?? a.path, a.name).localeCompare(join(b.parentPath ?? b.path, b.name)),
)) {
  if (!entry.isFile()) continue;
  const full = join(entry.parentPath ?? entry.path, entry.name);
  // An image (a signature for the customs papers) is kept as a data URL: read as UTF-8 it would be corrupted.
  const image = /\.(png|jpe?g)$/i.exec(entry.name);
  exampleFiles[`fixtures/${relative(fixturesRoot, full).split(sep).join('/')}`] = image
    ? `data:image/${image[1].toLowerCase() === 'png' ? 'png' : 'jpeg'};base64,${(await readFile(full)).toString('base64')}`
    : await readFile(full, 'utf8');
}
await writeFile(new URL('../dist/examples.json', import.meta.url), JSON.stringify({ files: exampleFiles }));
