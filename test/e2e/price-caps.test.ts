/**
 * Price caps hold wherever money is spent: `--max-total` for every order of a batch, `--budget`
 * for a whole run (four orders at once never spend past it together), the profile's `max-total`
 * and `budget` settings when no flag is given, and caps that are not amounts refused before
 * anything is sent. Every order over a cap is cancelled before acceptance, and the cancel is
 * counted by `history` and the hand-over sheet. Counted at the sandbox, as a user would find it.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runShipbook } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const fx = useSandbox({ processingDelayMs: 20 });

/** Three orders: 47.30, 83.70 and 47.30 AUD on the sandbox. */
const MIXED = 'fixtures/batch/orders.ndjson';

interface Summary {
  booked: number;
  over_limit: number;
  over_budget: number;
  exit_code: number;
  total: string;
  budget?: { limit: string; spent: string };
}
interface Result {
  line: number;
  status: string;
  order_id?: string;
  total?: string;
  error?: { code: string; message: string; exit_code: number };
}

/** A run's own state directory (its ledger) and journal, so that its history is its own. */
function freshRun(): { env: Record<string, string>; journal: string; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'shipbook-caps-'));
  return { env: { ...fx.env, SHIPBOOK_STATE_DIR: dir }, journal: join(dir, 'journal.ndjson'), dir };
}

/** The sandbox's orders created since `before` (a set of ids taken earlier). */
function newOrders(before: ReadonlySet<string>) {
  return fx.sandbox.state.orders.values().filter((o) => !before.has(o.id));
}

const ids = () => new Set(fx.sandbox.state.orders.values().map((o) => o.id));
const cents = (aud: string) => Math.round(Number(aud) * 100);

describe('--max-total in a batch', () => {
  it('accepts nothing above it, cancels the order above it with its price, exits 9, and history and handover count the cancel', async () => {
    const run = freshRun();
    const before = ids();
    const r = await runShipbook(['book', MIXED, '--max-total', '60', '--journal', run.journal, '--json'], { env: run.env });
    expect(r.code, r.stderr).toBe(9);
    const out = JSON.parse(r.stdout) as { summary: Summary; orders: Result[] };
    expect(out.summary).toMatchObject({ booked: 2, over_limit: 1, over_budget: 0, exit_code: 9, total: '94.60' });
    const refused = out.orders.find((o) => o.status === 'over_limit')!;
    expect(refused).toMatchObject({ line: 2, total: '83.70', error: { code: 'limit_refused', exit_code: 9 } });
    expect(refused.error!.message).toContain('costs 83.70 AUD, above --max-total 60.00 AUD: not accepted, the pending order was cancelled');
    expect(r.stderr).toContain('1 over --max-total (cancelled, not accepted)');

    // At the sandbox: three orders created, the two at 47.30 accepted, the one at 83.70 cancelled and never accepted.
    const made = newOrders(before);
    expect(made).toHaveLength(3);
    expect(made.filter((o) => o.acceptedAt !== undefined).map((o) => o.price.total)).toEqual([4730, 4730]);
    const cancelled = made.filter((o) => o.status === 'cancelled');
    expect(cancelled.map((o) => [o.id, o.price.total, o.acceptedAt])).toEqual([[refused.order_id, 8370, undefined]]);

    // The cancel is a cancel in history, and on the hand-over sheet of that order's pickup day.
    const history = await runShipbook(['history', '--operation', 'cancel', '--json'], { env: run.env });
    expect(history.code, history.stderr).toBe(0);
    const rows = (JSON.parse(history.stdout) as { history: Array<{ order_id: string; step: string; status: string }> }).history;
    expect(rows.map((x) => [x.order_id, x.step, x.status])).toEqual([[refused.order_id, 'cancel', 'done']]);
    // The day the refused order was to be picked up: the file says `next`, the service was sent the date.
    const pickup = fx.sandbox.state.shipmentsOf(cancelled[0]!)[0]!.request.collection!.pickup!.date;
    const sheet = await runShipbook(['handover', '--date', pickup, '--json'], { env: run.env });
    expect(sheet.code, sheet.stderr).toBe(0);
    expect((JSON.parse(sheet.stdout) as { handover: { cancelled: number } }).handover.cancelled).toBe(1);

    // The same command again sends nothing for the refused order (its price is known) and books nothing twice.
    const between = ids();
    const again = await runShipbook(['book', MIXED, '--max-total', '60', '--journal', run.journal, '--json'], { env: run.env });
    expect(again.code, again.stderr).toBe(9);
    expect(newOrders(between)).toHaveLength(0);
    expect((JSON.parse(again.stdout) as { summary: Summary }).summary).toMatchObject({ over_limit: 1, booked: 0 });
  });
});

