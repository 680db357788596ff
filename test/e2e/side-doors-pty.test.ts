/**
 * Doors around exactly-once in the guided booking, tried in a real pseudo-terminal (tmux, as in
 * wizard-pty.test.ts): a saved file that must be known as booked, a change at the summary abandoned
 * with Ctrl-C, and a declined card answered in the same run.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { batchFixture } from '../helpers/batch.js';
import { useSandbox } from '../helpers/sandbox.js';
import { hasTmux, killTerminals, Terminal } from '../helpers/terminal.js';
import { ROOT, runCli } from '../helpers/cli.js';

if (!hasTmux) console.warn('skipping the pseudo-terminal tests of the side doors: tmux is not installed (apt-get install tmux)');

const fx = useSandbox();
let env: Record<string, string>;

beforeAll(async () => {
  env = { ...fx.env, SHIPBOOK_PROFILE: 'dev' };
  const saved = await runCli(['config', 'sender', 'set', 'warehouse-syd', 'fixtures/wizard/warehouse-syd.yaml'], { env });
  expect(saved.code, saved.stderr).toBe(0);
});

afterAll(killTerminals);

/** The ids of the orders the test's sandbox holds (GET /_sandbox/orders/, newest first). */
async function orderIds(): Promise<string[]> {
  const res = await fetch(`${fx.sandbox.url}_sandbox/orders/`, { headers: { Authorization: `Bearer ${fx.env.SHIPBOOK_API_KEY}` } });
  const body = (await res.json()) as { result: { orders: Array<{ id: string }> } };
  return body.result.orders.map((o) => o.id);
}

/** An environment with a state directory (ledger, drafts) of the test's own. */
function ownState(prefix: string): Record<string, string> {
  return { ...env, SHIPBOOK_STATE_DIR: mkdtempSync(join(tmpdir(), `shipbook-${prefix}-`)) };
}

describe.skipIf(!hasTmux)('the file a guided booking saves', () => {
  it('is known as booked, with the same order: booking it shows that order and books nothing, on a terminal and without one', async () => {
    const state = ownState('saved');
    const saved = join(state.SHIPBOOK_STATE_DIR!, 'order.yaml');
    const before = await orderIds();
    const t = Terminal.start(['book', 'fixtures/wizard/no-service.yaml'], state);
    await t.waitFor('❯ SB-DOM-ROAD');
    t.keys('Enter');
    await t.waitFor('? Book this?');
    t.keys('Enter');
    await t.answer('Save these answers as a file, to use again without prompts?', 'y');
    await t.waitFor('? File name');
    t.keys('C-u');
    await t.answer('File name', saved);
    await t.waitFor('❯ credit account');
    t.keys('Enter');
    const first = await t.exit(40_000);
    expect(first.code, first.screen).toBe(0);
    const id = /processed order (ORD-\w+) booked/.exec(first.screen)![1]!;
    // The hint tells the truth: the file shows this booking; a new shipment needs --again.
    const lines = first.screen.slice(0, first.screen.indexOf('__EXIT=')).trimEnd().split('\n');
    expect(lines.at(-1)).toBe(
      `Saved the order as ${saved} (no payment details). "shipbook book ${saved}" shows or continues this booking; a new shipment of it is booked only with: shipbook book ${saved} --again`,
    );
    expect((await orderIds()).sort()).toEqual([...before, id].sort());

    // Without a terminal (CI): booked before, the same order shown, exit 0, nothing created.
    const ci = await runCli(['book', saved], { env: { ...state, CI: 'true' } });
    expect(ci.code, ci.stderr).toBe(0);
    expect(ci.stderr).toContain(`this document was booked before (${saved}): order ${id}, processed`);
    expect(ci.stdout).toContain(id);
    const json = await runCli(['book', saved, '--json'], { env: state });
    expect(json.code, json.stderr).toBe(0);
    expect((JSON.parse(json.stdout) as { order: { id: string }; already_booked: unknown }).order.id).toBe(id);
    expect((await orderIds()).sort()).toEqual([...before, id].sort());

    // On a terminal: the question of any file booked before, No by default.
    const again = Terminal.start(['book', saved], state);
    await again.waitFor(`this document was booked before (${saved}): order ${id}, processed`);
    await again.answer('Book it again? (a second order, paid again)', '');
    const declined = await again.exit();
    expect(declined.code, declined.screen).toBe(0);
    expect(declined.screen).toContain(`Order ${id}`);
    expect((await orderIds()).sort()).toEqual([...before, id].sort());

    // The hint's command books a new shipment.
    const more = await runCli(['book', saved, '--again', '--json'], { env: state });
    expect(more.code, more.stderr).toBe(0);
    expect((await orderIds()).length).toBe(before.length + 2);
  }, 120_000);
});

