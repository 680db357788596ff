/**
 * How a sending command reads its input file: load, validate against the kinds registry
 * (src/input/kinds.ts) with every problem reported, and print the warnings on stderr. Validation
 * itself (src/input/validate.ts) only returns the warnings; showing them is the command's job.
 */
import { InvalidArgumentError } from 'commander';
import type { Context } from '../../context.js';
import { loadKind, type Validated } from '../../input/validate.js';
import type { KindName, KindValue } from '../../input/kinds.js';
import { printWarnings } from '../../output/report.js';
import type { PromptIO } from '../../prompts/ask.js';

/** The prompts of a run on a terminal: the context's prompter, notes on stderr, its clock and its pickup rule. */
export function promptIO(ctx: Context): PromptIO {
  return { prompter: ctx.prompter(), say: (t) => ctx.io.err(`${t}\n`), now: () => ctx.now(), ...(ctx.pickup !== undefined ? { pickup: ctx.pickup } : {}) };
}

/** Prints a validated document's warnings on stderr and returns its value. */
export function showWarnings<T>(ctx: Pick<Context, 'io'>, validated: Validated<T>): T {
  printWarnings(ctx.io, validated.warnings);
  return validated.value;
}

/**
 * Loads `file` (`-`: standard input), validates it as `kind`, prints its warnings, returns the value.
 * @throws ValidationError (exit 2) when the file cannot be read or has any error; nothing is sent
 */
export async function loadValidated<K extends KindName>(file: string, kind: K, ctx: Context): Promise<KindValue<K>> {
  return showWarnings(ctx, await loadKind(file, kind, file === '-' ? ctx.io.stdin : undefined, ctx));
}

/**
 * Commander's parser for an id argument (`<order-id>`): the id with surrounding blanks removed.
 * An empty id would address the collection (`GET /orders//`), so it is a usage error (exit 2).
 * @throws InvalidArgumentError for an empty or blank id
 */
export function idArgument(id: string): string {
  const trimmed = id.trim();
  if (trimmed === '') throw new InvalidArgumentError('an id cannot be empty.');
  return trimmed;
}
