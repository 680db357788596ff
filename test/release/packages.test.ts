/**
 * The packages of the release: SHA256SUMS matches every file, the Scoop manifest carries the
 * Windows executable's hash, and the Debian package installs (into a root of its own, with dpkg
 * --root, beside the libraries it depends on as Debian 11 has them), runs, installs again over
 * itself (an upgrade) and removes cleanly. Skipped, saying so, when release/ was not built or dpkg
 * is missing.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hasCommand, makePlace, RELEASE, releaseFile, ROOT, run } from './helpers.js';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
const sums = releaseFile('SHA256SUMS');
const deb = releaseFile(`shipbook_${pkg.version}_amd64.deb`);
const dpkg = hasCommand('dpkg', ['--version']);
if (deb !== undefined && !dpkg) console.warn('skipping the Debian package test: dpkg is not installed');
const place = makePlace();
afterAll(() => place.cleanup());
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

describe.skipIf(sums === undefined)('the release checksums and the Scoop manifest', () => {
  it('SHA256SUMS names every artifact with its hash', () => {
    const lines = readFileSync(sums!, 'utf8').trim().split('\n');
    const names = lines.map((l) => l.split('  ')[1]);
    expect(names).toEqual(
      expect.arrayContaining([`shipbook-${pkg.version}.tgz`, 'shipbook-linux-x64', 'shipbook-linux-arm64', 'shipbook-win-x64.exe', 'shipbook.json']),
    );
    for (const line of lines) {
      const [hash, name] = line.split('  ');
      expect(sha256(join(RELEASE, name!)), name).toBe(hash);
    }
  });

  it('the Scoop manifest downloads the Windows executable and checks its hash', () => {
    const manifest = JSON.parse(readFileSync(join(RELEASE, 'shipbook.json'), 'utf8')) as {
      version: string;
      bin: string;
      architecture: { '64bit': { url: string; hash: string } };
    };
    expect(manifest.version).toBe(pkg.version);
    expect(manifest.bin).toBe('shipbook.exe');
    expect(manifest.architecture['64bit'].url).toMatch(/\/shipbook-win-x64\.exe#\/shipbook\.exe$/);
    expect(manifest.architecture['64bit'].hash).toBe(sha256(join(RELEASE, 'shipbook-win-x64.exe')));
  });

  it('the README installs the manifest from where the release is published, next to the executable it names', () => {
    const manifest = JSON.parse(readFileSync(join(RELEASE, 'shipbook.json'), 'utf8')) as { architecture: { '64bit': { url: string } } };
    // Scoop downloads with .NET's WebRequest: an absolute address, never one relative to the manifest.
    const download = new URL(manifest.architecture['64bit'].url);
    expect(download.protocol).toBe('https:');
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const install = /^scoop install (\S+)$/m.exec(readme)?.[1];
    expect(install, "the README's scoop install line").toBeDefined();
    expect(install).toBe(new URL('shipbook.json', download).href);
  });
});

describe.skipIf(deb === undefined || !dpkg)('the Debian package', () => {
  it('installs /usr/bin/shipbook, the man pages and the completions, upgrades over itself and removes cleanly', async () => {
    const root = join(place.dir, 'root');
    const admin = join(root, 'var', 'lib', 'dpkg');
    for (const d of ['info', 'updates', 'triggers']) mkdirSync(join(admin, d), { recursive: true });
    // The root holds what the package depends on as Debian 11 (bullseye, the oldest Debian it
    // names) has it: C library 2.31, GCC 10's libgcc-s1 and libstdc++6.
    writeFileSync(
      join(admin, 'status'),
      [
        ['libc6', '2.31-13+deb11u11'],
        ['libgcc-s1', '10.2.1-6'],
        ['libstdc++6', '10.2.1-6'],
      ]
        .map(
          ([name, version]) =>
            `Package: ${name}\nStatus: install ok installed\nPriority: optional\nArchitecture: amd64\nMulti-Arch: same\nMaintainer: Debian\nVersion: ${version}\nDescription: ${name}\n\n`,
        )
        .join(''),
    );
    writeFileSync(join(admin, 'available'), '');
    const env = { ...place.env, PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' };
    const dpkgRun = (...args: string[]) => run('dpkg', [`--root=${root}`, '--force-script-chrootless', '--force-not-root', ...args], { env, cwd: place.dir });
    const installed = await dpkgRun('-i', deb!);
    expect(installed.code, installed.stderr).toBe(0);
    for (const file of [
      'usr/bin/shipbook',
      'usr/share/man/man1/shipbook.1.gz',
      'usr/share/man/man1/shipbook-book.1.gz',
      'usr/share/bash-completion/completions/shipbook',
      'usr/share/zsh/vendor-completions/_shipbook',
      'usr/share/fish/vendor_completions.d/shipbook.fish',
    ]) {
      expect(existsSync(join(root, file)), file).toBe(true);
    }
    const version = await run(join(root, 'usr', 'bin', 'shipbook'), ['--version'], { env: place.env, cwd: place.dir });
    expect(version).toMatchObject({ code: 0, stdout: `${pkg.version}\n` });
    const status = await dpkgRun('-s', 'shipbook');
    expect(status.stdout).toContain('Status: install ok installed');
    expect(status.stdout).toContain('Architecture: amd64');
    const again = await dpkgRun('-i', deb!);
    expect(again.code, again.stderr).toBe(0);
    const removed = await dpkgRun('--purge', 'shipbook');
    expect(removed.code, removed.stderr).toBe(0);
    expect(existsSync(join(root, 'usr', 'bin', 'shipbook'))).toBe(false);
    expect(existsSync(join(root, 'usr', 'share', 'man', 'man1', 'shipbook.1.gz'))).toBe(false);
  }, 120_000);
});
