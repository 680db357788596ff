/**
 * A full disk under a batch, end to end. The journal's disk filling up mid-batch (simulated by
 * `SHIPBOOK_TEST_JOURNAL_SPACE`, a test-only limit: writes fail with ENOSPC after a short write)
 * ends the run with exit 10 and a message naming the journal and what was not recorded; with
 * space freed, three reruns leave every document booked at most once (the sandbox's own list is
 * the witness) and the journal readable. The built-in sandbox's disk filling up
 * (`SHIPBOOK_TEST_STORE_SPACE`) is answered 507, leaves no shipment without its order, and stops
 * the batch at once.
 */
import { batchExitCode } from '../helpers/batch-exit.js';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readJournal } from '../../src/ledger/file/read.js';
import { E2E_API_KEY, useSandbox } from '../helpers/sandbox.js';
import { ROOT, runCli } from '../helpers/cli.js';

const fx = useSandbox({ processingDelayMs: 20 });

/** A directory with an NDJSON file of `n` orders whose transient ids start with `tag`. */
function ordersFile(n: number, tag: string): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'shipbook-full-disk-'));
  const doc = parse(readFileSync(join(ROOT, 'fixtures/orders/domestic-syd-mel.yaml'), 'utf8')) as Record<string, any>;
  const order = doc.request ?? doc;
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const o = structuredClone(order);
    o.order.shipments[0].transient_id = `${tag}-${i}`;
    lines.push(JSON.stringify(o));
  }
  const file = join(dir, 'orders.ndjson');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return { dir, file };
}

/** Orders at the sandbox by the transient id of their first shipment (those starting with `tag`). */
async function ordersByInput(url: string, tag: string): Promise<Map<string, string[]>> {
  const res = await fetch(new URL('_sandbox/orders/', url), { headers: { authorization: `Bearer ${E2E_API_KEY}` } });
  const body = (await res.json()) as { result: { orders: Array<{ id: string; shipments: Array<{ transient_id: string | null }> }> } };
  const by = new Map<string, string[]>();
  for (const o of body.result.orders) {
    const t = o.shipments[0]?.transient_id ?? '';
    if (t.startsWith(`${tag}-`)) by.set(t, [...(by.get(t) ?? []), o.id]);
  }
  return by;
}

describe('a full disk under a batch', () => {
  it('stops with exit 10 naming the journal and what was not recorded; three reruns with space book nothing twice', async () => {
    const trials = Number(process.env.SHIPBOOK_FULL_DISK_TRIALS ?? '2');
    let duplicates = 0;
    for (let trial = 0; trial < trials; trial++) {
      const tag = `FD${trial}`;
      const n = 12;
      const { dir, file } = ordersFile(n, tag);
      const journal = join(dir, 'journal.ndjson');
      // Room for a few records: the disk fills up part-way through the batch (at a different record each trial).
      const space = 1_500 + trial * 457;
      const first = await runCli(['book', file, '--journal', journal, '--concurrency', '3'], {
        env: { ...fx.env, SHIPBOOK_TEST_JOURNAL_SPACE: String(space) },
        timeoutMs: 60_000,
      });
      expect(first.code, first.stderr).toBe(10);
      // The batch's journal, or the ledger in the state directory (it also holds the batch's
      // claims, so it may fill first): either way the file is named, with what was not recorded.
      const escaped = journal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      expect(first.stderr).toMatch(
        new RegExp(`cannot write the journal (${escaped}|\\S+/ledger/[0-9a-f]{12}\\.ndjson): no space left on the device \\[ENOSPC\\]; not recorded: `),
      );
      expect(first.stderr).not.toMatch(/internal error|at .*main\.cjs/);
      for (let rerun = 0; rerun < 3; rerun++) {
        const report = join(dir, `report-${rerun}.json`);
        const again = await runCli(['book', file, '--journal', journal, '--concurrency', '3', '--report', report], { env: fx.env, timeoutMs: 60_000 });
        // Booked (0), or some left unknown (8), as its report says: never the journal refused.
        expect(again.code, again.stderr).toBe(batchExitCode((JSON.parse(readFileSync(report, 'utf8')) as { summary: Record<string, unknown> }).summary));
        expect(again.stderr).not.toContain('not a journal record');
      }
      const states = readJournal(journal);
      const at = await ordersByInput(fx.sandbox.url, tag);
      for (const ids of at.values()) if (ids.length > 1) duplicates++;
      // Every document is booked or, when its create's answer could not be recorded, unknown: none lost.
      const stages = [...states.values()].map((s) => s.stage);
      expect(stages.every((s) => s === 'processed' || s === 'unknown')).toBe(true);
      expect(states.size).toBe(n);
      expect(at.size).toBeGreaterThanOrEqual(stages.filter((s) => s === 'processed').length);
    }
    expect(duplicates).toBe(0);
  }, 600_000);
});

describe('the built-in sandbox on a full disk', () => {
  it('answers 507 with its own message, keeps no shipment without its order, and the batch stops at once', async () => {
    const state = mkdtempSync(join(tmpdir(), 'shipbook-full-state-'));
    const { dir, file } = ordersFile(30, 'SF');
    const env = { HOME: fx.home, XDG_CONFIG_HOME: fx.home, SHIPBOOK_STATE_DIR: state, SHIPBOOK_SANDBOX_DELAY_MS: '20' };
    const full = await runCli(['book', file, '--journal', join(dir, 'j.ndjson'), '--concurrency', '2'], {
      env: { ...env, SHIPBOOK_TEST_STORE_SPACE: '6000' },
      timeoutMs: 60_000,
    });
    expect(full.code, full.stderr).toBe(8);
    expect(full.stdout + full.stderr).toContain(`the sandbox cannot store its state in ${state}: no space left on the device [ENOSPC]; nothing was changed`);
    expect(full.stderr).not.toContain('internal sandbox error');
    // Stopped at once: far fewer than 30 orders were tried; every input is still named, those
    // never started as such.
    // (The first line is the sandbox marker of tab-separated output.)
    const lines = full.stdout.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('sandbox\t'));
    expect(lines).toHaveLength(30);
    const tried = lines.filter((l) => !l.includes('\tnot_started\t')).length;
    expect(tried).toBeLessThan(30);
    const orders = readdirSync(join(state, 'orders')).map((n) => JSON.parse(readFileSync(join(state, 'orders', n), 'utf8')) as { shipmentIds: string[] });
    const owned = new Set(orders.flatMap((o) => o.shipmentIds));
    const shipments = readdirSync(join(state, 'shipments')).filter((n) => n.endsWith('.json'));
    expect(shipments.every((n) => owned.has(n.slice(0, -5)))).toBe(true);
    // Space freed: the same command books the rest.
    const again = await runCli(['book', file, '--journal', join(dir, 'j.ndjson'), '--concurrency', '2'], { env, timeoutMs: 120_000 });
    expect(again.code, again.stderr).toBe(0);
  }, 240_000);
});