describe.skipIf(!hasTmux)('Ctrl-C while changing a part from the summary', () => {
  it('keeps the old part: the draft holds the last complete answers (sender, pickup, service)', async () => {
    const state = ownState('change');
    const draft = join(state.SHIPBOOK_STATE_DIR!, 'drafts', 'book.yaml');
    // A file without the recipient: the recipient and the service are asked, and can be changed.
    const partial = join(state.SHIPBOOK_STATE_DIR!, 'no-delivery.yaml');
    writeFileSync(
      partial,
      readFileSync(join(ROOT, 'fixtures/wizard/no-service.yaml'), 'utf8').replace(/      delivery:\n(        .*\n|          - .*\n)+/, ''),
    );
    const t = Terminal.start(['book', partial], state);
    await t.answer('Recipient first name', 'Tom');
    await t.answer('Recipient last name', 'Nguyen');
    await t.answer('Recipient company (optional, Enter to skip)', '');
    await t.answer('Recipient e-mail', 'tom.nguyen@example.com.au');
    await t.answer('Recipient phone', '+61 412 555 019');
    await t.search('Recipient country (type to search)', 'austral', 'Australia (AU)');
    await t.answer('Recipient postcode', '3000');
    // A search question: Enter takes the highlighted choice, so wait for it before pressing Enter.
    await t.search('Recipient city', 'Melbourne', 'Melbourne VIC 3000');
    await t.answer('Recipient address line 1', 'Level 12, 120 Collins Street');
    await t.answer('Recipient address line 2 (optional, Enter to skip)', '');
    await t.waitFor('❯ SB-DOM-ROAD');
    t.keys('Enter');
    await t.waitFor('? Book this?');
    // change the recipient: half-way through its address, Ctrl-C.
    await t.waitFor('  change the recipient');
    t.keys('Down');
    await t.waitFor('❯ change the recipient');
    t.keys('Enter');
    await t.answer('Recipient first name', '');
    await t.answer('Recipient last name', '');
    await t.answer('Recipient company (optional, Enter to skip)', '');
    await t.answer('Recipient e-mail', '');
    await t.answer('Recipient phone', '');
    await t.waitFor('❯ Australia (AU)');
    t.keys('Enter');
    await t.waitFor('? Recipient postcode');
    t.keys('C-u');
    await t.answer('Recipient postcode', '4000');
    await t.search('Recipient city', 'Brisbane', 'Brisbane QLD 4000');
    await t.waitFor('? Recipient address line 1');
    t.keys('C-c');
    const stopped = await t.exit();
    expect(stopped.code, stopped.screen).toBe(130);
    expect(stopped.screen).toContain(`the answers so far are kept in ${draft}`);
    const kept = parse(readFileSync(draft, 'utf8')) as { order: { shipments: Array<Record<string, any>> } };
    const s = kept.order.shipments[0]!;
    // The recipient as it was, not half of the new one; the rest untouched.
    expect(s.delivery).toMatchObject({ first_name: 'Tom', city: 'Melbourne', postcode: '3000', address_lines: ['Level 12, 120 Collins Street'] });
    expect(s.collection).toMatchObject({ first_name: 'Priya', pickup: { date: 'next', time_earliest: '09:00', time_latest: '15:00' } });
    expect(s.service).toEqual({ code: 'SB-DOM-ROAD' });
    expect(s.collection_type).toBe('pickup');
    const v = await runCli(['validate', draft], { env: state });
    expect(v.code, v.stdout + v.stderr).toBe(0);
  }, 120_000);
});

