/**
 * End-to-end: secrets are never taken as command-line arguments, which other users see in `ps`
 * and the shell keeps in its history. The API key was refused by `config set`; a password in the
 * ledger's PostgreSQL URL is refused the same way, is never echoed, and never reaches config.json.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'shipbook-e2e-cl-secrets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const env = { SHIPBOOK_CONFIG_DIR: join(dir, 'config'), SHIPBOOK_STATE_DIR: join(dir, 'state') };
const configFile = join(dir, 'config', 'config.json');
const stored = () => (existsSync(configFile) ? readFileSync(configFile, 'utf8') : '');

describe('secrets given as arguments', () => {
  it('config set api-key is refused (exit 2) and nothing is stored', async () => {
    const r = await runCli(['--profile', 'wh', 'config', 'set', 'api-key', 'sk_live_Secr3tKey0123456789'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('the API key is not taken as an argument');
    expect(r.stdout + r.stderr).not.toContain('Secr3tKey0123456789');
    expect(stored()).not.toContain('Secr3tKey0123456789');
  });

  it.each([
    ['in the user part', 'postgresql://shipbook:Secr3t%40pw@db.example.com:5432/shipbook?sslmode=require'],
    ['as a query parameter', 'postgres://shipbook@db.example.com/shipbook?password=Secr3t%40pw&sslmode=require'],
  ])('config set ledger with a password %s is refused (exit 2), never echoed, never stored', async (_where, url) => {
    const r = await runCli(['--profile', 'wh', 'config', 'set', 'ledger', url], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('the ledger URL holds a password, and a password is not taken as an argument');
    expect(r.stderr).toContain('PGPASSWORD');
    expect(r.stdout + r.stderr).not.toMatch(/Secr3t/);
    expect(stored()).not.toMatch(/Secr3t/);
    // The hint stores the URL without the password, and works when pasted.
    const hint = /hint: Store the URL without it: shipbook --profile wh config set ledger '([^']+)'/.exec(r.stderr);
    expect(hint, r.stderr).not.toBeNull();
    expect(hint![1]).toMatch(/^postgres(ql)?:\/\/shipbook@db\.example\.com(:5432)?\/shipbook\?sslmode=require$/);
    const again = await runCli(['--profile', 'wh', 'config', 'set', 'ledger', hint![1]!], { env });
    expect(again.code, again.stderr).toBe(0);
    const config = JSON.parse(stored()) as { profiles: Record<string, { ledger?: string }> };
    expect(config.profiles.wh?.ledger).toBe(hint![1]);
    expect(stored()).not.toMatch(/Secr3t/);
  });

  it('a URL without a password, or with an empty one, is taken as before', async () => {
    const r = await runCli(['--profile', 'other', 'config', 'set', 'ledger', 'postgresql://shipbook:@db.example.com/shipbook'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(stored()) as { profiles: Record<string, { ledger?: string }> }).profiles.other?.ledger).toBe(
      'postgresql://shipbook:@db.example.com/shipbook',
    );
  });
});
