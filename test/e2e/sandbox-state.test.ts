/**
 * The built-in sandbox keeps its orders between commands: the flows run bin/shipbook.js in
 * separate processes (some started together, one killed) with nothing configured but their own
 * SHIPBOOK_STATE_DIR, the way a new user runs them in a shell, and follow the hints shipbook
 * prints. How a broken or unwritable state is reported does not depend on the process: those
 * tests run in-process.
 */
import { settleFixturePickups } from '../helpers/pickup-days.js';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { runShipbook } from '../helpers/run.js';
import { BIN, ROOT, runCli, type CliResult } from '../helpers/cli.js';

/** A fresh state directory and the environment that points the built-in sandbox at it. */
function freshState(): { dir: string; env: Record<string, string> } {
  const dir = mkdtempSync(join(tmpdir(), 'shipbook-state-test-'));
  return { dir, env: { SHIPBOOK_STATE_DIR: join(dir, 'state'), SHIPBOOK_SANDBOX_DELAY_MS: '150' } };
}

/** The command a hint line names (`Accept it with: shipbook order accept …`), as arguments. */
function hintArgs(stderr: string, label: RegExp): string[] {
  const line = stderr.split('\n').find((l) => label.test(l));
  if (line === undefined) throw new Error(`no hint matching ${label} in:\n${stderr}`);
  const command = line.slice(line.indexOf('shipbook ') + 'shipbook '.length).trim();
  return command.split(/\s+/);
}

const json = (r: CliResult) => JSON.parse(r.stdout) as Record<string, any>;

/** Reads the order until `status` (bounded: the delay is 150 ms), as a person would run order get again. */
async function orderUntil(id: string, env: Record<string, string>, status: string): Promise<Record<string, any>> {
  for (let i = 0; i < 40; i++) {
    const r = await runCli(['order', 'get', id, '--json'], { env });
    expect(r.code).toBe(0);
    const order = json(r).order;
    if (String(order.status).toLowerCase() === status) return order;
  }
  throw new Error(`order ${id} never reached ${status}`);
}

