// The sandbox's memory with many stored orders, a figure of `npm run bench`: `shipbook sandbox
// --delay 1ms` (state in memory) in its own process books `count` orders sent by a fast client
// (create, accept, then fetch-order-data until processed; 32 orders under way), then its peak and
// current RSS are read from /proc/<pid>/status (VmHWM, VmRSS). Also runs alone:
//   node bench/sandbox-rss.mjs [count]        (default 100000; prints the figures as JSON)
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import { sampleOrder } from './orders.mjs';

/** VmHWM and VmRSS of a process, MiB (NaN where /proc is not there). */
function memoryOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
    return { peakMiB: kib('VmHWM') / 1024, rssMiB: kib('VmRSS') / 1024 };
  } catch {
    return { peakMiB: Number.NaN, rssMiB: Number.NaN };
  }
}

/**
 * Books `count` orders on a fresh `shipbook sandbox --delay 1ms` and reads its memory.
 * @returns {{count, peakMiB, rssMiB, seconds, ordersPerSecond, cpuSeconds}}
 */
export async function measureSandboxRss({ bin, root, env = process.env, count = 100_000, concurrency = 32 }) {
  const child = spawn(process.execPath, [bin, 'sandbox', '--port', '0', '--json', '--no-log', '--delay', '1ms'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let out = '';
  child.stdout.setEncoding('utf8');
  const url = await new Promise((ok, fail) => {
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('\n')) ok(JSON.parse(out.slice(0, out.indexOf('\n'))).url);
    });
    child.on('exit', (code) => fail(new Error(`sandbox exited ${code} before it was ready`)));
  });
  const dispatcher = new Agent({ connections: concurrency, keepAliveTimeout: 10_000 });
  const headers = { 'content-type': 'application/json', authorization: 'Bearer sk_bench_sandbox_rss' };
  const call = async (method, path, body) => {
    const res = await request(new URL(path, url), { method, headers, body: body === undefined ? undefined : JSON.stringify({ request: body }), dispatcher });
    const json = await res.body.json();
    if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${json.message}`);
    return json.result;
  };
  const template = sampleOrder();
  const started = process.hrtime.bigint();
  let next = 0;
  try {
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let n = next++; n < count; n = next++) {
          template.order.shipments[0].transient_id = `RSS-${n}`;
          const id = (await call('POST', 'orders/', template)).order.id;
          await call('PUT', `orders/${id}/accept/`, { order: { id, payment: { type: 'credit' } } });
          for (;;) {
            await sleep(2);
            const status = (await call('GET', `orders/${id}/`)).order.status;
            if (status === 'processed') break;
            if (status === 'failed' || status === 'cancelled') throw new Error(`order ${id} ended ${status}`);
          }
        }
      }),
    );
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const memory = memoryOf(child.pid);
    let cpuSeconds = Number.NaN;
    try {
      const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
      cpuSeconds = (Number(fields[11]) + Number(fields[12])) / 100;
    } catch {
      // no /proc: the CPU is not reported
    }
    return { count, ...memory, seconds, ordersPerSecond: count / seconds, cpuSeconds };
  } finally {
    await dispatcher.close();
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    // A sandbox that does not end on SIGTERM within 5 s is killed, so the run goes on.
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const root = resolve(import.meta.dirname, '..');
  const count = Number(process.argv[2] ?? 100_000);
  const r = await measureSandboxRss({ bin: join(root, 'bin', 'shipbook.js'), root, count });
  process.stdout.write(`${JSON.stringify(r)}\n`);
}
