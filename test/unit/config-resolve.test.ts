/** Choosing the profile of a run: flag > SHIPBOOK_PROFILE > default-profile > built-in sandbox; env overrides single settings. */
import { PLAIN_HINTS } from '../../src/shell.js';
import { describe, expect, it } from 'vitest';
import { chooseProfileName, resolveProfile } from '../../src/config/resolve.js';
import type { ConfigData } from '../../src/config/schema.js';
import { ConfigError } from '../../src/errors.js';
import { hintText } from '../../src/output/hints.js';

const config: ConfigData = {
  version: 1,
  'default-profile': 'production',
  profiles: {
    production: {
      'base-url': 'https://api.example.com/v1',
      'api-key': 'sk_live_prod_aaaa1111',
      payment: { type: 'stored_card', 'stored-card': 'card_visa_4242' },
    },
    staging: {
      'base-url': 'https://staging.example.com/',
      'api-key': 'sk_test_stag_bbbb2222',
      'auth-header': 'X-Api-Key',
      'auth-prefix': '',
      paths: { 'fetch-order': 'v2/orders/{order_id}/' },
    },
    keyless: { 'auth-header': 'X-Api-Key' },
  },
};

function thrown(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('which profile a run uses', () => {
  it('takes --profile over SHIPBOOK_PROFILE over default-profile', () => {
    const env = { SHIPBOOK_PROFILE: 'staging' };
    expect(chooseProfileName({ profileFlag: 'sandbox', env, config })).toEqual({ name: 'sandbox', source: 'flag --profile' });
    expect(chooseProfileName({ env, config })).toEqual({ name: 'staging', source: 'env SHIPBOOK_PROFILE' });
    expect(chooseProfileName({ env: {}, config })).toEqual({ name: 'production', source: 'config default-profile' });
  });

  it('refuses a target variable that is set but empty (a missing CI secret), naming each', () => {
    for (const name of ['SHIPBOOK_PROFILE', 'SHIPBOOK_BASE_URL', 'SHIPBOOK_API_KEY']) {
      for (const value of ['', '  ', '\t\n']) {
        const err = thrown(() => resolveProfile({ env: { [name]: value }, config }));
        expect(err.message).toBe(`${name} is set but empty: is a CI secret missing? Nothing was sent`);
        expect(err.exitCode).toBe(4);
        expect(hintText(err.suggestion, PLAIN_HINTS)).toContain(`unset ${name}`);
      }
    }
    const both = thrown(() => chooseProfileName({ env: { SHIPBOOK_API_KEY: '', SHIPBOOK_BASE_URL: ' ' }, config }));
    expect(both.message).toBe('SHIPBOOK_API_KEY and SHIPBOOK_BASE_URL are set but empty: is a CI secret missing? Nothing was sent');
    expect(hintText(both.suggestion, PLAIN_HINTS)).toContain('unset SHIPBOOK_API_KEY SHIPBOOK_BASE_URL');
  });

  it('falls back to the built-in sandbox when nothing chooses a profile', () => {
    const p = resolveProfile({ env: {}, config: {} });
    expect(p).toMatchObject({ name: 'sandbox', sandbox: true, sources: { profile: 'built-in' } });
    expect(p.baseUrl).toBeUndefined();
    expect(p.apiKey).toBeUndefined();
    expect(p.defaultPayment).toEqual({ type: 'credit' });
  });

  it('resolves a stored profile with its defaults filled in', () => {
    const p = resolveProfile({ env: {}, config });
    expect(p).toMatchObject({
      name: 'production',
      baseUrl: 'https://api.example.com/v1/',
      apiKey: 'sk_live_prod_aaaa1111',
      authHeader: 'Authorization',
      authPrefix: 'Bearer ',
      paths: {
        fetchOrder: 'orders/{order_id}/',
        cancelOrder: 'orders/{order_id}/cancel/',
        fetchCreditCards: 'credit-cards/',
        fetchServiceData: 'services/{service_code}/',
      },
      defaultPayment: { type: 'stored_card', storedCard: 'card_visa_4242' },
      sandbox: false,
      sources: { profile: 'config default-profile', baseUrl: 'config', apiKey: 'config' },
    });
    const staging = resolveProfile({ profileFlag: 'staging', env: {}, config });
    expect(staging).toMatchObject({
      authHeader: 'X-Api-Key',
      authPrefix: '',
      paths: { fetchOrder: 'v2/orders/{order_id}/', cancelOrder: 'orders/{order_id}/cancel/' },
    });
  });

  it('lets SHIPBOOK_BASE_URL and SHIPBOOK_API_KEY override single settings of whichever profile', () => {
    const env = { SHIPBOOK_PROFILE: 'staging', SHIPBOOK_API_KEY: 'sk_ci_cccc3333' };
    const p = resolveProfile({ env, config });
    expect(p).toMatchObject({ name: 'staging', baseUrl: 'https://staging.example.com/', apiKey: 'sk_ci_cccc3333', authHeader: 'X-Api-Key' });
    expect(p.sources).toEqual({ profile: 'env SHIPBOOK_PROFILE', baseUrl: 'config', apiKey: 'env SHIPBOOK_API_KEY' });

    const ci = resolveProfile({ env: { SHIPBOOK_BASE_URL: 'https://ci.example.com', SHIPBOOK_API_KEY: 'sk_ci_dddd4444' }, config: {} });
    expect(ci).toMatchObject({ name: 'sandbox', sandbox: false, baseUrl: 'https://ci.example.com/', apiKey: 'sk_ci_dddd4444' });
    expect(ci.sources).toEqual({ profile: 'built-in', baseUrl: 'env SHIPBOOK_BASE_URL', apiKey: 'env SHIPBOOK_API_KEY' });
  });

  it('gives a stored profile without a base URL one from SHIPBOOK_BASE_URL, and refuses it otherwise', () => {
    expect(resolveProfile({ profileFlag: 'keyless', env: { SHIPBOOK_BASE_URL: 'http://127.0.0.1:8787' }, config }).baseUrl).toBe('http://127.0.0.1:8787/');
    const err = thrown(() => resolveProfile({ profileFlag: 'keyless', env: {}, config }));
    expect(err.message).toBe('profile "keyless" has no base URL');
    expect(err.exitCode).toBe(4);
    expect(hintText(err.suggestion, PLAIN_HINTS)).toContain('shipbook --profile keyless auth login');
  });

  it('names the existing profiles when the chosen one does not exist, and where the choice came from', () => {
    const err = thrown(() => resolveProfile({ env: { SHIPBOOK_PROFILE: 'prod' }, config }));
    expect(err.message).toBe('profile "prod" (env SHIPBOOK_PROFILE) does not exist');
    expect(err.exitCode).toBe(4);
    expect(hintText(err.suggestion, PLAIN_HINTS)).toContain('Profiles: keyless, production, staging, sandbox (built-in).');
    const fromDefault = thrown(() => resolveProfile({ env: {}, config: { 'default-profile': 'gone', profiles: {} } }));
    expect(fromDefault.message).toContain('(config default-profile)');
    expect(hintText(fromDefault.suggestion, PLAIN_HINTS)).toContain('shipbook config set default-profile');
  });

  it('refuses plain http:// to a remote host from the environment', () => {
    const err = thrown(() => resolveProfile({ env: { SHIPBOOK_BASE_URL: 'http://api.example.com/' }, config: {} }));
    expect(err.message).toContain('plain http:// is refused');
    expect(err.exitCode).toBe(4);
  });
});
