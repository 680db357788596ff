/** config.json as a symbolic link: no key is written through it, and auth status says so. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from 'vitest';
import { ConfigStore } from '../../src/config/store.js';
import { ConfigError } from '../../src/errors.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { runShipbook } from '../helpers/run.js';

const KEY = 'sk_test_symlink_unit_9f2c';
let sandbox: Sandbox;
let tmp: string;
let dotfiles: string;
let configDir: string;
let env: Record<string, string>;

beforeAll(async () => {
  sandbox = await startSandbox({ processingDelayMs: 50, apiKey: KEY });
});
afterAll(async () => sandbox.close());
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'shipbook-link-'));
  dotfiles = join(tmp, 'dotfiles', 'shipbook.json');
  mkdirSync(join(tmp, 'dotfiles'));
  writeFileSync(dotfiles, '{"version":1}\n', { mode: 0o600 });
  configDir = join(tmp, 'config');
  mkdirSync(configDir, { mode: 0o700 });
  symlinkSync(dotfiles, join(configDir, 'config.json'));
  env = { HOME: tmp, SHIPBOOK_CONFIG_DIR: configDir };
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

describe('config.json is a symbolic link', () => {
  it('the store refuses to write an API key through it, and leaves the target as it was', async () => {
    const store = new ConfigStore(configDir);
    expect(store.symlinkTarget()).toBe(dotfiles);
    const err = await store.update((d) => void (d.profiles = { prod: { 'base-url': 'https://api.example.com/', 'api-key': KEY } })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toContain(`is a symbolic link to ${dotfiles}`);
    expect(readFileSync(dotfiles, 'utf8')).toBe('{"version":1}\n');
    // A change without a secret still goes through the link.
    await store.update((d) => void (d.profiles = { prod: { 'base-url': 'https://api.example.com/' } }));
    expect(JSON.parse(readFileSync(dotfiles, 'utf8')).profiles.prod['base-url']).toBe('https://api.example.com/');
  });

  it('auth login exits 4 without writing the key; auth status names the link', async () => {
    const login = await runShipbook(['auth', 'login', '--with-key', '--base-url', sandbox.url], { env, input: `${KEY}\n` });
    expect(login.code).toBe(4);
    expect(login.stderr).toContain('symbolic link');
    expect(login.stderr).not.toContain(KEY);
    expect(readFileSync(dotfiles, 'utf8')).not.toContain(KEY);
    const status = await runShipbook(['auth', 'status', '--offline'], { env });
    expect(status.stdout).toContain(`config-link\tsymbolic link to ${dotfiles}`);
    const json = await runShipbook(['auth', 'status', '--offline', '--json'], { env: { ...env, SHIPBOOK_API_KEY: KEY, SHIPBOOK_BASE_URL: sandbox.url } });
    expect(JSON.parse(json.stdout).config_link).toBe(dotfiles);
  });
});
