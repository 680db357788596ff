/**
 * The guided booking's summary in a real pseudo-terminal (tmux, as in wizard-pty.test.ts): the
 * address warnings are shown beside their parts, counted, before "Book this?", with the change of
 * that part offered; they are not said again once the booking goes on; and a draft resumed later
 * shows the very same summary, its service name and quoted price included. Also on a terminal: the
 * built-in sandbox's line is said once, broken between words at 80 columns, and a table that
 * leaves columns out to fit says which.
 */
import { pickupToSummary } from '../helpers/wizard.js';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { hasTmux, killTerminals, Terminal } from '../helpers/terminal.js';
import { ROOT, runCli } from '../helpers/cli.js';

if (!hasTmux) console.warn('skipping the pseudo-terminal tests of the summary: tmux is not installed (apt-get install tmux)');

const fx = useSandbox();
let env: Record<string, string>;

beforeAll(async () => {
  env = { ...fx.env, SHIPBOOK_PROFILE: 'dev' };
  const saved = await runCli(['config', 'sender', 'set', 'warehouse-syd', 'fixtures/wizard/warehouse-syd.yaml'], { env });
  expect(saved.code, saved.stderr).toBe(0);
});

afterAll(killTerminals);

/** The summary last shown on `screen`: from its heading to the question under it. */
function lastSummary(screen: string): string {
  const start = screen.lastIndexOf('\nSummary');
  const end = screen.indexOf('? Book this?', start);
  expect(start).toBeGreaterThanOrEqual(0);
  expect(end).toBeGreaterThan(start);
  return screen.slice(start + 1, end).trimEnd();
}

/** A recipient in Melbourne written with Perth's postcode and the phone number "12", kept as typed. */
async function wrongRecipient(t: Terminal): Promise<void> {
  await t.answer('Recipient first name', 'Tom');
  await t.answer('Recipient last name', 'Nguyen');
  await t.answer('Recipient company (optional, Enter to skip)', '');
  await t.answer('Recipient e-mail', 'tom.nguyen@example.com.au');
  await t.answer('Recipient phone', '12');
  await t.search('Recipient country (type to search)', 'austral', 'Australia (AU)');
  await t.answer('Recipient postcode', '6000');
  await t.search('Recipient city', 'Melbourne', 'Melbourne (as typed)');
  await t.answer('Recipient address line 1', 'Level 12, 120 Collins Street');
  await t.answer('Recipient address line 2 (optional, Enter to skip)', '');
}

