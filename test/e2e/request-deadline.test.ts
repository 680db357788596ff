/**
 * The deadline of a request to the service is the budget of the whole call, its retries included,
 * set by `--request-timeout` (over SHIPBOOK_TIMEOUT and the profile's `timeout`), end to end
 * through bin/shipbook.js against a service that stalls (test/helpers/fault-server.ts).
 */
import { describe, expect, it } from 'vitest';
import { hostileServiceEnv } from '../helpers/fault-server.js';
import { runCli } from '../helpers/cli.js';

const KEY = 'sk_test_deadline0123456789abcdef';
const { server, env } = hostileServiceEnv(KEY);

describe('--request-timeout', () => {
  it('ends a quote the service never answers at the deadline, once, saying the attempts and the time they took', async () => {
    server.set('POST /quote/', { mode: 'stall' });
    const r = await runCli(['--request-timeout', '1s', 'quote', 'fixtures/quotes/syd-mel-single.yaml'], { env: env({ SHIPBOOK_TIMEOUT: '30s' }) });
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/the service did not answer within 1 s \(POST \S+\/quote\/; 1 attempt in 1\.\d s\)/);
    expect(r.stderr).toMatch(/--request-timeout/);
    expect(server.requests).toHaveLength(1);
  });

  it('refuses a value that is not a duration before anything is sent', async () => {
    const r = await runCli(['--request-timeout', 'soon', 'quote', 'fixtures/quotes/syd-mel-single.yaml'], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--request-timeout "soon" is not a duration/);
    expect(server.requests).toHaveLength(0);
  });
});
