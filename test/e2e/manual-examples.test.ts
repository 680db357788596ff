/**
 * Examples of the manual that a new user pastes on a fresh install: the sandbox reset after a
 * booking, saved senders with nothing configured, the failure hook's curl from the manual, and
 * the reason `order get` gives for a booking that failed.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { useSandbox } from '../helpers/sandbox.js';
import { runShipbook } from '../helpers/run.js';
import { ROOT, runCli } from '../helpers/cli.js';

/** A fresh install: its own empty configuration and state directories. */
function freshInstall(): { dir: string; env: Record<string, string> } {
  const dir = mkdtempSync(join(tmpdir(), 'shipbook-fresh-'));
  return { dir, env: { SHIPBOOK_CONFIG_DIR: join(dir, 'config'), SHIPBOOK_STATE_DIR: join(dir, 'state') } };
}

/** The entries of the built-in sandbox's state in a state directory. */
const SANDBOX_ENTRIES = ['sandbox-state.json', 'orders', 'shipments', 'cards', 'failures', 'state.lock'];

describe('sandbox reset', () => {
  it('resets the built-in sandbox after a single book, clears its ledger, keeps what is not its own, and books the file anew', async () => {
    const { dir, env } = freshInstall();
    const booked = await runCli(['book', 'fixtures/orders/domestic-syd-mel.yaml'], { env });
    expect(booked.code, booked.stderr).toBe(0);
    // what a process killed while writing leaves is the sandbox's too
    writeFileSync(join(dir, 'state', 'sandbox-state.json.1234.tmp'), '{');
    // a ledger of another target (a real service) lives beside it and must stay
    writeFileSync(join(dir, 'state', 'ledger', 'aaaaaaaaaaaa.ndjson'), '');
    const others = readdirSync(join(dir, 'state')).filter((n) => !SANDBOX_ENTRIES.includes(n) && !n.endsWith('.tmp'));
    expect(others).toEqual(['ledger']); // the ledger of bookings lives beside the sandbox
    const reset = await runShipbook(['sandbox', 'reset', '--yes'], { env });
    expect(reset.code, reset.stderr).toBe(0);
    expect(reset.stderr).toContain(
      `The sandbox state in ${join(dir, 'state')} was reset: no orders, no shipments, and its ledger of booked documents is cleared.`,
    );
    expect(reset.stderr).toContain(`Kept (not the sandbox's): ${others.join(', ')}`);
    expect(readdirSync(join(dir, 'state')).sort()).toEqual([...others].sort());
    expect(readdirSync(join(dir, 'state', 'ledger'))).toEqual(['aaaaaaaaaaaa.ndjson']);
    // The sandbox no longer has the order, and the ledger no longer names it: booked anew.
    const anew = await runShipbook(['book', 'fixtures/orders/domestic-syd-mel.yaml', '--json'], { env });
    expect(anew.code, anew.stderr).toBe(0);
    expect(JSON.parse(anew.stdout).already_booked).toBeUndefined();
    const reset2 = await runShipbook(['sandbox', 'reset', '--yes'], { env });
    expect(reset2.code, reset2.stderr).toBe(0);
    const again = await runShipbook(['sandbox', 'reset', '--yes'], { env });
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('Nothing to reset');
    const status = await runShipbook(['sandbox', 'status', '--json'], { env });
    expect(JSON.parse(status.stdout)).toMatchObject({ orders: { total: 0 }, shipments: { total: 0 } });
  });

  it('removes the default journal of a batch on the built-in sandbox in this directory, so the same batch books anew', async () => {
    const { dir, env } = freshInstall();
    const work = join(dir, 'work');
    mkdirSync(work);
    writeFileSync(join(work, 'orders.ndjson'), `${JSON.stringify(parse(readFileSync(join(ROOT, 'fixtures/orders/domestic-syd-mel.yaml'), 'utf8')))}\n`);
    const first = await runCli(['book', 'orders.ndjson'], { env, cwd: work });
    expect(first.code, first.stderr).toBe(0);
    const journals = readdirSync(join(work, '.shipbook'));
    expect(journals).toEqual([expect.stringMatching(/^journal-[0-9a-f]{12}\.ndjson$/)]);
    const reset = await runCli(['sandbox', 'reset', '--yes'], { env, cwd: work });
    expect(reset.code, reset.stderr).toBe(0);
    expect(reset.stderr).toContain(`Removed the batch journal of the built-in sandbox in this directory: .shipbook/${journals[0]}.`);
    expect(reset.stderr).toContain('Batch journals given with --journal, and the default journals in other directories');
    expect(readdirSync(join(work, '.shipbook'))).toEqual([]);
    const again = await runCli(['book', 'orders.ndjson'], { env, cwd: work });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('batch: 1 booked, 0 already booked');
  });

  it('deletes nothing in a directory that is not a sandbox state', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shipbook-not-state-'));
    mkdirSync(join(dir, 'orders'));
    writeFileSync(join(dir, 'orders', 'invoice.pdf'), 'mine');
    writeFileSync(join(dir, 'notes.txt'), 'mine');
    const r = await runShipbook(['sandbox', 'reset', '--yes', '--state', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${dir} is not a shipbook sandbox state (it has no sandbox-state.json); nothing was deleted`);
    expect(existsSync(join(dir, 'orders', 'invoice.pdf'))).toBe(true);
    expect(existsSync(join(dir, 'notes.txt'))).toBe(true);
  });
});

describe('saved senders on a fresh install', () => {
  it('saves a sender with nothing configured and books the examples of the manual that name it', async () => {
    const { dir, env } = freshInstall();
    const saved = await runShipbook(['config', 'sender', 'set', 'warehouse-syd', 'fixtures/wizard/warehouse-syd.yaml'], { env });
    expect(saved.code, saved.stderr).toBe(0);
    expect(saved.stderr).toContain('saved sender "warehouse-syd" in profile "sandbox"');
    const booked = await runShipbook(['book', 'fixtures/wizard/no-service.yaml', '--service', 'cheapest', '--max-total', '60'], { env });
    expect(booked.code, booked.stderr).toBe(0);
    expect(booked.stdout).toMatch(/^order\tORD-\S+\tprocessed$/m);
    const created = await runShipbook(['order', 'create', 'fixtures/wizard/no-service.yaml', '--service', 'SB-DOM-EXP', '--save-as', join(dir, 'order.yaml')], {
      env,
    });
    expect(created.code, created.stderr).toBe(0);
    expect(readFileSync(join(dir, 'order.yaml'), 'utf8')).toContain('Harbour Homewares');
    const listed = await runShipbook(['config', 'sender', 'list'], { env });
    expect(listed.stdout).toMatch(/^warehouse-syd\tPriya Raman, Harbour Homewares/m);
    // kept apart from the stored profiles: the built-in profile's settings still cannot change
    const config = JSON.parse(readFileSync(join(dir, 'config', 'config.json'), 'utf8')) as Record<string, any>;
    expect(Object.keys(config.sandbox.senders)).toEqual(['warehouse-syd']);
    expect(config.profiles).toBeUndefined();
    const set = await runShipbook(['config', 'set', 'timeout', '30s'], { env });
    expect(set.code).toBe(2);
    expect(set.stderr).toContain('the built-in profile "sandbox" cannot be changed');
    const removed = await runShipbook(['config', 'sender', 'remove', 'warehouse-syd'], { env });
    expect(removed.code, removed.stderr).toBe(0);
    const unknown = await runShipbook(['book', 'fixtures/wizard/no-service.yaml', '--service', 'cheapest'], { env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown sender "@warehouse-syd" in profile "sandbox"');
  });
});

/** The sandbox page's failure-hook curl command, as method, headers, body and URL. */
function readmeCurl(): { method: string; headers: Record<string, string>; body: string; url: string } {
  const readme = readFileSync(join(ROOT, 'docs', 'sandbox.md'), 'utf8');
  const command = /^curl .*?(?:\\\n.*?)*\/fail-next-booking\/$/m.exec(readme)?.[0];
  if (command === undefined) throw new Error('docs/sandbox.md has no curl command for fail-next-booking');
  const words = [...command.replace(/\\\n/g, ' ').matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]!);
  const out = { method: 'GET', headers: {} as Record<string, string>, body: '', url: '' };
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!;
    if (w === '-X') out.method = words[++i]!;
    else if (w === '-H') {
      const [name, ...value] = words[++i]!.split(':');
      out.headers[name!.trim()] = value.join(':').trim();
    } else if (w === '-d') {
      out.body = words[++i]!;
      // what curl sends with -d unless a header says otherwise
      if (!Object.keys(out.headers).some((h) => h.toLowerCase() === 'content-type')) out.headers['Content-Type'] = 'application/x-www-form-urlencoded';
    } else out.url = w;
  }
  return out;
}

describe('a booking failed through the test hook of the manual', () => {
  const fixture = useSandbox();

  it('fails the booking with the curl of the manual, and order get shows the reason', async () => {
    const created = await runShipbook(['order', 'create', 'fixtures/orders/domestic-syd-mel.yaml', '--quiet'], { env: fixture.env });
    expect(created.code, created.stderr).toBe(0);
    const id = created.stdout.trim();
    const curl = readmeCurl();
    const url = new URL(curl.url.replace('$ORDER', id));
    const hook = await fetch(new URL(url.pathname, fixture.sandbox.url), { method: curl.method, headers: curl.headers, body: curl.body });
    expect(hook.status, await hook.clone().text()).toBe(200);
    const accepted = await runShipbook(['order', 'accept', id, '--payment', 'credit', '--wait', '--poll', '100ms'], { env: fixture.env });
    expect(accepted.code).toBe(6);
    expect(accepted.stderr).toContain(`booking of order ${id} failed: no driver available`);
    const shown = await runShipbook(['order', 'get', id], { env: fixture.env });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(`order\t${id}\tfailed`);
    expect(shown.stderr).toContain(`booking of order ${id} failed: no driver available (order status failed)`);
    const json = await runShipbook(['order', 'get', id, '--json'], { env: fixture.env });
    expect(JSON.parse(json.stdout)).toMatchObject({ order: { id, status: 'failed' }, reason: 'no driver available' });
  });

  it('says nothing of a reason for an order that was booked', async () => {
    const booked = await runShipbook(['book', 'fixtures/orders/domestic-syd-mel.yaml', '--again', '--json'], { env: fixture.env });
    expect(booked.code, booked.stderr).toBe(0);
    const id = (JSON.parse(booked.stdout) as { order: { id: string } }).order.id;
    const json = await runShipbook(['order', 'get', id, '--json'], { env: fixture.env });
    expect(JSON.parse(json.stdout)).not.toHaveProperty('reason');
  });
});
