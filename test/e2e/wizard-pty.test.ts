/**
 * The guided booking in a real pseudo-terminal: tmux runs bin/shipbook.js in a
 * detached session of fixed size; keys go in with `send-keys`, the screen comes back with
 * `capture-pane`, and every step waits for what the screen shows, never for a fixed time. Each
 * test file uses its own tmux server (`-L`), so nothing touches a user's tmux.
 */
import { pickupToSummary } from '../helpers/wizard.js';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { hasTmux, killTerminals, Terminal } from '../helpers/terminal.js';
import { ROOT, runCli } from '../helpers/cli.js';

if (!hasTmux) console.warn('skipping the pseudo-terminal tests of the wizard: tmux is not installed (apt-get install tmux)');

const fx = useSandbox();
let env: Record<string, string>;

beforeAll(async () => {
  env = { ...fx.env, SHIPBOOK_PROFILE: 'dev' };
  const saved = await runCli(['config', 'sender', 'set', 'warehouse-syd', 'fixtures/wizard/warehouse-syd.yaml'], { env });
  expect(saved.code, saved.stderr).toBe(0);
});

/** How many orders the test's sandbox holds (GET /_sandbox/orders/). */
async function orderCount(): Promise<number> {
  const res = await fetch(`${fx.sandbox.url}_sandbox/orders/`, { headers: { Authorization: `Bearer ${fx.env.SHIPBOOK_API_KEY}` } });
  const body = (await res.json()) as { result: { orders: unknown[] } };
  return body.result.orders.length;
}

afterAll(killTerminals);

/** The recipient's questions, answered for a Melbourne address. */
async function recipient(t: Terminal): Promise<void> {
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
}