/** From the start of `book fixtures/wizard/no-service.yaml` to the card questions, typing `number`. */
async function toNewCard(t: Terminal, number: string): Promise<void> {
  await t.waitFor('❯ SB-DOM-ROAD');
  t.keys('Enter');
  await t.waitFor('? Book this?');
  t.keys('Enter');
  await t.answer('Save these answers as a file, to use again without prompts?', '');
  await t.waitFor('❯ credit account');
  t.keys('Down', 'Down', 'Enter');
  await card(t, number);
}

/** Answers the questions of a new card. */
async function card(t: Terminal, number: string): Promise<void> {
  await t.answer('Card number', number);
  await t.answer('Expiry (MM/YY)', '08/39');
  await t.answer('CVV', '123');
  await t.answer('Name on the card', 'Priya Raman');
  await t.answer('Save the card with the service for next time?', 'n');
}

/** The sandbox's test card that is always declined. */
const DECLINED = '4000 0000 0000 0002';

describe.skipIf(!hasTmux)('a declined card in the guided booking', () => {
  it('offers another card, the credit account or cancelling, in the same run, and books the same order', async () => {
    const state = ownState('declined');
    const before = await orderIds();
    const t = Terminal.start(['book', 'fixtures/wizard/no-service.yaml'], state);
    await toNewCard(t, DECLINED);
    const asked = await t.waitFor('? The card was declined. What now?');
    expect(asked).toMatch(/declined: .*card declined.*\. Order (ORD-\w+) is created and not accepted: nothing was paid\./);
    const id = /Order (ORD-\w+) is created and not accepted/.exec(asked)![1]!;
    expect(asked).toContain('❯ try another card');
    expect(asked).toContain('  the credit account (ship now, pay later)');
    expect(asked).toContain(`  cancel the order (${id})`);
    // Another card, declined too: asked again.
    t.keys('Enter');
    await card(t, DECLINED);
    await t.waitFor(/What now\?[\s\S]*What now\?/);
    // The credit account: the same order is accepted and booked.
    t.keys('Down', 'Enter');
    const { code, screen } = await t.exit(40_000);
    expect(code, screen).toBe(0);
    expect(screen).toContain(`processed order ${id} booked`);
    expect(screen).not.toContain('4000 0000 0000 0002');
    expect((await orderIds()).sort()).toEqual([...before, id].sort());
    expect(fx.sandbox.state.orders.get(id)?.payment).toEqual({ type: 'credit' });
  }, 120_000);

  it('cancelling the order: cancelled at the service and in the ledger, and the run does not say it booked', async () => {
    const state = ownState('cancel');
    const t = Terminal.start(['book', 'fixtures/wizard/no-service.yaml'], state);
    await toNewCard(t, DECLINED);
    const asked = await t.waitFor('? The card was declined. What now?');
    const id = /Order (ORD-\w+) is created and not accepted/.exec(asked)![1]!;
    t.keys('Down', 'Down');
    await t.waitFor(`❯ cancel the order (${id})`);
    t.keys('Enter');
    const { code, screen } = await t.exit();
    expect(code, screen).toBe(3);
    expect(screen).toContain(`error: not booked: the card was declined and order ${id} was cancelled; nothing was paid`);
    expect(screen).not.toMatch(/this run booked|processed order/);
    expect(fx.sandbox.state.orders.get(id)?.status).toBe('cancelled');
    const shown = await runCli(['journal', 'show', '--json'], { env: state });
    const entry = (JSON.parse(shown.stdout) as { orders: Array<{ order_id: string; stage: string; error: { code: string } | null }> }).orders[0]!;
    expect(entry).toMatchObject({ order_id: id, stage: 'failed', error: { code: 'cancelled' } });
  }, 120_000);
});

