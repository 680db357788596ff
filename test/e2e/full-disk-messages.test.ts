/**
 * A full disk is said as such, by every command that meets one: exit 10 (storage), the path, and a
 * hint that fits a full disk (free space), never "internal error … report it". The disk filling up
 * is simulated (`SHIPBOOK_TEST_STORE_SPACE` for the built-in sandbox's state, its lock included;
 * `SHIPBOOK_TEST_JOURNAL_SPACE` for the ledger and journals); a batch whose journal cannot even be
 * created on a full disk is tried on a real one (a 64 KiB tmpfs) where the test may mount it.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startFaultServer } from '../helpers/fault-server.js';
import { runCli } from '../helpers/cli.js';

/** A private home and state directory, with no service configured: the built-in sandbox. */
function builtin(): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'shipbook-full-msg-'));
  return { HOME: dir, XDG_CONFIG_HOME: dir, SHIPBOOK_STATE_DIR: join(dir, 'state'), SHIPBOOK_SANDBOX_DELAY_MS: '20' };
}

describe('a full disk, said as such', () => {
  it('sandbox status: exit 10 with the state directory and "free space", not an internal error', async () => {
    const env = builtin();
    const booked = await runCli(['order', 'create', 'fixtures/orders/domestic-syd-mel.yaml'], { env });
    expect(booked.code, booked.stderr).toBe(0);
    const full = await runCli(['sandbox', 'status'], { env: { ...env, SHIPBOOK_TEST_STORE_SPACE: '1' } });
    expect(full.code, full.stderr).toBe(10);
    expect(full.stderr).not.toMatch(/internal error|report it/);
    expect(full.stderr).toContain(`no space left on the device [ENOSPC]`);
    expect(full.stderr).toContain(
      `hint: Free space on the disk of ${env.SHIPBOOK_STATE_DIR} (see "df -h ${env.SHIPBOOK_STATE_DIR}"), then run the same command again.`,
    );
    const json = await runCli(['sandbox', 'status', '--json'], { env: { ...env, SHIPBOOK_TEST_STORE_SPACE: '1' } });
    expect(json.code).toBe(10);
    expect((JSON.parse(json.stdout) as { error: { code: string } }).error.code).toBe('storage');
    // Space again: the same command works.
    const again = await runCli(['sandbox', 'status'], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/orders\t1/);
  }, 120_000);

  it('journal resolve: exit 10, nothing recorded, and the same resolve works once there is space', async () => {
    const server = await startFaultServer();
    try {
      const dir = mkdtempSync(join(tmpdir(), 'shipbook-full-resolve-'));
      const env = {
        HOME: dir,
        XDG_CONFIG_HOME: dir,
        SHIPBOOK_STATE_DIR: join(dir, 'state'),
        SHIPBOOK_BASE_URL: server.url,
        SHIPBOOK_API_KEY: 'sk_test_full_0123456789',
      };
      server.set('POST /orders/', { mode: 'close-after-request' });
      expect((await runCli(['book', 'fixtures/orders/domestic-syd-mel.yaml'], { env })).code).toBe(5);
      const shown = JSON.parse((await runCli(['journal', 'show', '--json'], { env })).stdout) as { orders: Array<{ id: string }> };
      const id = shown.orders[0]!.id;
      const ledgerDir = join(env.SHIPBOOK_STATE_DIR, 'ledger');
      const [ledger] = readdirSync(ledgerDir);
      const size = statSync(join(ledgerDir, ledger!)).size;
      const full = await runCli(['journal', 'resolve', id, '--not-created', '--yes'], { env: { ...env, SHIPBOOK_TEST_JOURNAL_SPACE: String(size + 10) } });
      expect(full.code, full.stderr).toBe(10);
      expect(full.stderr).not.toMatch(/internal error|report it/);
      expect(full.stderr).toContain('no space left on the device [ENOSPC]; nothing was recorded');
      expect(full.stderr).toContain(`hint: Free space on the disk of ${ledgerDir}`);
      expect(full.stderr).toContain('then run the same "shipbook journal resolve" again.');
      const stillUnknown = JSON.parse((await runCli(['journal', 'show', '--json'], { env })).stdout) as { orders: Array<{ stage: string }> };
      expect(stillUnknown.orders[0]!.stage).toBe('unknown');
      const again = await runCli(['journal', 'resolve', id, '--not-created', '--yes'], { env });
      expect(again.code, again.stderr).toBe(0);
    } finally {
      await server.close();
    }
  }, 120_000);
});

// A real full disk: a tmpfs, where this test may mount one (root on Linux).
const mount = join(tmpdir(), `shipbook-tmpfs-${process.pid}`);
mkdirSync(mount, { recursive: true });
const mounted = process.platform === 'linux' && spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', mount]).status === 0;
afterAll(() => {
  if (mounted) spawnSync('umount', [mount]);
});

describe.skipIf(!mounted)('a batch whose journal cannot be created on a full disk', () => {
  it('exit 10, with a hint to free space (not "not read-only")', async () => {
    // Fill the disk.
    spawnSync('dd', ['if=/dev/zero', `of=${join(mount, 'fill')}`, 'bs=4k'], { stdio: 'ignore' });
    spawnSync('dd', ['if=/dev/zero', `of=${join(mount, 'fill2')}`, 'bs=1'], { stdio: 'ignore' });
    const env = builtin();
    const journal = join(mount, 'ci', 'journal.ndjson');
    const r = await runCli(['book', 'fixtures/orders/domestic-syd-mel.yaml', 'fixtures/orders/domestic-syd-mel.yaml', '--journal', journal], { env });
    expect(r.code, r.stderr).toBe(10);
    expect(r.stderr).toContain('no space left on the device');
    expect(r.stderr).toContain(`hint: Free space on the disk of ${join(mount, 'ci')}`);
    expect(r.stderr).not.toContain('not read-only');
  }, 120_000);
});