describe('--budget for a whole run', () => {
  it('never lets four orders at once spend past it; the orders left are reported with the budget and the amount spent (exit 9)', async () => {
    const run = freshRun();
    const before = ids();
    // 47.30 + 83.70 + 47.30 + 83.70 = 262.00 AUD asked for, 100.00 AUD allowed, four accepts in flight at once.
    const r = await runShipbook(
      ['book', MIXED, 'fixtures/orders/insured-bne-per.yaml', '--budget', '100', '--concurrency', '4', '--journal', run.journal, '--json'],
      { env: run.env },
    );
    expect(r.code, r.stderr).toBe(9);
    const out = JSON.parse(r.stdout) as { summary: Summary; orders: Result[] };
    const accepted = newOrders(before).filter((o) => o.acceptedAt !== undefined);
    const spent = accepted.reduce((sum, o) => sum + o.price.total, 0);
    expect(accepted.length).toBeGreaterThan(0);
    expect(spent).toBeLessThanOrEqual(10_000);
    expect(out.summary.budget).toEqual({ limit: '100.00', spent: (spent / 100).toFixed(2) });
    expect(out.summary.booked).toBe(accepted.length);
    expect(out.summary.over_budget).toBe(4 - accepted.length);
    const left = out.orders.filter((o) => o.status === 'over_budget');
    expect(left).toHaveLength(4 - accepted.length);
    for (const o of left) {
      expect(o.error).toMatchObject({ code: 'budget_refused', exit_code: 9 });
      expect(o.error!.message).toMatch(/--budget 100\.00 AUD \(\d+\.\d\d AUD spent( and \d+\.\d\d AUD held by accepts under way)? in this run\)/);
      // Created and cancelled at the service, or never created once nothing was left of the budget.
      if (o.order_id !== undefined) expect(fx.sandbox.state.orders.get(o.order_id)?.status).toBe('cancelled');
      // Each one alone would have fitted in the budget, or did not fit in what was left of it.
      if (o.total !== undefined) expect(cents(o.total)).toBeGreaterThan(10_000 - spent);
    }
    expect(r.stderr).toContain(`budget 100.00 AUD, ${(spent / 100).toFixed(2)} AUD spent by this run`);
    const history = await runShipbook(['history', '--operation', 'cancel', '--output', 'ndjson'], { env: run.env });
    const cancels = history.stdout.split('\n').filter((l) => l.includes('"cancel"'));
    expect(cancels).toHaveLength(left.filter((o) => o.order_id !== undefined).length);
  });
});

describe('caps that are not amounts', () => {
  it.each([
    ['--max-total', 'abc'],
    ['--max-total', '-5'],
    ['--max-total', '0'],
    ['--budget', 'abc'],
    ['--budget', '-5'],
    ['--budget', '0'],
  ])('%s %s is refused with exit 2 before anything is sent, for a batch and a single book', async (flag, value) => {
    const run = freshRun();
    const before = fx.sandbox.state.orders.size;
    const batch = await runShipbook(['book', MIXED, `${flag}=${value}`, '--journal', run.journal], { env: run.env });
    expect(batch.code, batch.stderr).toBe(2);
    expect(batch.stderr).toContain(flag);
    expect(batch.stderr).toContain('nothing was sent');
    const single = await runShipbook(['book', 'fixtures/orders/domestic-syd-mel.yaml', `${flag}=${value}`], { env: run.env });
    expect(single.code, single.stderr).toBe(2);
    expect(fx.sandbox.state.orders.size).toBe(before);
  });
});

