/**
 * Hints are promises: every command a hint prints works as pasted, ends at the end of its line,
 * and a batch gives one hint per distinct action, not one per order.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
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
    const dir = mkdtempSync(join(tmpdir(), 'shipbook-hints-'));
    const order = parse(readFileSync('fixtures/orders/domestic-syd-mel.yaml', 'utf8')) as { order: { shipments: Array<Record<string, unknown>> } };
    const lines = Array.from({ length: 6 }, (_, i) => {
      const o = structuredClone(order);
      o.order.shipments[0]!.transient_id = `H-${i}`;
      return JSON.stringify(o);
    });
    const file = join(dir, 'orders.ndjson');
    writeFileSync(file, `${lines.join('\n')}\n`);
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
