/** Turning zod issues into field paths and messages people can act on. */
import type { z } from 'zod';
import { describe } from './common.js';

/** A field path in the dotted/bracket form the interface document uses: `shipments[0].delivery.address_lines[1]`. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}

/** One problem found by a schema: where (path segments and formatted path) and what. */
export interface SchemaProblem {
  segments: PropertyKey[];
  path: string;
  message: string;
}

/** A message for one zod issue, in shipbook's words (`required`, `unknown field`, …). */
function issueMessage(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type': {
      // zod v4 leaves `input` out of the issues it returns, so it cannot tell "missing" from
      // "wrong type" here: keep the schema's own message (which already says `required` or
      // `expected … (got …)`), and read zod's default message otherwise.
      if (!issue.message.startsWith('Invalid input')) return issue.message;
      const input = (issue as { input?: unknown }).input;
      if (input !== undefined) return `expected ${issue.expected} (got ${describe(input)})`;
      const received = /received (\w+)/.exec(issue.message)?.[1];
      return received === undefined || received === 'undefined' ? 'required' : `expected ${issue.expected} (got ${received})`;
    }
    case 'unrecognized_keys':
      return `unknown field${issue.keys.length === 1 ? '' : 's'} ${issue.keys.join(', ')}`;
    case 'invalid_union':
      return issue.message.startsWith('Invalid input') ? 'not a valid value here' : issue.message;
    default:
      return issue.message;
  }
}

/**
 * Flattens a zod error into problems, one per issue, with unknown keys reported at their own
 * path (so a misspelt field points at its line). `prefix` is prepended to every path.
 */
export function schemaProblems(error: z.ZodError, prefix: ReadonlyArray<PropertyKey> = []): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const segments = [...prefix, ...issue.path, key];
        out.push({ segments, path: formatPath(segments), message: 'unknown field' });
      }
      continue;
    }
    const segments = [...prefix, ...issue.path];
    out.push({ segments, path: formatPath(segments), message: issueMessage(issue) });
  }
  return out;
}
