/**
 * Pickup days with the clock set from outside: libfaketime (Debian's `faketime`) starts the built
 * bin/shipbook.js at a chosen moment, so shipbook's own clock code runs unchanged. The collection
 * address's state decides the public holidays (Labour Day in NSW, Melbourne Cup in Victoria), its
 * zone decides "today" and the 14:00 cut-off, whatever the zone of the machine (UTC here).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, isolatedEnv, type CliResult } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';
import { hasTmux, killTerminals, shellQuote, Terminal } from '../helpers/terminal.js';

const hasFaketime = spawnSync('faketime', ['--version']).status === 0;
if (!hasFaketime) console.warn('skipping the pickup-day tests with a set clock: faketime is not installed (apt-get install faketime)');

const fx = useSandbox({ processingDelayMs: 20 });
const dir = mkdtempSync(join(tmpdir(), 'shipbook-pickup-days-'));
afterAll(killTerminals);

/** Runs shipbook with the clock starting at `utc` (`YYYY-MM-DD hh:mm:ss`, UTC), on the machine's zone UTC. */
function runAt(utc: string, args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn('faketime', [utc, process.execPath, BIN, ...args], {
      cwd: ROOT,
      env: isolatedEnv({ ...fx.env, ...env, TZ: 'UTC' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 25_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
  });
}

/** The fixture order (collected in Alexandria, NSW, pickup date `next`), collected at `postcode`/`city` instead when given. */
function orderFile(name: string, place?: { postcode: string; city: string }, date = 'next'): string {
  let text = readFileSync(join(ROOT, 'fixtures/orders/domestic-syd-mel.yaml'), 'utf8').replace('date: next', `date: ${date}`);
  if (place) text = text.replace('postcode: "2015"', `postcode: "${place.postcode}"`).replace('city: Alexandria', `city: ${place.city}`);
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

/** The pickup date the service was sent for the order `order create --json` printed. */
function pickupSent(r: CliResult): string {
  expect(r.code, r.stderr).toBe(0);
  const order = (JSON.parse(r.stdout) as { order: { id: string } }).order;
  const stored = fx.sandbox.state.allOrders().find((o) => o.id === order.id)!;
  return fx.sandbox.state.shipmentsOf(stored)[0]!.request.collection!.pickup!.date;
}

describe.skipIf(!hasFaketime)('the next collection day, with the clock set from outside', () => {
  it('is Monday after a Friday past the cut-off, and Tuesday when that Monday is a holiday of the collection state', async () => {
    // Friday 27 November 2026, 16:30 in Sydney (05:30 UTC): past the 14:00 cut-off.
    expect(pickupSent(await runAt('2026-11-27 05:30:00', ['order', 'create', orderFile('friday.yaml'), '--json']))).toBe('2026-11-30');
    // Friday 2 October 2026, 16:00 in Sydney: Monday the 5th is Labour Day in NSW, not in Victoria.
    expect(pickupSent(await runAt('2026-10-02 06:00:00', ['order', 'create', orderFile('labour-day.yaml'), '--json']))).toBe('2026-10-06');
    const melbourne = orderFile('labour-day-vic.yaml', { postcode: '3000', city: 'Melbourne' });
    expect(pickupSent(await runAt('2026-10-02 06:00:00', ['order', 'create', melbourne, '--json']))).toBe('2026-10-05');
    // Before the cut-off, today is the day; --pickup-date takes the same words.
    expect(pickupSent(await runAt('2026-11-26 22:00:00', ['order', 'create', orderFile('morning.yaml'), '--json']))).toBe('2026-11-27');
    // Wednesday 25 November, 09:00 in Sydney: tomorrow is Thursday (on a Friday it would be a Saturday, refused).
    const tomorrow = orderFile('tomorrow.yaml', undefined, '"2026-12-04"');
    expect(pickupSent(await runAt('2026-11-24 22:00:00', ['order', 'create', tomorrow, '--pickup-date', 'tomorrow', '--json']))).toBe('2026-11-26');
  });

  it("follows a saved sender's own cut-off, window and closed days, and sends none of them", async () => {
    const home = mkdtempSync(join(tmpdir(), 'shipbook-pickup-sender-'));
    const env = { HOME: home, XDG_CONFIG_HOME: home, SHIPBOOK_CONFIG_DIR: join(home, 'shipbook') };
    const sender = join(dir, 'dock.yaml');
    writeFileSync(
      sender,
      `${readFileSync(join(ROOT, 'fixtures/wizard/warehouse-syd.yaml'), 'utf8')}cutoff: "10:00"\npickup_window: "08:00-12:00"\nclosed: [2026-11-26]\n`,
    );
    const saved = await runAt('2026-11-24 23:00:00', ['config', 'sender', 'set', 'dock', sender], env);
    expect(saved.code, saved.stderr).toBe(0);
    const file = join(dir, 'by-sender.yaml');
    writeFileSync(
      file,
      readFileSync(join(ROOT, 'fixtures/orders/domestic-syd-mel.yaml'), 'utf8').replace(
        / {6}collection:\n( {8}.*\n| {10}.*\n)+/,
        '      collection: { sender: "@dock", pickup: { date: next } }\n',
      ),
    );
    // Wednesday 25 November 2026, 11:00 in Sydney: past the dock's 10:00 cut-off (not the profile's
    // 14:00), Thursday closed at the dock: Friday the 27th, in the dock's window.
    const r = await runAt('2026-11-25 00:00:00', ['order', 'create', file, '--json'], env);
    expect(r.code, r.stderr).toBe(0);
    const id = (JSON.parse(r.stdout) as { order: { id: string } }).order.id;
    const stored = fx.sandbox.state.allOrders().find((o) => o.id === id)!;
    const collection = fx.sandbox.state.shipmentsOf(stored)[0]!.request.collection as Record<string, unknown>;
    expect(collection.pickup).toEqual({ date: '2026-11-27', time_earliest: '08:00', time_latest: '12:00' });
    for (const field of ['cutoff', 'pickup_window', 'closed']) expect(collection).not.toHaveProperty(field);
  });

  it('gives a Melbourne and a Sydney collection different days on Melbourne Cup day', async () => {
    // Monday 2 November 2026, 15:00 in Melbourne and Sydney (04:00 UTC): past the cut-off; Tuesday is Melbourne Cup, in Victoria only.
    const sydney = pickupSent(await runAt('2026-11-02 04:00:00', ['order', 'create', orderFile('cup-syd.yaml'), '--json']));
    const melbourne = pickupSent(
      await runAt('2026-11-02 04:00:00', ['order', 'create', orderFile('cup-mel.yaml', { postcode: '3000', city: 'Melbourne' }), '--json']),
    );
    expect(sydney).toBe('2026-11-03');
    expect(melbourne).toBe('2026-11-04');
    const quoted = await runAt('2026-11-02 04:00:00', ['quote', '--from', 'AU:3000:Melbourne', '--to', 'AU:2000:Sydney', '--package', '30x20x15cm:2kg']);
    expect(quoted.code, quoted.stderr).toBe(0);
    expect(quoted.stderr).toContain('the next collection day, Wednesday 4 November (2026-11-04)');
  });

  it('refuses a stale spreadsheet before sending anything, naming the next day, and books it with --roll-pickup-dates', async () => {
    const csv = join(dir, 'stale.csv');
    writeFileSync(csv, readFileSync(join(ROOT, 'fixtures/csv/orders.csv'), 'utf8').replace(/,next,09:00,15:00,/g, ',2026-11-26,09:00,15:00,'));
    const before = fx.sandbox.state.allOrders().length;
    // Friday 27 November 2026, 10:00 in Sydney: Thursday's dates are stale; today is still a collection day.
    const refused = await runAt('2026-11-26 23:00:00', ['book', csv, '--poll', '50ms']);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain(
      'pickup date 2026-11-26 is in the past (today is Friday 27 November in NSW); the next collection day is Friday 27 November (2026-11-27): write it, or book with --roll-pickup-dates',
    );
    expect(refused.stderr).toContain('stale.csv:2:pickup_date  order.shipments[0].collection.pickup.date');
    expect(fx.sandbox.state.allOrders().length).toBe(before);
    const report = join(dir, 'rolled.json');
    const rolled = await runAt('2026-11-26 23:00:00', ['book', csv, '--roll-pickup-dates', '--poll', '50ms', '--report', report]);
    expect(rolled.code, rolled.stderr).toBe(0);
    expect(rolled.stderr).toContain('moved to Friday 27 November (2026-11-27) by --roll-pickup-dates');
    const orders = (JSON.parse(readFileSync(report, 'utf8')) as { orders: Array<{ status: string; warnings?: Array<{ message: string }> }> }).orders;
    expect(orders.length).toBeGreaterThan(0);
    // The report records both dates: the one written and the one sent.
    for (const o of orders.filter((x) => x.warnings?.some((w) => w.message.includes('pickup date')))) {
      expect(o.warnings!.map((w) => w.message).join('\n')).toContain('pickup date 2026-11-26 is in the past');
      expect(o.warnings!.map((w) => w.message).join('\n')).toContain('(2026-11-27)');
    }
    expect(orders.some((o) => o.warnings?.some((w) => w.message.includes('moved to Friday 27 November')))).toBe(true);
    const booked = new Set(orders.map((o) => (o as { order_id?: string }).order_id));
    const sent = fx.sandbox.state
      .allOrders()
      .filter((o) => booked.has(o.id))
      .flatMap((o) => fx.sandbox.state.shipmentsOf(o).map((x) => x.request.collection?.pickup?.date))
      .filter((d) => d !== undefined);
    expect(sent.length).toBeGreaterThan(0);
    expect(new Set(sent)).toEqual(new Set(['2026-11-27']));
  });

  it.skipIf(!hasTmux)('offers the next five collection days of the sender in the guided booking', async () => {
    // A file without its pickup: only the pickup is asked. Friday 24 December 2027, 15:00 in
    // Sydney: the weekend, then Christmas and Boxing Day's substitute days (27 and 28 December).
    const partial = join(dir, 'no-pickup.yaml');
    writeFileSync(
      partial,
      readFileSync(join(ROOT, 'fixtures/orders/domestic-syd-mel.yaml'), 'utf8').replace(
        / {8}pickup:\n {10}date: next\n {10}time_earliest: "09:00"\n {10}time_latest: "15:00"\n/,
        '',
      ),
    );
    expect(readFileSync(partial, 'utf8')).not.toContain('pickup:');
    const vars = Object.entries({ ...isolatedEnv({ ...fx.env, TZ: 'UTC' }), NO_COLOR: '1' })
      .filter(([k]) => k !== 'CI')
      .map(([k, v]) => `${k}=${shellQuote(v)}`);
    const t = Terminal.shell(
      `cd ${shellQuote(ROOT)} && env -u CI ${vars.join(' ')} faketime '2027-12-24 04:00:00' ${shellQuote(process.execPath)} ${shellQuote(BIN)} order create ${shellQuote(partial)}; echo __EXIT=$?; sleep 600`,
    );
    const screen = await t.waitFor('? Pickup day', 20_000);
    for (const day of [
      'Wednesday 29 December (2027-12-29)',
      'Thursday 30 December (2027-12-30)',
      'Friday 31 December (2027-12-31)',
      'Tuesday 4 January (2028-01-04)',
      'Wednesday 5 January (2028-01-05)',
    ])
      expect(await t.waitFor(day)).toContain(day);
    // New Year's Day 2028 is a Saturday: its substitute, Monday 3 January, is no collection day either.
    expect(t.screen()).not.toContain('2028-01-03');
    expect(t.screen()).not.toContain('2027-12-27');
    expect(screen).toContain('❯ Wednesday 29 December (2027-12-29)');
    t.keys('Down');
    t.keys('Enter');
    await t.answer('Pickup from (HH:MM)', '');
    await t.answer('Pickup until (HH:MM)', '');
    await t.waitFor('? Create this order?');
    t.keys('Enter');
    await t.answer('Save these answers as a file, to use again without prompts?', '');
    const { code, screen: end } = await t.exit();
    expect(code, end).toBe(0);
    const id = /ORD-\w+/.exec(end)![0];
    const stored = fx.sandbox.state.allOrders().find((o) => o.id === id)!;
    expect(fx.sandbox.state.shipmentsOf(stored)[0]!.request.collection!.pickup).toEqual({ date: '2027-12-30', time_earliest: '09:00', time_latest: '15:00' });
  });
});