describe.skipIf(!hasTmux)('a batch stopped at once by a second Ctrl-C', () => {
  it('leaves report.json with every result so far and its summary, and the JUnit file', async () => {
    const n = 60;
    const { dir } = batchFixture(n, { dir: mkdtempSync(join(tmpdir(), 'shipbook-twice-')), prefix: 'TWICE' });
    const report = join(dir, 'report.json');
    const junit = join(dir, 'junit.xml');
    // The built-in sandbox, slow to book: the batch is still running when it is stopped.
    const env = { HOME: dir, XDG_CONFIG_HOME: dir, SHIPBOOK_STATE_DIR: dir, SHIPBOOK_SANDBOX_DELAY_MS: '3000' };
    const t = Terminal.start(
      ['book', join(dir, 'orders.ndjson'), '--journal', join(dir, 'journal.ndjson'), '--report', report, '--junit', junit, '--concurrency', '2'],
      env,
    );
    // The second Ctrl-C may come after the batch ended, and end the shell around it: the screen stays.
    t.keepAfterExit();
    await t.waitFor(/booked +\S*orders\.ndjson:\d+/, 60_000);
    // Ctrl-C twice in a row: the batch winds down in milliseconds after the first one, so the
    // second comes at once, while it still runs, and ends the process there.
    t.keys('C-c');
    t.keys('C-c');
    const { code, screen } = await t.exit();
    expect(code, screen).toBe(130);
    expect(screen).toContain('interrupted (Ctrl-C)');
    const written = JSON.parse(readFileSync(report, 'utf8')) as {
      summary?: Record<string, unknown>;
      orders: Array<{ status: string; line: number }>;
    };
    // Every result the batch had, with a summary that counts them.
    // Written at the exit (`stopped_at_once`) when the second Ctrl-C came while the batch still ran,
    // or by its own end when it wound down first: complete either way (finishNow has a unit test).
    expect(written.summary).toMatchObject({ interrupted: true });
    expect(written.orders.length).toBeGreaterThan(0);
    const counted = [
      'booked',
      'already_booked',
      'booked_by_other_run',
      'accepted',
      'failed',
      'unknown',
      'invalid',
      'still_booking',
      'pending',
      'not_started',
    ].reduce((sum, k) => sum + Number(written.summary![k] ?? 0), 0);
    expect(counted).toBe(written.orders.length);
    expect(written.orders.filter((o) => o.status === 'booked').length).toBe(written.summary!.booked);
    const xml = readFileSync(junit, 'utf8');
    expect(xml.match(/<testcase /g)).toHaveLength(written.orders.length);
    expect(xml).toContain(`tests="${written.orders.length}"`);
  }, 120_000);

  it('leaves the CSV report with every input row, and the results so far beside them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shipbook-twice-csv-'));
    const [header, ...rows] = readFileSync(join(ROOT, 'fixtures/csv/orders.csv'), 'utf8').trim().split('\n');
    const first = rows.filter((r) => r.startsWith('SO-10482,'));
    const n = 40;
    const body = Array.from({ length: n }, (_, i) => first.map((r) => r.replaceAll('SO-10482', `TWICE-${i}`))).flat();
    writeFileSync(join(dir, 'orders.csv'), `${[header, ...body].join('\n')}\n`);
    const report = join(dir, 'results.csv');
    const env = { HOME: dir, XDG_CONFIG_HOME: dir, SHIPBOOK_STATE_DIR: dir, SHIPBOOK_SANDBOX_DELAY_MS: '3000' };
    const t = Terminal.start(['book', join(dir, 'orders.csv'), '--journal', join(dir, 'journal.ndjson'), '--report', report, '--concurrency', '2'], env);
    t.keepAfterExit();
    await t.waitFor(/booked +\S*orders\.csv:\d+/, 60_000);
    t.keys('C-c');
    t.keys('C-c');
    const { code, screen } = await t.exit();
    expect(code, screen).toBe(130);
    const lines = readFileSync(report, 'utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    // The header and every input row, row for row.
    expect(lines.length).toBe(1 + body.length);
    expect(lines[0]).toContain('status,order_id,shipment_id,tracking_number,total_aud');
    // The orders booked before the stop carry their order id and tracking number.
    const booked = lines.filter((l) => /,booked,ORD-\w+,/.test(l));
    expect(booked.length).toBeGreaterThan(0);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  }, 120_000);
});
