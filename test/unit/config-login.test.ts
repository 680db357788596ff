/**
 * `auth login` driven by scripted answers (the prompter interface), against a sandbox on
 * 127.0.0.1 that requires a key; and the scripted prompter itself.
 */
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runAuthLogin, type AuthLoginOptions } from '../../src/commands/auth/login.js';
import { effectiveValue, findSetting, getStored, withStored } from '../../src/config/keys.js';
import { ConfigStore } from '../../src/config/store.js';
import { prepareContext, createContext, type Context } from '../../src/context.js';
import { ConfigError, UsageError } from '../../src/errors.js';
import { bufferIO } from '../helpers/run.js';
import { scriptedPrompter } from '../../src/prompter.js';
import { scripted, withPrompter } from '../helpers/prompter.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';

await prepareContext();

const KEY = 'sk_test_right_login_5678';
let sandbox: Sandbox;
let tmp: string;

beforeAll(async () => {
  sandbox = await startSandbox({ processingDelayMs: 50, apiKey: KEY });
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'shipbook-login-'));
  return () => rmSync(tmp, { recursive: true, force: true });
});

/** A context whose streams are buffers; `canPrompt` as a terminal would set it. */
function bufferContext(options: { canPrompt: boolean; stdin?: string; profile?: string }): { ctx: Context; out: () => string; err: () => string } {
  const io = bufferIO({ env: { SHIPBOOK_CONFIG_DIR: tmp }, input: options.stdin, canPrompt: options.canPrompt });
  return { ctx: createContext(io, { profile: options.profile }), out: () => io.stdoutText(), err: () => io.stderrText() };
}

const login = (o: Partial<AuthLoginOptions> = {}): AuthLoginOptions => ({ withKey: false, verify: true, ...o });

describe('auth login on a terminal', () => {
  it('asks for the base URL and the key, checks them, stores them and makes the profile the default', async () => {
    const { ctx, err } = bufferContext({ canPrompt: true });
    const prompter = scripted({ 'Base URL of the booking service': ['http://api.example.com/', sandbox.url], 'API key': `  ${KEY}  ` });
    await runAuthLogin(login(), withPrompter(ctx, prompter));
    expect(prompter.asked).toEqual(['Base URL of the booking service', 'Base URL of the booking service', 'API key']);
    expect(prompter.refused[0]!.reason).toContain('plain http:// is refused');
    const stored = JSON.parse(readFileSync(join(tmp, 'config.json'), 'utf8'));
    expect(stored).toEqual({ version: 1, 'default-profile': 'default', profiles: { default: { 'base-url': sandbox.url, 'api-key': KEY } } });
    expect(err()).toContain('the service answered the quote request');
    expect(err()).toContain('key ****5678');
    expect(err()).not.toContain(KEY);
  });

  it('offers the stored base URL as the default answer when logging in again', async () => {
    const first = bufferContext({ canPrompt: true, profile: 'staging' });
    await runAuthLogin(login(), withPrompter(first.ctx, scripted({ 'Base URL of the booking service': sandbox.url, 'API key': KEY })));
    const again = bufferContext({ canPrompt: true, profile: 'staging' });
    await runAuthLogin(login(), withPrompter(again.ctx, scripted({ 'Base URL of the booking service': '', 'API key': KEY })));
    expect(new ConfigStore(tmp).read().data.profiles?.staging?.['base-url']).toBe(sandbox.url);
  });

  it('stores nothing and fails with exit code 4 when the service refuses the key', async () => {
    const { ctx, err } = bufferContext({ canPrompt: true });
    const prompter = scripted({ 'Base URL of the booking service': sandbox.url, 'API key': 'sk_test_wrong_0000' });
    const error = await runAuthLogin(login(), withPrompter(ctx, prompter)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).exitCode).toBe(4);
    expect((error as ConfigError).message).toBe('the service refused the API key (invalid API key)');
    expect(err()).toContain('The credentials were not stored.');
    expect(existsSync(join(tmp, 'config.json'))).toBe(false);
  });

  it('stores an unchecked key with --no-verify', async () => {
    const { ctx, err } = bufferContext({ canPrompt: true, profile: 'later' });
    await runAuthLogin(login({ verify: false, baseUrl: 'https://unreachable.example/' }), withPrompter(ctx, scripted({ 'API key': 'sk_unchecked_9999' })));
    expect(new ConfigStore(tmp).read().data.profiles?.later).toEqual({ 'base-url': 'https://unreachable.example/', 'api-key': 'sk_unchecked_9999' });
    expect(err()).toContain('(not checked)');
  });
});

