/**
 * End-to-end: consolidated mail chosen by rules under `SHIPBOOK_MAIL_FREE_PICKUP=true` on an
 * account without the free-pickup option (the sandbox as built in). The service creates the
 * shipments and refuses their combine ("main_shipment is required"): the first run reports each
 * order failed with its own shipment ids; a rerun reports the same failure from the ledger (its
 * shipments created, the combine refused, the service's reason), never as an answer that never
 * came, with the same exit code, and sends nothing; the hint's steps, pasted, book it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT, runCli } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';

/** The requests the sandbox answered, `METHOD /path status (… ms)`. */
const requests: string[] = [];
const fx = useSandbox({ processingDelayMs: 20, log: (line) => requests.push(line) });
const RULES = join(ROOT, 'fixtures/rules/shipping.yaml');
const dir = mkdtempSync(join(tmpdir(), 'shipbook-rules-mail-refused-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const state = { SHIPBOOK_STATE_DIR: join(dir, 'state') };
const FREE_PICKUP = { SHIPBOOK_MAIL_FREE_PICKUP: 'true' };
const REFUSAL = 'invalid request: main_shipment is required (this account does not have the free-pickup option)';

type Row = { id: string; status: string; shipment_ids?: string[]; error?: { code: string; message: string }; next?: { action: string }; hint?: string };

/** The international order fixture with its own transient id. */
function abroad(i: number): Record<string, any> {
  const d = parse(readFileSync(join(ROOT, 'fixtures/rules/orders/abroad-auckland.yaml'), 'utf8')) as Record<string, any>;
  const s = d.order.shipments[0];
  s.transient_id = `REFUSED-${i}`;
  s.collection.pickup.date = '2031-12-02';
  return d;
}

/** Runs the built CLI in the test's directory against the sandbox, with `env` over the sandbox's. */
function shipbook(args: string[], env: Record<string, string> = FREE_PICKUP) {
  return runCli(args, { cwd: dir, env: { ...fx.env, ...state, ...env } });
}

/** How many shipment creates and combines the sandbox received (both on /shipments/). */
const sent = () => ({
  creates: requests.filter((l) => l.startsWith('POST /shipments/ ')).length,
  combines: requests.filter((l) => l.startsWith('PUT /shipments/ ')).length,
});

describe('consolidated mail whose combine the service refuses (free pickup set, the account without it)', () => {
  it('a batch: failed with each order’s shipment ids; a rerun says so from the ledger (exit 8 again) and sends nothing; the hint’s steps then book it', async () => {
    const file = join(dir, 'two.ndjson');
    writeFileSync(file, `${[abroad(1), abroad(2)].map((d) => JSON.stringify(d)).join('\n')}\n`);
    const book = (report: string, env?: Record<string, string>) => shipbook(['book', file, '--rules', RULES, '--report', join(dir, report)], env);
    const rows = (report: string) => (JSON.parse(readFileSync(join(dir, report), 'utf8')) as { orders: Row[] }).orders;
    const ordersBefore = fx.sandbox.state.orders.size;

    const first = await book('first.json');
    expect(first.code, first.stderr).toBe(8);
    const one = rows('first.json');
    expect(one.map((r) => r.status)).toEqual(['failed', 'failed']);
    for (const r of one) {
      expect(r.shipment_ids).toHaveLength(1);
      expect(r.error?.message).toBe(REFUSAL);
      expect(r.next?.action).toBe('fix_mail');
      expect(r.hint).toContain(`shipbook journal resolve ${r.id} --not-created`);
      expect(r.hint).toContain('unset SHIPBOOK_MAIL_FREE_PICKUP');
    }
    expect(new Set(one.flatMap((r) => r.shipment_ids))).toHaveProperty('size', 2);
    expect(sent()).toEqual({ creates: 2, combines: 1 });
    expect(fx.sandbox.state.orders.size).toBe(ordersBefore);

    const again = await book('again.json');
    expect(again.code, again.stderr).toBe(8);
    expect(again.stderr).not.toContain('answer never came');
    expect(again.stderr).not.toContain('may exist');
    for (const r of rows('again.json')) {
      const before = one.find((o) => o.id === r.id)!;
      expect(r.status).toBe('failed');
      expect(r.shipment_ids).toEqual(before.shipment_ids);
      expect(r.error).toMatchObject({
        code: 'combine_refused',
        message: `an earlier run created shipments ${before.shipment_ids![0]} for it and the service refused to combine them: ${REFUSAL}`,
      });
      expect(r.next?.action).toBe('fix_mail');
      expect(again.stderr).toContain(`shipbook journal resolve ${r.id} --not-created`);
    }
    // Nothing sent again: no second create, no second combine.
    expect(sent()).toEqual({ creates: 2, combines: 1 });
    // `journal show` says the same of each order, with the command that settles it.
    const shown = await shipbook(['journal', 'show', '--json']);
    expect(shown.code, shown.stderr).toBe(0);
    const entries = (JSON.parse(shown.stdout) as { orders: Array<{ id: string; known: string; command: string }> }).orders;
    for (const r of one) {
      const entry = entries.find((e) => e.id === r.id)!;
      expect(entry.known).toBe(`shipments ${r.shipment_ids![0]} exist, not combined: the service refused: ${REFUSAL}`);
      expect(entry.command).toBe(`shipbook journal resolve ${r.id} --not-created`);
    }

    // The hint's steps: the setting fixed (a main shipment, no free pickup), each order recorded not made, the same command again.
    for (const r of one) {
      const resolved = await shipbook(['journal', 'resolve', r.id, '--not-created']);
      expect(resolved.code, resolved.stderr).toBe(0);
    }
    const fixed = await book('fixed.json', { SHIPBOOK_MAIL_MAIN_SHIPMENT: join(ROOT, 'fixtures/shipments/main-to-hub.yaml') });
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(rows('fixed.json').map((r) => r.status)).toEqual(['booked', 'booked']);
    expect(sent()).toEqual({ creates: 4, combines: 2 });
    expect(fx.sandbox.state.orders.size).toBe(ordersBefore + 1);
  });

  it('a single book: exit 3 with its shipment; a rerun says the service refused after creating it (exit 3 again), never unknown, and sends nothing', async () => {
    const file = join(dir, 'one.json');
    writeFileSync(file, JSON.stringify(abroad(3)));
    const before = sent();
    const first = await shipbook(['book', file, '--rules', RULES]);
    expect(first.code, first.stderr).toBe(3);
    const shipment = /shipment (SHP-\w+) created/.exec(first.stderr)?.[1];
    expect(shipment, first.stderr).toBeDefined();
    expect(sent()).toEqual({ creates: before.creates + 1, combines: before.combines + 1 });
    // The first run's hint already settles it through the ledger: a combine command without the
    // main shipment the profile lacks would be refused again.
    const firstResolve = /shipbook journal resolve ([0-9a-f]+-1) --not-created/.exec(first.stderr);
    expect(firstResolve, first.stderr).not.toBeNull();
    expect(first.stderr).toContain('unset SHIPBOOK_MAIL_FREE_PICKUP');
    expect(first.stderr).not.toContain('shipment combine');

    const again = await shipbook(['book', file, '--rules', RULES]);
    expect(again.code, again.stderr).toBe(3);
    expect(again.stderr).toContain(
      `error: not booked again: an earlier run (${file}) created shipments ${shipment} for this document and the service then refused to go on (no order was made): ${REFUSAL}`,
    );
    expect(again.stderr).not.toContain('answer never came');
    expect(again.stderr).not.toContain('may exist');
    const resolve = /shipbook journal resolve ([0-9a-f]+-1) --not-created/.exec(again.stderr);
    expect(resolve, again.stderr).not.toBeNull();
    expect(resolve![1]).toBe(firstResolve![1]);
    expect(again.stderr).toContain('unset SHIPBOOK_MAIL_FREE_PICKUP');
    expect(sent()).toEqual({ creates: before.creates + 1, combines: before.combines + 1 });

    // The hint's steps: the order recorded not made, the setting fixed, the same command books it.
    const resolved = await shipbook(['journal', 'resolve', resolve![1]!, '--not-created']);
    expect(resolved.code, resolved.stderr).toBe(0);
    const fixed = await shipbook(['book', file, '--rules', RULES], { SHIPBOOK_MAIL_MAIN_SHIPMENT: join(ROOT, 'fixtures/shipments/main-to-hub.yaml') });
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(sent()).toEqual({ creates: before.creates + 2, combines: before.combines + 2 });
  });
});