describe.skipIf(!hasTmux)('shipbook book on a terminal', () => {
  it('books a parcel with no file, reading only the screen, correcting a wrong answer in place', async () => {
    const t = Terminal.start(['book'], env);
    // Collection: the saved sender is offered first.
    await t.waitFor('❯ warehouse-syd: Priya Raman, Harbour Homewares Pty Ltd, Unit 4, 18 Bourke Road, Alexandria 2015 AU');
    t.keys('Enter');
    await t.answer('Recipient first name', 'Tom');
    await t.answer('Recipient last name', 'Nguyen');
    await t.answer('Recipient company (optional, Enter to skip)', '');
    // A wrong e-mail: the file message under the question, the question stays; fixed in place.
    await t.waitFor('? Recipient e-mail');
    t.keys('-l', 'tom at example');
    t.keys('Enter');
    await t.waitFor('> not an e-mail address (got "tom at example")');
    t.keys('C-u');
    t.keys('-l', 'tom.nguyen@example.com.au');
    t.keys('Enter');
    await t.waitFor('✔ Recipient e-mail tom.nguyen@example.com.au');
    await t.answer('Recipient phone', '+61 412 555 019');
    await t.search('Recipient country (type to search)', 'austral', 'Australia (AU)');
    await t.answer('Recipient postcode', '3000');
    // A search question: Enter takes the highlighted choice, so wait for it before pressing Enter.
    await t.search('Recipient city', 'Melbourne', 'Melbourne VIC 3000');
    await t.answer('Recipient address line 1', 'Level 12, 120 Collins Street');
    await t.answer('Recipient address line 2 (optional, Enter to skip)', '');
    // Domestic: no drop-off question; the pickup window has its defaults.
    await t.answer('Pickup day', '');
    await t.answer('Pickup from (HH:MM)', '');
    await t.answer('Pickup until (HH:MM)', '');
    await t.waitFor('❯ cm and kg');
    t.keys('Enter');
    await t.answer('Package 1 length (cm)', '40');
    await t.answer('Package 1 width (cm)', '30');
    await t.answer('Package 1 height (cm)', '25');
    await t.answer('Package 1 weight (kg)', '6.5');
    await t.answer('Add another package?', 'n');
    // Sydney to Melbourne is not an export, and is not called one.
    await t.waitFor('? Reason for sending');
    t.keys('Enter');
    await t.waitFor('? Tax status');
    t.keys('Enter');
    await t.answer('Does the shipment contain lithium batteries?', 'n');
    await t.answer('Item 1 description', 'Ceramic dinner plates');
    await t.answer('Item 1 quantity', '12');
    await t.answer('Item 1 value of one item (AUD)', '18.50');
    await t.search('Item 1 made in (type to search)', 'austral', 'Australia (AU)');
    await t.waitFor('Items so far: 1, total 222.00 AUD of at most 7,500.00 AUD');
    await t.answer('Add another item?', 'n');
    await t.answer('Shipment description (what is in it)', 'Homewares');
    // A reference is proposed (Enter takes it) and shown in the summary.
    const proposed = await t.waitFor(/\? Your reference for this shipment \((shipbook-\d{8}-\w{4})\)/);
    const ref = /\((shipbook-\d{8}-\w{4})\)/.exec(proposed.slice(proposed.lastIndexOf('Your reference')))![1]!;
    await t.answer('Your reference for this shipment', '');
    // A live quote, cheapest first; pick the second with the arrow keys.
    await t.waitFor(/❯ SB-DOM-ROAD +StarTrack Road Express +38\.50 AUD\n +SB-CP-STD +Couriers Please Standard +40\.98 AUD\n/);
    t.keys('Down', 'Enter');
    await t.waitFor('✔ Service (cheapest first) SB-CP-STD');
    const summary = await t.waitFor('? Book this?');
    expect(summary).toContain('  To         Tom Nguyen, Level 12, 120 Collins Street, Melbourne 3000 AU');
    expect(summary).toContain('  Packages   1. 40 × 30 × 25 cm, 6.5 kg');
    expect(summary).toContain(`  Reference  ${ref}`);
    expect(summary).toContain('❯ yes, book it');
    t.keys('Enter');
    // The final question: save the answers (no --save-as given).
    const saved = join(fx.home, 'wizard-order.yaml');
    await t.answer('Save these answers as a file, to use again without prompts?', 'y');
    await t.waitFor('? File name');
    t.keys('C-u');
    await t.answer('File name', saved);
    await t.waitFor('❯ credit account (ship now, pay later)');
    t.keys('Enter');
    const { code, screen } = await t.exit();
    expect(code, screen).toBe(0);
    expect(screen).toMatch(/processed order ORD-\w+ booked/);
    // The last line before the shell's is the command that books the saved file again.
    const lines = screen.slice(0, screen.indexOf('__EXIT=')).trimEnd().split('\n');
    expect(lines.at(-1)).toBe(
      `Saved the order as ${saved} (no payment details). "shipbook book ${saved}" shows or continues this booking; a new shipment of it is booked only with: shipbook book ${saved} --again`,
    );
    expect(readFileSync(saved, 'utf8')).toContain(`transient_id: ${ref}`);
    const again = await runCli(['validate', saved], { env });
    expect(again.code, again.stdout).toBe(0);
    expect(screen).toMatch(/SBX\d+/);
  });

  it('completes a partial file by prompts: only the missing service is asked; a new card is typed hidden', async () => {
    const out = join(fx.home, 'booked.yaml');
    const t = Terminal.start(['book', 'fixtures/wizard/no-service.yaml', '--save-as', out, '--debug'], env);
    await t.waitFor('❯ SB-DOM-ROAD');
    t.keys('Enter');
    await t.waitFor('? Book this?');
    t.keys('Enter');
    await t.waitFor('❯ credit account');
    t.keys('Down', 'Down', 'Enter');
    await t.answer('Card number', '4111 1111 1111 1111');
    await t.answer('Expiry (MM/YY)', '08/39');
    await t.answer('CVV', '123');
    await t.answer('Name on the card', 'Priya Raman');
    await t.answer('Save the card with the service for next time?', 'n');
    const { code, screen } = await t.exit();
    expect(code, screen).toBe(0);
    expect(screen).not.toMatch(/Recipient|Sender|Package 1/);
    expect(screen).not.toContain('4111 1111');
    expect(screen).not.toContain('4111111111111111');
    expect(screen).toContain('✔ Card number ****************');
    // --debug shows the accept request with the card masked.
    expect(screen).toContain('"credit_card":{"number":"****1111","cvv":"***","holder_name":"Priya Raman","expire":"08/39"}');
    expect(screen).not.toContain('"cvv":"123"');
    const saved = readFileSync(out, 'utf8');
    expect(saved).toContain('code: SB-DOM-ROAD');
    expect(saved).not.toMatch(/4111|cvv|credit_card/);
  });

  it('Ctrl-C in the middle exits 130 with a one-line message and creates nothing', async () => {
    const before = await orderCount();
    const t = Terminal.start(['book'], env);
    await t.waitFor('? Collect from');
    t.keys('Down', 'Enter');
    await t.answer('Sender first name', 'Priya');
    await t.waitFor('? Sender last name');
    t.keys('C-c');
    const { code, screen } = await t.exit();
    expect(code).toBe(130);
    const after = screen.slice(screen.indexOf('? Sender last name'));
    expect(after.split('\n').filter((l) => /interrupted/.test(l))).toHaveLength(1);
    expect(await orderCount()).toBe(before);
  });
});

