/** `shipbook csv …`: spreadsheets of orders (the layout `shipbook book orders.csv` reads). */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { csvTemplateCommand } from './template.js';

/** The `csv` command group. */
export function csvCommand(ctx: Context): Command {
  return new Command('csv')
    .summary('spreadsheets of orders: a template to fill in')
    .description(
      'Orders kept in a spreadsheet book with "shipbook book orders.csv": one row per package, rows with the ' +
        'same order_ref form one order. "shipbook csv template" writes the header and an example row; ' +
        '"shipbook schema csv" lists every column.',
    )
    .addHelpText('after', '\nExamples:\n  shipbook csv template > orders.csv\n  shipbook book orders.csv --report results.csv\n')
    .addCommand(csvTemplateCommand(ctx));
}
