/**
 * Sandbox or real service, never confused (CI above all): separate processes of the built
 * bin/shipbook.js with `CI=true`. A fault server counting every request it receives is the witness
 * that nothing was sent where the run must refuse.
 */
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { runCli } from './cli.js';

const ORDER = 'fixtures/orders/domestic-syd-mel.yaml';
let fault: FaultServer;
beforeAll(async () => {
  fault = await startFaultServer();
});
afterAll(async () => {
  await fault.close();
});
beforeEach(() => fault.reset());

/** A configuration directory whose default profile `ci` points at `baseUrl`, with `apiKey` when given. */
function configWith(baseUrl: string, apiKey?: string, extra: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'shipbook-target-config-'));
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'config.json');
  const profile = { 'base-url': baseUrl, ...(apiKey ? { 'api-key': apiKey } : {}), ...extra };
  writeFileSync(file, `${JSON.stringify({ version: 1, 'default-profile': 'ci', profiles: { ci: profile } })}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return dir;
}

describe('an empty variable is never "not set"', () => {
  const cases: Array<[string, Record<string, string>, string]> = [
    ['SHIPBOOK_API_KEY alone', { SHIPBOOK_API_KEY: '' }, 'SHIPBOOK_API_KEY is set but empty'],
    ['SHIPBOOK_BASE_URL alone', { SHIPBOOK_BASE_URL: '' }, 'SHIPBOOK_BASE_URL is set but empty'],
    ['SHIPBOOK_PROFILE alone', { SHIPBOOK_PROFILE: ' ' }, 'SHIPBOOK_PROFILE is set but empty'],
    ['both key and base URL', { SHIPBOOK_API_KEY: '', SHIPBOOK_BASE_URL: '' }, 'SHIPBOOK_API_KEY and SHIPBOOK_BASE_URL are set but empty'],
  ];
  for (const [name, vars, message] of cases) {
    it(`refuses ${name} with exit 4 and sends nothing, in every format`, async () => {
      const config = configWith(fault.url, 'sk_ci_0123456789');
      for (const args of [['book', ORDER, '--json'], ['order', 'create', ORDER], ['quote', 'fixtures/quotes/syd-mel-single.yaml', '--output', 'ndjson']]) {
        const r = await runCli(args, { env: { CI: 'true', SHIPBOOK_CONFIG_DIR: config, ...vars } });
        expect(r.code, r.stderr).toBe(4);
        expect(r.stderr).toContain(`error: ${message}: is a CI secret missing? Nothing was sent`);
        if (args.includes('--json') || args.includes('ndjson')) {
          const body = JSON.parse(r.stdout) as { error: { code: string; exit_code: number; message: string } };
          expect(body.error).toMatchObject({ code: 'config_error', exit_code: 4 });
          expect(body.error.message).toContain(message);
        }
      }
      expect(fault.requests).toEqual([]);
    });
  }

  it('refuses the empty key even when nothing else is configured (no fall-back to the built-in sandbox)', async () => {
    const r = await runCli(['book', ORDER, '--json'], { env: { CI: 'true', SHIPBOOK_API_KEY: '', SHIPBOOK_BASE_URL: '' } });
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).not.toContain('built-in sandbox at');
    expect(r.stdout).not.toContain('"booked"');
  });
});
