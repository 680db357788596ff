/**
 * `shipbook examples`: the example files every --help example names ship inside shipbook (built
 * into dist/examples.json), so an installed shipbook lists, prints and copies them, and the help
 * examples run as printed from the directory they were copied into. Also: the older spellings of
 * the wait and listen flags still work but are left out of the help.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const emptyDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'shipbook-examples-'));
  dirs.push(d);
  return d;
};

/** Every file under fixtures/ of the repository, as `fixtures/…` paths. */
const fixtureFiles = (): string[] =>
  readdirSync(join(ROOT, 'fixtures'), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => `fixtures/${relative(join(ROOT, 'fixtures'), join(e.parentPath, e.name)).split('\\').join('/')}`)
    .sort();

describe('shipbook examples', () => {
  it('lists every example file of the repository, each with what it is', async () => {
    const r = await runCli(['examples', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const listed = (JSON.parse(r.stdout) as { files: Array<{ file: string; describes: string }> }).files;
    expect(listed.map((f) => f.file).sort()).toEqual(fixtureFiles());
    const order = listed.find((f) => f.file === 'fixtures/orders/domestic-syd-mel.yaml');
    expect(order?.describes).toMatch(/domestic order/i);
  });

  it('prints one file as it is, and names the likely one for a wrong name', async () => {
    const r = await runCli(['examples', 'fixtures/orders/domestic-syd-mel.yaml']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(readFileSync(join(ROOT, 'fixtures/orders/domestic-syd-mel.yaml'), 'utf8'));
    const short = await runCli(['examples', 'orders/domestic-syd-mel.yaml']);
    expect(short.stdout).toBe(r.stdout);
    const wrong = await runCli(['examples', 'fixtures/orders/domestic-syd-mel.yml']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('no example file fixtures/orders/domestic-syd-mel.yml');
    expect(wrong.stderr).not.toMatch(/\n\s+at /);
  });

  it('copies them where the help examples then run as printed, and never overwrites a changed file without --force', async () => {
    const dir = emptyDir();
    const copy = await runCli(['examples', '--copy'], { cwd: dir });
    expect(copy.code, copy.stderr).toBe(0);
    expect(copy.stdout).toContain(`copied ${fixtureFiles().length} example file(s) into fixtures`);
    // The hint printed is the command that works from there.
    expect(copy.stderr).toContain('shipbook book fixtures/orders/domestic-syd-mel.yaml --dry-run');
    const dry = await runCli(['book', 'fixtures/orders/domestic-syd-mel.yaml', '--dry-run'], { cwd: dir });
    expect(dry.code, dry.stderr).toBe(0);
    const validate = await runCli(['validate', 'fixtures/orders/'], { cwd: dir });
    expect(validate.code, validate.stderr).toBe(0);
    const quote = await runCli(['quote', 'fixtures/quotes/syd-mel-single.yaml', '--json'], { cwd: dir });
    expect(quote.code, quote.stderr).toBe(0);

    const again = await runCli(['examples', '--copy', '--json'], { cwd: dir });
    expect(JSON.parse(again.stdout)).toMatchObject({ written: 0, unchanged: fixtureFiles().length });

    const mine = join(dir, 'fixtures/orders/domestic-syd-mel.yaml');
    writeFileSync(mine, '# my own order\n');
    const refused = await runCli(['examples', '--copy', '.'], { cwd: dir });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('differ from shipbook');
    expect(refused.stderr).toContain('--force');
    expect(readFileSync(mine, 'utf8')).toBe('# my own order\n');
    const forced = await runCli(['examples', '--copy', '.', '--force', '--json'], { cwd: dir });
    expect(forced.code, forced.stderr).toBe(0);
    expect(JSON.parse(forced.stdout)).toMatchObject({ written: 1 });
    expect(readFileSync(mine, 'utf8')).toBe(readFileSync(join(ROOT, 'fixtures/orders/domestic-syd-mel.yaml'), 'utf8'));
  });

  it('copies into a directory it makes, and the hint says to cd there', async () => {
    const dir = emptyDir();
    const r = await runCli(['examples', '--copy', 'my examples'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("cd 'my examples' && shipbook book fixtures/orders/domestic-syd-mel.yaml --dry-run");
    expect(readdirSync(join(dir, 'my examples', 'fixtures', 'orders'))).toContain('domestic-syd-mel.yaml');
  });
});

describe('a missing file or a directory where one file is read gets a hint', () => {
  it('a help example run where its files are not: the hint names shipbook examples, and pasting it makes the example run', async () => {
    const dir = emptyDir();
    const r = await runCli(['book', 'fixtures/orders/domestic-syd-mel.yaml', '--dry-run'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('fixtures/orders/domestic-syd-mel.yaml: no such file');
    expect(r.stderr).toContain('"shipbook examples --copy" writes them under ./fixtures/');
    expect((await runCli(['examples', '--copy'], { cwd: dir })).code).toBe(0);
    const again = await runCli(['book', 'fixtures/orders/domestic-syd-mel.yaml', '--dry-run'], { cwd: dir });
    expect(again.code, again.stderr).toBe(0);
  });

  it('another missing file: where it was looked for', async () => {
    const dir = emptyDir();
    const r = await runCli(['order', 'create', 'my-order.yaml'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('my-order.yaml: no such file');
    expect(r.stderr).toContain(`Check the path (it is read from ${dir})`);
  });

  it('a directory given to a command of one file: one of its files is named, and the commands that take a directory', async () => {
    const dir = emptyDir();
    await runCli(['examples', '--copy'], { cwd: dir });
    const r = await runCli(['quote', 'fixtures/quotes/'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('fixtures/quotes/: is a directory, not a file');
    expect(r.stderr).toContain('Give one of its files, e.g. fixtures/quotes/mel-nyc-imperial.json');
    // Each command the hint names works as printed.
    expect((await runCli(['quote', 'fixtures/quotes/mel-nyc-imperial.json', '--json'], { cwd: dir })).code).toBe(0);
    expect((await runCli(['validate', 'fixtures/quotes/'], { cwd: dir })).code).toBe(0);
  });
});

describe('older flag spellings: still taken, no longer taught', () => {
  it('book --help shows --wait-timeout, not --timeout; --timeout still works', async () => {
    const help = await runCli(['book', '--help']);
    expect(help.stdout).toContain('--wait-timeout <duration>');
    expect(help.stdout).not.toMatch(/--timeout <duration>/);
    const dir = emptyDir();
    await runCli(['examples', '--copy'], { cwd: dir });
    const r = await runCli(['book', 'fixtures/orders/domestic-syd-mel.yaml', '--dry-run', '--poll', '1s', '--timeout', '2m'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
  });

  it('callback listen --help teaches --listen only; --host and --port are still accepted', async () => {
    const help = await runCli(['callback', 'listen', '--help']);
    expect(help.stdout).toContain('--listen <host:port>');
    expect(help.stdout).not.toMatch(/--port <port>|--host <host>/);
    const both = await runCli(['callback', 'listen', '--listen', ':0', '--port', '0']);
    // Recognised (not "unknown option"): refused for being given with --listen.
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('give --listen, or --host and --port, not both');
  });
});
