/**
 * End-to-end, in-process: `config path/list/get/set/unset/sender`, the choice order of profiles,
 * permission warnings, and a corrupt configuration file (reported, never overwritten).
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { runShipbook } from '../helpers/run.js';
import { makeHome } from '../helpers/cli.js';

const home = makeHome();
afterAll(() => home.cleanup());

let env: Record<string, string>;
let dir: string;
let file: string;
beforeEach(() => {
  const run = mkdtempSync(join(home.home, 'run-'));
  dir = join(run, 'xdg', 'shipbook');
  file = join(dir, 'config.json');
  env = { HOME: run, XDG_CONFIG_HOME: join(run, 'xdg') };
});

/** Writes a configuration file as a user might have it. */
function writeConfig(content: unknown, mode = 0o600): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  chmodSync(file, mode);
}

const stored = () => JSON.parse(readFileSync(file, 'utf8'));

describe('config path', () => {
  it('follows XDG_CONFIG_HOME, and SHIPBOOK_CONFIG_DIR before it', async () => {
    expect((await runShipbook(['config', 'path'], { env })).stdout).toBe(`${file}\n`);
    const custom = join(env.HOME!, 'elsewhere');
    expect((await runShipbook(['config', 'path'], { env: { ...env, SHIPBOOK_CONFIG_DIR: custom } })).stdout).toBe(`${join(custom, 'config.json')}\n`);
  });
});

