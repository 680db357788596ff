/**
 * `shipbook csv template [--kind order]`: the header row of the CSV layout and one example row
 * (a domestic order of one package with one customs item), to open in a spreadsheet and fill in.
 */
import { Command } from 'commander';
import { stringify } from 'csv-stringify/sync';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { CSV_COLUMNS } from '../../input/csv-layout.js';

/** Options of `csv template`. */
interface CsvTemplateOptions {
  kind: string;
  delimiter: ',' | ';' | '\t';
}

/** The template: header and example row, as CSV text (formulas escaped, as every CSV shipbook writes). */
function csvTemplate(delimiter: CsvTemplateOptions['delimiter']): string {
  return stringify([CSV_COLUMNS.map((c) => c.name), CSV_COLUMNS.map((c) => c.example)], { delimiter, escape_formulas: true });
}

/** Writes the template on stdout. @throws UsageError (exit 2) for a kind other than order */
function runCsvTemplate(o: CsvTemplateOptions, ctx: Context): void {
  if (o.kind !== 'order') {
    throw new UsageError(`--kind must be order (got "${o.kind}"): spreadsheets hold orders`, { suggestion: 'shipbook csv template > orders.csv' });
  }
  ctx.io.out(csvTemplate(o.delimiter));
}

/** The `csv template` command. */
export function csvTemplateCommand(ctx: Context): Command {
  return new Command('template')
    .summary('write the CSV header and an example row')
    .description(
      'Write the header row of the CSV layout and one example row on standard output. One row is one package; ' +
        'rows with the same order_ref form one order, rows with the same shipment_ref one shipment; each row may ' +
        'carry one customs item (item_* columns). Every column: shipbook schema csv.',
    )
    .option('--kind <kind>', 'what the rows hold: order (the only kind)', 'order')
    .option('--delimiter <,|;|tab>', 'cell delimiter (";" for spreadsheets that use a decimal comma)', ',')
    .addHelpText('after', '\nExamples:\n  shipbook csv template > orders.csv\n  shipbook csv template --delimiter ";" > orders.csv\n')
    .action((flags: { kind: string; delimiter: string }) => {
      const delimiter = flags.delimiter === 'tab' || flags.delimiter === '\\t' ? '\t' : flags.delimiter;
      if (delimiter !== ',' && delimiter !== ';' && delimiter !== '\t') throw new UsageError(`--delimiter must be , ; or tab (got "${flags.delimiter}")`);
      runCsvTemplate({ kind: flags.kind, delimiter }, ctx);
    });
}