/** The sender's questions, answered for a Sydney address (a profile with no saved sender). */
async function sender(t: Terminal): Promise<void> {
  await t.answer('Sender first name', 'Priya');
  await t.answer('Sender last name', 'Raman');
  await t.answer('Sender company (optional, Enter to skip)', '');
  await t.answer('Sender e-mail', 'dispatch@example.com.au');
  await t.answer('Sender phone', '+61 2 9555 0142');
  await t.search('Sender country (type to search)', 'austral', 'Australia (AU)');
  await t.answer('Sender postcode', '2015');
  await t.answer('Sender city', 'Alexandria');
  await t.answer('Sender address line 1', 'Unit 4, 18 Bourke Road');
  await t.answer('Sender address line 2 (optional, Enter to skip)', '');
}

describe.skipIf(!hasTmux)('the guided booking: changing an answer at the summary, and a draft kept on Ctrl-C', () => {
  it('changes the recipient from the summary at 80 columns: earlier answers are the defaults, the service is quoted again', async () => {
    const t = Terminal.start(['book'], env, 80);
    await t.waitFor('❯ warehouse-syd');
    t.keys('Enter');
    await recipient(t);
    const first = await pickupToSummary(t);
    expect(first).toContain('  To         Tom Nguyen, Level 12, 120 Collins Street, Melbourne 3000 AU');
    // The summary offers each part; go down to "change the recipient".
    await t.waitFor('  change the recipient');
    t.keys('Down', 'Down');
    await t.waitFor('❯ change the recipient');
    t.keys('Enter');
    // Every earlier answer is the default: Enter keeps it; only the city and postcode change.
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
    await t.answer('Recipient address line 1', '');
    await t.answer('Recipient address line 2 (optional, Enter to skip)', '');
    // The price depends on the route: the service is chosen again from a new quote.
    await t.waitFor('The price depends on the route, packages and goods: the service is asked again.');
    await t.waitFor(/✔ Service \(cheapest first\)[\s\S]*\? Service \(cheapest first\)/);
    t.keys('Enter');
    const again = await t.waitFor(/Brisbane 4000 AU[\s\S]*\? Book this\?/);
    const second = again.slice(again.lastIndexOf('Summary'));
    expect(second).toContain('  To         Tom Nguyen, Level 12, 120 Collins Street, Brisbane 4000 AU');
    expect(second).toContain('  Reference  PO-4471');
    expect(second).toContain('  Pickup     ');
    console.log(`the guided booking's summary at 80 columns (the screen as shown):\n${t.visible().trimEnd()}`);
    t.keys('Enter');
    await t.answer('Save these answers as a file, to use again without prompts?', '');
    await t.waitFor('❯ credit account');
    t.keys('Enter');
    const { code, screen } = await t.exit();
    expect(code, screen).toBe(0);
    expect(screen).toMatch(/processed order ORD-\w+ booked/);
    expect(screen).toContain('Brisbane');
  });

  it('keeps the answers on Ctrl-C (nothing sent, the draft named), and the next book offers to resume them', async () => {
    // The built-in sandbox, in a state directory of this test's own.
    const state = mkdtempSync(join(tmpdir(), 'shipbook-draft-'));
    const own = { HOME: state, XDG_CONFIG_HOME: state, SHIPBOOK_STATE_DIR: state };
    const draft = join(state, 'drafts', 'book.yaml');
    const t = Terminal.start(['book'], own, 80);
    const start = await t.waitFor('? Sender first name');
    // The sandbox is named before the first question.
    expect(start.indexOf('[sandbox] built-in sandbox')).toBeGreaterThanOrEqual(0);
    expect(start.indexOf('[sandbox]')).toBeLessThan(start.indexOf('? Sender first name'));
    await sender(t);
    await recipient(t);
    await t.waitFor('? Pickup day');
    t.keys('C-c');
    const stopped = await t.exit();
    expect(stopped.code).toBe(130);
    const tail = stopped.screen.slice(stopped.screen.indexOf('? Pickup day'));
    expect(tail).toContain(`error: interrupted (Ctrl-C): nothing was sent; the answers so far are kept in ${draft}`);
    expect(tail).toContain(`hint: "shipbook book" with no file offers to resume them; or complete that file with: shipbook book ${draft}`);
    const kept = readFileSync(draft, 'utf8');
    expect(kept).toContain('first_name: Tom');
    expect(kept).not.toContain('time_earliest');

    const r = Terminal.start(['book'], own, 120);
    await r.answer(`Resume the answers kept on`, '');
    // The sender and recipient come from the draft: the next question is the pickup.
    const resumed = await r.waitFor('? Pickup day');
    expect(resumed).not.toContain('Recipient first name');
    const summary = await pickupToSummary(r);
    expect(summary).toContain('  To         Tom Nguyen, Level 12, 120 Collins Street, Melbourne 3000 AU');
    r.keys('Enter');
    await r.answer('Save these answers as a file, to use again without prompts?', '');
    await r.waitFor('❯ credit account');
    r.keys('Enter');
    const booked = await r.exit(40_000);
    expect(booked.code, booked.screen).toBe(0);
    expect(booked.screen).toMatch(/processed order ORD-\w+ booked/);
    // Booked: the draft is gone, and the next book starts afresh.
    expect(existsSync(draft)).toBe(false);
  });

  it('keeps the answers when the person stops at the summary', async () => {
    const state = mkdtempSync(join(tmpdir(), 'shipbook-stop-'));
    const own = { ...env, SHIPBOOK_STATE_DIR: state };
    const draft = join(state, 'drafts', 'book.yaml');
    const t = Terminal.start(['book'], own, 120);
    await t.waitFor('❯ warehouse-syd');
    t.keys('Enter');
    await recipient(t);
    await pickupToSummary(t);
    t.keys('Up');
    await t.waitFor('❯ no: keep the answers for later and stop');
    t.keys('Enter');
    const { code, screen } = await t.exit();
    // A choice, not a failure or a Ctrl-C: exit 0, no "error:", and the way to continue.
    expect(code).toBe(0);
    expect(screen).toContain(`stopped: not booked: stopped at the summary; nothing was sent. The answers are kept in ${draft}`);
    expect(screen).not.toContain('error:');
    expect(screen).toContain(`hint: "shipbook book" with no file offers to resume them; or complete that file with: shipbook book ${draft}`);
    const v = await runCli(['validate', draft], { env: own });
    expect(v.code, v.stdout + v.stderr).toBe(0);
  });
});

