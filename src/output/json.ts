/** JSON output for scripts: one document on stdout, money as two-decimal strings (see Money.toJSON). */
import type { IOStreams } from '../io.js';

/** Prints `value` as indented JSON on stdout. */
export function printJson(io: IOStreams, value: unknown): void {
  io.out(`${JSON.stringify(value, null, 2)}\n`);
}
