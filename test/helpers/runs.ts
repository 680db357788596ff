/**
 * Runs of the built `bin/shipbook.js` as processes of their own, side by side (two stations, two
 * terminals), with the NDJSON files they book and the sandbox's own list of orders as the witness.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { BIN, ROOT, isolatedEnv } from './cli.js';
import { ordersByInput } from './sandbox-process.js';

/**
 * An NDJSON file of `n` copies of fixtures/orders/domestic-syd-mel.yaml whose first shipments have
 * the transient ids `<tag>-0` …, in a new temporary directory; `single` holds the first one alone.
 */
export function taggedOrdersFile(n: number, tag: string): { dir: string; file: string; single: string } {
  const dir = mkdtempSync(join(tmpdir(), 'shipbook-runs-'));
  const doc = parse(readFileSync(join(ROOT, 'fixtures/orders/domestic-syd-mel.yaml'), 'utf8')) as { order: { shipments: Array<{ transient_id?: string }> } };
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const o = structuredClone(doc);
    o.order.shipments[0]!.transient_id = `${tag}-${i}`;
    lines.push(JSON.stringify(o));
  }
  const file = join(dir, 'orders.ndjson');
  writeFileSync(file, `${lines.join('\n')}\n`);
  const single = join(dir, 'one.json');
  writeFileSync(single, `${lines[0]}\n`);
  return { dir, file, single };
}

/** A run of shipbook as a process, with its output and its end. */
interface Run {
  child: ChildProcess;
  stderr: () => string;
  stdout: () => string;
  done: Promise<number | null>;
}

/** Starts `shipbook <args>` in `cwd` with {@link isolatedEnv}(env); the child is pushed on `running` (for afterAll to kill). */
export function startRun(args: string[], env: Record<string, string>, cwd: string, running: ChildProcess[]): Run {
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env: isolatedEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  running.push(child);
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  const done = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, stderr: () => err, stdout: () => out, done };
}

/** Resolves once `test()` holds (checked every 25 ms), or fails after `ms` naming `what`. */
export async function until(test: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!test()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The orders at the sandbox `url` (key `key`) whose transient id starts with `tag`: how many documents, and how many orders. */
export async function countedByTag(url: string, key: string, tag: string): Promise<{ documents: number; orders: number }> {
  const by = await ordersByInput(url, key);
  let documents = 0;
  let orders = 0;
  for (const [t, ids] of by) {
    if (!t.startsWith(`${tag}-`)) continue;
    documents++;
    orders += ids.length;
  }
  return { documents, orders };
}
