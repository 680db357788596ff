/**
 * End-to-end: `--debug` prints every request and response, but never the API key, the card
 * number or the CVV, on stdout or stderr, even when the command fails.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { runShipbook } from '../helpers/run.js';
import { makeHome } from '../helpers/cli.js';

const KEY = 'sk_test_debug_redaction_e5a1';
const SECRETS = [KEY, '4111111111111111', '4111 1111 1111 1111', '"123"'];
let sandbox: Sandbox;
const home = makeHome();
let env: Record<string, string>;

beforeAll(async () => {
  sandbox = await startSandbox({ processingDelayMs: 50, apiKey: KEY });
  env = { HOME: home.home, XDG_CONFIG_HOME: home.home, SHIPBOOK_BASE_URL: sandbox.url, SHIPBOOK_API_KEY: KEY };
});
afterAll(async () => {
  await sandbox.close();
  home.cleanup();
});

function expectNoSecrets(text: string): void {
  for (const secret of SECRETS) expect(text, `"${secret}" must not be printed`).not.toContain(secret);
}

describe('--debug output', () => {
  it('shows requests and responses of a card booking with the key, card number and CVV redacted', async () => {
    const r = await runShipbook(
      ['book', 'fixtures/orders/domestic-syd-mel.yaml', '--payment-file', 'fixtures/payments/credit-card.yaml', '--debug', '--json'],
      { env },
    );
    expect(r.code).toBe(0);
    expectNoSecrets(r.stdout);
    expectNoSecrets(r.stderr);
    expect(r.stderr).toContain(`debug: > POST ${sandbox.url}orders/`);
    expect(r.stderr).toContain(`debug: > PUT ${sandbox.url}orders/`);
    expect(r.stderr).toContain('debug: > Authorization: Bearer ****e5a1');
    expect(r.stderr).toContain('"number":"****1111"');
    expect(r.stderr).toContain('"cvv":"***"');
    expect(r.stderr).toMatch(/debug: < 201 \(\d+ ms\) \{"message"/);
  });

  it('keeps the key out of the output when the service refuses it', async () => {
    const wrong = 'sk_test_debug_wrong_key_77b2';
    const r = await runShipbook(['book', 'fixtures/orders/domestic-syd-mel.yaml', '--payment-file', 'fixtures/payments/credit-card.yaml', '--debug'], {
      env: { ...env, SHIPBOOK_API_KEY: wrong },
    });
    expect(r.code).toBe(4);
    for (const text of [r.stdout, r.stderr]) {
      expectNoSecrets(text);
      expect(text).not.toContain(wrong);
    }
    expect(r.stderr).toContain('debug: > Authorization: Bearer ****77b2');
    expect(r.stderr).toContain('error: invalid API key');
  });

  it('keeps the key out of auth login --debug', async () => {
    const r = await runShipbook(['auth', 'login', '--with-key', '--base-url', sandbox.url, '--debug'], {
      env: { HOME: home.home, XDG_CONFIG_HOME: home.home },
      input: `${KEY}\n`,
    });
    expect(r.code).toBe(0);
    expectNoSecrets(r.stdout + r.stderr);
    expect(r.stderr).toContain('debug: > Authorization: Bearer ****e5a1');
  });
});
