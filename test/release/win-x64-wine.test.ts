/**
 * The win-x64 single executable (release/shipbook-win-x64.exe) under Wine, on everything that needs
 * no network: Wine's loopback refuses the connections a booking would make, so that is left to a
 * Windows machine. Wine runs Node.js 22's Windows build when the platform check is skipped
 * (NODE_SKIP_PLATFORM_CHECK=1: Wine reports an older Windows), and only with stdout and stderr
 * going to files (a pipe gives EBADF). Skipped, saying so, without Wine or when release/ was not built.
 */
import { closeSync, copyFileSync, openSync, readFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasCommand, makePlace, releaseFile, ROOT, type RunResult } from './helpers.js';

const exe = releaseFile('shipbook-win-x64.exe');
const wine = hasCommand('wine');
if (exe !== undefined && !wine) console.warn('skipping the tests of release/shipbook-win-x64.exe: Wine is not installed (apt-get install wine64)');
const place = makePlace();
afterAll(() => place.cleanup());
const cwd = join(place.dir, 'work');
const env = { ...place.env, PATH: '/usr/local/bin:/usr/bin:/bin', WINEPREFIX: join(place.dir, 'wine'), WINEDEBUG: '-all', NODE_SKIP_PLATFORM_CHECK: '1' };

let runs = 0;
/** Runs the executable under Wine in the work directory, its output going to files. */
function shipbook(args: string[], timeoutMs = 120_000): Promise<RunResult> {
  const n = ++runs;
  const out = join(place.dir, `out-${n}.txt`);
  const err = join(place.dir, `err-${n}.txt`);
  const fds = [openSync(out, 'w'), openSync(err, 'w')];
  return new Promise((done, fail) => {
    const child = spawn('wine', [exe!, ...args], { cwd, env, stdio: ['ignore', fds[0], fds[1]] });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      fds.forEach((fd) => closeSync(fd));
      // Wine's own notes (a new prefix) go to stderr too: keep the program's lines only.
      const stderr = readFileSync(err, 'utf8')
        .split('\n')
        .filter((l) => !l.startsWith('wine: '))
        .join('\n');
      done({ code, stdout: readFileSync(out, 'utf8').replace(/\r\n/g, '\n'), stderr });
    });
  });
}

describe.skipIf(exe === undefined || !wine)('the win-x64 executable under Wine', () => {
  beforeAll(async () => {
    // The first run makes the Wine prefix (tens of seconds).
    const first = await shipbook(['--version']);
    expect(first.code, first.stderr).toBe(0);
  }, 180_000);

  it('prints its version and its help', async () => {
    const version = await shipbook(['--version']);
    expect(version).toMatchObject({ code: 0, stdout: `${JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version}\n` });
    const help = await shipbook(['--help']);
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toBe(readFileSync(join(ROOT, 'dist', 'help.txt'), 'utf8'));
  }, 120_000);

  it('validates a good file (exit 0) and a bad one (exit 2, file:line:column and field)', async () => {
    copyFileSync(join(ROOT, 'fixtures', 'orders', 'domestic-syd-mel.yaml'), join(cwd, 'good.yaml'));
    copyFileSync(join(ROOT, 'fixtures', 'invalid', 'order-too-long.yaml'), join(cwd, 'bad.yaml'));
    const good = await shipbook(['validate', 'good.yaml']);
    expect(good.code, good.stderr).toBe(0);
    expect(good.stderr).toMatch(/good\.yaml +order +valid/);
    const bad = await shipbook(['validate', 'bad.yaml']);
    expect(bad.code, bad.stdout).toBe(2);
    expect(bad.stdout).toContain('bad.yaml:6:21\torder.shipments[0].transient_id\terror\tat most 35 characters (got 36)');
  }, 120_000);

  it('prints a schema and the CSV template', async () => {
    const schema = await shipbook(['schema', 'order']);
    expect(schema.code, schema.stderr).toBe(0);
    expect(JSON.parse(schema.stdout)).toMatchObject({ title: 'shipbook order file' });
    const template = await shipbook(['csv', 'template']);
    expect(template.code, template.stderr).toBe(0);
    expect(template.stdout.split('\n')[0]).toMatch(/^order_ref,shipment_ref,service_code,/);
  }, 120_000);

  it('plans a CSV batch with --dry-run, sending nothing', async () => {
    copyFileSync(join(ROOT, 'fixtures', 'csv', 'orders.csv'), join(cwd, 'orders.csv'));
    const dry = await shipbook(['book', '--dry-run', 'orders.csv']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/^orders\.csv:2\t[0-9a-f]{16}-1\tbook$/m);
    expect(dry.stderr).toContain('dry run: 2 order(s) valid (2 book); nothing was sent');
  }, 120_000);
});
