#!/usr/bin/env node
// shipbook benchmark (`npm run bench`): start-up, throughput, sandbox capacity, memory and the
// sandbox's state store, each measured side by side with a baseline in the same run, on whatever
// machine it runs. Prints a table (median, spread, ratio, target, verdict) and writes
// bench/RESULTS.md. Not part of `npm test`: timings depend on the machine, so they never gate the
// test suite; a missed target is reported (and the run exits 1), never hidden.
//
// Options: --quick (fewer pairs and shorter load runs, for trying the harness), --only <name,…>
// (figures whose name contains one of the words: the other rows of bench/RESULTS.md, their profiles
// and notes stay as the earlier run wrote them), --no-write (do not touch bench/RESULTS.md);
// for the scaling table (`--only scaling`, or `--only 'scaling: book'` without the sandbox's row):
// --scale <n,…> (its batch sizes) and --scale-sources <ndjson,csv,yamlDir> (some of its inputs).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, createWriteStream } from 'node:fs';
import { createHash } from 'node:crypto';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { once } from 'node:events';
import { BOOKING_ACTIVITIES, profileMarkdown, summariseProfile } from './profile.mjs';

const root = resolve(import.meta.dirname, '..');
const bin = join(root, 'bin', 'shipbook.js');
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const onlyArg = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
const only = onlyArg ? onlyArg.split(',') : undefined;
const write = !args.includes('--no-write');
/** `--scale <n,…>`: the scaling table's batch sizes instead of its own; `--scale-sources <ndjson,csv,yamlDir>`: some of its inputs. */
const listArg = (name) => (args.includes(name) ? args[args.indexOf(name) + 1].split(',') : undefined);
const scaleSizes = listArg('--scale')?.map(Number);
const scaleSources = listArg('--scale-sources');
const haveTime = existsSync('/usr/bin/time');
const work = mkdtempSync(join(tmpdir(), 'shipbook-bench-'));
const baseEnv = {
  ...process.env,
  NO_COLOR: '1',
  CI: '1',
  HOME: work,
  XDG_CONFIG_HOME: join(work, 'config'),
  SHIPBOOK_CONFIG_DIR: join(work, 'config'),
  SHIPBOOK_STATE_DIR: join(work, 'state'),
};
const PAIRS = quick ? 5 : 21;
const LOAD_SECONDS = quick ? 2 : 6;

// ---------------------------------------------------------------------------------------------
// Measuring

/** Runs a command once; wall time in ms, peak RSS in MiB and CPU time (user + system, every thread) in ms (NaN without /usr/bin/time). */
function runOnce(argv, env = baseEnv, cwd = root) {
  const cmd = haveTime ? '/usr/bin/time' : argv[0];
  const full = haveTime ? ['-f', '__RSS__%M __CPU__%U %S', ...argv] : argv.slice(1);
  const started = process.hrtime.bigint();
  const r = spawnSync(cmd, full, { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const m = /__RSS__(\d+)/.exec(r.stderr ?? '');
  const cpu = /__CPU__([\d.]+) ([\d.]+)/.exec(r.stderr ?? '');
  if (r.status !== 0) throw new Error(`${argv.join(' ')} exited ${r.status}: ${(r.stderr ?? '').slice(-800)}`);
  return { ms, rssMiB: m ? Number(m[1]) / 1024 : NaN, cpuMs: cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1000 : NaN, stdout: r.stdout };
}

/** Median and inter-quartile spread of a list of numbers. */
function stats(values) {
  const s = [...values].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.max(0, Math.round(q * (s.length - 1))))];
  return { median: at(0.5), p25: at(0.25), p75: at(0.75), n: s.length };
}

/**
 * Runs `argv` and the baseline alternately `pairs` times (a warm-up pair first, not counted);
 * returns both series of wall times and peak RSS.
 */
function pairs(argv, baseline, n, env) {
  runOnce(argv, env);
  runOnce(baseline, env);
  const a = [];
  const b = [];
  for (let i = 0; i < n; i++) {
    a.push(runOnce(argv, env));
    b.push(runOnce(baseline, env));
  }
  return { a, b };
}