describe('the built-in sandbox across commands', () => {
  it('creates, then accepts with the printed hint, then shows the processed order with its tracking numbers', async () => {
    const { env } = freshState();
    const created = await runCli(['order', 'create', 'fixtures/orders/domestic-syd-mel.yaml'], { env });
    expect(created.code).toBe(0);
    const accept = hintArgs(created.stderr, /^Accept it with:/);
    expect(accept.slice(0, 2)).toEqual(['order', 'accept']);
    const accepted = await runCli(accept, { env });
    expect(accepted.stderr).not.toMatch(/not found/);
    expect(accepted.code).toBe(0);
    const later = hintArgs(accepted.stderr, /See the result with:/);
    const id = later[2]!;
    const order = await orderUntil(id, env, 'processed');
    const tracking = order.shipments.map((s: { tracking_number: string }) => s.tracking_number);
    expect(tracking.every((t: string) => /^SBX\d{10}$/.test(t))).toBe(true);
    // Every reader sees the same tracking numbers.
    const again = json(await runCli(['order', 'get', id, '--json'], { env })).order;
    expect(again.shipments.map((s: { tracking_number: string }) => s.tracking_number)).toEqual(tracking);
  });

  it('creates two consolidated-mail shipments, combines them with the main shipment, and accepts the parent', async () => {
    const { env } = freshState();
    const a = await runCli(['shipment', 'create', 'fixtures/shipments/au-us-1.yaml', '--json'], { env });
    const b = await runCli(['shipment', 'create', 'fixtures/shipments/au-gb-2.yaml', '--json'], { env });
    expect([a.code, b.code]).toEqual([0, 0]);
    const ids = [json(a).shipment.id, json(b).shipment.id];
    const combined = await runCli(['shipment', 'combine', ...ids, '--main', 'fixtures/shipments/main-to-hub.yaml'], { env });
    expect(combined.stderr).not.toMatch(/not found/);
    expect(combined.code).toBe(0);
    const accepted = await runCli(hintArgs(combined.stderr, /Accept the parent order with:/), { env });
    expect(accepted.code).toBe(0);
    const parentId = hintArgs(accepted.stderr, /See the result with:/)[2]!;
    const order = await orderUntil(parentId, env, 'processed');
    expect(order.shipments.map((s: { id: string }) => s.id)).toEqual(expect.arrayContaining(ids));
  });

  it('cancels in one process an order created in another, and then refuses to accept it (409, exit 3)', async () => {
    const { env } = freshState();
    const id = json(await runCli(['order', 'create', 'fixtures/orders/domestic-syd-mel.yaml', '--again', '--json'], { env })).order.id as string;
    expect((await runCli(['order', 'cancel', id], { env })).code).toBe(0);
    const refused = await runCli(['order', 'accept', id, '--payment', 'credit'], { env });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/cancelled/);
  });

  it('stores eight orders from eight order create started together', async () => {
    const { env } = freshState();
    const runs = await Promise.all(
      Array.from({ length: 8 }, () => runCli(['order', 'create', 'fixtures/orders/domestic-syd-mel.yaml', '--again', '--json'], { env })),
    );
    expect(runs.map((r) => r.code)).toEqual(Array(8).fill(0));
    const ids = new Set(runs.map((r) => json(r).order.id));
    expect(ids.size).toBe(8);
    const status = json(await runCli(['sandbox', 'status', '--json'], { env }));
    expect(status.orders.total).toBe(8);
  });

  it('accepts an order once when four order accept run together: one acceptance, three that say nothing was accepted', async () => {
    const { env } = freshState();
    const id = json(await runCli(['order', 'create', 'fixtures/orders/domestic-syd-mel.yaml', '--again', '--json'], { env })).order.id as string;
    const runs = await Promise.all(Array.from({ length: 4 }, () => runCli(['order', 'accept', id, '--payment', 'credit'], { env })));
    const before = /was already (accepted|processed); nothing was accepted/;
    const accepted = runs.filter((r) => !before.test(r.stderr));
    expect(accepted.map((r) => r.code)).toEqual([0]);
    // The others were refused by the service (409): exit 7 while the order is accepted, 0 once processed.
    for (const r of runs.filter((x) => before.test(x.stderr))) expect(r.code).toBe(before.exec(r.stderr)?.[1] === 'processed' ? 0 : 7);
  });

  it('survives kill -9 during a stream of creates: every later command still works', async () => {
    const { env } = freshState();
    const envFull = { ...process.env, ...env, SHIPBOOK_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'shipbook-state-cfg-')), NO_COLOR: '1', CI: '1' };
    // Eight processes creating orders; each is killed at a different moment of its run.
    const killed = await Promise.all(
      Array.from({ length: 8 }, (_, i) => {
        const child = spawn(process.execPath, [BIN, 'order', 'create', 'fixtures/orders/domestic-syd-mel.yaml', '--again'], {
          cwd: ROOT,
          env: envFull,
          stdio: 'ignore',
        });
        setTimeout(() => child.kill('SIGKILL'), 60 + i * 45);
        return new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      }),
    );
    expect(killed.length).toBe(8);
    const status = await runCli(['sandbox', 'status', '--json'], { env });
    expect(status.code).toBe(0);
    const created = await runCli(['order', 'create', 'fixtures/orders/domestic-syd-mel.yaml', '--again', '--json'], { env });
    expect(created.code).toBe(0);
    const id = json(created).order.id as string;
    expect((await runCli(['order', 'accept', id, '--payment', 'credit'], { env })).code).toBe(0);
    await orderUntil(id, env, 'processed');
    expect(json(await runCli(['sandbox', 'status', '--json'], { env })).orders.total).toBe(json(status).orders.total + 1);
  });

  it('reports a corrupt state with its path and the reset command (exit 4), and leaves the file byte for byte', async () => {
    const { env } = freshState();
    expect((await runShipbook(['order', 'create', 'fixtures/orders/domestic-syd-mel.yaml', '--again'], { env })).code).toBe(0);
    const file = join(env.SHIPBOOK_STATE_DIR!, 'sandbox-state.json');
    const garbage = Buffer.from('{"format": "shipbook-sandbox-state", "version": 1, "orders": \u0000 oops');
    writeFileSync(file, garbage);
    const r = await runShipbook(['order', 'create', 'fixtures/orders/domestic-syd-mel.yaml', '--again'], { env });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain(file);
    expect(r.stderr).toMatch(/shipbook sandbox reset/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(readFileSync(file).equals(garbage)).toBe(true);
    expect((await runShipbook(['sandbox', 'status'], { env })).code).toBe(4);
    // The fix it names works.
    expect((await runShipbook(['sandbox', 'reset', '--yes'], { env })).code).toBe(0);
    expect((await runShipbook(['order', 'create', 'fixtures/orders/domestic-syd-mel.yaml', '--again'], { env })).code).toBe(0);
  });

  it('says what is wrong (exit 4, not an internal error) when SHIPBOOK_STATE_DIR is a file', async () => {
    const { env } = freshState();
    const file = join(mkdtempSync(join(tmpdir(), 'shipbook-notadir-')), 'state');
    writeFileSync(file, 'not a directory');
    const r = await runShipbook(['order', 'create', 'fixtures/orders/domestic-syd-mel.yaml'], { env: { ...env, SHIPBOOK_STATE_DIR: file } });
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toContain("cannot use the built-in sandbox's state directory");
    expect(r.stderr).toContain('SHIPBOOK_STATE_DIR');
    expect(r.stderr).not.toContain('internal error');
  });

  it.skipIf(process.platform !== 'linux')('a SHIPBOOK_STATE_DIR that cannot be created (under /proc) is exit 4 at once, not a hang', async () => {
    // Node.js's recursive mkdir spins for ever there (ENOENT each time); src/dirs.ts does not.
    const { env } = freshState();
    const r = await runShipbook(['order', 'create', 'fixtures/orders/domestic-syd-mel.yaml'], {
      env: { ...env, SHIPBOOK_STATE_DIR: '/proc/shipbook-cannot-be' },
      timeoutMs: 15_000,
    });
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toContain("cannot use the built-in sandbox's state directory");
    expect(r.stderr).not.toContain('internal error');
  });

  it('a batch journal that cannot be written is exit 2 before anything is sent, naming the journal', async () => {
    const { env, dir } = freshState();
    const file = join(mkdtempSync(join(tmpdir(), 'shipbook-notadir-')), 'plain-file');
    writeFileSync(file, 'not a directory');
    const journal = join(file, 'journal.ndjson');
    const r = await runShipbook(['book', 'fixtures/orders/domestic-syd-mel.yaml', 'fixtures/orders/insured-bne-per.yaml', '--journal', journal], { env });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`cannot write --journal ${journal}: ${file} is not a directory; nothing was sent`);
    expect(r.stderr).toContain('hint: Give --journal a file in a directory you can write.');
    expect(r.stderr).not.toContain('internal error');
    // nothing was booked: the built-in sandbox holds no order
    expect(existsSync(join(dir, 'state', 'orders')) ? readdirSync(join(dir, 'state', 'orders')) : []).toEqual([]);
  });

  it('sandbox reset asks for --yes without a terminal and deletes nothing', async () => {
    const { env } = freshState();
    await runShipbook(['order', 'create', 'fixtures/orders/domestic-syd-mel.yaml', '--again'], { env });
    const r = await runShipbook(['sandbox', 'reset'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--yes/);
    expect(json(await runShipbook(['sandbox', 'status', '--json'], { env })).orders.total).toBe(1);
  });
});

