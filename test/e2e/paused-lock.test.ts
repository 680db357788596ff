/**
 * Locks held until their holder ends, end to end with real processes: a built-in sandbox command
 * stopped (SIGSTOP) while it holds the store's lock keeps it, so a second `order accept` waits and
 * exactly one accept wins; a batch stopped for 15 s keeps its journal, so a second batch on the same
 * journal refuses and names it, and the first finishes once continued.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, watch } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { batchFixture } from '../helpers/batch.js';
import { E2E_API_KEY, useSandbox } from '../helpers/sandbox.js';
import { BIN, ROOT, isolatedEnv, runCli, type CliResult } from '../helpers/cli.js';

const running: ChildProcess[] = [];
afterEach(async () => {
  for (const c of running.splice(0)) {
    if (c.exitCode === null && c.signalCode === null) {
      const exited = once(c, 'exit');
      c.kill('SIGCONT');
      c.kill('SIGKILL');
      await exited;
    }
  }
});

/** Starts `shipbook <args>` as a process; `done` resolves with its exit code and output. */
function start(args: string[], env: Record<string, string>): { child: ChildProcess; done: Promise<CliResult> } {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: isolatedEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  running.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const done = new Promise<CliResult>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  return { child, done };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the built-in sandbox store lock', () => {
  it('stays with a holder stopped for 5 s: the second accept waits for it, and one accept wins', async () => {
    const state = mkdtempSync(join(tmpdir(), 'shipbook-paused-store-'));
    const env = { SHIPBOOK_STATE_DIR: state };
    const lock = join(state, 'state.lock');
    let caught = false;
    // The holder is caught inside one of its transactions by watching for the lock to appear;
    // a run that finishes before it is caught is tried again with a new order.
    for (let attempt = 0; attempt < 12 && !caught; attempt++) {
      const created = await runCli(['order', 'create', 'fixtures/orders/domestic-syd-mel.yaml', '--quiet'], { env });
      expect(created.code, created.stderr).toBe(0);
      const id = created.stdout.trim();
      const first = start(['order', 'accept', id, '--payment', 'credit'], env);
      const watcher = watch(state, (_event, name) => {
        if (caught || name !== 'state.lock') return;
        try {
          const owner = JSON.parse(readFileSync(join(lock, 'owner.json'), 'utf8')) as { pid: number };
          if (owner.pid !== first.child.pid) return;
          first.child.kill('SIGSTOP');
          caught = true;
        } catch {
          // gone again already
        }
      });
      let firstResult: CliResult;
      let secondResult: CliResult | undefined;
      try {
        const finished = await Promise.race([
          first.done.then(() => 'done' as const),
          (async () => {
            for (let i = 0; i < 400 && !caught; i++) await pause(5);
            return caught ? ('caught' as const) : ('done' as const);
          })(),
        ]);
        if (finished === 'done' && !caught) {
          await first.done;
          continue;
        }
        // The first is stopped holding the lock (if it still does: it may have let go just before the stop).
        const held = existsSync(join(lock, 'owner.json')) && JSON.parse(readFileSync(join(lock, 'owner.json'), 'utf8')).pid === first.child.pid;
        if (!held) {
          caught = false;
          first.child.kill('SIGCONT');
          await first.done;
          continue;
        }
        const second = start(['order', 'accept', id, '--payment', 'credit'], env);
        await pause(5_000);
        // Still waiting: the lock of a stopped process is not taken from it.
        expect(second.child.exitCode).toBe(null);
        first.child.kill('SIGCONT');
        [firstResult, secondResult] = await Promise.all([first.done, second.done]);
      } finally {
        watcher.close();
      }
      // One accept wins; the other finds the order accepted before it and says nothing was accepted
      // (exit 0 once the order is processed, 7 while its booking still runs).
      const both = `${firstResult.stderr}\n${secondResult.stderr}`;
      const losers = [firstResult, secondResult].filter((r) => r.stderr.includes('nothing was accepted'));
      expect(losers, both).toHaveLength(1);
      const winner = losers[0] === firstResult ? secondResult : firstResult;
      expect(winner.code, both).toBe(0);
      expect(winner.stderr).toContain('Booking runs asynchronously');
      // Exit 0 when the order was processed by then, 7 while its booking still runs: its note says which.
      expect(losers[0]!.code, both).toBe(/was already processed/.test(losers[0]!.stderr) ? 0 : 7);
      expect(losers[0]!.stderr).toMatch(/was already (processed|accepted)/);
    }
    expect(caught).toBe(true);
  }, 120_000);
});

