/**
 * End-to-end: the help teaches one spelling per option and the global flags that matter to each
 * command (all of them with `shipbook help flags`); older spellings work and are warned about;
 * a usage error in a machine format is said once on a terminal; `validate` counts documents; a
 * dry run says why an input it would skip is invalid.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, isolatedEnv, runCli } from '../helpers/cli.js';
import { bufferIO, runShipbook } from '../helpers/run.js';
import { main } from '../../src/main.js';

const dir = mkdtempSync(join(tmpdir(), 'shipbook-help-flags-'));

/** Runs shipbook in process with stdout and stderr on one terminal, 100 columns wide. */
async function onTerminal(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const io = bufferIO({ env: isolatedEnv(), tty: true, columns: 100 });
  const code = await main(['node', 'shipbook', ...args], io);
  return { code, stdout: io.stdoutText(), stderr: io.stderrText() };
}

describe('help', () => {
  it('callback --help teaches --listen, never the hidden --port', async () => {
    for (const args of [
      ['callback', '--help'],
      ['callback', 'listen', '--help'],
    ]) {
      const r = await runShipbook(args);
      expect(r.code).toBe(0);
      expect(r.stdout).not.toMatch(/--port\b/);
      expect(r.stdout).toContain('--listen');
    }
  });

  it('a description is wrapped once: no line of the callback help ends mid-sentence before a short one', async () => {
    const r = await runShipbook(['callback', '--help'], { env: { COLUMNS: '80' } });
    expect(r.stdout).toContain('A receiver for booking callbacks on this machine, for watching what the service');
    // Before, a hard line break after "sends" left it alone on a line of its own.
    expect(r.stdout).not.toMatch(/^sends$/m);
  });

  it('shows only the global flags that matter to the command; shipbook help flags lists all of them', async () => {
    const all = await runShipbook(['help', 'flags']);
    expect(all.code, all.stderr).toBe(0);
    const names = [...all.stdout.matchAll(/^ {2}(?:-\w, )?(--[\w-]+)/gm)].map((m) => m[1]);
    expect(names).toEqual(
      expect.arrayContaining(['--json', '--profile', '--dry-run', '--strict-addresses', '--no-normalize-phones', '--rate', '--jq', '--template']),
    );
    expect(names.length).toBe(16);
    const completion = await runShipbook(['completion', '--help']);
    expect(completion.stdout).toContain('Global flags: none apply to this command (all 16: shipbook help flags)');
    expect(completion.stdout).not.toContain('--strict-addresses');
    const get = await runShipbook(['order', 'get', '--help']);
    expect(get.stdout).toContain('Global flags for this command (6 more global flags: shipbook help flags):');
    expect(get.stdout).toContain('--request-timeout');
    expect(get.stdout).not.toContain('--dry-run');
    expect(get.stdout).not.toContain('--normalize-phones');
    const book = await runShipbook(['book', '--help']);
    for (const flag of ['--dry-run', '--strict-addresses', '--no-input', '--json']) expect(book.stdout).toContain(flag);
  });

  it('no help says (default: false)', async () => {
    for (const args of [['book'], ['order', 'accept'], ['validate'], ['sandbox'], ['help', 'flags']]) {
      const r = await runShipbook(args[0] === 'help' ? args : [...args, '--help']);
      expect(r.stdout, args.join(' ')).not.toMatch(/\(default: (false|true)\)/);
    }
  });
});

