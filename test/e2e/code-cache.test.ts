/**
 * The V8 code cache of bin/code-cache.js (start-up speed), through bin/shipbook.js: written once per
 * command, after a run that succeeded, into a private directory; reused; rewritten when it is
 * damaged or of another build; never written with NODE_DISABLE_COMPILE_CACHE; never holding a
 * secret of the run.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { runCli } from '../helpers/cli.js';
import { batchFixture } from '../helpers/batch.js';

const fx = useSandbox();
const roots: string[] = [];
afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

/** A fresh SHIPBOOK_CACHE_DIR and the directory the files go to. */
function cacheRoot(): { env: Record<string, string>; dir: string } {
  const root = mkdtempSync(join(tmpdir(), 'shipbook-cache-'));
  roots.push(root);
  return { env: { SHIPBOOK_CACHE_DIR: root }, dir: join(root, 'v8') };
}

const files = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.bin'))
    .sort();
/** The program's own files (`<hash>-…`), without those of the chunks it loads (`undici.…`, `addresses.…`). */
const programFiles = (dir: string) => files(dir).filter((f) => /^[0-9a-f]{16}-/.test(f));
const VALIDATE = ['validate', 'fixtures/orders/domestic-syd-mel.yaml'];

describe('code cache', () => {
  it('is written once per command, 0600 in a 0700 directory, and used by the next run', async () => {
    const { env, dir } = cacheRoot();
    const first = await runCli(VALIDATE, { env });
    expect(first.code, first.stderr).toBe(0);
    expect(programFiles(dir)).toHaveLength(1);
    // The address checks of an Australian file load their chunk, which has a file of its own.
    expect(files(dir).filter((f) => f.startsWith('addresses.'))).toHaveLength(1);
    const file = programFiles(dir)[0]!;
    expect(file).toMatch(/^[0-9a-f]{16}-\d+-\d+-v\d+\.\d+\.\d+-[a-z0-9]+-validate\.bin$/);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, file)).mode & 0o777).toBe(0o600);
    const written = statSync(join(dir, file));

    const second = await runCli(VALIDATE, { env });
    expect(second.code).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    const after = statSync(join(dir, file));
    expect([after.ino, after.mtimeMs]).toEqual([written.ino, written.mtimeMs]); // accepted, not rewritten

    // another command gets a file of its own
    expect((await runCli(['schema', 'order'], { env })).code).toBe(0);
    expect(programFiles(dir)).toEqual([file.replace(/validate\.bin$/, 'schema.bin'), file]);
  });

  it('a damaged cache only costs a recompile: the run works and the file is written again', async () => {
    const { env, dir } = cacheRoot();
    const clean = await runCli(VALIDATE, { env });
    const file = files(dir)[0]!;
    writeFileSync(join(dir, file), Buffer.alloc(4096, 0x5a));
    const damaged = await runCli(VALIDATE, { env });
    expect(damaged.code, damaged.stderr).toBe(0);
    expect(damaged.stdout).toBe(clean.stdout);
    expect(damaged.stderr).toBe(clean.stderr);
    expect(readFileSync(join(dir, file)).equals(Buffer.alloc(4096, 0x5a))).toBe(false);
  });

  it('files of another build are removed when a new one is written', async () => {
    const { env, dir } = cacheRoot();
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, '0123456789abcdef-1-1-v0.0.0-x64-validate.bin'), 'old');
    expect((await runCli(VALIDATE, { env })).code).toBe(0);
    expect(programFiles(dir)).toHaveLength(1);
    expect(programFiles(dir)[0]).not.toContain('0123456789abcdef');
  });

  it("a command that calls the service caches its HTTP client in a file of its own; files of another build of it are removed, the program's stay", async () => {
    const { env, dir } = cacheRoot();
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'undici.0123456789abcdef-1-1-v0.0.0-x64-quote.bin'), 'old');
    expect((await runCli(VALIDATE, { env })).code).toBe(0);
    const quote = await runCli(['quote', 'fixtures/quotes/syd-mel-single.yaml'], { env: { ...fx.env, ...env } });
    expect(quote.code, quote.stderr).toBe(0);
    const names = files(dir);
    // validate: the program and the address chunk; quote: the program, its HTTP client and the address chunk.
    expect(names).toHaveLength(5);
    expect(names.filter((f) => f.startsWith('addresses.')).map((f) => f.replace(/^.*-/, ''))).toEqual(['quote.bin', 'validate.bin']);
    expect(names.filter((f) => /^[0-9a-f]{16}-/.test(f)).map((f) => f.replace(/^.*-/, ''))).toEqual(['quote.bin', 'validate.bin']);
    expect(names.filter((f) => f.startsWith('undici.'))).toEqual([expect.not.stringContaining('0123456789abcdef')]);
    const again = await runCli(['quote', 'fixtures/quotes/syd-mel-single.yaml'], { env: { ...fx.env, ...env } });
    expect(again.stdout).toBe(quote.stdout);
    expect(files(dir)).toEqual(names);
  });

  it('a batch that bounds its heap as it goes leaves the caches of the run before as they were', async () => {
    // The launcher changes a V8 flag during a long run (the young generation's growth), and V8
    // takes a cache only under the flags it was made with: a chunk compiled, or a cache written,
    // under the changed flag would be refused by the next start and written again at every run.
    const { env, dir } = cacheRoot();
    const stamps = () => files(dir).map((f) => `${f} ${statSync(join(dir, f)).mtimeMs} ${statSync(join(dir, f)).size}`);
    const book = async (prefix: string) => {
      const { file } = batchFixture(1_500, { prefix });
      const r = await runCli(['book', file, '--concurrency', '16', '--poll', '10ms'], { env: { ...fx.env, ...env } });
      expect(r.code, r.stderr).toBe(0);
    };
    await book('FIRST');
    const first = stamps();
    expect(files(dir).map((f) => f.replace(/^([a-z]+\.)?[0-9a-f]{16}-.*-/, '$1'))).toEqual(expect.arrayContaining(['addresses.book.bin', 'book.bin']));
    await book('SECOND');
    expect(stamps()).toEqual(first);
  });

  it('a run that fails writes nothing (a mistyped command, an invalid file)', async () => {
    const { env, dir } = cacheRoot();
    expect((await runCli(['qoute', 'x.yaml'], { env })).code).toBe(2);
    expect((await runCli(['validate', 'fixtures/invalid/order-typos.yaml'], { env })).code).toBe(2);
    expect(() => readdirSync(dir)).toThrow(/ENOENT/);
  });

  it('a cache directory that cannot be made only costs speed: a file in the way, or under /proc (no hang)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'shipbook-cache-'));
    roots.push(root);
    writeFileSync(join(root, 'file'), 'x');
    for (const dir of [join(root, 'file'), ...(process.platform === 'linux' ? ['/proc/shipbook-cannot-be'] : [])]) {
      const r = await runCli(VALIDATE, { env: { SHIPBOOK_CACHE_DIR: dir }, timeoutMs: 15_000 });
      expect(r.code, `${dir}: ${r.stderr}`).toBe(0);
      expect(r.stdout + r.stderr).toContain('valid');
    }
  });

  it('NODE_DISABLE_COMPILE_CACHE=1 writes nothing', async () => {
    const { env, dir } = cacheRoot();
    const r = await runCli(VALIDATE, { env: { ...env, NODE_DISABLE_COMPILE_CACHE: '1' } });
    expect(r.code).toBe(0);
    expect(() => readdirSync(dir)).toThrow(/ENOENT/);
  });

  it('holds no secret of the run: not the API key, not the card number', async () => {
    const { env, dir } = cacheRoot();
    const key = 'sk_test_CacheCanary_7Qx9Lm2Vb8';
    const payment = join(roots[roots.length - 1]!, 'card.yaml');
    writeFileSync(
      payment,
      'order:\n  payment:\n    type: credit_card\n    credit_card:\n      number: "4000 0566 5566 5556"\n      cvv: "987"\n      holder_name: Canary Holder\n      expire: "08/29"\n',
    );
    const r = await runCli(['book', 'fixtures/orders/domestic-syd-mel.yaml', '--payment', 'credit_card', '--payment-file', payment, '--poll', '200ms'], {
      env: { ...fx.env, ...env, SHIPBOOK_API_KEY: key },
    });
    expect(r.code, r.stderr).toBe(0);
    // the program's file, and the one of its HTTP client (a bundle of its own, dist/chunks/)
    // (and the one of the address checks, loaded for the file's Australian addresses)
    const names = files(dir);
    expect(names).toHaveLength(3);
    const named = (re: RegExp) => names.find((f) => re.test(f));
    const [main, addresses, undici] = [/^[0-9a-f]{16}-.*-book\.bin$/, /^addresses\.[0-9a-f]{16}-.*-book\.bin$/, /^undici\.[0-9a-f]{16}-.*-book\.bin$/].map(
      (re) => {
        const f = named(re);
        expect(f, String(re)).toBeDefined();
        return readFileSync(join(dir, f!));
      },
    );
    expect(main!.length).toBeGreaterThan(10_000);
    // the scan finds what the cache does hold: texts of the program's own source
    expect(main!.includes(Buffer.from('fetch-order-data', 'latin1'))).toBe(true);
    for (const bytes of [main!, addresses!, undici!]) {
      for (const secret of [key, 'CacheCanary', '4000 0566 5566 5556', '4000056655665556', 'Canary Holder']) {
        expect(bytes.includes(Buffer.from(secret, 'latin1')), secret).toBe(false);
        expect(bytes.includes(Buffer.from(secret, 'utf16le')), secret).toBe(false);
      }
    }
  });
});
