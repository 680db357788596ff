/**
 * Warnings about what the service answered (a price that does not add up, a negative figure, a
 * callback the service did not bear out …): printed on stderr as
 * `warning: …` lines, and listed as `warnings` (strings) in the document of a machine format. The
 * command goes on: a warning never changes the exit code.
 */
import type { Context } from '../../context.js';
import { paint } from '../../output/style.js';
import { printable } from '../../output/printable.js';

/**
 * Prints each warning (duplicates once) on stderr and returns `data` with `warnings` added when
 * there is any, for `ctx.output.write`.
 */
export function withWarnings<T extends object>(
  ctx: Pick<Context, 'io'>,
  data: T,
  warnings: ReadonlyArray<string | undefined>,
  alreadyPrinted: readonly string[] = [],
): T | (T & { warnings: string[] }) {
  const unique = [...new Set(warnings.filter((w): w is string => w !== undefined))];
  for (const w of unique) if (!alreadyPrinted.includes(w)) ctx.io.err(`${paint(ctx.io, 'yellow', 'warning:')} ${printable(w, 'lines')}\n`);
  const listed = [...new Set([...alreadyPrinted, ...unique])];
  return listed.length > 0 ? { ...data, warnings: listed } : data;
}
