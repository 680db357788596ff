/**
 * The built-in sandbox's state held by another process (paused by SIGSTOP, or slow): a command
 * that needs it says at once what it waits for and who holds it, waits without spinning, and then
 * says the request was answered "busy" with nothing done — never that it was sent and its answer
 * lost (the built-in sandbox runs in the same process, so the request did reach it and was refused).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireLock } from '../../src/lock.js';
import { runCli } from '../helpers/cli.js';

describe('a process holding the built-in sandbox state', () => {
  it('is named while order accept waits; the accept is answered busy, nothing done, and goes through once it is released', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shipbook-held-'));
    const env = { HOME: dir, XDG_CONFIG_HOME: dir, SHIPBOOK_STATE_DIR: join(dir, 'state'), SHIPBOOK_SANDBOX_DELAY_MS: '20' };
    const created = await runCli(['order', 'create', 'fixtures/orders/domestic-syd-mel.yaml', '--json'], { env });
    expect(created.code, created.stderr).toBe(0);
    const id = (JSON.parse(created.stdout) as { order: { id: string } }).order.id;

    // This test's process takes the state's lock, as a shipbook command does, and keeps it.
    const lock = await acquireLock(join(env.SHIPBOOK_STATE_DIR, 'state.lock'), { command: 'shipbook order accept (paused)' });
    let held;
    try {
      held = await runCli(['order', 'accept', id], { env, timeoutMs: 60_000 });
    } finally {
      lock.release();
    }
    expect(held.code, held.stderr).toBe(3);
    const holder = `pid ${process.pid} on`;
    expect(held.stderr).toContain(`note: waiting for the built-in sandbox's state (${env.SHIPBOOK_STATE_DIR}): its lock is held by ${holder}`);
    expect(held.stderr).toContain('(shipbook order accept (paused))');
    expect(held.stderr).toContain(`is busy: ${join(env.SHIPBOOK_STATE_DIR, 'state.lock')} is held by ${holder}`);
    expect(held.stderr).toContain('nothing was done');
    expect(held.stderr).not.toMatch(/answer (was|is) lost|may have been accepted|internal error/);
    // The note came before the error: said while waiting, not after.
    expect(held.stderr.indexOf('note: waiting for')).toBeLessThan(held.stderr.indexOf('is busy'));

    // Nothing was accepted; once the holder is gone the same accept goes through.
    const pending = await runCli(['order', 'get', id, '--json'], { env });
    expect((JSON.parse(pending.stdout) as { order: { status: string } }).order.status).toBe('new');
    const accepted = await runCli(['order', 'accept', id], { env });
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(accepted.stderr).not.toContain('waiting for the built-in sandbox');
  }, 90_000);
});
