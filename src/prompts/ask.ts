/**
 * What every part of the wizard shares: the prompter, a way to show a line (the running total,
 * the summary) without knowing the terminal, the clock, and questions whose answers are checked
 * as they are typed by the same zod schemas, with the same messages, as fixture files.
 */
import type { PickupRule } from '../input/pickup.js';
import type * as z from 'zod';
import type { Prompter, Validate } from '../prompter.js';
import { schemaProblems } from '../schema/issues.js';

/** What a part of the wizard needs. */
export interface PromptIO {
  prompter: Prompter;
  /** Shows a note to the person (a line on stderr in the CLI); never data. */
  say(text: string): void;
  /** The clock (pickup defaults, card expiry). */
  now(): Date;
  /** The run's pickup rule: the collection days offered for a pickup, and what is wrong with a typed one. */
  pickup?: PickupRule;
}

/**
 * The first problem `schema` finds in `value` (its message as files get it), or `true`.
 * `at` keeps only problems at that path (for checks of a whole object, e.g. a total).
 */
export function problemOf(schema: z.ZodType, value: unknown, at?: ReadonlyArray<PropertyKey>): true | string {
  const parsed = schema.safeParse(value);
  if (parsed.success) return true;
  const problems = schemaProblems(parsed.error).filter(
    (p) => at === undefined || (p.segments.length >= at.length && at.every((seg, i) => String(p.segments[i]) === String(seg))),
  );
  return problems.length === 0 ? true : problems[0]!.message;
}

/** Reads typed text as a number when it looks like one, so `quantity: 3` and a typed `3` meet the same schema. */
export function numberIfNumeric(text: string): string | number {
  return /^\s*[+-]?\d+(\.\d+)?\s*$/.test(text) ? Number(text) : text;
}

/** A {@link Validate} that checks the typed text (through `convert`) with a field's schema. */
export function checkedBy(schema: z.ZodType, convert: (text: string) => unknown = (t) => t): Validate {
  return (text) => problemOf(schema, convert(text));
}

/** Options of {@link askText}. */
interface AskText {
  message: string;
  /** The field's schema; the answer is refused with its message until it passes. */
  schema: z.ZodType;
  default?: string;
  /** Turns typed text into the value the schema reads (default: the text). */
  convert?: (text: string) => unknown;
  /** A check before the schema, worded for the question (e.g. "2026-02-30 is not a day"). */
  first?: Validate;
  /** A further check after the schema (e.g. a total over several answers). */
  also?: Validate;
}

/** Asks for text until the schema accepts it; returns the text as typed (trimmed). */
export async function askText(io: PromptIO, q: AskText): Promise<string> {
  const byField = checkedBy(q.schema, q.convert);
  const answer = await io.prompter.input({
    message: q.message,
    default: q.default,
    validate: (text) => {
      const typed = text.trim();
      const before = q.first ? q.first(typed) : true;
      if (before !== true) return before;
      const verdict = byField(typed);
      return verdict === true && q.also ? q.also(typed) : verdict;
    },
  });
  return answer.trim();
}
