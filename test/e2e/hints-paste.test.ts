/**
 * Hints are promises: every command a hint prints works as pasted, ends at the end of its line,
 * and a batch gives one hint per distinct action, not one per order.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { batchFixture } from '../helpers/batch.js';
import { runShipbook } from '../helpers/run.js';
import { E2E_API_KEY, useSandbox } from '../helpers/sandbox.js';

const fx = useSandbox({ processingDelayMs: 20 });

/** A port on 127.0.0.1 that nothing listens on (taken, then given back). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('hints that can be pasted', () => {
  it('a failed batch: one hint per distinct action, and the final command alone at the end of its line', async () => {
    const { dir, file } = batchFixture(6, { dir: mkdtempSync(join(tmpdir(), 'shipbook-hints-')), prefix: 'H' });
    const journal = join(dir, 'journal.ndjson');
    const r = await runShipbook(['book', file, '--journal', journal], {
      env: { SHIPBOOK_BASE_URL: `http://127.0.0.1:${await closedPort()}/`, SHIPBOOK_API_KEY: 'sk_test_hints_0123' },
    });
    expect(r.code, r.stderr).toBe(8);
    const hints = r.stderr.split('\n').filter((l) => /^\s*hint:/.test(l));
    // Six orders failed alike: their hint once, and the command's own.
    expect(hints, r.stderr).toHaveLength(2);
    const stderrLines = r.stderr.trimEnd().split('\n');
    expect(stderrLines.at(-1)).toBe(`  shipbook book ${file} --journal ${journal}`);
    expect(r.stderr).not.toMatch(/--journal \S+ ?Journal:/);
    expect(r.stderr).not.toMatch(/<[a-z][^>]*>/);
  });

  it('shipment create names no placeholder in a command', async () => {
    const r = await runShipbook(['shipment', 'create', 'fixtures/shipments/au-gb-2.yaml'], { env: fx.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/<[a-z][^>]*>/);
    const last = r.stderr.trimEnd().split('\n').at(-1)!;
    expect(last).toMatch(/how: shipbook shipment combine --help$/);
  });
});

describe('hints under --profile', () => {
  it('a hint printed under --profile X names --profile X, and pasted as printed it acts on that profile', async () => {
    const home = mkdtempSync(join(tmpdir(), 'shipbook-hint-profile-'));
    const env = { SHIPBOOK_CONFIG_DIR: join(home, 'config'), SHIPBOOK_STATE_DIR: join(home, 'state'), HOME: home, XDG_CONFIG_HOME: join(home, 'xdg') };
    expect((await runShipbook(['--profile', 'staging', 'config', 'set', 'base-url', fx.env.SHIPBOOK_BASE_URL!], { env })).code).toBe(0);
    // The profile has no key yet: the service refuses, and the hint says how to look at this profile's key.
    const refused = await runShipbook(['--profile', 'staging', 'order', 'get', 'ORD-NONE'], { env });
    expect(refused.code, refused.stderr).toBe(4);
    const status = /run "(shipbook [^"]+)"/.exec(refused.stderr)?.[1];
    expect(status, refused.stderr).toBe('shipbook --profile staging auth status');
    // Pasted as printed: it reports on "staging" (without --profile it would report on the built-in sandbox, exit 0).
    const shown = await runShipbook(status!.split(' ').slice(1), { env });
    expect(shown.code, shown.stderr).toBe(4);
    expect(shown.stdout).toMatch(/^profile\tstaging /m);
    const login = /Log in: (shipbook [^,]+),/.exec(shown.stderr)?.[1];
    expect(login, shown.stderr).toBe('shipbook --profile staging auth login');
    // That hint pasted as printed (the key on standard input) logs in to "staging".
    const loggedIn = await runShipbook([...login!.split(' ').slice(1), '--with-key'], { env, input: E2E_API_KEY });
    expect(loggedIn.code, loggedIn.stderr).toBe(0);
    const again = await runShipbook(['--profile', 'staging', 'order', 'get', 'ORD-NONE'], { env });
    // The service takes the key now: an unknown order is its answer (exit 3), no refused key (exit 4).
    expect(again.code, again.stderr).toBe(3);
  });
});

describe('error hints under --profile', () => {
  /** A config home of its own, with profile `staging` at `baseUrl` (no key). */
  async function stagingHome(baseUrl: string): Promise<Record<string, string>> {
    const home = mkdtempSync(join(tmpdir(), 'shipbook-hint-errors-'));
    const env = { SHIPBOOK_CONFIG_DIR: join(home, 'config'), SHIPBOOK_STATE_DIR: join(home, 'state'), HOME: home, XDG_CONFIG_HOME: join(home, 'xdg') };
    expect((await runShipbook(['--profile', 'staging', 'config', 'set', 'base-url', baseUrl], { env })).code).toBe(0);
    return env;
  }

  /** The command of `pattern`'s first group in `text`, as arguments (it holds no quoted word). */
  function pasted(text: string, pattern: RegExp): string[] {
    const command = pattern.exec(text)?.[1];
    expect(command, text).toMatch(/^shipbook --profile staging /);
    return command!.split(' ').slice(1);
  }

  it('a wrong base URL: "config get base-url" names the profile, and pasted it shows that profile\'s URL', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/`;
    const env = await stagingHome(url);
    const r = await runShipbook(['--profile', 'staging', 'order', 'get', 'ORD-NONE'], { env });
    expect(r.code, r.stderr).toBe(5);
    const shown = await runShipbook(pasted(r.stderr, /Check the base URL \("([^"]+)" or SHIPBOOK_BASE_URL\)/), { env });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout.trim()).toBe(url);
  });

  it('a missing key, a bad CSV map and an unknown sender: each hint names the profile and works as pasted', async () => {
    const env = await stagingHome(fx.env.SHIPBOOK_BASE_URL!);
    const refused = await runShipbook(['--profile', 'staging', 'order', 'create', 'fixtures/orders/domestic-syd-mel.yaml'], { env });
    expect(refused.code, refused.stderr).toBe(4);
    const login = pasted(refused.stderr, /Log in with: (shipbook [^,]+),/);
    expect(login).toEqual(['--profile', 'staging', 'auth', 'login']);
    expect((await runShipbook([...login, '--with-key'], { env, input: E2E_API_KEY })).code).toBe(0);

    const dir = mkdtempSync(join(tmpdir(), 'shipbook-hint-map-'));
    const map = join(dir, 'bad.map.yaml');
    writeFileSync(map, readFileSync('fixtures/csv/shopify.map.yaml', 'utf8').replace('delivery_postcode:', 'delivery_postcde:'));
    const badMap = await runShipbook(['--profile', 'staging', 'validate', 'fixtures/csv/shopify-orders.csv', '--map', map], { env });
    expect(badMap.code, badMap.stderr).toBe(2);
    const schema = await runShipbook(pasted(badMap.stderr, /did you mean delivery_postcode\?\); see "([^"]+)"/), { env });
    expect(schema.code, schema.stderr).toBe(0);
    expect(schema.stdout).toContain('delivery_postcode');

    const unknown = await runShipbook(['--profile', 'staging', 'validate', 'fixtures/wizard/unknown-sender.yaml'], { env });
    expect(unknown.code, unknown.stdout + unknown.stderr).toBe(2);
    const save = pasted(unknown.stdout + unknown.stderr, /save one with "([^"]+) <address-file>"/);
    expect(save).toEqual(['--profile', 'staging', 'config', 'sender', 'set', 'warehouse-nowhere']);
    expect((await runShipbook([...save, 'fixtures/wizard/warehouse-syd.yaml'], { env })).code).toBe(0);
    // The sender is saved in "staging": the same file no longer names an unknown sender there.
    const again = await runShipbook(['--profile', 'staging', 'validate', 'fixtures/wizard/unknown-sender.yaml'], { env });
    expect(again.stdout + again.stderr).toContain('order.shipments[0].collection.pickup');
    expect(again.stdout + again.stderr).not.toContain('unknown sender');
  });

  it('the combine step after shipment create names the profile, and its help runs as pasted', async () => {
    const env = await stagingHome(fx.env.SHIPBOOK_BASE_URL!);
    expect((await runShipbook(['--profile', 'staging', 'auth', 'login', '--with-key'], { env, input: E2E_API_KEY })).code).toBe(0);
    const r = await runShipbook(['--profile', 'staging', 'shipment', 'create', 'fixtures/shipments/au-gb-2.yaml'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('combine them all with "shipbook --profile staging shipment combine", giving');
    const help = await runShipbook(pasted(r.stderr, /how: (.+)$/m), { env });
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toContain('--main');
  });
});
