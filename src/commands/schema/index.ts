/**
 * `shipbook schema <kind>`: prints the JSON Schema (draft 2020-12) of an input file kind, for
 * editors (the YAML language server's `# yaml-language-server: $schema=…` comment, or
 * `"$schema"` in a JSON file). Generated from the zod schemas that `validate` and the sending
 * commands use, on the input side, so editors accept what shipbook accepts.
 */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError, cmd } from '../../errors.js';
import { KINDS, KIND_NAMES, isKindName, kindJsonSchema, suggestKind, type DocumentKind } from '../../input/kinds.js';
import { CSV_COLUMNS } from '../../input/csv-layout.js';
import { formatPath } from '../../schema/issues.js';
import { printJson } from '../../output/json.js';
import { printTable } from '../../output/table.js';
import { rulesJsonSchema } from '../../booking/index.js';

/** Options of `schema`. */
interface SchemaOptions {
  kind: string;
}

/** The field a CSV column fills, as a path in the order document (`order.shipments[i].delivery.postcode`). */
function csvField(c: (typeof CSV_COLUMNS)[number]): string {
  const rel = formatPath(c.path);
  if (c.name === 'tags') return "tags, beside order: (for the rules' tags condition; not sent)";
  if (c.level === 'order') return '(groups rows into one order; not sent)';
  if (c.name === 'sender') return 'order.shipments[i].collection (a saved sender)';
  const base =
    c.level === 'package'
      ? 'order.shipments[i].packages[row]'
      : c.level === 'item'
        ? 'order.shipments[i].customs_information.items[row]'
        : 'order.shipments[i]';
  return `${base}.${rel}`;
}

/**
 * `shipbook schema csv`: the columns of the CSV layout (name, level, required, field, what it
 * holds) in the run's format: a table for `table`, tab-separated lines for `tsv`, `{columns: […]}`
 * in a machine format.
 */
function printCsvColumns(ctx: Context): void {
  const columns = CSV_COLUMNS.map((c) => ({
    name: c.name,
    level: c.level,
    required: c.required,
    field: csvField(c),
    description: c.description,
    example: c.example,
  }));
  ctx.output.write({ columns }, () => {
    const rows = columns.map((c) => [c.name, c.level, c.required ? 'yes' : '', c.field, c.description]);
    if (ctx.output.format === 'table')
      printTable(
        ctx.io,
        ctx.output.format,
        [
          { header: 'COLUMN', atomic: true },
          { header: 'ROW OF', atomic: true },
          { header: 'REQUIRED' },
          { header: 'FIELD', breakAfter: './' },
          { header: 'HOLDS' },
        ],
        rows,
      );
    else ctx.io.out(rows.map((r) => r.join('\t')).join('\n') + '\n');
  });
}

/** Prints the JSON Schema of `o.kind` (or the CSV layout's columns for `csv`) on stdout. @throws UsageError (exit 2) for an unknown kind, listing the kinds. */
function runSchema(o: SchemaOptions, ctx: Context): void {
  if (o.kind === 'csv') {
    printCsvColumns(ctx);
    return;
  }
  if (o.kind === 'rules') {
    printJson(ctx.io, rulesJsonSchema());
    return;
  }
  if (!isKindName(o.kind)) {
    const likely = suggestKind(o.kind);
    throw new UsageError(`unknown kind "${o.kind}": use one of ${KIND_NAMES.join(', ')}, rules, or csv (the columns of a spreadsheet of orders)`, {
      suggestion: likely
        ? [`Did you mean "${likely}"? `, cmd('schema', likely), ` > schemas/${likely}.schema.json`]
        : ['For example: ', cmd('schema', 'order'), ' > schemas/order.schema.json'],
    });
  }
  // --jq and --template pick from the schema as from every JSON document.
  if (ctx.output.choice.pick !== undefined) ctx.output.data(kindJsonSchema(o.kind));
  else printJson(ctx.io, kindJsonSchema(o.kind));
}

/** The `schema` command. */
export function schemaCommand(ctx: Context): Command {
  const width = Math.max(...KIND_NAMES.map((k) => k.length));
  const kinds = KIND_NAMES.map((k) => `  ${k.padEnd(width)}  ${(KINDS[k] as DocumentKind).summary}`).join('\n');
  return new Command('schema')
    .summary('print the JSON Schema of an input file kind, for editors')
    .description(
      'Print the JSON Schema (draft 2020-12) of a kind of input file, for ' +
        'completion and checks while typing in an editor. Point the YAML language ' +
        'server at it with a first line such as\n' +
        '  # yaml-language-server: $schema=../schemas/order.schema.json\n' +
        'Limits that span fields (7500 AUD per shipment, pickup times, dropoff) ' +
        'are checked by "shipbook validate" only. ' +
        '"shipbook schema csv" lists the columns of a spreadsheet of orders ' +
        '(shipbook book orders.csv) instead: one row per package.',
    )
    .argument('<kind>', `one of ${KIND_NAMES.join(', ')}, rules, or csv`)
    .addHelpText(
      'after',
      `\nKinds:\n${kinds}\n  ${'rules'.padEnd(width)}  a service-selection rules file (shipbook book --rules FILE, shipbook rules check)\n  ${'csv'.padEnd(width)}  the columns of a spreadsheet of orders (shipbook book orders.csv)\n\nExamples:\n  shipbook schema order > schemas/order.schema.json\n  shipbook schema rules > schemas/rules.schema.json\n  shipbook schema csv\n`,
    )
    .action((kind: string) => runSchema({ kind }, ctx));
}
