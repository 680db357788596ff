/**
 * `shipbook card list`: the stored cards of the account, from fetch-credit-card (assumed
 * `GET /credit-cards/`, setting `paths.fetch-credit-cards` of the profile): the ids that
 * `--payment stored_card --card <id>` takes.
 */
import { Command } from 'commander';
import { fetchCreditCards } from '../../api/cards.js';
import type { Context } from '../../context.js';
import { printStoredCards } from '../../output/account.js';
import { shellArg } from '../../shell.js';

/**
 * Fetches and prints the stored cards in the run's format: a table for `table` (the default on a
 * terminal), tab-separated lines for `tsv` (`id brand last-four expiry holder state`),
 * `{credit_cards: […]}` in a machine format.
 * @throws ApiError (exit 3) when the service refuses, e.g. 404 when `paths.fetch-credit-cards` is wrong
 */
async function runCardList(ctx: Context): Promise<void> {
  const profile = await ctx.profile();
  const cards = await fetchCreditCards(await ctx.api(), profile.paths);
  ctx.output.write({ credit_cards: cards }, () => {
    printStoredCards(ctx.io, ctx.output.format, cards);
    const usable = cards.find((c) => !c.expired);
    if (cards.length === 0) ctx.io.err('No stored cards: a card paid with and saved (save: true in the payment file) is listed here afterwards.\n');
    else if (usable) ctx.io.err(`Pay with one (order accept, book): --payment stored_card --card ${shellArg(usable.id, ctx.settings.hints.shell)}\n`);
  });
}

/** The `card list` command. */
export function cardListCommand(ctx: Context): Command {
  return new Command('list')
    .summary('list the stored cards (ids for --payment stored_card --card)')
    .description(
      'List the stored cards of the account with fetch-credit-card (GET /credit-cards/ unless the profile says otherwise): ' +
        'id, brand, last four digits, expiry (MM/YY), holder, and whether the card has expired. Card numbers are never shown: the service keeps only these.',
    )
    .addHelpText('after', '\nExamples:\n  shipbook card list\n  shipbook card list --json\n')
    .action(async () => runCardList(ctx));
}
