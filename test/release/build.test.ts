/**
 * How `npm run release` builds: its cache of Node.js builds is in the user's cache directory, not
 * the checkout; what it printed (kept in the cache's release.log) holds no warning of postject's
 * that the build knows to be harmless; every executable stays under a size ceiling, Node.js's own
 * binary being the floor (a Linux one stripped of its symbols and debug information); and the
 * Debian package passes lintian but for the tags docs/development.md explains. Skipped, saying so,
 * when release/ was not built (or lintian, readelf or dpkg-deb is missing).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EMBEDDED_NODE, hasCommand, releaseCacheDir, releaseFile, ROOT } from './helpers.js';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; homepage: string; author: string };
const sums = releaseFile('SHA256SUMS');
const cache = releaseCacheDir();
const MB = 1e6;

describe.skipIf(sums === undefined)('the release build', () => {
  it('keeps its Node.js builds in the user cache directory, not in the checkout', () => {
    expect(existsSync(join(ROOT, '.release-cache'))).toBe(false);
    expect(existsSync(join(cache, `node-v${EMBEDDED_NODE}-linux-x64`))).toBe(true);
    // Only the binaries are kept: the tarballs they came in are removed once unpacked.
    const leftovers = spawnSync('find', [cache, '-name', '*.tgz'], { encoding: 'utf8' }).stdout.trim();
    expect(leftovers).toBe('');
  });

  it('printed none of the postject warnings it knows to be harmless', () => {
    const log = readFileSync(join(cache, 'release.log'), 'utf8');
    expect(log).toMatch(/^shipbook-linux-x64: [\d.]+ MB/m);
    expect(log).not.toContain("Can't find string offset for section name");
    expect(log).not.toContain('The signature seems corrupted');
  });

  /**
   * Each executable: Node.js's own binary (the floor: 124.8 MB for linux-x64 as its npm package
   * ships it, 107.1 MB stripped; 122.2 MB and 103.7 MB for linux-arm64; 87.0 MB for win-x64) and
   * the program's blob, 5.9 MB (1.3 MB of it jq's WebAssembly, for --jq; the public holidays table and js-yaml since), with about 2 MB of room for the program to grow. An unstripped
   * Linux Node.js alone is over its ceiling.
   */
  it.each([
    ['shipbook-linux-x64', 115],
    ['shipbook-linux-arm64', 112],
    ['shipbook-win-x64.exe', 95],
  ])('%s is under %d MB', (name, ceiling) => {
    const file = join(ROOT, 'release', name);
    expect(statSync(file).size / MB).toBeLessThan(ceiling);
  });

  it('carries no Authenticode signature in the Windows executable (the injection would have broken it)', () => {
    const exe = readFileSync(join(ROOT, 'release', 'shipbook-win-x64.exe'));
    const optional = exe.readUInt32LE(0x3c) + 24;
    expect(exe.readUInt16LE(optional)).toBe(0x20b); // PE32+
    const security = optional + 112 + 4 * 8; // the data directory's certificate table entry
    expect([exe.readUInt32LE(security), exe.readUInt32LE(security + 4)]).toEqual([0, 0]);
  });

  it.skipIf(!hasCommand('readelf'))('strips the Linux executables of their symbol table and debug information', () => {
    for (const name of ['shipbook-linux-x64', 'shipbook-linux-arm64']) {
      const sections = spawnSync('readelf', ['--section-headers', '--wide', join(ROOT, 'release', name)], { encoding: 'utf8' }).stdout;
      expect(sections, name).toContain('.rodata');
      expect(sections, name).not.toMatch(/\.symtab|\.debug_|\.gnu\.build\.attributes/);
    }
  });
});

const deb = releaseFile(`shipbook_${pkg.version}_amd64.deb`);
const lintian = hasCommand('lintian');
if (deb !== undefined && !lintian) console.warn('skipping the lintian test of the Debian package: lintian is not installed (apt-get install lintian)');

describe.skipIf(deb === undefined)('the Debian package control file', () => {
  it('names its dependencies, home page and maintainer', () => {
    const control = spawnSync('dpkg-deb', ['--field', deb!], { encoding: 'utf8' }).stdout;
    expect(control).toMatch(/^Depends: libc6 \(>= 2\.\d+\), libgcc-s1 \(>= [\d.]+\), libstdc\+\+6 \(>= [\d.]+\)$/m);
    expect(control).toContain(`Homepage: ${pkg.homepage}\n`);
    expect(control).toContain(`Maintainer: ${pkg.author}\n`);
    expect(control).not.toContain('localhost');
    // The description's lines fit a terminal of 80 columns (lintian's extended-description-line-too-long).
    for (const line of control.split('\n').filter((l) => l.startsWith(' '))) expect(line.length, line).toBeLessThanOrEqual(80);
  });

  it.skipIf(!lintian)(
    'passes lintian, but for the tags it overrides with a reason',
    () => {
      const r = spawnSync('lintian', ['--show-overrides', '--tag-display-limit', '0', deb!], { encoding: 'utf8' });
      const tags = r.stdout
        .split('\n')
        .filter((l) => /^[EWO]: /.test(l))
        .sort();
      expect(tags, r.stdout + r.stderr).toEqual(['O: shipbook: embedded-library zlib [usr/bin/shipbook]', 'O: shipbook: hardening-no-pie [usr/bin/shipbook]']);
      const explained = readFileSync(join(ROOT, 'docs', 'development.md'), 'utf8');
      for (const tag of ['embedded-library', 'hardening-no-pie']) expect(explained).toContain(`\`${tag}\``);
    },
    400_000,
  );
});