describe('caps set on the profile', () => {
  it('hold a batch that gives no flag, and a flag overrides them; a setting that is not an amount is refused', async () => {
    const run = freshRun();
    // The profile names the service; the key still comes from the environment, as in CI.
    const { SHIPBOOK_BASE_URL: _url, ...rest } = run.env;
    const cfg = { ...rest, SHIPBOOK_CONFIG_DIR: join(run.dir, 'config') };
    const set = (key: string, value: string) => runShipbook(['--profile', 'ci', 'config', 'set', key, value], { env: cfg });
    expect((await set('base-url', fx.sandbox.url)).code).toBe(0);
    const bad = await set('max-total', '0');
    expect(bad.code, bad.stderr).toBe(2);
    expect((await set('max-total', '60')).code).toBe(0);
    const before = ids();
    const r = await runShipbook(['--profile', 'ci', 'book', MIXED, '--journal', run.journal, '--json'], { env: cfg });
    expect(r.code, r.stderr).toBe(9);
    expect((JSON.parse(r.stdout) as { summary: Summary }).summary).toMatchObject({ booked: 2, over_limit: 1 });
    expect(newOrders(before).filter((o) => o.acceptedAt !== undefined && o.price.total > 6_000)).toHaveLength(0);
    // A flag above the profile's cap books the refused order anew (a new order: the first was cancelled).
    const raised = await runShipbook(['--profile', 'ci', 'book', MIXED, '--max-total', '90', '--journal', run.journal, '--json'], { env: cfg });
    expect(raised.code, raised.stderr).toBe(0);
    expect((JSON.parse(raised.stdout) as { summary: Summary }).summary).toMatchObject({ booked: 1, over_limit: 0 });
  });
});

describe('caps on order accept', () => {
  it('refuses to accept an order above --max-total and leaves it pending (exit 9), with a hint that accepts it when pasted', async () => {
    const run = freshRun();
    const created = await runShipbook(['order', 'create', 'fixtures/orders/domestic-syd-mel.yaml', '--json'], { env: run.env });
    expect(created.code, created.stderr).toBe(0);
    const order = (JSON.parse(created.stdout) as { order: { id: string } }).order.id;
    const refused = await runShipbook(['order', 'accept', order, '--payment', 'credit', '--max-total', '30', '--wait'], { env: run.env });
    expect(refused.code, refused.stderr).toBe(9);
    expect(refused.stderr).toContain(`order ${order} costs 47.30 AUD, above --max-total 30.00 AUD: not accepted; it stays pending (nothing was paid)`);
    expect(fx.sandbox.state.orders.get(order)?.status).toBe('new');
    expect(fx.sandbox.state.orders.get(order)?.acceptedAt).toBeUndefined();
    const bad = await runShipbook(['order', 'accept', order, '--payment', 'credit', '--budget', '0'], { env: run.env });
    expect(bad.code, bad.stderr).toBe(2);
    expect(fx.sandbox.state.orders.get(order)?.acceptedAt).toBeUndefined();
    const hint = /Accept it with "shipbook (order accept \S+ --max-total 47\.30)"/.exec(refused.stderr)?.[1];
    expect(hint, refused.stderr).toBeDefined();
    const pasted = await runShipbook([...hint!.split(' '), '--payment', 'credit'], { env: run.env });
    expect(pasted.code, pasted.stderr).toBe(0);
    expect(fx.sandbox.state.orders.get(order)?.acceptedAt).toBeDefined();
  });
});
