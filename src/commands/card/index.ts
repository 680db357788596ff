/** `shipbook card …`: the stored cards of the account (issue 16). */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { cardListCommand } from './list.js';

/** The `card` command group. */
export function cardCommand(ctx: Context): Command {
  return new Command('card').summary('stored cards: list them').addCommand(cardListCommand(ctx));
}
