// `npm run bench:release`: the start-up of the linux-x64 single executable (release/, built by
// `npm run release`) as ratios to `node -e 0`, and the size of every file of the release, written
// as a section of bench/RESULTS.md (between the release-startup markers; the other sections stay).
// Not part of `npm test`: timings depend on the machine.
//
// The baseline is `node -e 0` run by the Node.js the executable embeds (the same build, from the
// release's cache in the user's cache directory, as scripts/release.mjs finds it), so the ratio is the executable's own cost; each figure alternates 21 pairs
// (after one warm-up pair, which writes the executable's code cache for the command, as a user's
// first run does) and gives the median with the 25th–75th percentile spread. `quote` runs against
// a `shipbook sandbox` started by the executable itself. Options: --no-write (print only).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const release = join(root, 'release');
const exe = join(release, 'shipbook-linux-x64');
if (!existsSync(exe)) {
  console.error('bench:release: release/shipbook-linux-x64 is missing; run "npm run release" first');
  process.exit(1);
}
const nodeVersion = /const NODE_VERSION = '([\d.]+)'/.exec(readFileSync(join(root, 'scripts', 'release.mjs'), 'utf8'))[1];
const releaseCache = process.env.SHIPBOOK_RELEASE_CACHE || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'shipbook-release');
const embeddedNode = join(releaseCache, `node-v${nodeVersion}-linux-x64`);
const baseline = existsSync(embeddedNode) ? embeddedNode : process.execPath;
const baselineVersion = spawnSync(baseline, ['--version'], { encoding: 'utf8' }).stdout.trim();

const PAIRS = 21;
const work = mkdtempSync(join(tmpdir(), 'shipbook-bench-release-'));
const env = {
  PATH: '/usr/bin:/bin',
  HOME: work,
  XDG_CONFIG_HOME: join(work, 'config'),
  XDG_STATE_HOME: join(work, 'state'),
  XDG_CACHE_HOME: join(work, 'cache'),
  NO_COLOR: '1',
};

/** Wall time of one run in milliseconds (exit code checked). */
function time(command, args, extraEnv = {}) {
  const start = process.hrtime.bigint();
  const r = spawnSync(command, args, { cwd: work, env: { ...env, ...extraEnv }, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.round(q * (s.length - 1)))];
};
const ms = (x) => `${Math.round(x)} ms`;

/** Alternates the command and `node -e 0`, PAIRS times after one warm-up pair. */
function measure(args, extraEnv) {
  time(exe, args, extraEnv);
  time(baseline, ['-e', '0']);
  const a = [];
  const b = [];
  for (let i = 0; i < PAIRS; i++) {
    a.push(time(exe, args, extraEnv));
    b.push(time(baseline, ['-e', '0']));
  }
  return { a, b };
}

// A sandbox for `quote`, run by the executable itself.
const sandbox = spawn(exe, ['sandbox', '--port', '0', '--no-log'], { cwd: work, env, stdio: ['ignore', 'ignore', 'pipe'] });
const sandboxEnv = await new Promise((resolve, reject) => {
  let err = '';
  const timer = setTimeout(() => reject(new Error(`the sandbox did not start: ${err}`)), 30_000);
  sandbox.stderr.setEncoding('utf8').on('data', (d) => {
    err += d;
    const m = /SHIPBOOK_BASE_URL=(\S+) SHIPBOOK_API_KEY=(\S+)/.exec(err);
    if (m) {
      clearTimeout(timer);
      resolve({ SHIPBOOK_BASE_URL: m[1], SHIPBOOK_API_KEY: m[2] });
    }
  });
});

const figures = [
  { name: '--version', args: ['--version'], target: 1.1 },
  { name: 'validate one file', args: ['validate', join(root, 'fixtures', 'orders', 'domestic-syd-mel.yaml')], target: 1.3 },
  { name: 'quote against a running sandbox', args: ['quote', join(root, 'fixtures', 'quotes', 'syd-mel-single.yaml')], env: sandboxEnv, target: 1.5 },
];
const rows = [];
try {
  for (const f of figures) {
    const { a, b } = measure(f.args, f.env);
    const ratio = quantile(a, 0.5) / quantile(b, 0.5);
    const verdict = ratio <= f.target ? 'met' : '**missed**';
    rows.push(
      `| shipbook-linux-x64 ${f.name} / node -e 0 | ${ms(quantile(a, 0.5))} (${ms(quantile(a, 0.25))}–${ms(quantile(a, 0.75))}) | ${ms(quantile(b, 0.5))} (${ms(quantile(b, 0.25))}–${ms(quantile(b, 0.75))}) | ${ratio.toFixed(2)} | ≤ ${f.target} | ${verdict} |`,
    );
    console.log(rows.at(-1));
  }
} finally {
  sandbox.kill('SIGINT');
  rmSync(work, { recursive: true, force: true });
}

const sizes = readdirSync(release)
  .filter((f) => f !== 'SHA256SUMS')
  .map((f) => `| ${f} | ${(statSync(join(release, f)).size / 1e6).toFixed(1)} MB |`);

const BEGIN = '<!-- release-startup: written by bench/release.mjs -->';
const END = '<!-- /release-startup -->';
const section = [
  BEGIN,
  '## The release: start-up of the linux-x64 executable, and sizes',
  '',
  `Measured by \`npm run bench:release\` (bench/release.mjs) on ${new Date().toISOString()}: ${cpus().length} CPU(s), load average ${(await import('node:os')).loadavg()[0].toFixed(1)}; baseline \`node -e 0\` on ${baselineVersion} (the Node.js the executable embeds). ${PAIRS} alternating pairs after a warm-up pair (which writes the executable's code cache of the command); median (25th–75th percentile).`,
  '',
  '| figure | executable | node -e 0 | ratio | target | verdict |',
  '|---|---|---|---|---|---|',
  ...rows,
  '',
  '| file of release/ | size |',
  '|---|---|',
  ...sizes,
  END,
].join('\n');
console.log(sizes.join('\n'));

if (!process.argv.includes('--no-write')) {
  const path = join(root, 'bench', 'RESULTS.md');
  const text = readFileSync(path, 'utf8');
  const from = text.indexOf(BEGIN);
  const to = text.indexOf(END);
  const next = from === -1 ? `${text.trimEnd()}\n\n${section}\n` : `${text.slice(0, from)}${section}${text.slice(to + END.length)}`;
  writeFileSync(path, next);
  console.log('wrote bench/RESULTS.md');
}
