import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireLock } from '../../src/lock.js';

// A held lock's check reads its owner file only when the file changed since it was last found this
// process's; these pin that every way of losing the lock is still seen by the very next check.
describe('a held lock, checked again and again', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'shipbook-lock-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it("stays this process's through repeated checks and its own touches", async () => {
    const lock = await acquireLock(join(dir, 'x.lock'), { command: 'test' });
    for (let i = 0; i < 5; i++) expect(lock.verify()).toBe(true);
    const t = new Date(Date.now() + 1000);
    utimesSync(join(dir, 'x.lock', 'owner.json'), t, t);
    expect(lock.verify()).toBe(true);
    expect(lock.verify()).toBe(true);
    lock.release();
  });

  it('is found lost at the next check when removed and taken by another', async () => {
    const path = join(dir, 'x.lock');
    const lock = await acquireLock(path, { command: 'test' });
    expect(lock.verify()).toBe(true);
    expect(lock.verify()).toBe(true);
    rmSync(path, { recursive: true });
    const other = await acquireLock(path, { command: 'another batch' });
    expect(lock.verify()).toBe(false);
    expect(lock.compromised?.message).toContain('another batch');
    other.release();
  });

  it('is found lost at the next check when its owner file is rewritten in place', async () => {
    const path = join(dir, 'x.lock');
    const lock = await acquireLock(path, { command: 'test' });
    expect(lock.verify()).toBe(true);
    expect(lock.verify()).toBe(true);
    const owner = JSON.parse(readFileSync(join(path, 'owner.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(path, 'owner.json'), JSON.stringify({ ...owner, command: 'someone else', nonce: 'n2' }));
    expect(lock.verify()).toBe(false);
    expect(lock.compromised?.message).toContain('someone else');
  });

  it('is found lost at the next check when removed', async () => {
    const path = join(dir, 'x.lock');
    const lock = await acquireLock(path, { command: 'test' });
    expect(lock.verify()).toBe(true);
    rmSync(path, { recursive: true });
    expect(lock.verify()).toBe(false);
    expect(lock.compromised?.message).toContain('removed');
  });
});