describe('config set, get, list and unset', () => {
  it('creates a profile with --profile, normalises the base URL and shows defaults for the rest', async () => {
    const set = await runShipbook(['--profile', 'staging', 'config', 'set', 'base-url', 'https://staging.example.com/v1'], { env });
    expect(set.code).toBe(0);
    expect(set.stderr).toContain('created profile "staging"; base-url of profile "staging" is now "https://staging.example.com/v1/"');
    expect(stored()).toEqual({ version: 1, profiles: { staging: { 'base-url': 'https://staging.example.com/v1/' } } });

    const get = await runShipbook(['config', 'get', 'base-url', '--profile', 'staging'], { env });
    expect(get.stdout).toBe('https://staging.example.com/v1/\n');
    const list = await runShipbook(['--profile', 'staging', 'config', 'list'], { env });
    expect(list.stdout.split('\n')).toEqual(
      expect.arrayContaining([
        'default-profile\tsandbox\tdefault',
        'base-url\thttps://staging.example.com/v1/\tconfig',
        'api-key\t\tnot set',
        'auth-header\tAuthorization\tdefault',
        'paths.fetch-order\torders/{order_id}/\tdefault',
        'paths.fetch-credit-cards\tcredit-cards/\tdefault',
        'paths.fetch-service-data\tservices/{service_code}/\tdefault',
        'payment.type\tcredit\tdefault',
      ]),
    );
  });

  it('validates values, names every setting for an unknown key, and refuses to change the built-in sandbox', async () => {
    await runShipbook(['--profile', 'staging', 'config', 'set', 'base-url', 'https://staging.example.com/'], { env });
    const before = readFileSync(file, 'utf8');
    const badPath = await runShipbook(['--profile', 'staging', 'config', 'set', 'paths.fetch-order', 'v2/orders/'], { env });
    expect(badPath.code).toBe(2);
    expect(badPath.stderr).toContain('error: cannot change paths.fetch-order: must contain {order_id}');
    const badServicePath = await runShipbook(['--profile', 'staging', 'config', 'set', 'paths.fetch-service-data', 'v2/services/'], { env });
    expect(badServicePath.code).toBe(2);
    expect(badServicePath.stderr).toContain('error: cannot change paths.fetch-service-data: must contain {service_code}');
    const badRate = await runShipbook(['--profile', 'staging', 'config', 'set', 'rate', 'fast'], { env });
    expect(badRate.stderr).toContain('error: cannot change rate: must be requests per second such as 30/s, or per minute such as 600/m');
    const storedCard = await runShipbook(['--profile', 'staging', 'config', 'set', 'payment.type', 'stored_card'], { env });
    expect(storedCard.code).toBe(2);
    expect(storedCard.stderr).toContain('payment.stored-card: required when payment.type is stored_card');
    const unknown = await runShipbook(['--profile', 'staging', 'config', 'set', 'baseurl', 'x'], { env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('error: unknown setting "baseurl"');
    expect(unknown.stderr).toContain(
      'hint: Settings: default-profile, base-url, api-key, auth-header, auth-prefix, sandbox, ledger, strict-addresses, normalize-phones, timeout, max-total, budget, scan-pattern, rules, mail.main-shipment, mail.free-pickup, rate, pickup.cutoff, pickup.window, pickup.closed, pickup.min-window, papers.catalogue, papers.signature, paths.fetch-order, paths.cancel-order, paths.fetch-credit-cards, paths.fetch-service-data, quote-params.length, quote-params.width, quote-params.height, quote-params.weight, quote-params.unit, payment.type, payment.stored-card.',
    );
    const sandbox = await runShipbook(['config', 'set', 'auth-header', 'X-Api-Key'], { env });
    expect(sandbox.code).toBe(2);
    expect(sandbox.stderr).toContain('error: the built-in profile "sandbox" cannot be changed');
    const http = await runShipbook(['--profile', 'staging', 'config', 'set', 'base-url', 'http://staging.example.com/'], { env });
    expect(http.code).toBe(4);
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('never takes the API key as an argument, and shows a stored key as ****abcd', async () => {
    writeConfig({ profiles: { prod: { 'base-url': 'https://api.example.com/', 'api-key': 'sk_live_stored_key_9abc' } } });
    const set = await runShipbook(['--profile', 'prod', 'config', 'set', 'api-key', 'sk_live_typed_in_argv_1234'], { env });
    expect(set.code).toBe(2);
    expect(set.stderr).toContain('the API key is not taken as an argument');
    expect(set.stderr).toContain('auth login --with-key');
    expect(readFileSync(file, 'utf8')).not.toContain('sk_live_typed_in_argv_1234');
    const get = await runShipbook(['--profile', 'prod', 'config', 'get', 'api-key'], { env });
    expect(get.stdout).toBe('****9abc\n');
    const all = await runShipbook(['config', 'list', '--all'], { env });
    expect(all.stdout).toContain('prod\tapi-key\t****9abc');
    expect(all.stdout + all.stderr).not.toContain('sk_live_stored_key_9abc');
  });

  it('sets a default payment and a default profile, and unsets them again', async () => {
    writeConfig({ profiles: { prod: { 'base-url': 'https://api.example.com/' } } });
    expect((await runShipbook(['--profile', 'prod', 'config', 'set', 'payment.stored-card', 'card_visa_4242'], { env })).code).toBe(0);
    expect((await runShipbook(['--profile', 'prod', 'config', 'set', 'payment.type', 'stored_card'], { env })).code).toBe(0);
    const noSuch = await runShipbook(['config', 'set', 'default-profile', 'prdo'], { env });
    expect(noSuch.code).toBe(2);
    expect(noSuch.stderr).toContain('error: no profile named "prdo"');
    expect((await runShipbook(['config', 'set', 'default-profile', 'prod'], { env })).code).toBe(0);
    expect(stored()).toEqual({
      version: 1,
      'default-profile': 'prod',
      profiles: { prod: { 'base-url': 'https://api.example.com/', payment: { 'stored-card': 'card_visa_4242', type: 'stored_card' } } },
    });
    expect((await runShipbook(['config', 'get', 'payment.type'], { env })).stdout).toBe('stored_card\n');
    const unsetCard = await runShipbook(['config', 'unset', 'payment.stored-card'], { env });
    expect(unsetCard.code).toBe(2);
    expect((await runShipbook(['config', 'unset', 'payment.type'], { env })).stderr).toContain(
      'payment.type removed from profile "prod"; the default "credit" applies',
    );
    expect((await runShipbook(['config', 'unset', 'default-profile'], { env })).code).toBe(0);
    expect(stored()['default-profile']).toBeUndefined();
  });
});

describe('the choice of profile', () => {
  beforeEach(() => {
    writeConfig({
      'default-profile': 'prod',
      profiles: {
        prod: { 'base-url': 'https://prod.example.com/' },
        staging: { 'base-url': 'https://staging.example.com/' },
        dev: { 'base-url': 'http://127.0.0.1:8787/' },
      },
    });
  });

  it('takes --profile, then SHIPBOOK_PROFILE, then default-profile; SHIPBOOK_BASE_URL overrides the base URL', async () => {
    const get = (args: string[], extra: Record<string, string> = {}) => runShipbook([...args, 'config', 'get', 'base-url'], { env: { ...env, ...extra } });
    expect((await get([])).stdout).toBe('https://prod.example.com/\n');
    expect((await get([], { SHIPBOOK_PROFILE: 'staging' })).stdout).toBe('https://staging.example.com/\n');
    expect((await get(['--profile', 'dev'], { SHIPBOOK_PROFILE: 'staging' })).stdout).toBe('http://127.0.0.1:8787/\n');
    const list = await runShipbook(['config', 'list'], { env: { ...env, SHIPBOOK_BASE_URL: 'https://override.example.com/' } });
    expect(list.stdout).toContain('base-url\thttps://override.example.com/\tenv SHIPBOOK_BASE_URL');
  });

  it('lists the existing profiles when the chosen one does not exist (exit code 4)', async () => {
    const r = await runShipbook(['--profile', 'prdo', 'quote', 'fixtures/quotes/syd-mel-single.yaml'], { env });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('error: profile "prdo" (flag --profile) does not exist');
    expect(r.stderr).toContain('hint: Profiles: dev, prod, staging, sandbox (built-in).');
  });
});

describe('permissions', () => {
  it('warns when the file is readable by others, once, and still works', async () => {
    writeConfig({ profiles: { prod: { 'base-url': 'https://prod.example.com/' } } }, 0o644);
    const r = await runShipbook(['--profile', 'prod', 'config', 'list'], { env });
    expect(r.code).toBe(0);
    const warning = `warning: ${file} is readable by others (mode 0644); run chmod 600 ${file}`;
    expect(r.stderr.split('\n').filter((l) => l === warning)).toHaveLength(1);
  });
});

describe('a corrupt configuration file', () => {
  const corrupt = '{\n  "default-profile": "prod",\n  "profiles": {\n    "prod": {"base-url": "https://prod.exa';

  it('is reported with its path by every command that reads it, with exit code 4, and never overwritten', async () => {
    writeConfig(corrupt);
    const runs = [
      runShipbook(['quote', 'fixtures/quotes/syd-mel-single.yaml'], { env }),
      runShipbook(['config', 'set', 'default-profile', 'sandbox'], { env }),
      runShipbook(['auth', 'login', '--with-key', '--base-url', 'https://api.example.com/', '--no-verify'], { env, input: 'sk_test_new_key_1234' }),
      runShipbook(['auth', 'logout'], { env }),
    ];
    for (const r of await Promise.all(runs)) {
      expect(r.code).toBe(4);
      expect(r.stderr).toContain(`error: ${file} is not valid JSON`);
      expect(r.stderr).toContain('shipbook never overwrites it');
    }
    expect(readFileSync(file, 'utf8')).toBe(corrupt);
  });

  it('reports a file that fails validation with the field and the problem', async () => {
    writeConfig({ profiles: { prod: { 'base-url': 'https://prod.example.com/', payment: { type: 'credit_card' } } } });
    const r = await runShipbook(['config', 'list'], { env });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain(`error: ${file} is not a valid shipbook configuration:`);
    expect(r.stderr).toContain('profiles.prod.payment.type  must be credit or stored_card');
  });

  it('is not read by --help or config path', async () => {
    writeConfig(corrupt);
    for (const args of [['--help'], ['quote', '--help'], ['config', 'path']]) {
      const r = await runShipbook(args, { env });
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
    }
  });
});

describe('saved senders', () => {
  it('saves a validated address file in the profile, lists, shows and removes it', async () => {
    writeConfig({ profiles: { prod: { 'base-url': 'https://prod.example.com/' } } });
    const address = join(env.HOME!, 'warehouse.yaml');
    writeFileSync(
      address,
      'first_name: Priya\nlast_name: Raman\ncompany: Harbour Homewares Pty Ltd\nemail: dispatch@harbourhomewares.com.au\nphone: "+61 2 9555 0142"\ncountry: AU\npostcode: "2015"\ncity: Alexandria\naddress_lines:\n  - Unit 4, 18 Bourke Road\n',
    );
    const set = await runShipbook(['--profile', 'prod', 'config', 'sender', 'set', 'warehouse', address], { env });
    expect(set.code).toBe(0);
    const line = 'warehouse\tPriya Raman, Harbour Homewares Pty Ltd, Unit 4, 18 Bourke Road, Alexandria 2015 AU';
    expect((await runShipbook(['--profile', 'prod', 'config', 'sender', 'list'], { env })).stdout).toBe(`${line}\n`);
    const show = await runShipbook(['--profile', 'prod', 'config', 'sender', 'show', 'warehouse', '--json'], { env });
    expect(JSON.parse(show.stdout)).toMatchObject({ first_name: 'Priya', postcode: '2015', address_lines: ['Unit 4, 18 Bourke Road'] });
    expect((await runShipbook(['--profile', 'prod', 'config', 'sender', 'remove', 'warehouse'], { env })).code).toBe(0);
    expect(stored().profiles.prod).toEqual({ 'base-url': 'https://prod.example.com/' });
  });

  it('rejects an address that breaks the interface limits, with file, line and field', async () => {
    writeConfig({ profiles: { prod: { 'base-url': 'https://prod.example.com/' } } });
    const address = join(env.HOME!, 'long.yaml');
    writeFileSync(
      address,
      'first_name: Priya\nlast_name: Raman\nemail: dispatch@harbourhomewares.com.au\nphone: "+61 2 9555 0142"\ncountry: AU\npostcode: "2015"\ncity: Alexandria\naddress_lines:\n  - Unit 4, 18 Bourke Road, Alexandria Industrial Estate\n',
    );
    const r = await runShipbook(['--profile', 'prod', 'config', 'sender', 'set', 'warehouse', address], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${address}:9:5  address_lines[0]  at most 35 characters (got 52)`);
    expect(stored().profiles.prod.senders).toBeUndefined();
  });
});
