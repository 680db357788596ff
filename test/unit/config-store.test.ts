/** The configuration file: where it is, its permissions, and what happens when it is corrupt. */
import { PLAIN_HINTS } from '../../src/shell.js';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configDir, configFilePath } from '../../src/config/paths.js';
import { ConfigStore, parseConfigText, permissionWarnings } from '../../src/config/store.js';
import { ConfigError } from '../../src/errors.js';
import { hintText } from '../../src/output/hints.js';

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'shipbook-config-'));
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

const mode = (path: string) => statSync(path).mode & 0o777;

async function configError(fn: () => unknown): Promise<ConfigError> {
  try {
    await fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('where the configuration lives', () => {
  it('uses SHIPBOOK_CONFIG_DIR, then $XDG_CONFIG_HOME/shipbook, then ~/.config/shipbook', () => {
    const env = { SHIPBOOK_CONFIG_DIR: '/srv/ship', XDG_CONFIG_HOME: '/home/ana/.xdg', HOME: '/home/ana' };
    expect(configDir(env, 'linux')).toBe('/srv/ship');
    expect(configDir({ ...env, SHIPBOOK_CONFIG_DIR: '' }, 'linux')).toBe('/home/ana/.xdg/shipbook');
    expect(configDir({ HOME: '/home/ana' }, 'linux')).toBe('/home/ana/.config/shipbook');
    expect(configDir({ HOME: '/home/ana', XDG_CONFIG_HOME: 'relative/dir' }, 'linux')).toBe('/home/ana/.config/shipbook');
    expect(configFilePath({ HOME: '/Users/ana' }, 'darwin')).toBe('/Users/ana/.config/shipbook/config.json');
  });
});

describe('writing the configuration', () => {
  it('creates the directory with mode 0700 and the file with mode 0600, under any umask', async () => {
    const dir = join(tmp, 'a', 'shipbook');
    const store = new ConfigStore(dir);
    const old = process.umask(0o000);
    try {
      await store.update((d) => void (d.profiles = { prod: { 'base-url': 'https://api.example.com/', 'api-key': 'sk_live_abcd1234' } }));
    } finally {
      process.umask(old);
    }
    expect(mode(dir)).toBe(0o700);
    expect(mode(store.path)).toBe(0o600);
    expect(JSON.parse(readFileSync(store.path, 'utf8'))).toEqual({
      version: 1,
      profiles: { prod: { 'base-url': 'https://api.example.com/', 'api-key': 'sk_live_abcd1234' } },
    });
    expect(store.read()).toMatchObject({ exists: true, warnings: [] });
  });

  it('tightens a file that was 0644 when it rewrites it, and warns about it when reading', async () => {
    const store = new ConfigStore(tmp);
    chmodSync(tmp, 0o700);
    writeFileSync(store.path, JSON.stringify({ profiles: { prod: { 'api-key': 'sk_live_abcd1234', 'base-url': 'https://a.example/' } } }), { mode: 0o644 });
    chmodSync(store.path, 0o644);
    expect(store.read().warnings).toEqual([`warning: ${store.path} is readable by others (mode 0644); run chmod 600 ${store.path}`]);
    await store.update((d) => void (d['default-profile'] = 'prod'));
    expect(mode(store.path)).toBe(0o600);
    expect(store.read().warnings).toEqual([]);
  });

  it('warns about a directory others can enter', () => {
    expect(permissionWarnings('/x/shipbook/config.json', { mode: 0o100600 }, { mode: 0o40755 }, 'linux')).toEqual([
      'warning: /x/shipbook is accessible by others (mode 0755); run chmod 700 /x/shipbook',
    ]);
    expect(permissionWarnings('/x/shipbook/config.json', { mode: 0o100620 }, { mode: 0o40700 }, 'linux')).toEqual([
      'warning: /x/shipbook/config.json is writable by others (mode 0620); run chmod 600 /x/shipbook/config.json',
    ]);
    expect(permissionWarnings('C:\\x\\config.json', { mode: 0o100666 }, { mode: 0o40777 }, 'win32')).toEqual([]);
  });

  it('prints each warning once per run through load()', () => {
    const store = new ConfigStore(tmp);
    writeFileSync(store.path, '{}');
    chmodSync(store.path, 0o640);
    const lines: string[] = [];
    store.load((l) => lines.push(l));
    store.load((l) => lines.push(l));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('mode 0640');
  });

  it('reads a missing file as an empty configuration without creating anything', () => {
    const dir = join(tmp, 'not-yet');
    expect(new ConfigStore(dir).read()).toEqual({ path: join(dir, 'config.json'), exists: false, data: {}, warnings: [] });
    expect(() => statSync(dir)).toThrow();
  });
});

describe('a corrupt or unreadable configuration file', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['truncated JSON', '{"profiles": {"prod": {"base-url": "https://a.exa', /is not valid JSON/],
    ['a list', '[]', /is not a shipbook configuration \(expected a JSON object at the top, not a list\)/],
    ['null', 'null', /not null/],
    ['an unknown key', '{"profiles": {"prod": {"base_url": "https://a.example/"}}}', /profiles\.prod\.base_url {2}unknown field/],
    [
      'plain http to a remote host',
      '{"profiles": {"prod": {"base-url": "http://api.example.com/"}}}',
      /profiles\.prod\.base-url {2}plain http:\/\/ is refused/,
    ],
    ['a stored profile named sandbox', '{"profiles": {"sandbox": {}}}', /profiles\.sandbox {2}"sandbox" is the built-in profile/],
  ];
  for (const [what, content, message] of cases) {
    it(`reports ${what}, naming the file, and never overwrites it`, async () => {
      const store = new ConfigStore(tmp);
      writeFileSync(store.path, content, { mode: 0o600 });
      const onRead = await configError(() => store.read());
      expect(onRead.message).toContain(store.path);
      expect(onRead.message).toMatch(message);
      expect(onRead.exitCode).toBe(4);
      expect(hintText(onRead.suggestion, PLAIN_HINTS)).toContain('never overwrites');
      const onWrite = await configError(() => store.update((d) => void (d['default-profile'] = 'sandbox')));
      expect(onWrite.message).toBe(onRead.message);
      expect(readFileSync(store.path, 'utf8')).toBe(content);
    });
  }

  it('reads an empty file as an empty configuration', () => {
    const store = new ConfigStore(tmp);
    writeFileSync(store.path, '\n', { mode: 0o600 });
    expect(store.read().data).toEqual({});
  });

  it('reports a directory in the place of the file', async () => {
    const store = new ConfigStore(tmp);
    mkdirSync(store.path);
    const err = await configError(() => store.read());
    expect(err.message).toBe(`${store.path} is not a regular file`);
  });
});

describe('a config.json written by an editor that adds a UTF-8 byte order mark', () => {
  it('is read as if the mark were not there', async () => {
    expect(parseConfigText('\uFEFF{"profiles":{}}')).toEqual({ profiles: {} });
    expect(parseConfigText('\uFEFF')).toEqual({});
  });
});