describe('one spelling per option', () => {
  it('--public-url is taught; --callback-url still works, hidden and warned about', async () => {
    const help = await runShipbook(['order', 'accept', '--help']);
    expect(help.stdout).toContain('--public-url <url>');
    expect(help.stdout).toContain('--callback <url>');
    expect(help.stdout).not.toContain('--callback-url');
    // The older spelling is read as --public-url: the same refusal with --poll, and a warning.
    const old = await runShipbook(['book', 'fixtures/orders/domestic-syd-mel.yaml', '--callback-url', 'https://hooks.example.com/sb', '--poll', '1s']);
    expect(old.code).toBe(2);
    expect(old.stderr).toContain('warning: --callback-url is an older spelling of --public-url; it still works, but use --public-url');
    expect(old.stderr).toContain('--poll and --callback-url choose different ways of waiting');
    const both = await runShipbook([
      'book',
      'fixtures/orders/domestic-syd-mel.yaml',
      '--callback-url',
      'https://a.example/',
      '--public-url',
      'https://a.example/',
    ]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('give --public-url once (--callback-url is its older spelling)');
    const timeout = await runShipbook(['book', 'fixtures/orders/domestic-syd-mel.yaml', '--timeout', 'soon']);
    expect(timeout.stderr).toContain('warning: --timeout is an older spelling of --wait-timeout');
  });

  it('callback listen --port works, is warned about, and a port in use names --listen', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const r = await runCli(['callback', 'listen', '--port', String(port)], { env: { SHIPBOOK_STATE_DIR: join(dir, 'listen') } });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('warning: --port is an older spelling of --listen');
      expect(r.stderr).toContain(`cannot listen on 127.0.0.1:${port} (EADDRINUSE)`);
      expect(r.stderr).toContain('hint: Choose another port with --listen 127.0.0.1:<port>, or --listen 127.0.0.1:0 for any free port.');
      expect(r.stderr).not.toMatch(/with --port/);
    } finally {
      await new Promise<void>((resolve) => taken.close(() => resolve()));
    }
  });
});

describe('a usage error in a machine format', () => {
  it('is said once on a terminal: the error object, with the suggestion apart', async () => {
    const tty = await onTerminal(['--json', 'bok']);
    expect(tty.code).toBe(2);
    expect(tty.stderr).toBe('');
    expect(JSON.parse(tty.stdout)).toEqual({ error: { code: 'usage', message: "unknown command 'bok'", exit_code: 2, suggestion: 'Did you mean book?' } });
    // In a pipe, a script reads stdout and a person the log of stderr: both are written.
    const piped = await runCli(['--json', 'bok']);
    expect(piped.code).toBe(2);
    expect(JSON.parse(piped.stdout).error.message).toBe("unknown command 'bok'");
    expect(piped.stderr).toContain("error: unknown command 'bok'");
  });
});

describe('counts in documents', () => {
  it('validate o300.ndjson says 300 orders; a dry run says why an input it skips is invalid', async () => {
    const order = readFileSync(join(ROOT, 'fixtures/orders/domestic-syd-mel.yaml'), 'utf8');
    const { parse } = await import('yaml');
    const doc = parse(order) as { order: { shipments: Array<{ transient_id: string }> } };
    const ndjson = Array.from({ length: 300 }, (_, i) => {
      doc.order.shipments[0]!.transient_id = `O300-${i}`;
      return JSON.stringify(doc);
    }).join('\n');
    const file = join(dir, 'o300.ndjson');
    writeFileSync(file, `${ndjson}\n`);
    const r = await onTerminal(['validate', file]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`${file}  order  300 orders  valid`);
    expect(r.stdout).toContain('1 file checked (300 orders): 1 valid, 0 with errors');
    const json = await runShipbook(['validate', file, '--json']);
    expect((JSON.parse(json.stdout) as Array<{ documents: number }>)[0]!.documents).toBe(300);
    // One invalid order among them: the dry run with --skip-invalid says why.
    const mixed = join(dir, 'mixed.ndjson');
    writeFileSync(mixed, `${ndjson.split('\n').slice(0, 2).join('\n')}\n{"order":{"shipments":[]}}\n`);
    const dry = await runShipbook(['book', mixed, '--dry-run', '--skip-invalid'], { env: { SHIPBOOK_STATE_DIR: join(dir, 'dry') } });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(new RegExp(`^${mixed.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3\\t\\S+\\tinvalid: order.shipments: at least 1 shipment$`, 'm'));
  });
});
