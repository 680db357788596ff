/**
 * End-to-end, in-process: `auth login/status/logout` against a sandbox on 127.0.0.1 that requires
 * an API key; booking with stored credentials, and with environment variables only.
 */
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { runShipbook } from '../helpers/run.js';
import { makeHome } from '../helpers/cli.js';

const KEY = 'sk_test_right_e2e_auth_7d3f';
const WRONG = 'sk_test_wrong_e2e_auth_0000';
let sandbox: Sandbox;
const home = makeHome();
/** A fresh home and configuration directory for each test. */
let env: Record<string, string>;
let configDir: string;

beforeAll(async () => {
  sandbox = await startSandbox({ processingDelayMs: 50, apiKey: KEY });
});
afterAll(async () => {
  await sandbox.close();
  home.cleanup();
});
beforeEach(() => {
  const dir = mkdtempSync(join(home.home, 'run-'));
  configDir = join(dir, 'config', 'shipbook');
  env = { HOME: dir, XDG_CONFIG_HOME: join(dir, 'config') };
});

const login = (key: string, extra: string[] = []) =>
  runShipbook(['auth', 'login', '--with-key', '--base-url', sandbox.url, ...extra], { env, input: `${key}\n` });

describe('auth login', () => {
  it('checks the key with a quote request, stores it with mode 0600 in a 0700 directory, and sets the default profile', async () => {
    const r = await login(KEY);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`Checking the credentials with POST ${sandbox.url}quote/ (a quote request`);
    expect(r.stderr).toContain(`✔ Logged in: profile "default", ${sandbox.url}, key ****7d3f`);
    expect(r.stderr).toContain('"default" is now the default profile');
    expect(r.stderr).not.toContain(KEY);
    const file = join(configDir, 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(configDir).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      version: 1,
      'default-profile': 'default',
      profiles: { default: { 'base-url': sandbox.url, 'api-key': KEY } },
    });
  });

  it('stores nothing when the service refuses the key: exit code 4 and what to do', async () => {
    const r = await login(WRONG);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('The credentials were not stored.');
    expect(r.stderr).toContain('error: the service refused the API key (invalid API key)');
    expect(r.stderr).toContain('hint: Check the key and the base URL, then run "shipbook auth login" again.');
    expect(r.stderr).not.toContain(WRONG);
    expect(existsSync(configDir)).toBe(false);
  });

  it('names --with-key when there is no terminal to ask for the key', async () => {
    const r = await runShipbook(['auth', 'login', '--base-url', sandbox.url], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('error: cannot ask for the API key (there is no terminal to ask): pipe it in with --with-key');
    expect(existsSync(configDir)).toBe(false);
  });

  it('refuses a plain http:// base URL to a remote host with exit code 4', async () => {
    const r = await runShipbook(['auth', 'login', '--with-key', '--base-url', 'http://api.example.com/'], { env, input: KEY });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('plain http:// is refused for api.example.com');
  });
});