describe.skipIf(!hasTmux)('book of a file booked before, on a terminal', () => {
  it('asks before booking it again: No books nothing and shows the order; Yes books a second one', async () => {
    const state = { ...env, SHIPBOOK_STATE_DIR: mkdtempSync(join(tmpdir(), 'shipbook-again-')) };
    const first = await runCli(['book', 'fixtures/orders/domestic-syd-mel.yaml', '--json'], { env: state });
    expect(first.code, first.stderr).toBe(0);
    const id = (JSON.parse(first.stdout) as { order: { id: string } }).order.id;
    const before = await orderCount();

    const no = Terminal.start(['book', 'fixtures/orders/domestic-syd-mel.yaml'], state);
    await no.waitFor(`this document was booked before (fixtures/orders/domestic-syd-mel.yaml): order ${id}, processed`);
    await no.answer('Book it again? (a second order, paid again)', 'n');
    const declined = await no.exit();
    expect(declined.code).toBe(0);
    expect(declined.screen).toContain(`Order ${id}`);
    expect(await orderCount()).toBe(before);

    const yes = Terminal.start(['book', 'fixtures/orders/domestic-syd-mel.yaml'], state);
    await yes.answer('Book it again? (a second order, paid again)', 'y');
    const again = await yes.exit();
    expect(again.code).toBe(0);
    expect(again.screen).toMatch(/processed order ORD-\w+ booked/);
    expect(await orderCount()).toBe(before + 1);
  });
});

