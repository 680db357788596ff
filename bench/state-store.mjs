// The state-store figure of `npm run bench`: `shipbook order create` on the built-in sandbox with
// 10 and with 5,000 orders already stored (the cost of one operation must not grow with the number
// of stored orders). The stores are filled over HTTP by `shipbook sandbox --state <dir>` in its own
// process, then each create is a fresh `shipbook` process on that state directory, alternating
// between the two. Also runs alone: `node bench/state-store.mjs`.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';

function stats(values) {
  const s = [...values].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.max(0, Math.round(q * (s.length - 1))))];
  return { median: at(0.5), p25: at(0.25), p75: at(0.75), n: s.length };
}

/** Fills `dir` with `count` pending orders through a foreground sandbox on that state directory. */
async function fill({ bin, root, env, dir, count }) {
  const child = spawn(process.execPath, [bin, 'sandbox', '--port', '0', '--json', '--state', dir], { cwd: root, env, stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  child.stdout.setEncoding('utf8');
  const url = await new Promise((ok, fail) => {
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('\n')) ok(JSON.parse(out.slice(0, out.indexOf('\n'))).url);
    });
    child.on('exit', (code) => fail(new Error(`sandbox exited ${code}`)));
  });
  const doc = parse(readFileSync(join(root, 'fixtures/orders/domestic-syd-mel.yaml'), 'utf8'));
  const body = JSON.stringify({ request: doc.request ?? doc });
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next++ < count) {
        const res = await fetch(new URL('orders/', url), {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: 'Bearer sk_bench_state' },
          body,
        });
        if (res.status !== 200) throw new Error(`create answered ${res.status}`);
        await res.arrayBuffer();
      }
    }),
  );
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  // A sandbox that does not end on SIGTERM within 5 s is killed, so the run goes on.
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

/** Times `order create` on both stores, alternately; returns the medians and spreads in ms. */
export async function measureStateStore({ bin, root, env, work, runs = 15 }) {
  const small = join(work, 'state-10');
  const large = join(work, 'state-5000');
  await fill({ bin, root, env, dir: small, count: 10 });
  await fill({ bin, root, env, dir: large, count: 5000 });
  const time = (dir) => {
    const started = process.hrtime.bigint();
    // --again: each run creates an order (without it the ledger prints the first one again).
    const r = spawnSync(process.execPath, [bin, 'order', 'create', 'fixtures/orders/domestic-syd-mel.yaml', '--again'], {
      cwd: root,
      env: { ...env, SHIPBOOK_STATE_DIR: dir },
      encoding: 'utf8',
    });
    if (r.status !== 0) throw new Error(`order create exited ${r.status}: ${r.stderr}`);
    return Number(process.hrtime.bigint() - started) / 1e6;
  };
  time(small);
  time(large);
  const a = [];
  const b = [];
  for (let i = 0; i < runs; i++) {
    b.push(time(small));
    a.push(time(large));
  }
  return { large: stats(a), small: stats(b), note: `${runs} alternating runs each; stores filled through shipbook sandbox --state` };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = resolve(import.meta.dirname, '..');
  const work = mkdtempSync(join(tmpdir(), 'shipbook-bench-state-'));
  const env = { ...process.env, NO_COLOR: '1', CI: '1', SHIPBOOK_CONFIG_DIR: join(work, 'config') };
  const r = await measureStateStore({ bin: join(root, 'bin', 'shipbook.js'), root, env, work });
  console.log(
    `order create with 5,000 stored: median ${r.large.median.toFixed(0)} ms; with 10: ${r.small.median.toFixed(0)} ms; ratio ${(r.large.median / r.small.median).toFixed(2)} (target ≤ 1.5)`,
  );
  rmSync(work, { recursive: true, force: true });
}