describe.skipIf(!hasTmux)('the summary of the guided booking', () => {
  it('shows the address warnings beside their parts before "Book this?", offers to change that part, and a resumed draft shows the same summary', async () => {
    const state = mkdtempSync(join(tmpdir(), 'shipbook-summary-'));
    const own = { ...env, SHIPBOOK_STATE_DIR: state };
    const t = Terminal.start(['book'], own, 120);
    await t.waitFor('❯ warehouse-syd');
    t.keys('Enter');
    await wrongRecipient(t);
    const fresh = lastSummary(await pickupToSummary(t));
    // Counted in the heading, each under the row of its part; the phone gets a row of its own.
    expect(fresh).toMatch(
      /^Summary: 2 warnings, each under its part\n {2}From {7}Priya Raman.*\n {2}Pickup .*\n {2}To {9}Tom Nguyen, Level 12, 120 Collins Street, Melbourne 6000 AU\n {13}warning: postcode 6000 is WA \(Perth, Perth GPO …\); Melbourne VIC is 3000–3001, 3004 …\n {2}Phone {6}12 \(recipient\)\n {13}warning: phone "12" is not a possible phone number for AU/,
    );
    expect(fresh).toContain('  Service    SB-DOM-ROAD StarTrack Road Express');
    expect(fresh).toMatch(/\n {2}Price {6}\d+\.\d\d AUD quoted \(the exact price comes with the order\)$/);
    // The part to change says how many warnings it has.
    const choices = await t.waitFor('  change the recipient (2 warnings)');
    expect(choices.slice(choices.lastIndexOf('? Book this?'))).not.toMatch(/change the sender \(/);
    // Stopped at the summary: the answers are kept as the draft.
    t.keys('Up');
    await t.waitFor('❯ no: keep the answers for later and stop');
    t.keys('Enter');
    expect((await t.exit()).code).toBe(0);

    const r = Terminal.start(['book'], own, 120);
    await r.answer('Resume the answers kept on', '');
    const resumed = lastSummary(await r.waitFor('? Book this?'));
    // The same summary as before: the service's name and its quoted price are not lost.
    expect(resumed).toBe(fresh);
    // Change the recipient: every earlier answer is the default; keep them, warnings and all.
    await r.waitFor('  change the recipient (2 warnings)');
    r.keys('Down', 'Down');
    await r.waitFor('❯ change the recipient (2 warnings)');
    r.keys('Enter');
    for (const q of ['first name', 'last name', 'company (optional, Enter to skip)', 'e-mail', 'phone']) await r.answer(`Recipient ${q}`, '');
    await r.waitFor('❯ Australia (AU)');
    r.keys('Enter');
    await r.answer('Recipient postcode', '');
    await r.waitFor('❯ Melbourne (as typed)');
    r.keys('Enter');
    await r.answer('Recipient address line 1', '');
    await r.answer('Recipient address line 2 (optional, Enter to skip)', '');
    await r.waitFor('❯ SB-DOM-ROAD');
    r.keys('Enter');
    const again = await r.waitFor(/✔ Book this\? change the recipient[^]*\? Book this\?/);
    expect(lastSummary(again)).toBe(fresh);
    r.keys('Enter');
    await r.answer('Save these answers as a file, to use again without prompts?', 'n');
    await r.waitFor('❯ credit account');
    r.keys('Enter');
    const booked = await r.exit(40_000);
    expect(booked.code, booked.screen).toBe(0);
    expect(booked.screen).toMatch(/processed order ORD-\w+ booked/);
    // Shown before the question, the warnings are not said again after it.
    const after = booked.screen.slice(booked.screen.lastIndexOf('✔ Book this?'));
    expect(after).not.toContain('warning:');
  });

  it('offers a parcel dropped off at the carrier as "change the drop-off", never "change the pickup"', async () => {
    const state = mkdtempSync(join(tmpdir(), 'shipbook-dropoff-'));
    // The domestic fixture sent to Wellington, without its collection type, pickup and service.
    const file = join(state, 'to-wellington.yaml');
    writeFileSync(
      file,
      readFileSync(join(ROOT, 'fixtures/orders/domestic-syd-mel.yaml'), 'utf8')
        .replace(/ {6}service:\n {8}code: SB-DOM-ROAD\n/, '')
        .replace(/ {6}collection_type: pickup\n/, '')
        .replace(/ {8}pickup:\n( {10}.*\n){3}/, '')
        .replace('country: AU\n        postcode: "3000"\n        city: Melbourne', 'country: NZ\n        postcode: "6011"\n        city: Wellington')
        .replace('+61 412 555 019', '+64 4 555 0199'),
    );
    const t = Terminal.start(['order', 'create', file], { ...env, SHIPBOOK_STATE_DIR: state }, 120);
    await t.waitFor('? How does the parcel reach the carrier?');
    t.keys('Down');
    await t.waitFor('❯ drop-off: you take it to the carrier');
    t.keys('Enter');
    await t.waitFor(/❯ SB-INTL-\w+/);
    t.keys('Enter');
    const screen = await t.waitFor('? Create this order?');
    expect(screen).toContain('  Collect    drop-off at the carrier');
    expect(screen).toContain('  change the drop-off');
    expect(screen).not.toContain('change the pickup');
    t.keys('Up');
    await t.waitFor('❯ no: keep the answers for later and stop');
    t.keys('Enter');
    expect((await t.exit()).code).toBe(0);
  });
});

describe.skipIf(!hasTmux)('a quote on a terminal of 80 columns', () => {
  it('says the [sandbox] line once, broken between words, and names the columns the table leaves out', async () => {
    // The built-in sandbox, in a state directory of this test's own.
    const state = mkdtempSync(join(tmpdir(), 'shipbook-banner-'));
    const own = { HOME: state, XDG_CONFIG_HOME: state, SHIPBOOK_STATE_DIR: state };
    const t = Terminal.start(['quote', '--from', 'AU:2000:Sydney', '--to', 'AU:3000:Melbourne', '--package', '30x20x15cm:2kg'], own, 80);
    const { code, screen } = await t.exit();
    expect(code, screen).toBe(0);
    const output = screen.slice(0, screen.indexOf('__EXIT='));
    expect(output.match(/\[sandbox\]/g), output).toHaveLength(1);
    // The screen as lines the program wrote (lines the terminal wrapped are joined again): each
    // fits in 80 columns, and read together they are the whole line, no word cut.
    const rows = output.split('\n');
    const first = rows.findIndex((r) => r.startsWith('[sandbox]'));
    const last = rows.findIndex((r, i) => i >= first && r.endsWith('nothing is really booked'));
    expect(last, output).toBeGreaterThanOrEqual(first);
    const banner = rows.slice(first, last + 1);
    expect(
      banner.every((r) => r.length < 80),
      banner.join('\n'),
    ).toBe(true);
    // The quote table leaves columns out to fit 80 columns, and says which.
    expect(output).toMatch(/note: left out to fit 80 columns: [^\n]*global mail[^\n]*GST \(a wider terminal, --output tsv or --json shows every column\)/);
    expect(banner.join(' ')).toBe(
      `[sandbox] built-in sandbox at ${/http:\/\/127\.0\.0\.1:\d+\//.exec(banner.join(' '))![0]} (state in ${state}): simulated service, nothing is really booked`,
    );
  });
});
