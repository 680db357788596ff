#!/usr/bin/env node
// A batch whose journal's disk really fills up, run by hand (as root: it mounts a small tmpfs):
//   sudo node scripts/full-disk-trials.mjs [trials=30] [orders=40]
// Each trial mounts a 256 KiB tmpfs for the journal, starts a batch against `shipbook sandbox`
// (in memory, in its own process), fills the tmpfs while the batch runs, then frees the space and
// runs the same command three times. The sandbox's own list of orders is the witness: it prints,
// per trial, the exit codes and the documents booked twice (the expected figure is 0), and exits 1
// if any trial booked a document twice or a rerun was refused. CI runs the same scenario with a
// simulated full disk (test/e2e/full-disk.test.ts); this is the real one.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';

const root = resolve(import.meta.dirname, '..');
const bin = join(root, 'bin', 'shipbook.js');
const trials = Number(process.argv[2] ?? 30);
const count = Number(process.argv[3] ?? 40);
const KEY = 'sk_test_full_disk_0123456789';
const work = mkdtempSync(join(tmpdir(), 'shipbook-full-disk-'));
const env = { ...process.env, NO_COLOR: '1', CI: '1', HOME: work, XDG_CONFIG_HOME: join(work, 'config'), SHIPBOOK_STATE_DIR: join(work, 'state') };

const doc = parse(readFileSync(join(root, 'fixtures/orders/domestic-syd-mel.yaml'), 'utf8'));
const order = doc.request ?? doc;

function sizeOf(path) {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

function run(args, extraEnv = {}) {
  return new Promise((done) => {
    const child = spawn(process.execPath, [bin, ...args], { env: { ...env, ...extraEnv }, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (d) => (err += d));
    child.on('close', (code) => done({ code, stderr: err }));
  });
}

const sandbox = spawn(process.execPath, [bin, 'sandbox', '--port', '0', '--json', '--no-log', '--delay', '20ms'], { env, stdio: ['ignore', 'pipe', 'ignore'] });
const url = await new Promise((done) => {
  let out = '';
  sandbox.stdout.setEncoding('utf8').on('data', (d) => {
    out += d;
    if (out.includes('\n')) done(JSON.parse(out.slice(0, out.indexOf('\n'))).url);
  });
});
const target = { SHIPBOOK_BASE_URL: url, SHIPBOOK_API_KEY: KEY };

let failures = 0;
let totalDuplicates = 0;
try {
  for (let t = 0; t < trials; t++) {
    const dir = join(work, `trial-${t}`);
    const mnt = join(dir, 'disk');
    mkdirSync(mnt, { recursive: true });
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', mnt]);
    if (mounted.status !== 0) throw new Error(`cannot mount a tmpfs (run as root): ${mounted.stderr}`);
    try {
      const lines = [];
      for (let i = 0; i < count; i++) {
        const o = structuredClone(order);
        o.order.shipments[0].transient_id = `T${t}-${i}`;
        lines.push(JSON.stringify(o));
      }
      const file = join(dir, 'orders.ndjson');
      writeFileSync(file, `${lines.join('\n')}\n`);
      const journal = join(mnt, 'journal.ndjson');
      const args = ['book', file, '--journal', journal, '--concurrency', '4'];
      const first = run(args, target);
      // Fill the disk part-way through the batch (a different moment each trial).
      const at = 500 + (t % 6) * 900;
      for (let i = 0; i < 400 && sizeOf(journal) < at; i++) await new Promise((r) => setTimeout(r, 5));
      spawnSync('dd', ['if=/dev/zero', `of=${join(mnt, 'filler')}`, 'bs=4k'], { stdio: 'ignore' });
      const a = await first;
      rmSync(join(mnt, 'filler'), { force: true });
      const codes = [a.code];
      for (let r = 0; r < 3; r++) {
        const again = await run(args, target);
        codes.push(again.code);
        if (![0, 8].includes(again.code)) {
          failures++;
          console.log(`trial ${t}: rerun ${r + 1} exit ${again.code}: ${again.stderr.split('\n').slice(-4).join(' | ')}`);
        }
      }
      const res = await fetch(new URL('_sandbox/orders/', url), { headers: { authorization: `Bearer ${KEY}` } });
      const body = await res.json();
      const by = new Map();
      for (const o of body.result.orders) {
        const id = o.shipments[0]?.transient_id ?? '';
        if (id.startsWith(`T${t}-`)) by.set(id, (by.get(id) ?? 0) + 1);
      }
      const duplicates = [...by.values()].filter((n) => n > 1).length;
      totalDuplicates += duplicates;
      const firstLine = a.stderr.split('\n').find((l) => l.startsWith('error:')) ?? '';
      console.log(`trial ${t}: exits ${codes.join(' ')}; ${by.size}/${count} documents at the sandbox, ${duplicates} booked twice; ${firstLine.slice(0, 110)}`);
    } finally {
      spawnSync('umount', [mnt]);
    }
  }
} finally {
  sandbox.kill();
  rmSync(work, { recursive: true, force: true });
}
console.log(`${trials} trials: ${totalDuplicates} documents booked twice, ${failures} reruns refused`);
process.exitCode = totalDuplicates > 0 || failures > 0 ? 1 : 0;
