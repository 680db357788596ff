/**
 * Input that is not a regular file or is built to be slow: each ends with exit 2,
 * a message that says what is wrong, and no stack trace; none hangs or fills memory. Run through
 * bin/shipbook.js; a generous process timeout turns a hang into a failure (no timing assertions).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'shipbook-hostile-input-'));
const noStack = (stderr: string) => expect(stderr).not.toMatch(/\n\s+at /);

describe('validate refuses input built to hang or to be slow', () => {
  it('refuses a device such as /dev/zero instead of reading it forever', async () => {
    const r = await runCli(['validate', '/dev/zero'], { timeoutMs: 10_000 });
    expect(r.code).toBe(2);
    expect(r.stdout + r.stderr).toMatch(/not a regular file/);
    noStack(r.stderr);
  });

  it('refuses a FIFO with no writer instead of waiting for one', async () => {
    const fifo = join(dir, 'order.yaml');
    execFileSync('mkfifo', [fifo]);
    const r = await runCli(['validate', fifo], { timeoutMs: 10_000 });
    expect(r.code).toBe(2);
    expect(r.stdout + r.stderr).toMatch(/not a regular file/);
  });

  it('finds a duplicate among 100,000 keys at its line', async () => {
    const lines = ['order:', '  extra:'];
    for (let i = 0; i < 100_000; i++) lines.push(`    k${i}: ${i}`);
    lines.push('    k17: again');
    const file = join(dir, 'many-keys.yaml');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const r = await runCli(['validate', file], { timeoutMs: 15_000 });
    expect(r.code).toBe(2);
    expect(r.stdout + r.stderr).toContain(`${file}:${lines.length}:5`);
    expect(r.stdout + r.stderr).toMatch(/field k17 is given twice/);
  });

  it('refuses 500,000 levels of nesting with a clear message, not a stack overflow', async () => {
    const file = join(dir, 'deep.json');
    writeFileSync(file, `{"order": ${'['.repeat(500_000)}${']'.repeat(500_000)}}`);
    const r = await runCli(['validate', file], { timeoutMs: 10_000 });
    expect(r.code).toBe(2);
    expect(r.stdout + r.stderr).toMatch(/nests lists or mappings more than 64 levels deep/);
    expect(r.stdout + r.stderr).not.toMatch(/Maximum call stack/);
    noStack(r.stderr);
  });

  it('refuses deep nesting written in block style too', async () => {
    const file = join(dir, 'deep.yaml');
    const lines = ['order:'];
    for (let i = 1; i <= 80; i++) lines.push(`${'  '.repeat(i)}a:`);
    lines.push(`${'  '.repeat(81)}x: 1`);
    writeFileSync(file, `${lines.join('\n')}\n`);
    const r = await runCli(['validate', file], { timeoutMs: 10_000 });
    expect(r.code).toBe(2);
    expect(r.stdout + r.stderr).toMatch(/more than 64 levels deep/);
  });
});
