/** The pickup-date flags shared by `book`, `order create` and `validate`. */
import type { Command } from 'commander';

/** Adds `--pickup-date`, `--roll-pickup-dates` and `--allow-pickup-date`. */
export function addPickupOptions(cmd: Command): Command {
  return cmd
    .option('--pickup-date <day>', 'every pickup on this day: next (the next collection day), today, tomorrow or YYYY-MM-DD')
    .option(
      '--roll-pickup-dates',
      'a pickup date no carrier collects on (in the past, a weekend, a public holiday, today after the cut-off) moves to the next collection day, with a warning',
    )
    .option('--allow-pickup-date', 'send a pickup date shipbook thinks no carrier collects on as it is (for a carrier that does collect then)');
}
