/**
 * `--quiet` where a command lists ids: stdout carries only the ids, one a line, for `$(…)` and
 * `while read` in scripts (a batch's booked order ids are tested with the batch screen).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

/** A home and state directory of its own: the built-in sandbox. */
function ownEnv(): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'shipbook-quiet-'));
  return { HOME: dir, XDG_CONFIG_HOME: join(dir, '.config'), SHIPBOOK_STATE_DIR: join(dir, 'state') };
}

describe('--quiet', () => {
  it('card list prints the stored card ids, one a line, that --card takes', async () => {
    const env = ownEnv();
    const r = await runCli(['card', 'list', '--quiet'], { env });
    expect(r.code, r.stderr).toBe(0);
    const ids = r.stdout.trimEnd().split('\n');
    expect(ids).toContain('card_visa_4242');
    for (const id of ids) expect(id).toMatch(/^card_\w+$/);
    const full = await runCli(['card', 'list', '--json'], { env });
    expect(ids).toEqual((JSON.parse(full.stdout) as { credit_cards: Array<{ id: string }> }).credit_cards.map((c) => c.id));
  });
});
