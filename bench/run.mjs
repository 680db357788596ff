#!/usr/bin/env node
// shipbook benchmark (npm run bench): speed and memory targets, measured on the built CLI.
// Not part of `npm test`: timings depend on the machine, so they never gate the test suite.
// Each target prints its median (and peak RSS where /usr/bin/time is available) and PASS/FAIL;
// the run exits 1 when a target is missed.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const bin = join(root, 'bin', 'shipbook.js');
const haveTime = existsSync('/usr/bin/time');
const home = mkdtempSync(join(tmpdir(), 'shipbook-bench-'));
const env = { ...process.env, NO_COLOR: '1', CI: '1', HOME: home, XDG_CONFIG_HOME: home, SHIPBOOK_SANDBOX_DELAY_MS: '50' };

/** Runs the CLI once; returns wall time in ms and peak RSS in MiB (when measurable). */
function runOnce(args, extraEnv = {}) {
  const started = process.hrtime.bigint();
  const cmd = haveTime ? '/usr/bin/time' : process.execPath;
  const argv = haveTime ? ['-f', '%M', process.execPath, bin, ...args] : [bin, ...args];
  const r = spawnSync(cmd, argv, { cwd: root, env: { ...env, ...extraEnv }, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (r.status !== 0) throw new Error(`shipbook ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  const rssKb = haveTime ? Number(r.stderr.trim().split('\n').pop()) : NaN;
  return { ms, rssMiB: rssKb / 1024 };
}

function measure(name, runs, args, target, extraEnv) {
  const samples = Array.from({ length: runs }, () => runOnce(args, extraEnv));
  const times = samples.map((s) => s.ms).sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  const rss = Math.max(...samples.map((s) => s.rssMiB));
  const ok = median <= target.ms && (Number.isNaN(rss) || rss <= target.rssMiB);
  console.log(
    `${ok ? 'PASS' : 'FAIL'}  ${name.padEnd(44)} median ${median.toFixed(0).padStart(5)} ms (target ≤ ${target.ms})` +
      (Number.isNaN(rss) ? '' : `   peak RSS ${rss.toFixed(0).padStart(4)} MiB (target ≤ ${target.rssMiB})`),
  );
  return ok;
}

// A foreground sandbox for the commands that talk to a service.
const sandbox = spawn(process.execPath, [bin, 'sandbox', '--port', '0', '--json', '--delay', '50ms'], { cwd: root, env, stdio: ['ignore', 'pipe', 'ignore'] });
const url = await new Promise((resolveUrl, reject) => {
  let out = '';
  sandbox.stdout.on('data', (d) => {
    out += d;
    const line = out.split('\n')[0];
    if (out.includes('\n')) resolveUrl(JSON.parse(line).url);
  });
  sandbox.on('exit', (code) => reject(new Error(`sandbox exited ${code}`)));
});
const remote = { SHIPBOOK_BASE_URL: url, SHIPBOOK_API_KEY: 'sk_bench_0123456789' };

// 200 order files for a batch validation.
const batch = join(home, 'batch');
spawnSync('mkdir', ['-p', batch]);
const order = spawnSync('cat', [join(root, 'fixtures/orders/domestic-syd-mel.yaml')], { encoding: 'utf8' }).stdout;
for (let i = 0; i < 200; i++) writeFileSync(join(batch, `order-${i}.yaml`), order.replace('SO-10482', `SO-${10000 + i}`));

const results = [
  measure('start-up: shipbook --help', 10, ['--help'], { ms: 400, rssMiB: 120 }),
  measure('quote against a sandbox on loopback', 10, ['quote', 'fixtures/quotes/syd-per-multi.yaml'], { ms: 600, rssMiB: 150 }, remote),
  measure('book (create, accept, wait) on a sandbox', 5, ['book', 'fixtures/orders/domestic-syd-mel.yaml', '--poll', '100ms'], { ms: 1500, rssMiB: 150 }, remote),
  measure('book against the built-in in-process sandbox', 5, ['book', 'fixtures/orders/domestic-syd-mel.yaml', '--poll', '100ms'], { ms: 1500, rssMiB: 150 }),
];
{
  results.push(measure('validate 200 order files offline', 3, ['validate', batch], { ms: 3000, rssMiB: 200 }));
}

sandbox.kill('SIGTERM');
rmSync(home, { recursive: true, force: true });
const failed = results.filter((ok) => !ok).length;
console.log(failed === 0 ? 'all targets met' : `${failed} target(s) missed`);
process.exitCode = failed === 0 ? 0 : 1;
