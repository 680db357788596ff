/**
 * `shipbook sandbox` as its own process, for tests that need the service to outlive a shipbook
 * run (kills, shards, two targets), and the sandbox's own list of orders to count what was booked.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { BIN, ROOT, isolatedEnv } from './cli.js';

/**
 * Starts `shipbook sandbox --port 0 --json --no-log --delay 20ms <args>` and resolves with its URL
 * once it listens. The process is pushed onto `running`, for the test file to kill afterwards.
 */
export function startSandboxProcess(args: string[], running: ChildProcess[]): Promise<string> {
  const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '--json', '--no-log', '--delay', '20ms', ...args], {
    cwd: ROOT,
    env: isolatedEnv(),
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  running.push(child);
  let out = '';
  child.stdout!.setEncoding('utf8');
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: string) => {
      out += d;
      if (out.includes('\n')) resolve(JSON.parse(out.slice(0, out.indexOf('\n'))).url as string);
    });
    child.on('exit', (code) => reject(new Error(`sandbox exited ${code}`)));
  });
}

/** Every order a sandbox holds (`GET /_sandbox/orders/` with `key`), by the transient id of its first shipment. */
export async function ordersByInput(url: string, key: string): Promise<Map<string, string[]>> {
  const res = await fetch(new URL('_sandbox/orders/', url), { headers: { authorization: `Bearer ${key}` } });
  const body = (await res.json()) as { result: { orders: Array<{ id: string; shipments: Array<{ transient_id: string | null }> }> } };
  const by = new Map<string, string[]>();
  for (const o of body.result.orders) {
    const t = o.shipments[0]?.transient_id ?? '';
    by.set(t, [...(by.get(t) ?? []), o.id]);
  }
  return by;
}