/** A child process that prints one JSON line on stdout when ready (its URL). */
async function startServer(argv, env = baseEnv) {
  const child = spawn(argv[0], argv.slice(1), { cwd: root, env, stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  child.stdout.setEncoding('utf8');
  const ready = new Promise((resolveReady, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl >= 0) resolveReady(JSON.parse(out.slice(0, nl)));
    });
    child.on('exit', (code) => reject(new Error(`${argv.join(' ')} exited ${code} before it was ready`)));
  });
  const info = await ready;
  return {
    url: info.url,
    /** CPU time (user + system) the server has used so far, ms; NaN where /proc is not there. */
    cpuMs() {
      try {
        const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
        return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ 100)
      } catch {
        return Number.NaN;
      }
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      // A server that does not end on SIGTERM within 5 s is killed, so the run goes on.
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** A foreground sandbox (`shipbook sandbox --json`) in its own process, no processing delay. */
function startSandbox(extra = []) {
  return startServer([process.execPath, bin, 'sandbox', '--port', '0', '--json', '--no-log', '--delay', '1ms', ...extra]);
}

/** True when the built CLI knows `flag` on `book` (figures that need later features say so instead of failing). */
function bookHas(flag) {
  const r = spawnSync(process.execPath, [bin, 'book', '--help'], { cwd: root, env: baseEnv, encoding: 'utf8' });
  return r.stdout.includes(flag);
}

/**
 * For a missed figure: profiles of the shipbook process (node --cpu-prof) in bench/profiles/
 * (not committed; open them in Chrome DevTools), summarised by bench/profile.mjs under the table.
 */
const profiles = [];
const profileDir = join(root, 'bench', 'profiles');
function profileArgs(name) {
  const dir = join(profileDir, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return { flags: ['--cpu-prof', '--cpu-prof-dir', dir], dir };
}
function addProfile(title, dir, units, extra, activities) {
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) return;
  profiles.push(
    profileMarkdown(`${title} (bench/profiles/${dir.split('/').pop()}/${file})`, summariseProfile(join(dir, file), root, activities), 12, units, extra),
  );
}

// ---------------------------------------------------------------------------------------------
// The figures. Each returns rows: {figure, value, baseline, ratio, target, ok, note}.

const rows = [];
const fmtMs = (v) => `${v.toFixed(0)} ms`;
const fmtSpread = (s, f) => `${f(s.p25)}–${f(s.p75)}`;

function addRow(row) {
  rows.push(row);
  const verdict = row.ok === undefined ? (row.target === '(information)' ? 'info' : 'n/a ') : row.ok ? 'PASS' : 'MISS';
  console.log(
    `${verdict}  ${row.figure.padEnd(52)} ${String(row.value).padEnd(28)} ${String(row.baseline ?? '').padEnd(26)} ratio ${row.ratio ?? '–'} (target ${row.target})`,
  );
}

async function coldStart(sandboxUrl) {
  const node0 = [process.execPath, '-e', '0'];
  const cases = [
    { name: '--version', argv: ['--version'], target: 1.2 },
    { name: '--help', argv: ['--help'], target: 1.3 },
    { name: 'validate one file', argv: ['validate', 'fixtures/orders/domestic-syd-mel.yaml'], target: 1.5 },
    { name: 'quote against a running sandbox', argv: ['quote', 'fixtures/quotes/syd-mel-single.yaml'], target: 1.8, remote: true },
    // For information (no target): the same without the code cache, as on a command's first run.
    { name: 'validate one file, without code cache', argv: ['validate', 'fixtures/orders/domestic-syd-mel.yaml'], noCache: true },
    { name: 'quote, without code cache', argv: ['quote', 'fixtures/quotes/syd-mel-single.yaml'], remote: true, noCache: true },
  ];
  for (const c of cases) {
    let env = c.remote ? { ...baseEnv, SHIPBOOK_BASE_URL: sandboxUrl, SHIPBOOK_API_KEY: 'sk_bench_0123456789' } : baseEnv;
    if (c.noCache) env = { ...env, NODE_DISABLE_COMPILE_CACHE: '1' };
    const { a, b } = pairs([process.execPath, bin, ...c.argv], node0, PAIRS, env);
    const sa = stats(a.map((x) => x.ms));
    const sb = stats(b.map((x) => x.ms));
    const ratio = sa.median / sb.median;
    const rss = Math.max(...a.map((x) => x.rssMiB));
    addRow({
      figure: `cold start: shipbook ${c.name} / node -e 0`,
      value: `${fmtMs(sa.median)} (${fmtSpread(sa, fmtMs)})`,
      baseline: `${fmtMs(sb.median)} (${fmtSpread(sb, fmtMs)})`,
      ratio: ratio.toFixed(2),
      target: c.target === undefined ? '(information)' : `≤ ${c.target}`,
      ok: c.target === undefined ? undefined : ratio <= c.target,
      note: Number.isNaN(rss) ? `${sa.n} pairs` : `${sa.n} pairs; peak RSS ${rss.toFixed(0)} MiB`,
    });
    if (c.target !== undefined && ratio > c.target) {
      const p = profileArgs(`start-${c.argv[0].replace(/^-+/, '')}`);
      runOnce([process.execPath, ...p.flags, bin, ...c.argv], env);
      addProfile(`cold start: shipbook ${c.name}`, p.dir);
    }
  }
}

/**
 * The bytes of JavaScript (dist/main.cjs and the chunk and vendor files it loads) that `validate`
 * and `quote` read and parse, from bench/loaded-bytes.cjs preloaded into one run of each.
 */
async function bundleBytes(sandboxUrl) {
  for (const c of [
    { name: 'validate', argv: ['validate', 'fixtures/orders/domestic-syd-mel.yaml'], target: 1.0 },
    { name: 'quote', argv: ['quote', 'fixtures/quotes/syd-mel-single.yaml'], remote: true },
  ]) {
    const list = join(work, `loaded-${c.name}.txt`);
    const env = { ...baseEnv, SHIPBOOK_BENCH_LOADED: list, ...(c.remote ? { SHIPBOOK_BASE_URL: sandboxUrl, SHIPBOOK_API_KEY: 'sk_bench_0123456789' } : {}) };
    runOnce([process.execPath, '-r', join(root, 'bench', 'loaded-bytes.cjs'), bin, ...c.argv], env);
    const files = readFileSync(list, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split(' '));
    const bytes = files.reduce((n, [b]) => n + Number(b), 0);
    const mb = bytes / 1e6;
    addRow({
      figure: `bundle bytes parsed by ${c.name}`,
      value: `${mb.toFixed(2)} MB`,
      ratio: undefined,
      target: c.target === undefined ? '(information)' : `≤ ${c.target.toFixed(1)} MB`,
      ok: c.target === undefined ? undefined : mb <= c.target,
      note: files.map(([b, f]) => `${f} ${(Number(b) / 1e3).toFixed(0)} kB`).join(', '),
    });
  }
}

/** Requests per second of autocannon (in its own process) against `url`, POST /quote/ with a fixed body. */
function autocannon(url, body) {
  const script = join(root, 'bench', 'load.mjs');
  const r = spawnSync(process.execPath, [script, url, String(LOAD_SECONDS), body], { cwd: root, env: baseEnv, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`load generator failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

async function sandboxCapacity() {
  const body = JSON.stringify({
    request: {
      collection_country: 'AU',
      collection_postcode: '2000',
      collection_city: 'Sydney',
      delivery_country: 'AU',
      delivery_postcode: '3000',
      delivery_city: 'Melbourne',
      packages: [{ length: 30, width: 20, height: 15, weight: 2.5, unit: 'cm' }],
      currency: 'AUD',
    },
  });
  const sandbox = await startSandbox();
  const bare = await startServer([process.execPath, join(root, 'bench', 'bare-server.mjs')]);
  try {
    const ours = [];
    const theirs = [];
    for (let round = 0; round < 2; round++) {
      ours.push(autocannon(`${sandbox.url}quote/`, body));
      theirs.push(autocannon(`${bare.url}quote/`, body));
    }
    const errors = ours.reduce((n, r) => n + r.errors + r.non2xx, 0);
    const a = stats(ours.map((r) => r.requestsPerSecond));
    const b = stats(theirs.map((r) => r.requestsPerSecond));
    const ratio = a.median / b.median;
    addRow({
      figure: 'sandbox POST /quote/ req/s / bare node:http',
      value: `${a.median.toFixed(0)} req/s`,
      baseline: `${b.median.toFixed(0)} req/s`,
      ratio: ratio.toFixed(2),
      target: '≥ 0.7',
      ok: ratio >= 0.7 && errors === 0,
      note: `autocannon, 32 connections, ${LOAD_SECONDS} s × 2 rounds each; ${errors} errors`,
    });
    if (ratio < 0.7) {
      // The sandbox and, for comparison, the bare server, each under the same load.
      for (const [name, argv, title] of [
        ['sandbox-quote', [bin, 'sandbox', '--port', '0', '--json', '--no-log', '--delay', '1ms'], 'the sandbox under POST /quote/ load'],
        ['bare-server', [join(root, 'bench', 'bare-server.mjs')], 'the bare node:http server under the same load'],
      ]) {
        const p = profileArgs(name);
        const profiled = await startServer([process.execPath, ...p.flags, ...argv]);
        const load = autocannon(`${profiled.url}quote/`, body);
        await profiled.stop();
        addProfile(title, p.dir, { count: Math.round(load.requestsPerSecond * LOAD_SECONDS), name: 'request' });
      }
    }
  } finally {
    await sandbox.stop();
    await bare.stop();
  }
}

/** NDJSON file of `count` generated orders (distinct transient ids). */
async function ndjsonOrders(count) {
  const file = join(work, `orders-${count}.ndjson`);
  const { sampleOrder } = await import('./orders.mjs');
  const template = sampleOrder();
  const out = createWriteStream(file);
  for (let i = 0; i < count; i++) {
    template.order.shipments[0].transient_id = `BENCH-${i}`;
    if (!out.write(`${JSON.stringify(template)}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return file;
}

/**
 * A throwaway PostgreSQL server for the shared ledger's figure (as test/helpers/postgres.ts): the
 * highest version under /usr/lib/postgresql, on 127.0.0.1 at `port`, trust authentication; as root,
 * run as the `postgres` user. Undefined when no PostgreSQL is installed.
 */
function startPostgres(port) {
  const base = '/usr/lib/postgresql';
  const version = existsSync(base)
    ? readdirSync(base)
        .filter((v) => existsSync(join(base, v, 'bin', 'initdb')))
        .sort((x, y) => Number(y) - Number(x))[0]
    : undefined;
  if (version === undefined) return undefined;
  const binDir = join(base, version, 'bin');
  const dir = mkdtempSync(join(tmpdir(), 'shipbook-bench-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) spawnSync('chown', ['postgres:postgres', dir]);
  const run = (exe, argv) => {
    const [cmd, full] = asRoot ? ['runuser', ['-u', 'postgres', '--', join(binDir, exe), ...argv]] : [join(binDir, exe), argv];
    const r = spawnSync(cmd, full, { cwd: tmpdir(), encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${exe} exited ${r.status}: ${r.stderr.slice(-400)}`);
    return r.stdout;
  };
  run('initdb', ['-D', join(dir, 'data'), '-U', 'postgres', '--auth=trust', '--no-sync']);
  run('pg_ctl', [
    '-D',
    join(dir, 'data'),
    '-l',
    join(dir, 'log'),
    '-o',
    `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${dir}`,
    '-w',
    'start',
  ]);
  run('psql', ['-h', dir, '-p', String(port), '-U', 'postgres', '-c', 'CREATE DATABASE shipbook']);
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/shipbook`,
    version,
    stop() {
      run('pg_ctl', ['-D', join(dir, 'data'), '-m', 'immediate', 'stop']);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The shared ledger on PostgreSQL against the file ledger: the same batch booked with each, side by
 * side against one sandbox (each run on a target of its own: a key of its own), and the ledger's
 * round trips and transactions per order. `--only pgledger` measures it alone.
 */
async function pgLedger() {
  const name = 'shared ledger: book with PostgreSQL / with the file ledger';
  const count = quick ? 200 : 1000;
  const port = Number(process.env.SHIPBOOK_BENCH_PG_PORT ?? 46020);
  const pg = startPostgres(port);
  if (pg === undefined) {
    addRow({
      figure: name,
      value: 'not measured',
      ratio: undefined,
      target: '≥ 0.7',
      ok: undefined,
      note: 'no PostgreSQL installed (/usr/lib/postgresql/*/bin)',
    });
    return;
  }
  const file = await ndjsonOrders(count);
  const sandbox = await startSandbox();
  const statsFile = join(work, 'pg-ledger-stats.ndjson');
  try {
    let n = 0;
    const book = (shared) => {
      n++;
      const env = {
        ...baseEnv,
        SHIPBOOK_BASE_URL: sandbox.url,
        SHIPBOOK_API_KEY: `sk_bench_pg_${n}_0123456789`,
        SHIPBOOK_STATE_DIR: join(work, `state-pg-${n}`),
        ...(shared ? { SHIPBOOK_LEDGER: pg.url, SHIPBOOK_TEST_LEDGER_STATS: statsFile } : {}),
      };
      const t0 = process.hrtime.bigint();
      runOnce([process.execPath, bin, 'book', file, '--concurrency', '16', '--poll', '50ms', '--journal', join(work, `journal-pg-${n}.ndjson`)], env);
      return count / (Number(process.hrtime.bigint() - t0) / 1e9);
    };
    book(true);
    book(false);
    rmSync(statsFile, { force: true });
    const shared = [];
    const file_ = [];
    for (let round = 0; round < (quick ? 1 : 3); round++) {
      shared.push(book(true));
      file_.push(book(false));
    }
    const a = stats(shared);
    const b = stats(file_);
    const runs = readFileSync(statsFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    const perOrder = (k) => runs.reduce((sum, r) => sum + r[k], 0) / runs.length / count;
    const ratio = a.median / b.median;
    addRow({
      figure: name,
      value: `${a.median.toFixed(0)} orders/s`,
      baseline: `${b.median.toFixed(0)} orders/s`,
      ratio: ratio.toFixed(2),
      target: '≥ 0.7',
      ok: ratio >= 0.7,
      note: `${count} orders, book --concurrency 16 against one sandbox, ${shared.length} runs of each alternately (median); PostgreSQL ${pg.version} on this machine; the shared ledger took ${perOrder('roundTrips').toFixed(2)} round trips and ${perOrder('transactions').toFixed(2)} transactions per order (claims of a turn in one transaction, the records of a turn in one statement)`,
    });
  } finally {
    await sandbox.stop();
    pg.stop();
  }
}

async function throughput() {
  const name = 'booking throughput: shipbook book / bare undici';
  if (!bookHas('--concurrency')) {
    addRow({ figure: name, value: 'not measured', ratio: undefined, target: '≥ 0.8', ok: undefined, note: 'needs batch booking (`book --concurrency`)' });
    return;
  }
  const count = quick ? 200 : 1000;
  const file = await ndjsonOrders(count);
  const sandbox = await startSandbox();
  try {
    const env = { ...baseEnv, SHIPBOOK_BASE_URL: sandbox.url, SHIPBOOK_API_KEY: 'sk_bench_0123456789' };
    // The two clients, as run in every pass (node flags first, for the profiled run).
    const book = (journal, flags = []) => [
      process.execPath,
      ...flags,
      bin,
      'book',
      file,
      '--concurrency',
      '16',
      '--poll',
      '50ms',
      '--journal',
      join(work, journal),
    ];
    // Each run of book with a state directory of its own: with the ledger of an earlier run, every
    // order would be found booked already and nothing sent.
    const bookEnv = (journal) => ({ ...env, SHIPBOOK_STATE_DIR: join(work, `state-${journal}`) });
    // The bare client; with `wait`, for information, sending book's requests (create, accept and the
    // polls of --poll 50ms), to tell the cost of waiting for each result from the cost of the rest of book.
    const bareClient = ({ wait = false, flags = [] } = {}) => [
      process.execPath,
      ...flags,
      join(root, 'bench', 'bare-undici.mjs'),
      sandbox.url,
      file,
      '16',
      ...(wait ? ['50'] : []),
    ];
    const bare = bareClient();
    const ours = [];
    const theirs = [];
    const waiting = [];
    // CPU per order (µs, user + system, every thread) of each client and of the sandbox under it.
    const cpu = { ours: [], oursSandbox: [], theirs: [], theirsSandbox: [], waiting: [] };
    // One untimed pass of each first: the first client to meet a fresh sandbox would pay for its
    // warm-up (V8 compiling its code), and shipbook runs first in every round.
    runOnce(book('journal-warm-up.ndjson'), bookEnv('journal-warm-up.ndjson'));
    runOnce(bare, env);
    for (let round = 0; round < 2; round++) {
      const s0 = sandbox.cpuMs();
      const t0 = process.hrtime.bigint();
      const a = runOnce(book(`journal-${round}.ndjson`), bookEnv(`journal-${round}.ndjson`));
      ours.push(count / (Number(process.hrtime.bigint() - t0) / 1e9));
      const s1 = sandbox.cpuMs();
      // Both are timed the same way: the wall time of the whole process, start-up included.
      const t1 = process.hrtime.bigint();
      const r = runOnce(bare, env);
      theirs.push(count / (Number(process.hrtime.bigint() - t1) / 1e9));
      const s2 = sandbox.cpuMs();
      if (JSON.parse(r.stdout).orders !== count) throw new Error('bare-undici.mjs did not send every order');
      cpu.ours.push((a.cpuMs * 1000) / count);
      cpu.oursSandbox.push(((s1 - s0) * 1000) / count);
      cpu.theirs.push((r.cpuMs * 1000) / count);
      cpu.theirsSandbox.push(((s2 - s1) * 1000) / count);
      const t2 = process.hrtime.bigint();
      const w = runOnce(bareClient({ wait: true }), env);
      if (JSON.parse(w.stdout).orders !== count) throw new Error('bare-undici.mjs (waiting) did not book every order');
      waiting.push(count / (Number(process.hrtime.bigint() - t2) / 1e9));
      cpu.waiting.push((w.cpuMs * 1000) / count);
    }
    const perOrder = (list) => `${stats(list).median.toFixed(0)} µs`;
    const cpuNote =
      Number.isNaN(cpu.ours[0]) || Number.isNaN(cpu.oursSandbox[0])
        ? ''
        : `; CPU per order (user + system, all threads): shipbook ${perOrder(cpu.ours)} + sandbox ${perOrder(cpu.oursSandbox)}, bare ${perOrder(cpu.theirs)} + sandbox ${perOrder(cpu.theirsSandbox)}`;
    const a = stats(ours);
    const b = stats(theirs);
    const ratio = a.median / b.median;
    addRow({
      figure: name,
      value: `${a.median.toFixed(0)} orders/s`,
      baseline: `${b.median.toFixed(0)} orders/s`,
      ratio: ratio.toFixed(2),
      target: '≥ 0.8',
      ok: ratio >= 0.8,
      note: `${count} orders, concurrency 16, 2 rounds after an untimed one; both timed as whole processes${cpuNote}`,
    });
    if (!Number.isNaN(cpu.ours[0]) && !Number.isNaN(cpu.waiting[0])) {
      const mine = stats(cpu.ours).median;
      const bare = stats(cpu.waiting).median;
      addRow({
        figure: 'CPU per booked order: shipbook / bare undici waiting for each result',
        value: `${mine.toFixed(0)} µs`,
        baseline: `${bare.toFixed(0)} µs`,
        ratio: (mine / bare).toFixed(2),
        target: '≤ 1.5',
        ok: mine / bare <= 1.5,
        note: 'user + system CPU of the client process, every thread, per order; medians of the same rounds',
      });
    }
    const c = stats(waiting);
    addRow({
      figure: 'booking throughput: bare undici also waiting for each result / bare undici',
      value: `${c.median.toFixed(0)} orders/s`,
      baseline: `${b.median.toFixed(0)} orders/s`,
      ratio: (c.median / b.median).toFixed(2),
      target: '(information)',
      ok: undefined,
      note: `bench/bare-undici.mjs with a poll interval of 50 ms: book's requests (create, accept, the polls until processed) on book's schedule and bound, and nothing else; in the same rounds; CPU per order ${perOrder(cpu.waiting)}`,
    });
    if (ratio < 0.8) {
      const p = profileArgs('book-batch');
      const profiled = runOnce(book('journal-profiled.ndjson', p.flags), bookEnv('journal-profiled.ndjson'));
      // The profile sees the main thread only; the process's own CPU time counts every thread.
      const whole = Number.isNaN(profiled.cpuMs)
        ? undefined
        : `The whole process used ${((profiled.cpuMs * 1000) / count).toFixed(0)} µs of CPU per order (user + system, every thread): what the main thread's busy time does not account for ran on other threads (V8's optimising compiler and garbage-collection helpers, libuv's pool for fsync).`;
      addProfile(`shipbook book of ${count} orders (the client process)`, p.dir, { count, name: 'order' }, whole, BOOKING_ACTIVITIES);
      // The same requests without the rest of book, side by side: what the difference is made of.
      const q = profileArgs('bare-waiting');
      runOnce(bareClient({ wait: true, flags: q.flags }), env);
      addProfile(
        `bench/bare-undici.mjs sending the same requests, waiting for each result (${count} orders)`,
        q.dir,
        { count, name: 'order' },
        undefined,
        BOOKING_ACTIVITIES,
      );
    }
  } finally {
    await sandbox.stop();
  }
}

/** Like {@link runOnce}, without blocking this process (the proxies below run in it); resolves with the exit code too. */
function runAsync(argv, env = baseEnv, cwd = root) {
  const cmd = haveTime ? '/usr/bin/time' : argv[0];
  const full = haveTime ? ['-f', '__RSS__%M __CPU__%U %S', ...argv] : argv.slice(1);
  const started = process.hrtime.bigint();
  const child = spawn(cmd, full, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
  return new Promise((resolveRun) =>
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const cpu = /__CPU__([\d.]+) ([\d.]+)/.exec(stderr);
      resolveRun({ code, ms, cpuMs: cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1000 : NaN, stdout, stderr });
    }),
  );
}

/**
 * A proxy on 127.0.0.1 in front of `target` that counts answers and 429s; with `window`, also a
 * rate limiter that is not shipbook's: at most `window` requests in any sliding second, beyond
 * which it answers 429 with `Retry-After` as an HTTP date (whole seconds, rounded up).
 */
async function countingProxy(target, window) {
  const { createServer, request: httpRequest, Agent } = await import('node:http');
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const counts = { answers: 0, refused: 0 };
  const recent = [];
  const server = createServer((req, res) => {
    const now = Date.now();
    while (recent.length > 0 && recent[0] <= now - 1000) recent.shift();
    if (window !== undefined && recent.length >= window) {
      counts.answers++;
      counts.refused++;
      req.resume();
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': new Date(Math.ceil((recent[0] + 1000) / 1000) * 1000).toUTCString() });
      res.end(JSON.stringify({ message: 'too many requests', code: 429, result: null }));
      return;
    }
    recent.push(now);
    const upstream = httpRequest(new URL(req.url.slice(1), target), { method: req.method, headers: req.headers, agent }, (answer) => {
      counts.answers++;
      if (answer.statusCode === 429) counts.refused++;
      res.writeHead(answer.statusCode, answer.headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    counts,
    close: () => new Promise((r) => (server.close(), agent.destroy(), r())),
  };
}

/**
 * The rate-limit figures: a batch against a rate-limited service (the sandbox's own --rate-limit,
 * and a sliding-window limiter that is not shipbook's). `--only limits` measures these alone.
 */
async function pace() {
  const limit = 30;
  const count = quick ? 150 : 1000;
  const file = await ndjsonOrders(count);
  // `route`: 'poll' (--poll 1s) or 'callback' (the batch's default where the route works: one
  // receiver, no polls); the requests an order needs are counted by the proxy, so the ceiling is the route's own.
  const limited = async (title, sandboxArgs, window, route = 'poll') => {
    const sandbox = await startSandbox(sandboxArgs);
    const proxy = await countingProxy(sandbox.url, window);
    try {
      const tag = `${window ?? 'sandbox'}-${route}`;
      const report = join(work, `pace-${tag}.json`);
      const env = {
        ...baseEnv,
        SHIPBOOK_BASE_URL: proxy.url,
        SHIPBOOK_API_KEY: 'sk_bench_0123456789',
        SHIPBOOK_STATE_DIR: join(work, `state-pace-${tag}`),
      };
      const journal = join(work, `journal-pace-${tag}.ndjson`);
      const r = await runAsync(
        [
          process.execPath,
          bin,
          'book',
          file,
          '--concurrency',
          '16',
          ...(route === 'poll' ? ['--poll', '1s'] : []),
          '--payment',
          'credit',
          '--report',
          report,
          '--journal',
          journal,
        ],
        env,
      );
      const summary = existsSync(report) ? JSON.parse(readFileSync(report, 'utf8')).summary : {};
      const orderRate = count / (r.ms / 1000);
      const perOrder = (proxy.counts.answers - proxy.counts.refused) / count;
      const ceiling = limit / perOrder;
      const share = proxy.counts.refused / Math.max(1, proxy.counts.answers);
      const failed = Number(summary.failed ?? NaN) + Number(summary.unknown ?? 0);
      addRow({
        figure: `${title}: order rate / (${limit} ÷ requests an order needs)`,
        value: `${orderRate.toFixed(2)} orders/s`,
        baseline: `${ceiling.toFixed(2)} orders/s (${perOrder.toFixed(2)} requests/order)`,
        ratio: (orderRate / ceiling).toFixed(2),
        target: '≥ 0.85, 0 failed, exit 0',
        ok: orderRate / ceiling >= 0.85 && failed === 0 && r.code === 0,
        note: `${count} orders, --concurrency 16 ${route === 'poll' ? '--poll 1s' : 'by callback (no --poll)'}; exit ${r.code}; ${summary.booked ?? '?'} booked, ${summary.accepted ?? 0} accepted, ${Number.isNaN(failed) ? '?' : failed} failed or unknown`,
      });
      addRow({
        figure: `${title}: share of requests answered 429`,
        value: `${(share * 100).toFixed(1)} % (${proxy.counts.refused} of ${proxy.counts.answers})`,
        baseline: '',
        ratio: share.toFixed(3),
        target: '≤ 0.05',
        ok: share <= 0.05,
        note: 'counted by a proxy in front of the service',
      });
    } finally {
      await proxy.close();
      await sandbox.stop();
    }
  };
  await limited(`rate-limited batch vs sandbox --rate-limit ${limit}/s`, ['--rate-limit', `${limit}/s`]);
  await limited(`rate-limited batch behind a sliding window of ${limit}/s (Retry-After as a date)`, [], limit);
  await limited(`rate-limited batch by callback vs sandbox --rate-limit ${limit}/s`, ['--rate-limit', `${limit}/s`], undefined, 'callback');
}

/**
 * `book` against the durable bare client (bench/durable-bare.mjs: the fastest client that keeps the
 * same promise), in throughput and in CPU per order at two batch sizes: the same orders,
 * concurrency 16, everyone polling every 10 ms. `--only durable` measures these alone.
 */
async function paceDurable() {
  const count = quick ? 150 : 1000;
  const file = await ndjsonOrders(count);
  const sandbox = await startSandbox();
  try {
    const env = { ...baseEnv, SHIPBOOK_BASE_URL: sandbox.url, SHIPBOOK_API_KEY: 'sk_bench_0123456789' };
    const measure = async (n, rounds) => {
      const orders = n === count ? file : await ndjsonOrders(n);
      const book = (tag) => [
        process.execPath,
        bin,
        'book',
        orders,
        '--concurrency',
        '16',
        '--poll',
        '10ms',
        '--journal',
        join(work, `journal-durable-${tag}.ndjson`),
      ];
      const bookEnv = (tag) => ({ ...env, SHIPBOOK_STATE_DIR: join(work, `state-durable-${tag}`) });
      const bare = () => [
        process.execPath,
        join(root, 'bench', 'durable-bare.mjs'),
        sandbox.url,
        orders,
        '16',
        '10',
        join(work, `wal-${n}-${Math.random()}.ndjson`),
      ];
      runOnce(book(`${n}-warm-up`), bookEnv(`${n}-warm-up`));
      runOnce(bare(), env);
      const ours = [];
      const theirs = [];
      const cpuOurs = [];
      const cpuTheirs = [];
      for (let round = 0; round < rounds; round++) {
        const a = runOnce(book(`${n}-${round}`), bookEnv(`${n}-${round}`));
        const b = runOnce(bare(), env);
        if (JSON.parse(b.stdout).orders !== n) throw new Error('durable-bare.mjs did not book every order');
        ours.push(n / (a.ms / 1000));
        theirs.push(n / (b.ms / 1000));
        cpuOurs.push((a.cpuMs * 1000) / n);
        cpuTheirs.push((b.cpuMs * 1000) / n);
      }
      return {
        ours: stats(ours).median,
        theirs: stats(theirs).median,
        cpuOurs: stats(cpuOurs).median,
        cpuTheirs: stats(cpuTheirs).median,
        rounds,
        load: loadavg()[0],
      };
    };
    const rounds = quick ? 1 : 3;
    const small = await measure(count, rounds);
    addRow({
      figure: `book of ${count} orders / the durable bare client`,
      value: `${small.ours.toFixed(0)} orders/s`,
      baseline: `${small.theirs.toFixed(0)} orders/s`,
      ratio: (small.ours / small.theirs).toFixed(2),
      target: '≥ 0.8',
      ok: small.ours / small.theirs >= 0.8,
      note: `bench/durable-bare.mjs; concurrency 16, both polling every 10 ms, sandbox --delay 1ms; medians of ${rounds} rounds after an untimed one; both timed as whole processes; load average ${small.load.toFixed(1)} on ${cpus().length} CPUs at the end`,
    });
    const cpuRow = (n, m) =>
      addRow({
        figure: `CPU per order at ${n} orders: book / the durable bare client`,
        value: `${m.cpuOurs.toFixed(0)} µs`,
        baseline: `${m.cpuTheirs.toFixed(0)} µs`,
        ratio: (m.cpuOurs / m.cpuTheirs).toFixed(2),
        target: '≤ 1.5',
        ok: Number.isNaN(m.cpuOurs) ? undefined : m.cpuOurs / m.cpuTheirs <= 1.5,
        note: `user + system CPU of the client process, every thread, per order; medians of the same ${m.rounds} rounds; load average ${m.load.toFixed(1)} on ${cpus().length} CPUs at the end`,
      });
    cpuRow(count, small);
    // Three rounds here too: one round of each moves by a quarter from one run to the next on a shared machine.
    if (!quick) cpuRow(4000, await measure(4000, 3));
  } finally {
    await sandbox.stop();
  }
}

/**
 * The scaling table: `book` of 1,000, 4,000, 16,000 and 50,000 orders (--quick: 1,000 and 4,000)
 * from NDJSON, CSV and a directory of YAML files (the same orders, bench/orders.mjs), each against
 * a fresh `shipbook sandbox --delay 1ms`, concurrency 16, polling every 10 ms; beside the durable
 * bare client (bench/durable-bare.mjs) on the same orders as NDJSON, against its own fresh sandbox,
 * in the same run. Wall time, CPU per order (user + system, every thread) and peak RSS of each
 * process (`/usr/bin/time`). `--only scaling` measures these alone.
 */
async function scaling() {
  if (!haveTime) {
    addRow({
      figure: 'scaling: book from NDJSON, CSV and a directory of YAML files',
      value: 'not measured',
      target: '',
      ok: undefined,
      note: 'needs /usr/bin/time',
    });
    return;
  }
  const { writeOrderInputs } = await import('./orders.mjs');
  const sizes = scaleSizes ?? (quick ? [1000, 4000] : [1000, 4000, 16_000, 50_000]);
  const sources = [
    ['NDJSON', 'ndjson'],
    ['CSV', 'csv'],
    ['a directory of YAML files', 'yamlDir'],
  ].filter(([, key]) => scaleSources === undefined || scaleSources.includes(key));
  const rss1000 = new Map();
  const fmt = (r, n) => `${(r.ms / 1000).toFixed(1)} s, ${((r.cpuMs * 1000) / n).toFixed(0)} µs CPU/order, ${r.rssMiB.toFixed(0)} MiB`;
  /** Runs `argv` (given the sandbox's URL) against a fresh sandbox of its own. */
  const against = async (argv, env) => {
    const sandbox = await startSandbox();
    try {
      return runOnce(argv(sandbox.url), { ...env, SHIPBOOK_BASE_URL: sandbox.url, SHIPBOOK_API_KEY: 'sk_bench_0123456789' });
    } finally {
      await sandbox.stop();
    }
  };
  for (const n of sizes) {
    const inputs = await writeOrderInputs(join(work, `scaling-${n}`), n);
    const bare = await against(
      (url) => [process.execPath, join(root, 'bench', 'durable-bare.mjs'), url, inputs.ndjson, '16', '10', join(work, `wal-scaling-${n}.ndjson`)],
      baseEnv,
    );
    if (JSON.parse(bare.stdout).orders !== n) throw new Error('durable-bare.mjs did not book every order');
    for (const [label, key] of sources) {
      const tag = `${n}-${key}`;
      const r = await against(
        () => [process.execPath, bin, 'book', inputs[key], '--concurrency', '16', '--poll', '10ms', '--journal', join(work, `journal-scaling-${tag}.ndjson`)],
        { ...baseEnv, SHIPBOOK_STATE_DIR: join(work, `state-scaling-${tag}`) },
      );
      if (n === sizes[0]) rss1000.set(key, r.rssMiB);
      const cpuRatio = r.cpuMs / bare.cpuMs;
      const rssRatio = r.rssMiB / (rss1000.get(key) ?? Number.NaN);
      const large = n >= 16_000;
      addRow({
        figure: `scaling: book of ${n.toLocaleString('en')} orders from ${label} / the durable bare client`,
        value: fmt(r, n),
        baseline: fmt(bare, n),
        ratio: cpuRatio.toFixed(2),
        target: large ? `CPU ≤ 1.5${n === 50_000 ? `; RSS ≤ 1.3 × at ${sizes[0].toLocaleString('en')}` : ''}` : '(information)',
        ok: large ? cpuRatio <= 1.5 && (n !== 50_000 || !(rssRatio > 1.3)) : undefined,
        note: `ratio: CPU per order; peak RSS ${rssRatio.toFixed(2)} × that at ${sizes[0].toLocaleString('en')} from the same source; each against a fresh sandbox --delay 1ms, concurrency 16, both polling every 10 ms; one run each; load average ${loadavg()[0].toFixed(1)} on ${cpus().length} CPUs at the end`,
      });
    }
    rmSync(join(work, `scaling-${n}`), { recursive: true, force: true });
  }
}

/** The standalone sandbox's peak RSS with 100,000 stored orders (--quick: 10,000), booked by a fast client (bench/sandbox-rss.mjs). */
async function sandboxMemory() {
  const { measureSandboxRss } = await import('./sandbox-rss.mjs');
  const count = quick ? 10_000 : 100_000;
  const r = await measureSandboxRss({ bin, root, env: baseEnv, count });
  addRow({
    figure: `scaling: sandbox peak RSS with ${count.toLocaleString('en')} stored orders`,
    value: `${r.peakMiB.toFixed(0)} MiB`,
    baseline: '',
    target: count === 100_000 ? '≤ 400 MiB' : '(information)',
    ok: count === 100_000 ? r.peakMiB <= 400 : undefined,
    note: `shipbook sandbox --delay 1ms, state in memory: create, accept and fetch until processed, 32 orders under way; ${r.ordersPerSecond.toFixed(0)} orders/s, ${r.cpuSeconds.toFixed(1)} s of sandbox CPU; RSS at the end ${r.rssMiB.toFixed(0)} MiB (/proc/<pid>/status VmHWM, VmRSS)`,
  });
}

async function memory() {
  const name = 'peak RSS: dry run of 100,000 orders / of 10,000';
  if (!bookHas('--dry-run') || !haveTime) {
    addRow({
      figure: name,
      value: 'not measured',
      target: '≤ 1.3, < 150 MiB',
      ok: undefined,
      note: haveTime ? 'needs batch booking with --dry-run' : 'needs /usr/bin/time',
    });
    return;
  }
  const small = await ndjsonOrders(10_000);
  const large = await ndjsonOrders(quick ? 30_000 : 100_000);
  const a = runOnce([process.execPath, bin, 'book', large, '--dry-run', '--output', 'ndjson']);
  const b = runOnce([process.execPath, bin, 'book', small, '--dry-run', '--output', 'ndjson']);
  const ratio = a.rssMiB / b.rssMiB;
  addRow({
    figure: name,
    value: `${a.rssMiB.toFixed(0)} MiB`,
    baseline: `${b.rssMiB.toFixed(0)} MiB`,
    ratio: ratio.toFixed(2),
    target: '≤ 1.3, < 150 MiB',
    ok: ratio <= 1.3 && a.rssMiB < 150,
    note: `${(a.ms / 1000).toFixed(1)} s and ${(b.ms / 1000).toFixed(1)} s`,
  });
}

/** A CSV of `rows` rows in shipbook's layout: orders of two rows each (two packages, two customs items), from fixtures/csv/orders.csv. */
async function csvOrders(rows) {
  const file = join(work, `orders-${rows}.csv`);
  const [header, first, second] = readFileSync(join(root, 'fixtures', 'csv', 'orders.csv'), 'utf8').split('\n');
  const out = createWriteStream(file);
  out.write(`${header}\n`);
  for (let i = 0; i < rows / 2; i++) {
    if (!out.write(`${first.replaceAll('SO-10482', `CSV-${i}`)}\n${second.replaceAll('SO-10482', `CSV-${i}`)}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return file;
}

async function csvDryRun() {
  const name = 'CSV: dry run of 100,000 rows / of 10,000 (peak RSS)';
  if (!bookHas('--map') || !haveTime) {
    addRow({ figure: name, value: 'not measured', target: '< 150 MiB, < 10 s', ok: undefined, note: haveTime ? 'needs CSV booking' : 'needs /usr/bin/time' });
    return;
  }
  const small = await csvOrders(10_000);
  const large = await csvOrders(quick ? 30_000 : 100_000);
  const a = runOnce([process.execPath, bin, 'book', large, '--dry-run', '--output', 'ndjson']);
  const b = runOnce([process.execPath, bin, 'book', small, '--dry-run', '--output', 'ndjson']);
  // The dry run prints one record per order (no summary record in ndjson): count the valid ones.
  const valid = a.stdout.split('\n').filter((line) => line.includes('"status":"valid"')).length;
  addRow({
    figure: name,
    value: `${a.rssMiB.toFixed(0)} MiB in ${(a.ms / 1000).toFixed(1)} s`,
    baseline: `${b.rssMiB.toFixed(0)} MiB in ${(b.ms / 1000).toFixed(1)} s`,
    ratio: (a.rssMiB / b.rssMiB).toFixed(2),
    target: '< 150 MiB, < 10 s',
    ok: a.rssMiB < 150 && a.ms < 10_000,
    note: `${valid} orders of 2 rows each found valid; CPU ${(a.cpuMs / 1000).toFixed(1)} s and ${(b.cpuMs / 1000).toFixed(1)} s (user + system); load average ${loadavg()[0].toFixed(1)} on ${cpus().length} CPUs when measured; streamed with csv-parse, one order's rows held at a time`,
  });
}

async function stateStore() {
  const name = 'order create with 5,000 stored orders / with 10';
  const module = join(root, 'bench', 'state-store.mjs');
  if (!existsSync(module)) {
    addRow({ figure: name, value: 'not measured', target: '≤ 1.5', ok: undefined, note: 'needs the persistent built-in sandbox' });
    return;
  }
  const { measureStateStore } = await import(module);
  const r = await measureStateStore({ bin, root, env: baseEnv, work, runs: quick ? 5 : 15 });
  const ratio = r.large.median / r.small.median;
  addRow({
    figure: name,
    value: `${fmtMs(r.large.median)} (${fmtSpread(r.large, fmtMs)})`,
    baseline: `${fmtMs(r.small.median)} (${fmtSpread(r.small, fmtMs)})`,
    ratio: ratio.toFixed(2),
    target: '≤ 1.5',
    ok: ratio <= 1.5,
    note: r.note ?? '',
  });
}

/**
 * `validate` of a YAML file with 40,000 distinct top-level keys (0.9 MB, 40,001 problems): locating
 * every problem costs one pass over the document, so it stays within a second (it took 20 s when
 * each problem walked the document again). Baseline: `validate` of one ordinary order file.
 */
async function validateLarge() {
  const name = 'validate a 40,000-key YAML file (40,001 problems)';
  const file = join(work, 'keys-40000.yaml');
  let text = '';
  for (let i = 0; i < 40_000; i++) text += `key_${String(i).padStart(5, '0')}: value ${i}\n`;
  writeFileSync(file, text);
  const runs = quick ? 3 : 7;
  const big = [];
  const small = [];
  const validate = (f) => {
    const r = spawnSync(process.execPath, [bin, 'validate', '--kind', 'order', f, '--json'], {
      cwd: root,
      env: baseEnv,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    if (r.status !== 2 && r.status !== 0) throw new Error(`validate exited ${r.status}: ${(r.stderr ?? '').slice(-300)}`);
    return r;
  };
  validate(file);
  for (let i = 0; i < runs; i++) {
    let t = process.hrtime.bigint();
    const r = validate(file);
    big.push(Number(process.hrtime.bigint() - t) / 1e6);
    if (JSON.parse(r.stdout)[0].issues.length !== 40_001) throw new Error('validate did not report every problem');
    t = process.hrtime.bigint();
    validate(join(root, 'fixtures/orders/domestic-syd-mel.yaml'));
    small.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  const a = stats(big);
  const b = stats(small);
  addRow({
    figure: name,
    value: `${fmtMs(a.median)} (${fmtSpread(a, fmtMs)})`,
    baseline: `${fmtMs(b.median)} (one order file)`,
    ratio: (a.median / b.median).toFixed(2),
    target: '< 1 s',
    ok: a.median < 1000,
    note: `${(Buffer.byteLength(text) / 1e6).toFixed(1)} MB, --json, ${runs} runs`,
  });
}

/**
 * `validate` of YAML "alias bombs": an order file whose list holds 10,000 and 1,000,000 aliases
 * (`*a`) of one anchor. Aliases are counted on the lexer's tokens before the document is composed,
 * so the refusal ("more than 100 YAML aliases") costs linear time: the time beyond `validate` of
 * one ordinary order file (the process's start-up) must stay under 0.2 s and 2 s. It took 7.5 s of
 * CPU at 10,000 when the limit was checked on the composed document (each alias resolved by a
 * search of the whole document).
 */
async function yamlAliases() {
  const runs = quick ? 3 : 5;
  const plain = join(root, 'fixtures/orders/domestic-syd-mel.yaml');
  for (const [count, limitMs] of [
    [10_000, 200],
    [1_000_000, 2000],
  ]) {
    const file = join(work, `aliases-${count}.yaml`);
    // Flow style, 3 bytes an alias: a million fit in an input (5 MiB at most).
    writeFileSync(file, `order:\n  description: &a x\n  list: [${'*a,'.repeat(count - 1)}*a]\n`);
    const validate = (f, expected) => {
      const started = process.hrtime.bigint();
      const r = spawnSync(process.execPath, [bin, 'validate', f], { cwd: root, env: baseEnv, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (r.status !== expected) throw new Error(`validate ${f} exited ${r.status}: ${(r.stderr ?? '').slice(-300)}`);
      if (expected === 2 && !/more than 100 YAML aliases/.test(r.stdout + r.stderr)) throw new Error(`validate ${f} did not refuse the aliases`);
      return ms;
    };
    validate(file, 2);
    const bomb = [];
    const one = [];
    for (let i = 0; i < runs; i++) {
      bomb.push(validate(file, 2));
      one.push(validate(plain, 0));
    }
    const a = stats(bomb);
    const b = stats(one);
    const extra = a.median - b.median;
    addRow({
      figure: `validate a YAML file of ${count.toLocaleString('en-US')} aliases (refused)`,
      value: `${fmtMs(a.median)} (${fmtSpread(a, fmtMs)})`,
      baseline: `${fmtMs(b.median)} (one order file)`,
      ratio: (a.median / b.median).toFixed(2),
      target: `< ${limitMs / 1000} s beyond one order file`,
      ok: extra < limitMs,
      note: `${fmtMs(Math.max(0, extra))} beyond one order file; ${(statSync(file).size / 1e6).toFixed(1)} MB, ${runs} runs`,
    });
  }
}

/**
 * Writes a ledger of `records` records (orders of five records each: create sent, created with
 * what the hand-over sheet needs, accept sent, accepted, processed; pickup dates over ten days)
 * for the built-in sandbox of `stateDir`, where shipbook looks for it; returns a day and an order
 * id it holds.
 */
function writeLedger(stateDir, records) {
  const target = `builtin-sandbox:${stateDir}`;
  const file = join(stateDir, 'ledger', `${createHash('sha256').update(target, 'utf8').digest('hex').slice(0, 12)}.ndjson`);
  mkdirSync(join(stateDir, 'ledger'), { recursive: true });
  const who = { user: 'bench', host: 'bench-host', profile: 'sandbox' };
  const lines = [JSON.stringify({ t: new Date(Date.UTC(2026, 10, 1)).toISOString(), id: '#target', event: 'target', target })];
  const codes = ['SB-DOM-ROAD', 'SB-DOM-EXP'];
  const orders = Math.floor(records / 5);
  for (let i = 0; i < orders; i++) {
    const id = `bench-${i}-1`;
    const order = `ORD-B${String(i).padStart(7, '0')}`;
    const t = (k) => new Date(Date.UTC(2026, 10, 1) + i * 40_000 + k * 1000).toISOString();
    const pickup = `2026-12-${String(1 + (i % 10)).padStart(2, '0')}`;
    const sheet = [
      {
        id: `SHP-B${i}`,
        svc: codes[i % 2],
        svc_name: 'Road Express',
        city: 'Melbourne',
        country: 'AU',
        pkgs: 2,
        kg: 9,
        from: `Warehouse ${i % 3}, Alexandria 2015, AU`,
        pickup,
      },
    ];
    lines.push(JSON.stringify({ t: t(0), id, event: 'create_sent', step: 'create_order', shipment_ids: [], op: 'book', ...who }));
    lines.push(JSON.stringify({ t: t(1), id, event: 'created', order_id: order, total: '47.30', sheet, op: 'book', ...who }));
    lines.push(JSON.stringify({ t: t(2), id, event: 'accept_sent', order_id: order, payment: 'credit', op: 'book', ...who }));
    lines.push(JSON.stringify({ t: t(3), id, event: 'accepted', order_id: order, op: 'book', ...who }));
    lines.push(
      JSON.stringify({
        t: t(4),
        id,
        event: 'processed',
        order_id: order,
        tracking_numbers: [`SBX${String(i).padStart(10, '0')}`],
        total: '47.30',
        op: 'book',
        ...who,
      }),
    );
  }
  writeFileSync(file, `${lines.join('\n')}\n`);
  return { day: '2026-12-01', order: `ORD-B${String(Math.floor(orders / 2)).padStart(7, '0')}`, bytes: statSync(file).size, count: lines.length - 1 };
}

/**
 * `history` and `handover` over a ledger of 100,000 records, against the same over 10 records:
 * both read the ledger as a stream, so they stay within a few seconds (target < 3 s). `history`
 * lists every change (TSV on stdout) and one order's; `handover` makes a day's sheet as JSON and
 * as a PDF with its barcodes (2,000 shipments that day, 155 pages: target < 10 s).
 */
async function ledgerQueries() {
  const runs = quick ? 3 : 7;
  const big = join(work, 'ledger-100k');
  const small = join(work, 'ledger-10');
  const b = writeLedger(big, 100_000);
  const s = writeLedger(small, 10);
  const env = (dir) => ({ ...baseEnv, SHIPBOOK_STATE_DIR: dir });
  const cases = [
    ['history: every change, TSV (100,000 records)', () => ['history', '-o', 'tsv'], '60,000 rows'],
    ['history --order (100,000 records)', (_d, l) => ['history', '--order', l.order, '--json'], 'one order'],
    ['handover --json (100,000 records)', (_d, l) => ['handover', '--date', l.day, '--json'], 'the sheet of one day'],
    [
      'handover --pdf (100,000 records)',
      (d, l) => ['handover', '--date', l.day, '--pdf', join(d, 'sheet.pdf')],
      '2,000 shipments, a barcode each: 155 pages',
      10_000,
    ],
  ];
  for (const [name, argv, what, limit = 3000] of cases) {
    runOnce([process.execPath, bin, ...argv(big, b)], env(big));
    const a = [];
    const z = [];
    for (let i = 0; i < runs; i++) {
      a.push(runOnce([process.execPath, bin, ...argv(big, b)], env(big)).ms);
      z.push(runOnce([process.execPath, bin, ...argv(small, s)], env(small)).ms);
    }
    const x = stats(a);
    const y = stats(z);
    addRow({
      figure: name,
      value: `${fmtMs(x.median)} (${fmtSpread(x, fmtMs)})`,
      baseline: `${fmtMs(y.median)} (10 records)`,
      ratio: (x.median / y.median).toFixed(2),
      target: `< ${limit / 1000} s`,
      ok: x.median < limit,
      note: `${what}; ledger ${(b.bytes / 1e6).toFixed(1)} MB, ${b.count} records; ${runs} runs`,
    });
  }
}

// ---------------------------------------------------------------------------------------------

const figures = [
  [
    'cold start',
    async () => {
      const sandbox = await startSandbox();
      try {
        await coldStart(sandbox.url);
        await bundleBytes(sandbox.url);
      } finally {
        await sandbox.stop();
      }
    },
  ],
  ['throughput', throughput],
  ['pgledger', pgLedger],
  ['pace: rate limits', pace],
  ['pace: durable baseline', paceDurable],
  ['capacity', sandboxCapacity],
  ['memory', memory],
  ['scaling: book', scaling],
  ['scaling: sandbox memory', sandboxMemory],
  ['csv', csvDryRun],
  ['state', stateStore],
  ['validate', validateLarge],
  ['validate: YAML aliases', yamlAliases],
  ['ledger: history and handover', ledgerQueries],
];

console.log(`shipbook benchmark — node ${process.version}, ${cpus().length} CPUs${quick ? ' (quick)' : ''}`);
console.log(`${'verdict'.padEnd(6)}${'figure'.padEnd(52)} ${'shipbook (median, p25–p75)'.padEnd(28)} ${'baseline'.padEnd(26)} ratio (target)`);
let failedToRun = 0;
for (const [key, fn] of figures) {
  if (only && !only.some((w) => key.includes(w))) continue;
  try {
    await fn();
  } catch (err) {
    failedToRun++;
    addRow({ figure: key, value: 'error', target: '', ok: false, note: String(err instanceof Error ? err.message : err).slice(0, 300) });
  }
}

const missed = rows.filter((r) => r.ok === false);
const summary = missed.length === 0 ? 'every measured target met' : `${missed.length} target(s) missed: ${missed.map((r) => r.figure).join('; ')}`;
console.log(summary);

/** The figure key (of `figures` below) a profile section belongs to, from its title; undefined: none known. */
function profileFigure(title) {
  if (title.startsWith('cold start:')) return 'cold start';
  if (title.startsWith('shipbook book of') || title.startsWith('bench/bare-undici.mjs')) return 'throughput';
  if (title.startsWith('the sandbox under') || title.startsWith('the bare node:http server')) return 'capacity';
  return undefined;
}

/**
 * What an earlier bench/RESULTS.md holds: its table rows (markdown lines, by figure), its profile
 * sections (by title, the later of two with the same title), the notes after its result line, and
 * when it was written.
 */
function readPrevious(text) {
  const lines = text.split('\n');
  const tableRows = [];
  let i = lines.findIndex((l) => l.startsWith('|---|'));
  if (i !== -1) for (i++; i < lines.length && lines[i].startsWith('| '); i++) tableRows.push(lines[i]);
  const cut = text.lastIndexOf('<!-- package-size');
  const body = cut === -1 ? text : text.slice(0, cut);
  const sections = new Map();
  for (const part of body.split(/^### /m).slice(1)) {
    // A section ends where the commands paragraph, the next heading or a marker begins.
    const section = part.split(/\n(?=Commands: |## |<!-- )/)[0].trimEnd();
    const title = section.split('\n')[0];
    sections.set(title.replace(/ \(bench\/profiles\/.*\)$/, ''), `### ${section}\n`);
  }
  const result = lines.findIndex((l) => l.startsWith('Result: '));
  const where = lines.findIndex((l) => l.startsWith('## Where the time goes'));
  const notes = result === -1 ? [] : lines.slice(result + 1, where === -1 ? undefined : where).filter((l) => l.trim() !== '' && !l.startsWith('Commands: '));
  // The other rows date from the run before an earlier --only run, when there was one.
  const written = /the other rows are those of the earlier run \(([^)]+)\)/.exec(text)?.[1] ?? /on (\d{4}-\d\d-\d\dT[\d:.]+Z)/.exec(text)?.[1];
  return { tableRows, sections, notes, written };
}

if (write) {
  const resultsPath = join(root, 'bench', 'RESULTS.md');
  const previousText = existsSync(resultsPath) ? readFileSync(resultsPath, 'utf8') : '';
  const rowLine = (r) =>
    `| ${r.figure} | ${r.value} | ${r.baseline ?? ''} | ${r.ratio ?? '–'} | ${r.target} | ${r.ok === undefined ? (r.target === '(information)' ? '–' : 'not measured') : r.ok ? 'met' : '**missed**'} | ${r.note ?? ''} |`;
  let tableLines = rows.map(rowLine);
  let profileSections = profiles;
  let resultLine = `Result: ${summary}.`;
  let notes = [];
  // With --only, the figures not measured keep what the earlier run wrote: rows, profiles, notes.
  if (only && previousText !== '') {
    const previous = readPrevious(previousText);
    const fresh = new Map(rows.map((r) => [r.figure, rowLine(r)]));
    const figureOf = (line) => line.slice(2).split(' | ')[0];
    tableLines = previous.tableRows.map((l) => fresh.get(figureOf(l)) ?? l);
    for (const [figure, line] of fresh) if (!previous.tableRows.some((l) => figureOf(l) === figure)) tableLines.push(line);
    const measuredKeys = figures.map(([key]) => key).filter((key) => only.some((w) => key.includes(w)));
    const kept = [...previous.sections].filter(([title]) => !measuredKeys.includes(profileFigure(title))).map(([, section]) => section);
    profileSections = [...kept, ...profiles];
    const missedNow = tableLines.filter((l) => l.includes('| **missed** |')).map(figureOf);
    resultLine = `Result: ${missedNow.length === 0 ? 'every measured target met' : `${missedNow.length} target(s) missed: ${missedNow.join('; ')}`}.`;
    notes = [
      ...(measuredKeys.length === 0
        ? []
        : [
            `The rows of ${measuredKeys.join(', ')} (and their profiles) come from \`node bench/run.mjs --only ${onlyArg}\` on ${new Date().toISOString()}; the other rows are those of the earlier run${previous.written ? ` (${previous.written})` : ''}. Load average ${loadavg()[0].toFixed(1)} on ${cpus().length} CPUs when written: every figure here is a ratio measured side by side, yet on a machine this busy the ratios move from one run to the next.`,
          ]),
      // The notes of the figures measured now are replaced; those of the others are kept.
      ...previous.notes.filter((n) => !measuredKeys.some((key) => n.startsWith(`The rows of ${key} `))),
    ];
  }
  const md = [
    '# shipbook benchmark results',
    '',
    `Written by \`npm run bench\` (bench/run.mjs) on ${new Date().toISOString()}: Node.js ${process.version}, ${cpus().length} CPU(s) (${cpus()[0]?.model ?? 'unknown'}), ${process.platform}/${process.arch}${quick ? ', quick mode' : ''}.`,
    'Each figure is measured side by side with its baseline in the same run; start-up figures alternate',
    `${PAIRS} pairs (after one warm-up pair) and give the median with the 25th–75th percentile spread.`,
    '',
    '| figure | shipbook | baseline | ratio | target | verdict | notes |',
    '|---|---|---|---|---|---|---|',
    ...tableLines,
    '',
    resultLine,
    '',
    ...notes.flatMap((n) => [n, '']),
    ...(profileSections.length === 0
      ? []
      : [
          '## Where the time goes in the missed figures',
          '',
          'CPU profiles (`node --cpu-prof`) of one more run of shipbook for each missed figure, summarised by bench/profile.mjs (positions mapped to src/ and node_modules/ through dist/main.cjs.map). The .cpuprofile files stay in bench/profiles/ of the machine that ran the benchmark (not committed; open them in Chrome DevTools).',
          '',
          ...profileSections,
        ]),
    'Commands: cold start runs `node bin/shipbook.js <args>` against `node -e 0` (HOME is a fresh directory: the warm-up',
    'pair writes the code cache of bin/code-cache.js, as the first run of a command does for a user; the rows "without code',
    'cache" set NODE_DISABLE_COMPILE_CACHE=1, as on that first run); capacity drives `POST /quote/` with',
    'autocannon (bench/load.mjs, its own process) against `shipbook sandbox` and bench/bare-server.mjs (a bare node:http',
    'server answering a fixed envelope); throughput books generated NDJSON orders with `shipbook book --concurrency 16`',
    'and with bench/bare-undici.mjs (create and accept with undici.request at the same concurrency) against one sandbox',
    'process, and for information with bench/bare-undici.mjs waiting for each result as `book --poll 50ms` does (the same',
    'requests as book, and nothing else); memory is the peak RSS (`/usr/bin/time -f %M`) of `shipbook book --dry-run` (of NDJSON orders, and of a CSV',
    'in the layout of fixtures/csv/orders.csv, two rows per order); the state store times',
    '`shipbook order create` on the built-in sandbox with 10 and with 5,000 stored orders (bench/state-store.mjs); the scaling',
    'rows run `shipbook book --concurrency 16 --poll 10ms` on the same orders as NDJSON, CSV and a directory of YAML files',
    '(bench/orders.mjs) and bench/durable-bare.mjs on the NDJSON, each against a fresh `shipbook sandbox --delay 1ms`, timed',
    'with `/usr/bin/time` (wall, user + system CPU, peak RSS); the sandbox row books orders through `shipbook sandbox',
    '--delay 1ms` with a fast client and reads its VmHWM (bench/sandbox-rss.mjs).',
    '',
  ].join('\n');
  // The package's sizes and the release's start-up are measured apart (bench/package-size.mjs,
  // bench/release.mjs): keep their sections.
  const kept = ['package-size', 'release-startup']
    .map((name) => new RegExp(`<!-- ${name}[\\s\\S]*?<!-- \\/${name} -->`).exec(previousText)?.[0])
    .filter((section) => section !== undefined);
  writeFileSync(resultsPath, [md, ...kept.map((section) => `${section}\n`)].join('\n'));
  console.log('wrote bench/RESULTS.md');
}
rmSync(work, { recursive: true, force: true });
process.exitCode = missed.length === 0 && failedToRun === 0 ? 0 : 1;
