/**
 * The linux-arm64 single executable (release/shipbook-linux-arm64) on this x64 machine, under
 * qemu-user-static with the arm64 C library of Debian's cross packages (libc6-arm64-cross,
 * libstdc++6-arm64-cross): its version, a validation and the Quick start booking on the built-in
 * sandbox, and doctor naming the Node.js it embeds. Skipped, saying so, without qemu or when
 * release/ was not built.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EMBEDDED_NODE, hasCommand, makePlace, releaseFile, ROOT, run } from './helpers.js';

const exe = releaseFile('shipbook-linux-arm64');
const SYSROOT = '/usr/aarch64-linux-gnu';
const qemu = hasCommand('qemu-aarch64-static', ['--version']) && existsSync(join(SYSROOT, 'lib', 'ld-linux-aarch64.so.1'));
if (exe !== undefined && !qemu) {
  console.warn(
    'skipping the tests of release/shipbook-linux-arm64: no qemu-aarch64-static or arm64 C library (apt-get install qemu-user-static libc6-arm64-cross libstdc++6-arm64-cross)',
  );
}
const place = makePlace();
afterAll(() => place.cleanup());
const cwd = join(place.dir, 'work');
const shipbook = (args: string[]) => run('/usr/bin/qemu-aarch64-static', ['-L', SYSROOT, exe!, ...args], { env: place.env, cwd, timeoutMs: 120_000 });

describe.skipIf(exe === undefined || !qemu)('the linux-arm64 executable under qemu', () => {
  it('prints its version and validates a file', async () => {
    const version = await shipbook(['--version']);
    expect(version.code, version.stderr).toBe(0);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    const valid = await shipbook(['validate', join(ROOT, 'fixtures', 'orders', 'domestic-syd-mel.yaml')]);
    expect(valid.code, valid.stderr).toBe(0);
  }, 120_000);

  it('books the Quick start on the built-in sandbox', async () => {
    const booked = await shipbook(['book', join(ROOT, 'fixtures', 'orders', 'domestic-syd-mel.yaml')]);
    expect(booked.code, booked.stderr).toBe(0);
    expect(booked.stdout).toMatch(/^order\tORD-\w+\tprocessed$/m);
    expect(booked.stdout).toMatch(/\tSBX\d{10}\t/);
  }, 120_000);

  it('runs doctor, naming the Node.js it embeds', async () => {
    const doctor = await shipbook(['doctor', '--json']);
    expect(doctor.code, doctor.stderr).toBe(0);
    const checks = (JSON.parse(doctor.stdout) as { checks: Array<{ id: string; detail: string }> }).checks;
    expect(checks.find((c) => c.id === 'node')?.detail).toBe(`v${EMBEDDED_NODE} (embedded in this executable)`);
  }, 120_000);
});
