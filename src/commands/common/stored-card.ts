/**
 * The stored card of `--payment stored_card` without `--card`: on a terminal the
 * account's stored cards (fetch-credit-card) are offered in a list; without one the payment flow
 * refuses with a usage error that names `shipbook card list`. The wizard's payment step offers the
 * same list ({@link storedCardChoices}).
 */
import { fetchCreditCards } from '../../api/cards.js';
import type { PaymentFlags } from '../../booking/index.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { Choice } from '../../prompter.js';

/**
 * The usable (not expired) stored cards as choices: `Visa ending 4242, expires 12/29, Mei Chen`.
 * @throws ApiError (exit 3) when the service refuses fetch-credit-card
 */
export async function storedCardChoices(ctx: Context): Promise<Array<Choice<string>>> {
  const cards = await fetchCreditCards(await ctx.api(), (await ctx.profile()).paths);
  return cards
    .filter((c) => !c.expired)
    .map((c) => ({
      name: `${c.brand || 'card'} ending ${c.last_four}, expires ${c.expire}${c.holder_name ? `, ${c.holder_name}` : ''}`,
      value: c.id,
      description: c.id,
    }));
}

/**
 * `flags` with `card` chosen at the prompt when `--payment stored_card` came without `--card` (and
 * without a payment file, which may name the card) on a terminal; unchanged otherwise (the payment
 * flow then refuses the missing card, naming `shipbook card list`). Not under `--dry-run`, which sends nothing.
 * @throws UsageError (exit 2) when the account has no usable stored card
 */
export async function withChosenCard<T extends PaymentFlags>(flags: T, ctx: Context): Promise<T> {
  // --dry-run sends nothing, not even this read: the missing --card is then the usage error.
  if (flags.payment !== 'stored_card' || flags.card !== undefined || flags.paymentFile !== undefined || !ctx.io.canPrompt || ctx.globals.dryRun) return flags;
  const choices = await storedCardChoices(ctx);
  if (choices.length === 0) {
    throw new UsageError('--payment stored_card: the account has no usable stored card', {
      suggestion: 'See the stored cards with: shipbook card list (a card paid with save: true is stored), or pay another way: --payment credit.',
    });
  }
  const card = await ctx.prompter().select<string>({ message: 'Stored card', choices });
  return { ...flags, card };
}