describe('a sandbox on a state directory', () => {
  it('lists every stored order newest first at GET /_sandbox/orders/, and keeps them across a restart', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'shipbook-state-test-')), 'state');
    const call = async (url: string, method: string, path: string, body?: unknown) => {
      const res = await fetch(new URL(path, url), {
        method,
        headers: { 'content-type': 'application/json', authorization: 'Bearer sk_test_state' },
        body: body === undefined ? undefined : JSON.stringify({ request: body }),
      });
      return (await res.json()) as { code: number; result: any };
    };
    const { parse } = await import('yaml');
    const doc = settleFixturePickups(parse(readFileSync(join(ROOT, 'fixtures/orders/domestic-syd-mel.yaml'), 'utf8'))) as Record<string, any>;
    const order = doc.request ?? doc;
    let sandbox = await startSandbox({ stateDir: dir, processingDelayMs: 0 });
    const first = (await call(sandbox.url, 'POST', 'orders/', order)).result.order.id as string;
    const second = (await call(sandbox.url, 'POST', 'orders/', order)).result.order.id as string;
    await sandbox.close();
    sandbox = await startSandbox({ stateDir: dir, processingDelayMs: 0 });
    try {
      const listed = await call(sandbox.url, 'GET', '_sandbox/orders/');
      expect(listed.code).toBe(200);
      expect(listed.result.orders.map((o: { id: string }) => o.id)).toEqual([second, first]);
      const one = listed.result.orders[0];
      expect(one).toMatchObject({ status: 'new', accepted_at: null });
      expect(one.shipments[0]).toMatchObject({ transient_id: order.order.shipments[0].transient_id, status: 'PEN', tracking_number: 'N/A' });
    } finally {
      await sandbox.close();
    }
  });
});