describe('after logging in once', () => {
  beforeEach(async () => {
    expect((await login(KEY)).code).toBe(0);
  });

  it('books without repeating the credentials', async () => {
    const r = await runShipbook(['book', 'fixtures/orders/domestic-syd-mel.yaml', '--json'], { env });
    expect(r.stderr).not.toContain('error');
    expect(r.code).toBe(0);
    const { order } = JSON.parse(r.stdout) as { order: { status: string; shipments: Array<{ tracking_number: string }> } };
    expect(order.status).toBe('processed');
    expect(order.shipments[0]!.tracking_number).toMatch(/^SBX/);
  });

  it('auth status shows the profile, base URL and masked key, and that they work', async () => {
    const r = await runShipbook(['auth', 'status'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toEqual([
      'profile\tdefault (config default-profile)',
      `base-url\t${sandbox.url} (config)`,
      'api-key\t****7d3f (config)',
      'auth-header\tAuthorization: Bearer <key>',
      `config-file\t${join(configDir, 'config.json')}`,
      `check\tok: the service answered a quote request (POST ${sandbox.url}quote/)`,
    ]);
    const json = await runShipbook(['auth', 'status', '--json'], { env });
    expect(JSON.parse(json.stdout)).toMatchObject({ profile: 'default', api_key: '****7d3f', api_key_source: 'config', check: { ok: true } });
    expect(json.stdout + json.stderr).not.toContain(KEY);
  });

  it('a wrong SHIPBOOK_API_KEY overrides the stored key and is refused with exit code 4', async () => {
    const wrongEnv = { ...env, SHIPBOOK_API_KEY: WRONG };
    const status = await runShipbook(['auth', 'status'], { env: wrongEnv });
    expect(status.code).toBe(4);
    expect(status.stdout).toContain('api-key\t****0000 (env SHIPBOOK_API_KEY)');
    expect(status.stdout).toContain('check\tfailed');
    expect(status.stderr).toContain('hint: The key comes from SHIPBOOK_API_KEY');
    const book = await runShipbook(['book', 'fixtures/orders/domestic-syd-mel.yaml'], { env: wrongEnv });
    expect(book.code).toBe(4);
    expect(book.stderr).toContain('error: invalid API key');
    expect(book.stderr).toMatch(/hint: .*shipbook auth.*SHIPBOOK_API_KEY/);
    expect(book.stdout + book.stderr).not.toContain(WRONG);
  });

  it('--profile chooses another profile for one command; a second login leaves the default alone', async () => {
    const staging = await runShipbook(['--profile', 'staging', 'auth', 'login', '--with-key', '--base-url', sandbox.url], { env, input: KEY });
    expect(staging.code).toBe(0);
    expect(staging.stderr).toContain('use it with --profile staging');
    const status = await runShipbook(['auth', 'status', '--offline', '--profile', 'staging'], { env });
    expect(status.stdout).toContain('profile\tstaging (flag --profile)');
    const byEnv = await runShipbook(['auth', 'status', '--offline'], { env: { ...env, SHIPBOOK_PROFILE: 'staging' } });
    expect(byEnv.stdout).toContain('profile\tstaging (env SHIPBOOK_PROFILE)');
    const byDefault = await runShipbook(['auth', 'status', '--offline'], { env });
    expect(byDefault.stdout).toContain('profile\tdefault (config default-profile)');
  });

  it('auth logout removes the key and keeps the base URL; status then fails with exit code 4', async () => {
    const out = await runShipbook(['auth', 'logout'], { env });
    expect(out.code).toBe(0);
    expect(out.stderr).toContain('Removed the API key ****7d3f of profile "default"');
    expect(JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8')).profiles.default).toEqual({ 'base-url': sandbox.url });
    const status = await runShipbook(['auth', 'status'], { env });
    expect(status.code).toBe(4);
    expect(status.stderr).toContain('error: profile "default" has no API key');
    expect(status.stderr).toContain('hint: Log in: shipbook auth login, or set SHIPBOOK_API_KEY.');
    const again = await runShipbook(['auth', 'logout'], { env });
    expect(again.stderr).toContain('No API key is stored for profile "default": nothing to do.');
  });
});

describe('CI with environment variables only', () => {
  it('books with SHIPBOOK_BASE_URL and SHIPBOOK_API_KEY and stores nothing', async () => {
    const r = await runShipbook(['book', 'fixtures/orders/domestic-syd-mel.yaml', '--json'], {
      env: { ...env, SHIPBOOK_BASE_URL: sandbox.url, SHIPBOOK_API_KEY: KEY },
    });
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { order: { status: string } }).order.status).toBe('processed');
    expect(existsSync(configDir)).toBe(false);
  });

  it('a wrong SHIPBOOK_API_KEY fails a quote with exit code 4, naming the key as the problem', async () => {
    const r = await runShipbook(['quote', 'fixtures/quotes/syd-mel-single.yaml'], { env: { ...env, SHIPBOOK_BASE_URL: sandbox.url, SHIPBOOK_API_KEY: WRONG } });
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('error: invalid API key');
    expect(r.stderr).toContain('SHIPBOOK_API_KEY');
  });
});
