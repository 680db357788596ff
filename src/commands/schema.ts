/**
 * `shipbook schema <kind>`: prints the JSON Schema (draft 2020-12) of an input file kind, for
 * editors (the YAML language server's `# yaml-language-server: $schema=…` comment, or
 * `"$schema"` in a JSON file). Generated from the zod schemas that `validate` and the sending
 * commands use, on the input side, so editors accept what shipbook accepts.
 */
import { Command } from 'commander';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { KINDS, KIND_NAMES, isKindName, kindJsonSchema, type DocumentKind } from '../input/kinds.js';
import { printJson } from '../output/json.js';

/** Options of `schema`. */
export interface SchemaOptions {
  kind: string;
}

/** Prints the JSON Schema of `o.kind` on stdout. @throws UsageError (exit 2) for an unknown kind, listing the kinds. */
export function runSchema(o: SchemaOptions, ctx: Context): void {
  if (!isKindName(o.kind)) {
    // A plural or a different case is the likeliest slip (`schema orders`): name the kind meant.
    const meant = KIND_NAMES.find((k) => [k, `${k}s`, `${k}es`].includes(o.kind.trim().toLowerCase()));
    throw new UsageError(`unknown kind "${o.kind}": use one of ${KIND_NAMES.join(', ')}`, {
      suggestion: meant ? `Did you mean ${meant}? shipbook schema ${meant}` : `For example: shipbook schema order > schemas/order.schema.json`,
    });
  }
  printJson(ctx.io, kindJsonSchema(o.kind));
}

/** The `schema` command. */
export function schemaCommand(ctx: Context): Command {
  const width = Math.max(...KIND_NAMES.map((k) => k.length));
  const kinds = KIND_NAMES.map((k) => `  ${k.padEnd(width)}  ${(KINDS[k] as DocumentKind).summary}`).join('\n');
  return new Command('schema')
    .summary('print the JSON Schema of an input file kind, for editors')
    .description(
      'Print the JSON Schema (draft 2020-12) of a kind of input file, for\n' +
        'completion and checks while typing in an editor. Point the YAML language\n' +
        'server at it with a first line such as\n' +
        '  # yaml-language-server: $schema=../schemas/order.schema.json\n' +
        'Limits that span fields (7500 AUD per shipment, pickup times, dropoff)\n' +
        'are checked by "shipbook validate" only.',
    )
    .argument('<kind>', `one of ${KIND_NAMES.join(', ')}`)
    .addHelpText('after', `\nKinds:\n${kinds}\n\nExample:\n  shipbook schema order > schemas/order.schema.json\n`)
    .action((kind: string) => runSchema({ kind }, ctx));
}
