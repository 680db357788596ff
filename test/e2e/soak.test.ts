/**
 * The soak: many orders against `shipbook sandbox --fail-rate 0.1 --reset-rate 0.1` (a separate
 * process), shipbook killed with SIGKILL three times at random moments and run again each time
 * through a different entry (a batch, single books of some files, a shard). Counted at the
 * sandbox's own list (GET /_sandbox/orders/): no input has two orders, and every input ends booked
 * or reported unknown. `SHIPBOOK_SOAK_ORDERS` sets the size (120 here; run it by hand at 500).
 * Every run works in the test's own directory, where the default journal of the target goes.
 */
import { batchExitCode } from '../helpers/batch-exit.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BIN, ROOT, isolatedEnv, runCli } from '../helpers/cli.js';
import { ordersByInput as ordersAt, startSandboxProcess } from '../helpers/sandbox-process.js';

/** `shipbook sandbox` in its own process, requiring the test's key; resolves with its URL once it listens. */
const sandbox = (args: string[]) => startSandboxProcess(['--api-key', KEY, ...args], running);
/** Every order the sandbox holds, by the transient id of its first shipment. */
const ordersByInput = (url: string) => ordersAt(url, KEY);

const KEY = 'sk_test_soak_0123456789';
const N = Number(process.env.SHIPBOOK_SOAK_ORDERS ?? 120);
const running: ChildProcess[] = [];
afterEach(async () => {
  for (const c of running.splice(0)) {
    if (c.exitCode === null && c.signalCode === null) {
      const exited = once(c, 'exit');
      c.kill('SIGKILL');
      await exited;
    }
  }
});

/** Starts `shipbook <args>` and SIGKILLs it after a random moment within `withinMs`. */
async function killedAtRandom(args: string[], env: Record<string, string>, withinMs: number, cwd: string): Promise<number> {
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env: isolatedEnv(env), stdio: 'ignore' });
  running.push(child);
  const after = Math.round(400 + Math.random() * withinMs);
  const exited = once(child, 'exit');
  const timer = setTimeout(() => child.kill('SIGKILL'), after);
  await exited;
  clearTimeout(timer);
  return after;
}

describe('soak', () => {
  it(`${N} orders, a faulty sandbox, three SIGKILLs and reruns through a batch, single books and a shard: never two orders for one input`, async () => {
    const url = await sandbox(['--fail-rate', '0.1', '--reset-rate', '0.1']);
    const dir = mkdtempSync(join(tmpdir(), 'shipbook-soak-'));
    const doc = parse(readFileSync(join(ROOT, 'fixtures/orders/domestic-syd-mel.yaml'), 'utf8')) as Record<string, any>;
    const lines: string[] = [];
    for (let i = 0; i < N; i++) {
      const o = structuredClone(doc);
      o.order.shipments[0].transient_id = `K-${i}`;
      lines.push(JSON.stringify(o));
    }
    const file = join(dir, 'orders.ndjson');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const env = { SHIPBOOK_BASE_URL: url, SHIPBOOK_API_KEY: KEY, SHIPBOOK_STATE_DIR: mkdtempSync(join(tmpdir(), 'shipbook-soak-state-')) };
    const batch = ['book', file, '--concurrency', '8', '--poll', '100ms'];
    const figures: string[] = [];

    // 1: a batch, killed; then 2: the batch again, killed.
    figures.push(`kill 1 after ${await killedAtRandom(batch, env, 1500, dir)} ms`);
    figures.push(`kill 2 after ${await killedAtRandom(batch, env, 1500, dir)} ms`);
    // Then single books of some files (documents the killed runs may have left anywhere).
    const singles: Array<number | null> = [];
    for (const i of [0, 1, Math.floor(N / 2), N - 2, N - 1]) {
      const one = join(dir, `order-${i}.json`);
      writeFileSync(one, `${lines[i]}\n`);
      singles.push((await runCli(['book', one, '--poll', '100ms'], { env, cwd: dir, timeoutMs: 60_000 })).code);
    }
    figures.push(`single books exited ${singles.join(',')}`);
    // 3: a shard, killed; then the other shard, that shard again, and the whole batch to finish.
    figures.push(`kill 3 after ${await killedAtRandom([...batch, '--shard', '1/2', '--journal', join(dir, 'shard-1.ndjson')], env, 1500, dir)} ms`);
    const summaryOf = (file: string) => (JSON.parse(readFileSync(file, 'utf8')) as { summary: Record<string, unknown> }).summary;
    const shard2 = await runCli([...batch, '--shard', '2/2', '--journal', join(dir, 'shard-2.ndjson'), '--report', join(dir, 'shard-2.json')], {
      env,
      cwd: dir,
      timeoutMs: 240_000,
    });
    // Booked (0), or some order the kills left unknown (8): the report says which.
    expect(shard2.code, shard2.stderr.slice(-2000)).toBe(batchExitCode(summaryOf(join(dir, 'shard-2.json'))));
    const shard1 = await runCli([...batch, '--shard', '1/2', '--journal', join(dir, 'shard-1.ndjson'), '--report', join(dir, 'shard-1.json')], {
      env,
      cwd: dir,
      timeoutMs: 240_000,
    });
    expect(shard1.code, shard1.stderr.slice(-2000)).toBe(batchExitCode(summaryOf(join(dir, 'shard-1.json'))));
    // The whole batch, run again while some order is merely failed (its rerun continues it).
    const report = join(dir, 'report.json');
    let rep: { orders: Array<{ status: string; line: number; order_id?: string }> } = { orders: [] };
    for (let round = 0; round < 4; round++) {
      const r = await runCli([...batch, '--report', report], { env, cwd: dir, timeoutMs: 240_000 });
      expect(r.stderr).not.toMatch(/\n\s+at /);
      rep = JSON.parse(readFileSync(report, 'utf8')) as typeof rep;
      expect(r.code, r.stderr.slice(-2000)).toBe(batchExitCode(summaryOf(report)));
      if (!rep.orders.some((o) => o.status === 'failed')) break;
    }

    const by = await ordersByInput(url);
    const twice = [...by.entries()].filter(([, ids]) => ids.length > 1);
    const counts: Record<string, number> = {};
    for (const o of rep.orders) counts[o.status] = (counts[o.status] ?? 0) + 1;
    figures.push(
      `orders at the sandbox ${[...by.values()].flat().length} for ${by.size} inputs; inputs with two orders ${twice.length}; final report ${JSON.stringify(counts)}`,
    );
    console.log(`soak (${N} orders): ${figures.join('; ')}`);
    expect(twice).toEqual([]);
    expect(rep.orders).toHaveLength(N);
    for (const o of rep.orders) {
      expect(['booked', 'already_booked', 'unknown'], JSON.stringify(o)).toContain(o.status);
      if (o.status !== 'unknown') expect(by.get(`K-${o.line - 1}`)).toEqual([o.order_id]);
    }
  }, 600_000);
});