describe('auth login without a terminal', () => {
  it('reads the key from standard input with --with-key and asks nothing', async () => {
    const { ctx, out } = bufferContext({ canPrompt: false, stdin: `${KEY}\n` });
    ctx.globals.json = true;
    await runAuthLogin(login({ withKey: true, baseUrl: sandbox.url, authHeader: 'Authorization' }), withPrompter(ctx, scripted({})));
    expect(JSON.parse(out())).toMatchObject({ profile: 'default', base_url: sandbox.url, api_key: '****5678', verified: true, default_profile: 'default' });
    expect(new ConfigStore(tmp).read().data.profiles?.default).toEqual({ 'base-url': sandbox.url, 'api-key': KEY, 'auth-header': 'Authorization' });
  });

  it('names the flags to use instead of asking', async () => {
    const noUrl = await runAuthLogin(login({ withKey: true }), bufferContext({ canPrompt: false, stdin: KEY }).ctx).catch((e: unknown) => e);
    expect(noUrl).toBeInstanceOf(UsageError);
    expect((noUrl as UsageError).message).toContain('--base-url is required');
    const noKey = await runAuthLogin(login({ baseUrl: sandbox.url }), bufferContext({ canPrompt: false }).ctx).catch((e: unknown) => e);
    expect((noKey as UsageError).message).toContain('pipe it in with --with-key');
    const empty = await runAuthLogin(login({ withKey: true, baseUrl: sandbox.url }), bufferContext({ canPrompt: false, stdin: '\n' }).ctx).catch(
      (e: unknown) => e,
    );
    expect((empty as UsageError).message).toBe('--with-key: the API key is empty (read from standard input)');
  });

  it('refuses to log in to the built-in sandbox profile', async () => {
    const error = await runAuthLogin(
      login({ withKey: true, baseUrl: sandbox.url }),
      bufferContext({ canPrompt: false, stdin: KEY, profile: 'sandbox' }).ctx,
    ).catch((e: unknown) => e);
    expect((error as UsageError).message).toContain('the built-in profile "sandbox" needs no login');
  });
});

describe('the scripted prompter', () => {
  it('fails on a question it was not given, and on one asked too often', async () => {
    const p = scriptedPrompter({ 'Base URL of the booking service': 'https://a.example/' });
    await expect(p.input({ message: 'Sender name' })).rejects.toThrow('unexpected question: "Sender name"');
    await p.input({ message: 'Base URL of the booking service' });
    await expect(p.input({ message: 'Base URL of the booking service' })).rejects.toThrow('asked more often than scripted');
  });

  it('names the answers a test left unused', async () => {
    const p = scriptedPrompter({ 'API key': 'sk_1', 'Base URL of the booking service': ['https://a.example/', 'https://b.example/'] });
    await p.input({ message: 'Base URL of the booking service' });
    expect(p.unused()).toEqual(['"API key": "sk_1"', '"Base URL of the booking service": "https://b.example/"']);
    expect(() => p.assertAllUsed()).toThrow('scripted answers never used');
  });

  it('answers confirm and select, and uses defaults for empty answers', async () => {
    const p = scriptedPrompter({ 'Book it?': true, Service: 'SB-DOM-EXP', 'Insure?': '' });
    expect(await p.confirm({ message: 'Book it?' })).toBe(true);
    expect(await p.confirm({ message: 'Insure?', default: false })).toBe(false);
    const choices = [
      { name: 'Road', value: 'SB-DOM-ROAD' },
      { name: 'Express', value: 'SB-DOM-EXP' },
    ];
    expect(await p.select({ message: 'Service', choices })).toBe('SB-DOM-EXP');
  });
});

describe('settings of a stored profile', () => {
  it('maps dotted keys to nested members and drops empty groups', () => {
    const p = withStored({ 'base-url': 'https://a.example/' }, 'paths.fetch-order', 'v2/orders/{order_id}/');
    expect(p).toEqual({ 'base-url': 'https://a.example/', paths: { 'fetch-order': 'v2/orders/{order_id}/' } });
    expect(getStored(p, 'paths.fetch-order')).toBe('v2/orders/{order_id}/');
    expect(withStored(p, 'paths.fetch-order', undefined)).toEqual({ 'base-url': 'https://a.example/' });
  });

  it('shows keys as ****abcd, from the environment first, with defaults for what is not stored', () => {
    const config = { profiles: { prod: { 'base-url': 'https://a.example/', 'api-key': 'sk_live_secret_abcd' } } };
    expect(effectiveValue(findSetting('api-key')!, 'prod', config, {})).toEqual({ value: '****abcd', source: 'config' });
    expect(effectiveValue(findSetting('api-key')!, 'prod', config, { SHIPBOOK_API_KEY: 'sk_ci_env_wxyz' })).toEqual({
      value: '****wxyz',
      source: 'env SHIPBOOK_API_KEY',
    });
    expect(effectiveValue(findSetting('auth-prefix')!, 'prod', config, {})).toEqual({ value: 'Bearer ', source: 'default' });
    expect(effectiveValue(findSetting('default-profile')!, 'prod', config, {})).toEqual({ value: 'sandbox', source: 'default' });
    expect(effectiveValue(findSetting('base-url')!, 'sandbox', config, {}).value).toBeUndefined();
  });
});
