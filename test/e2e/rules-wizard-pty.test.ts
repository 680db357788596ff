/**
 * The guided booking under a rules file, in a real pseudo-terminal (tmux, as in
 * wizard-pty.test.ts): the service the wizard would ask is chosen by the rules from the live
 * quote, the summary shows it with its reason before "Book this?", the order is booked on it, and
 * the ledger records the choice.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { hasTmux, killTerminals, Terminal } from '../helpers/terminal.js';
import { ROOT, runCli } from '../helpers/cli.js';

if (!hasTmux) console.warn('skipping the pseudo-terminal test of the guided booking under rules: tmux is not installed (apt-get install tmux)');

const fx = useSandbox({ processingDelayMs: 20 });
afterAll(killTerminals);

describe.skipIf(!hasTmux)('the guided booking under a rules file', () => {
  it('chooses the service by the rules, shows it with its reason before "Book this?", books it and records the choice', async () => {
    const state = mkdtempSync(join(tmpdir(), 'shipbook-rules-wizard-'));
    const env = { ...fx.env, SHIPBOOK_STATE_DIR: state };
    // The 24 kg Sydney → Perth order without its packages: the wizard asks them, then the rules choose.
    const file = join(state, 'no-packages.yaml');
    const text = readFileSync(join(ROOT, 'fixtures/rules/orders/heavy-perth.yaml'), 'utf8').replace(/ {6}packages:\n {8}- \{[^\n]*\}\n/, '');
    expect(text).not.toContain('packages:');
    writeFileSync(file, text);
    const t = Terminal.start(['book', file, '--rules', 'fixtures/rules/shipping.yaml'], env, 250);
    await t.waitFor('❯ cm and kg');
    t.keys('Enter');
    await t.answer('Package 1 length (cm)', '40');
    await t.answer('Package 1 width (cm)', '30');
    await t.answer('Package 1 height (cm)', '25');
    await t.answer('Package 1 weight (kg)', '24');
    await t.answer('Add another package?', 'n');
    const screen = await t.waitFor('? Book this?');
    // No service question: the rules chose, and the summary says which and why, above the question.
    expect(screen).not.toContain('Service (cheapest first)');
    const summary = screen.slice(screen.lastIndexOf('\nSummary'), screen.lastIndexOf('? Book this?'));
    expect(summary).toContain('  Service    SB-DOM-ROAD StarTrack Road Express');
    expect(summary).toContain(
      'service: StarTrack Road Express 131.56 AUD: rule "heavy to WA by StarTrack" prefers StarTrack within 10 % of the cheapest (Couriers Please Standard 129.14 AUD)',
    );
    t.keys('Enter');
    await t.answer('Save these answers as a file, to use again without prompts?', 'n');
    await t.waitFor('❯ credit account');
    t.keys('Enter');
    const booked = await t.exit(40_000);
    expect(booked.code, booked.screen).toBe(0);
    const orderId = /processed order (ORD-\w+) booked/.exec(booked.screen)?.[1];
    expect(orderId, booked.screen).toBeDefined();
    // Booked on the rules' service, and the ledger carries the choice.
    const state0 = fx.sandbox.state;
    expect(state0.shipmentsOf(state0.getOrder(orderId!)).map((s) => s.service.code)).toEqual(['SB-DOM-ROAD']);
    const h = await runCli(['history', '--order', orderId!, '--json'], { env });
    expect(h.code, h.stderr).toBe(0);
    const create = (JSON.parse(h.stdout) as { history: Array<{ step: string; service_choice?: Array<{ rule: string; quote: unknown[] }> }> }).history.find(
      (r) => r.step === 'create_order',
    );
    expect(create?.service_choice?.[0]?.rule).toBe('heavy to WA by StarTrack');
    expect(create?.service_choice?.[0]?.quote).toHaveLength(6);
  });

  it('lets the person choose another allowed service by hand at the summary, and records it as chosen by hand over the rule', async () => {
    const state = mkdtempSync(join(tmpdir(), 'shipbook-rules-wizard-hand-'));
    const env = { ...fx.env, SHIPBOOK_STATE_DIR: state };
    const file = join(state, 'no-packages.yaml');
    writeFileSync(file, readFileSync(join(ROOT, 'fixtures/rules/orders/heavy-perth.yaml'), 'utf8').replace(/ {6}packages:\n {8}- \{[^\n]*\}\n/, ''));
    const t = Terminal.start(['book', file, '--rules', 'fixtures/rules/shipping.yaml'], env, 250);
    await t.waitFor('❯ cm and kg');
    t.keys('Enter');
    await t.answer('Package 1 length (cm)', '40');
    await t.answer('Package 1 width (cm)', '30');
    await t.answer('Package 1 height (cm)', '25');
    await t.answer('Package 1 weight (kg)', '24');
    await t.answer('Add another package?', 'n');
    const first = await t.waitFor('? Book this?');
    expect(first).toContain('change the service');
    // The third choice: yes, change the packages, change the service.
    t.keys('-l', '3');
    t.keys('Enter');
    const list = await t.waitFor('Service (cheapest first)');
    // The services the rules allow, cheapest first: Couriers Please is the first.
    expect(list).toContain('SB-CP-STD');
    t.keys('-l', '1');
    t.keys('Enter');
    const screen = await t.waitFor(/chosen by hand[\s\S]*\? Book this\?/);
    const summary = screen.slice(screen.lastIndexOf('\nSummary'), screen.lastIndexOf('? Book this?'));
    expect(summary).toContain('  Service    SB-CP-STD Couriers Please Standard');
    expect(summary).toContain(
      'service: Couriers Please Standard 129.14 AUD: chosen by hand over rule "heavy to WA by StarTrack" (the rules chose StarTrack Road Express 131.56 AUD)',
    );
    t.keys('Enter');
    await t.answer('Save these answers as a file, to use again without prompts?', 'n');
    await t.waitFor('❯ credit account');
    t.keys('Enter');
    const booked = await t.exit(40_000);
    expect(booked.code, booked.screen).toBe(0);
    const orderId = /processed order (ORD-\w+) booked/.exec(booked.screen)?.[1];
    expect(orderId, booked.screen).toBeDefined();
    expect(fx.sandbox.state.shipmentsOf(fx.sandbox.state.getOrder(orderId!)).map((s) => s.service.code)).toEqual(['SB-CP-STD']);
    const h = await runCli(['history', '--order', orderId!, '--json'], { env });
    const create = (
      JSON.parse(h.stdout) as {
        history: Array<{ step: string; service_choice?: Array<{ how: string; rule: string; reason: string; runner_up: { code: string } }> }>;
      }
    ).history.find((r) => r.step === 'create_order');
    expect(create?.service_choice?.[0]).toMatchObject({ how: 'by_hand', rule: 'heavy to WA by StarTrack', runner_up: { code: 'SB-DOM-ROAD' } });
    expect(create?.service_choice?.[0]?.reason).toContain('chosen by hand over rule "heavy to WA by StarTrack"');
  });
});
