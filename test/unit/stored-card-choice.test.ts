/**
 * `--payment stored_card` without `--card` through the context, with a scripted
 * prompter: on a terminal the usable stored cards of the sandbox are offered (the expired one is
 * not), the chosen id becomes `--card`; without a terminal the flags stay as they are.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedCardChoices, withChosenCard } from '../../src/commands/common/stored-card.js';
import { createContext, type Context } from '../../src/context.js';
import { bufferIO } from '../helpers/run.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { scripted, withPrompter } from '../helpers/prompter.js';

const KEY = 'sk_test_cards_choice_1234';
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ processingDelayMs: 50, apiKey: KEY });
});
afterAll(async () => {
  await sandbox.close();
});

function context(canPrompt: boolean): Context {
  const io = bufferIO({
    env: { SHIPBOOK_BASE_URL: sandbox.url, SHIPBOOK_API_KEY: KEY, SHIPBOOK_CONFIG_DIR: '/nonexistent-shipbook-test' },
    canPrompt,
  });
  return createContext(io, {});
}

describe('the stored-card choice', () => {
  it('offers the usable stored cards, not the expired one', async () => {
    const choices = await storedCardChoices(context(true));
    expect(choices.map((c) => c.value)).toEqual(['card_visa_4242', 'card_mc_5454', 'card_amex_0005']);
    expect(choices[0]!.name).toBe('Visa ending 4242, expires 12/29, Mei Chen');
  });

  it('on a terminal the chosen card becomes --card', async () => {
    const prompter = scripted({ 'Stored card': 'card_amex_0005' });
    const flags = await withChosenCard({ payment: 'stored_card' }, withPrompter(context(true), prompter));
    expect(flags).toEqual({ payment: 'stored_card', card: 'card_amex_0005' });
    expect(prompter.asked).toEqual(['Stored card']);
  });

  it('without a terminal, with --card, or with another payment type the flags are unchanged', async () => {
    expect(await withChosenCard({ payment: 'stored_card' }, context(false))).toEqual({ payment: 'stored_card' });
    expect(await withChosenCard({ payment: 'stored_card', card: 'card_x' }, context(true))).toEqual({ payment: 'stored_card', card: 'card_x' });
    expect(await withChosenCard({ payment: 'credit' }, context(true))).toEqual({ payment: 'credit' });
  });
});
