/**
 * The command a batch's end tells the user to paste to run it again.
 */
import { cmd } from '../../errors.js';
import { hintText } from '../../output/hints.js';
import type { HintStyle } from '../../shell.js';
import type { Shard } from '../../ledger/index.js';
import type { CsvSettings } from '../common/csv-book-flags.js';

/** What of a batch's options its rerun command repeats. */
interface RerunOptions {
  inputs: readonly string[];
  journal?: string | undefined;
  shard?: Shard | undefined;
  rules?: string | undefined;
  maxTotal?: string | undefined;
  budget?: string | undefined;
  csv: CsvSettings;
  skipInvalid: boolean;
}

/**
 * The command that runs this batch again, as the hints paste it: the same inputs, journal copy and
 * shard, and every flag that decides what is booked (the rules, the price caps, how CSV inputs
 * are read, invalid inputs skipped), so that pasting it books what this run would have.
 */
export function rerunCommand(o: RerunOptions, hints: HintStyle): string {
  const given = (flag: string, value: string | undefined) => (value !== undefined ? [flag, value] : []);
  return hintText(
    [
      cmd(
        'book',
        ...o.inputs,
        ...given('--journal', o.journal),
        ...(o.shard ? ['--shard', `${o.shard.index}/${o.shard.count}`] : []),
        ...given('--rules', o.rules),
        ...given('--max-total', o.maxTotal),
        ...given('--budget', o.budget),
        ...given('--input-format', o.csv.format),
        ...given('--map', o.csv.map),
        ...given('--delimiter', o.csv.delimiter === '\t' ? 'tab' : o.csv.delimiter),
        ...(o.csv.decimalComma ? ['--decimal-comma'] : []),
        ...(o.skipInvalid ? ['--skip-invalid'] : []),
      ),
    ],
    hints,
  );
}