describe('the batch journal lock', () => {
  const fx = useSandbox({ processingDelayMs: 20, faults: { latencyMs: 100 } });

  it('stays with a batch stopped for 15 s: a second batch on its journal refuses, naming it, and the first finishes', async () => {
    const { dir, file } = batchFixture(12, { dir: mkdtempSync(join(tmpdir(), 'shipbook-paused-batch-')), prefix: 'P' });
    const journal = join(dir, 'journal.ndjson');
    const first = start(['book', file, '--journal', journal, '--concurrency', '2'], fx.env);
    for (let i = 0; i < 400 && !(existsSync(journal) && readFileSync(journal, 'utf8').includes('create_sent')); i++) await pause(10);
    first.child.kill('SIGSTOP');
    await pause(15_000);
    const second = await runCli(['book', file, '--journal', journal], { env: fx.env });
    expect(second.code, second.stderr).toBe(2);
    expect(second.stderr).toContain(`in use by another batch (pid ${first.child.pid}`);
    first.child.kill('SIGCONT');
    const result = await first.done;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('12 booked');
    // Booked once each, by the first batch alone.
    const res = await fetch(new URL('_sandbox/orders/', fx.sandbox.url), { headers: { authorization: `Bearer ${E2E_API_KEY}` } });
    const body = (await res.json()) as { result: { orders: Array<{ shipments: Array<{ transient_id: string | null }> }> } };
    const ids = body.result.orders.map((o) => o.shipments[0]?.transient_id).filter((t) => t?.startsWith('P-'));
    expect(ids.length).toBe(12);
    expect(new Set(ids).size).toBe(12);
  }, 120_000);

  it('a batch whose journal lock is taken away sends nothing new and ends with exit 11, recording what was under way', async () => {
    const { dir, file } = batchFixture(20, { dir: mkdtempSync(join(tmpdir(), 'shipbook-lost-lock-')), prefix: 'L' });
    const journal = join(dir, 'journal.ndjson');
    const first = start(['book', file, '--journal', journal, '--concurrency', '1'], fx.env);
    for (let i = 0; i < 400 && !(existsSync(journal) && readFileSync(journal, 'utf8').includes('create_sent')); i++) await pause(10);
    rmSync(`${journal}.lock`, { recursive: true, force: true });
    const result = await first.done;
    expect(result.code, result.stderr).toBe(11);
    expect(result.stderr).toContain(
      `the lock ${journal}.lock was lost while held: it was removed; no new request was sent after that, and what was under way is recorded in ${journal}`,
    );
    expect(result.stderr).not.toMatch(/ECOMPROMISED|internal error|main\.cjs/);
    // The same command continues it: every order booked once.
    const again = await runCli(['book', file, '--journal', journal], { env: fx.env, timeoutMs: 60_000 });
    expect(again.code, again.stderr).toBe(0);
    const res = await fetch(new URL('_sandbox/orders/', fx.sandbox.url), { headers: { authorization: `Bearer ${E2E_API_KEY}` } });
    const body = (await res.json()) as { result: { orders: Array<{ shipments: Array<{ transient_id: string | null }> }> } };
    const ids = body.result.orders.map((o) => o.shipments[0]?.transient_id).filter((t) => t?.startsWith('L-'));
    expect(new Set(ids).size).toBe(20);
    expect(ids.length).toBe(20);
  }, 120_000);
});
