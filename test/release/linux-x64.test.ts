/**
 * The linux-x64 single executable (release/shipbook-linux-x64, built by `npm run release`) is the
 * product: run with no Node.js on PATH, from a directory of its own, it books the Quick start on
 * the built-in sandbox, runs the stepwise flow, a CSV batch with its report and a re-run that
 * books nothing twice, the guided booking on a terminal, `sandbox`, `callback listen`, `doctor`
 * and completion, as the npm install does. Skipped, saying so, when release/ was not built.
 */
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hasTmux, killTerminals, shellQuote, Terminal } from '../helpers/terminal.js';
import { EMBEDDED_NODE, makePlace, releaseFile, ROOT, run, start } from './helpers.js';

const exe = releaseFile('shipbook-linux-x64');
const place = makePlace();
afterAll(() => {
  killTerminals();
  place.cleanup();
});
const cwd = join(place.dir, 'work');
const fixture = (path: string) => join(ROOT, 'fixtures', path);
const shipbook = (args: string[], env: Record<string, string> = {}, input?: string) => run(exe!, args, { env: { ...place.env, ...env }, cwd, input });

describe.skipIf(exe === undefined)('the linux-x64 executable, with no Node.js on PATH', () => {
  it('prints its version and help without a node to run it', async () => {
    const version = await shipbook(['--version']);
    expect(version).toMatchObject({ code: 0, stdout: `${JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version}\n` });
    const help = await shipbook(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toBe(readFileSync(join(ROOT, 'dist', 'help.txt'), 'utf8'));
  });

  it('books the Quick start on the built-in sandbox, and books nothing the second time', async () => {
    const first = await shipbook(['book', fixture('orders/domestic-syd-mel.yaml')]);
    expect(first.code, first.stderr).toBe(0);
    const order = /^order\t(ORD-\w+)\tprocessed$/m.exec(first.stdout)?.[1];
    expect(order, first.stdout).toBeDefined();
    expect(first.stdout).toMatch(/\tprocessed\tSBX\d{10}\t/);
    expect(first.stderr).toContain('[sandbox] nothing was really booked');
    const again = await shipbook(['book', fixture('orders/domestic-syd-mel.yaml')]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/booked before/);
    expect(again.stdout).toContain(order);
  });

  it('runs the stepwise flow: quote, order create, accept with --wait, order get', async () => {
    const quote = await shipbook(['quote', fixture('quotes/syd-mel-single.yaml')]);
    expect(quote.code, quote.stderr).toBe(0);
    expect(quote.stdout).toMatch(/SB-DOM-ROAD/);
    const created = await shipbook(['order', 'create', fixture('orders/domestic-syd-mel.yaml'), '--quiet']);
    expect(created.code, created.stderr).toBe(0);
    const order = created.stdout.trim();
    expect(order).toMatch(/^ORD-\w+$/);
    const accepted = await shipbook(['order', 'accept', order, '--payment', 'credit', '--wait']);
    expect(accepted.code, accepted.stderr).toBe(0);
    const got = await shipbook(['order', 'get', order, '--json']);
    expect(got.code, got.stderr).toBe(0);
    expect(got.stdout).toContain('"processed"');
  });

  it('books a CSV batch with a report, and a re-run books nothing twice', async () => {
    const csv = join(cwd, 'orders.csv');
    copyFileSync(fixture('csv/orders.csv'), csv);
    const args = ['book', 'orders.csv', '--concurrency', '4', '--report', 'report.json', '--journal', 'journal.ndjson'];
    // A state of its own: the ledger of the other tests' bookings would make some "already booked".
    const own = { XDG_STATE_HOME: join(place.dir, 'state-csv') };
    const first = await shipbook(args, own);
    expect(first.code, first.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(cwd, 'report.json'), 'utf8')) as { orders: Array<{ status: string; order_id: string }> };
    expect(report.orders.length).toBeGreaterThan(0);
    expect(report.orders.every((o) => o.status === 'booked')).toBe(true);
    const second = await shipbook(args, own);
    expect(second.code, second.stderr).toBe(0);
    const again = JSON.parse(readFileSync(join(cwd, 'report.json'), 'utf8')) as { orders: Array<{ status: string; order_id: string }> };
    expect(again.orders.map((o) => o.order_id)).toEqual(report.orders.map((o) => o.order_id));
    expect(again.orders.every((o) => o.status === 'already_booked')).toBe(true);
  });

  it('runs doctor, naming the Node.js it embeds', async () => {
    const doctor = await shipbook(['doctor', '--json']);
    expect(doctor.code, doctor.stderr).toBe(0);
    const checks = (JSON.parse(doctor.stdout) as { checks: Array<{ id: string; status: string; detail: string }> }).checks;
    expect(checks.find((c) => c.id === 'node')).toMatchObject({ status: 'ok', detail: `v${EMBEDDED_NODE} (embedded in this executable)` });
  });

  it('prints completion scripts and completes commands through itself', async () => {
    for (const shell of ['bash', 'zsh', 'fish', 'powershell']) {
      const script = await shipbook(['completion', shell]);
      expect(script.code, script.stderr).toBe(0);
      expect(script.stdout).toContain('shipbook');
    }
    const completed = await shipbook(['complete', '--', 'vali']);
    expect(completed.code, completed.stderr).toBe(0);
    expect(completed.stdout).toMatch(/^validate\b/m);
  });

  it('runs a sandbox and a callback receiver; a stepwise booking on that sandbox calls back', async () => {
    const sandbox = start(exe!, ['sandbox', '--port', '0', '--delay', '200ms'], { env: place.env, cwd });
    const receiver = start(exe!, ['callback', 'listen', '--port', '0', '--json'], { env: place.env, cwd });
    try {
      const line = await sandbox.waitFor('stderr', /SHIPBOOK_BASE_URL=(\S+) SHIPBOOK_API_KEY=(\S+)/);
      const env = { SHIPBOOK_BASE_URL: line[1]!, SHIPBOOK_API_KEY: line[2]! };
      const url = (await receiver.waitFor('stderr', /Callback URL: (\S+)/))[1]!;
      const created = await shipbook(['order', 'create', fixture('orders/domestic-syd-mel.yaml'), '--quiet'], env);
      expect(created.code, created.stderr).toBe(0);
      const order = created.stdout.trim();
      const accepted = await shipbook(['order', 'accept', order, '--payment', 'credit', '--callback', url], env);
      expect(accepted.code, accepted.stderr).toBe(0);
      const summary = JSON.parse((await receiver.waitFor('stdout', /^\{.*\}$/m))[0]) as { order_id: string; status: string };
      expect(summary).toMatchObject({ order_id: order, status: 'processed' });
    } finally {
      expect(await receiver.stop('SIGINT')).toBe(130);
      expect(await sandbox.stop('SIGINT')).toBe(130);
    }
  });

  it.skipIf(!hasTmux)('runs the guided booking on a terminal', async () => {
    const saved = await shipbook(['config', 'sender', 'set', 'warehouse-syd', fixture('wizard/warehouse-syd.yaml')]);
    expect(saved.code, saved.stderr).toBe(0);
    const env = Object.entries({ ...place.env, CI: '' }).map(([k, v]) => `${k}=${shellQuote(v)}`);
    const out = join(cwd, 'guided.yaml');
    const t = Terminal.shell(
      `cd ${shellQuote(cwd)} && env -u CI ${env.filter((e) => !e.startsWith('CI=')).join(' ')} ${shellQuote(exe!)} book ${shellQuote(fixture('wizard/no-service.yaml'))} --save-as ${shellQuote(out)}; echo __EXIT=$?; sleep 600`,
    );
    await t.waitFor(/❯ SB-DOM-ROAD/);
    t.keys('Enter');
    await t.waitFor('❯ yes, book it');
    t.keys('Enter');
    await t.waitFor('❯ credit account (ship now, pay later)');
    t.keys('Enter');
    const { code, screen } = await t.exit();
    expect(code, screen).toBe(0);
    expect(screen).toMatch(/processed order ORD-\w+ booked/);
    expect(readFileSync(out, 'utf8')).toContain('SB-DOM-ROAD');
  });

  it.skipIf(!hasTmux)('finds a country by name in the guided booking (the country names are embedded), and stops on Ctrl-C', async () => {
    // A configuration of its own: the senders saved by the test before would be offered first.
    const env = Object.entries({ ...place.env, XDG_CONFIG_HOME: join(place.dir, 'config-country') })
      .filter(([k]) => k !== 'CI')
      .map(([k, v]) => `${k}=${shellQuote(v)}`);
    const t = Terminal.shell(`cd ${shellQuote(cwd)} && env -u CI ${env.join(' ')} ${shellQuote(exe!)} book; echo __EXIT=$?; sleep 600`);
    await t.answer('Sender first name', 'Priya');
    await t.answer('Sender last name', 'Raman');
    await t.answer('Sender company (optional, Enter to skip)', '');
    await t.answer('Sender e-mail', 'dispatch@example.com.au');
    await t.answer('Sender phone', '+61 2 9555 0142');
    await t.search('Sender country (type to search)', 'new zea', 'New Zealand (NZ)');
    t.keys('C-c');
    const { code } = await t.exit();
    expect(code).toBe(130);
  });
});
