/** `shipbook card …`: the stored cards of the account. */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { cardListCommand } from './list.js';

/** The `card` command group. */
export function cardCommand(ctx: Context): Command {
  return new Command('card')
    .summary('stored cards: list them')
    .description('The stored cards of the account (fetch-credit-card): the ids --payment stored_card --card takes. Card numbers are never shown.')
    .addHelpText('after', '\nExamples:\n  shipbook card list\n  shipbook card list --json\n')
    .addCommand(cardListCommand(ctx));
}
