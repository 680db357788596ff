/**
 * `doctor`'s advice about a refused key follows where the key came from: a key from
 * SHIPBOOK_API_KEY is fixed in that variable (logging in to a profile would not change what the
 * variable overrides, and the built-in profile has no login); a saved key by logging in again.
 */
import { describe, expect, it } from 'vitest';
import { runShipbook } from '../helpers/run.js';
import { E2E_API_KEY, useSandbox } from '../helpers/sandbox.js';

const fx = useSandbox({ apiKey: E2E_API_KEY });

describe('doctor and a refused key', () => {
  it('a key from SHIPBOOK_API_KEY: fix the variable, no login advice that fails', async () => {
    const r = await runShipbook(['doctor', '--output', 'tsv'], { env: { ...fx.env, SHIPBOOK_API_KEY: 'sk_test_refused_0000' } });
    expect(r.code).toBe(4);
    const line = r.stdout.split('\n').find((l) => l.startsWith('api-key'))!;
    expect(line).toMatch(/^api-key\tfail\trefused/);
    expect(line).toContain('The key comes from SHIPBOOK_API_KEY: set SHIPBOOK_API_KEY to a key this service accepts');
    expect(r.stdout + r.stderr).not.toContain('auth login');
  });
});