describe.skipIf(!hasTmux)('the other commands on a terminal', () => {
  it('order create with no file asks for the order and creates it pending', async () => {
    const partial = join(fx.home, 'no-delivery.yaml');
    const text = readFileSync(join(ROOT, 'fixtures/wizard/no-service.yaml'), 'utf8').replace(/      delivery:\n(        .*\n|          - .*\n)+/, '');
    writeFileSync(partial, text);
    const t = Terminal.start(['order', 'create', partial], env);
    await recipient(t);
    await t.waitFor('❯ SB-DOM-ROAD');
    t.keys('Enter');
    await t.waitFor('? Create this order?');
    t.keys('Enter');
    await t.answer('Save these answers as a file, to use again without prompts?', '');
    const { code, screen } = await t.exit();
    expect(code, screen).toBe(0);
    expect(screen).toMatch(/ORD-\w+/);
    expect(screen).toContain('pending');
  });

  it('quote asks only for what the flags did not give and prints the services', async () => {
    const t = Terminal.start(['quote', '--from', 'AU:2015:Alexandria'], env);
    await t.search('To country (type to search)', 'new z', 'New Zealand (NZ)');
    await t.answer('To postcode', '6011');
    await t.answer('To city', 'Wellington');
    await t.waitFor('❯ cm and kg');
    t.keys('Enter');
    await t.answer('Package 1 length (cm)', '30');
    await t.answer('Package 1 width (cm)', '20');
    await t.answer('Package 1 height (cm)', '15');
    await t.answer('Package 1 weight (kg)', '2.5');
    await t.answer('Add another package?', 'n');
    const { code, screen } = await t.exit();
    expect(code, screen).toBe(0);
    expect(screen).not.toContain('From country');
    expect(screen).toMatch(/SB-INTL-\w+/);
    // The line that asks the same without a question, and it works when pasted.
    const line = 'shipbook quote --from AU:2015:Alexandria --to NZ:6011:Wellington --package 30x20x15cm:2.5kg';
    expect(screen).toContain(`Quote the same again with: ${line}`);
    const again = await runCli(line.split(' ').slice(1), { env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/SB-INTL-\w+/);
  });
});

describe.skipIf(!hasTmux)('--payment stored_card without --card on a terminal', () => {
  it('offers the usable stored cards from fetch-credit-card and pays with the one chosen', async () => {
    const created = await runCli(['order', 'create', 'fixtures/orders/domestic-syd-mel.yaml', '--json'], { env: fx.env });
    expect(created.code, created.stderr).toBe(0);
    const id = (JSON.parse(created.stdout) as { order: { id: string } }).order.id;
    const t = Terminal.start(['order', 'accept', id, '--payment', 'stored_card'], fx.env);
    const screen = await t.waitFor('❯ Visa ending 4242, expires 12/29, Mei Chen');
    expect(screen).toContain('Mastercard ending 5454, expires 08/28, Mei Chen');
    // The expired card is not offered.
    expect(screen).not.toContain('ending 1881');
    t.keys('Down');
    await t.waitFor('❯ Mastercard ending 5454');
    t.keys('Enter');
    const { code } = await t.exit();
    expect(code).toBe(0);
    expect(fx.sandbox.state.orders.get(id)?.payment).toEqual({ type: 'stored_card', storedCardId: 'card_mc_5454' });
  });
});

describe.skipIf(!hasTmux)('Australian addresses in the guided booking', () => {
  it("proposes the sender's country, offers the suburbs of a typed postcode, and warns beside a suburb typed wrong", async () => {
    const before = await orderCount();
    const t = Terminal.start(['book'], env);
    await t.waitFor('? Collect from');
    t.keys('Down', 'Enter');
    await t.answer('Sender first name', 'Priya');
    await t.answer('Sender last name', 'Raman');
    await t.answer('Sender company (optional, Enter to skip)', '');
    await t.answer('Sender e-mail', 'dispatch@example.com.au');
    await t.answer('Sender phone', '+61 2 9555 0142');
    // The saved senders' country is proposed: Enter takes it.
    await t.waitFor('❯ Australia (AU)');
    t.keys('Enter');
    await t.waitFor('✔ Sender country (type to search) Australia (AU)');
    await t.answer('Sender postcode', '2150');
    // The suburbs of 2150 are the choices before anything is typed, the main locality first.
    await t.waitFor('? Sender city');
    await t.waitFor(/❯ Parramatta NSW 2150\n +Harris Park NSW 2150/);
    // A misspelt suburb: the locality it probably is comes first, as files and flags suggest it;
    // what was typed can be kept, with the warning beside it.
    t.keys('-l', 'Paramatta');
    await t.waitFor(/❯ Parramatta NSW 2150\n +Paramatta \(as typed\)/);
    t.keys('Down');
    await t.waitFor('warning: "Paramatta" is not a locality of postcode 2150: did you mean Parramatta 2150? (Paramatta SA is 5558)');
    t.keys('C-u');
    t.keys('-l', 'parra');
    await t.waitFor('❯ Parramatta NSW 2150');
    t.keys('Enter');
    await t.waitFor('✔ Sender city Parramatta NSW 2150');
    await t.waitFor('? Sender address line 1');
    t.keys('C-c');
    const { code } = await t.exit();
    expect(code).toBe(130);
    expect(await orderCount()).toBe(before);
  });
});
