#!/usr/bin/env node
// The weight of the package (`npm run bench:package`): packs it as `npm publish` would (the
// prepack script builds dist/), installs the tarball globally into a scratch prefix as a user
// would, and reports the tarball's size and the installed tree's size against their targets.
// Writes its section of bench/RESULTS.md (between the markers below; bench/run.mjs keeps it when
// it rewrites the file) unless given --no-write. Exits 1 when a target is missed.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const BEGIN = '<!-- package-size: written by bench/package-size.mjs -->';
const END = '<!-- /package-size -->';
// 1.2 MB: room for the PDF and barcode code of `handover --pdf` (dist/vendor/, about 0.2 MB compressed).
const TARBALL_TARGET = 1_200_000;
const INSTALL_TARGET = 25_000_000;

/** The size of every file under `dir`, in bytes (what the files hold, not disk blocks). */
function treeSize(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += treeSize(path);
    else if (entry.isFile()) total += statSync(path).size;
  }
  return total;
}

const mb = (bytes) => `${(bytes / 1e6).toFixed(2)} MB`;

/**
 * Packs and installs the package in a scratch directory: `{tarball, unpacked, install, files,
 * dependencies}`, sizes in bytes (`install`: the installed package with its node_modules).
 */
function measurePackage() {
  const work = mkdtempSync(join(tmpdir(), 'shipbook-package-size-'));
  try {
    const out = execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    const [packed] = JSON.parse(out.slice(out.indexOf('[\n')));
    const prefix = join(work, 'prefix');
    execFileSync('npm', ['install', '--global', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', join(work, packed.filename)], {
      cwd: work,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const installed = join(prefix, 'lib', 'node_modules', 'shipbook');
    const dependencies = readdirSync(join(installed, 'node_modules'), { withFileTypes: true }).filter((e) => e.isDirectory() && !e.name.startsWith('.')).length;
    return { tarball: packed.size, unpacked: packed.unpackedSize, files: packed.files.length, install: treeSize(installed), dependencies };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const write = !process.argv.includes('--no-write');
const m = measurePackage();
const rows = [
  {
    figure: 'package: tarball (npm pack)',
    value: mb(m.tarball),
    target: '< 1.2 MB',
    ok: m.tarball < TARBALL_TARGET,
    note: `${m.files} files, ${mb(m.unpacked)} unpacked; no source map`,
  },
  {
    figure: 'package: installed (npm install -g)',
    value: mb(m.install),
    target: '< 25 MB',
    ok: m.install < INSTALL_TARGET,
    note: `the package and its ${m.dependencies} run-time dependencies; no install script runs`,
  },
];
for (const r of rows) console.log(`${r.ok ? 'met   ' : 'MISSED'} ${r.figure.padEnd(40)} ${r.value.padEnd(10)} (target ${r.target}) ${r.note}`);

if (write) {
  const section = [
    BEGIN,
    '## Package size',
    '',
    `Measured by \`npm run bench:package\` (bench/package-size.mjs) on ${new Date().toISOString()} with npm ${execFileSync('npm', ['--version'], { encoding: 'utf8' }).trim()}: the tarball \`npm pack\` makes (dist/ built by the prepack script), installed with \`npm install -g --prefix <scratch>\`; sizes are the bytes the files hold (1 MB = 10^6 bytes).`,
    '',
    '| figure | size | target | verdict | notes |',
    '|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.figure} | ${r.value} | ${r.target} | ${r.ok ? 'met' : '**missed**'} | ${r.note} |`),
    END,
  ].join('\n');
  const file = join(root, 'bench', 'RESULTS.md');
  const old = readFileSync(file, 'utf8');
  const at = old.indexOf(BEGIN);
  const rest = at === -1 ? `${old.trimEnd()}\n\n` : `${old.slice(0, at)}${old.slice(old.indexOf(END) + END.length).replace(/^\n+/, '')}`;
  writeFileSync(file, `${rest.trimEnd()}\n\n${section}\n`);
  console.log('wrote bench/RESULTS.md');
}
process.exitCode = rows.every((r) => r.ok) ? 0 : 1;
