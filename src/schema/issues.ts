/** Turning zod issues into field paths and messages people can act on. */
import type * as z from 'zod';
import { describe } from './common.js';
import { editDistance } from './edit-distance.js';

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

/** The zod internals read by {@link knownFieldsAt}: the `def` of a schema. */
type Def = {
  type?: string;
  innerType?: unknown;
  in?: unknown;
  out?: unknown;
  options?: unknown[];
  shape?: Record<string, unknown>;
  element?: unknown;
  getter?: () => unknown;
};

function defOf(schema: unknown): Def | undefined {
  return (schema as { _zod?: { def?: Def } } | undefined)?._zod?.def;
}

/** The object and array schemas `schema` stands for, looking through optional, default, pipes and unions. */
function concreteSchemas(schema: unknown, seen = new Set<unknown>()): unknown[] {
  const def = defOf(schema);
  if (!def || seen.has(schema)) return [];
  seen.add(schema);
  switch (def.type) {
    case 'object':
    case 'array':
      return [schema];
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return concreteSchemas(def.innerType, seen);
    case 'pipe':
      return [...concreteSchemas(def.in, seen), ...concreteSchemas(def.out, seen)];
    case 'union':
      return (def.options ?? []).flatMap((o) => concreteSchemas(o, seen));
    case 'lazy':
      return def.getter ? concreteSchemas(def.getter(), seen) : [];
    default:
      return [];
  }
}

/**
 * The field names an object schema expects at `path` inside `schema` (for "did you mean"), or an
 * empty list when the path does not lead to an object schema.
 */
export function knownFieldsAt(schema: unknown, path: ReadonlyArray<PropertyKey>): string[] {
  let current = concreteSchemas(schema);
  for (const seg of path) {
    const next: unknown[] = [];
    for (const s of current) {
      const def = defOf(s)!;
      if (def.type === 'object' && typeof seg === 'string' && def.shape && Object.hasOwn(def.shape, seg)) next.push(...concreteSchemas(def.shape[seg]));
      if (def.type === 'array' && typeof seg === 'number') next.push(...concreteSchemas(def.element));
    }
    current = next;
  }
  const keys = new Set<string>();
  for (const s of current) {
    const def = defOf(s)!;
    if (def.type === 'object' && def.shape) for (const k of Object.keys(def.shape)) keys.add(k);
  }
  return [...keys];
}

/** Lower case without `_`, `-`, blanks: `Address-Lines` and `addressLines` read as `addresslines`. */
function normaliseName(name: string): string {
  return name.toLowerCase().replace(/[_\-\s]/g, '');
}

/**
 * The known field an unknown field name was probably meant to be (`adress_lines` →
 * `address_lines`, `firstName` → `first_name`), or `undefined` when none is close enough or two
 * are equally close.
 */
export function closestField(unknown: string, known: readonly string[]): string | undefined {
  const u = normaliseName(unknown);
  if (u === '' || u.length > 64) return undefined;
  const allowed = Math.max(1, Math.floor(u.length / 4));
  let best: string | undefined;
  let bestDistance = Infinity;
  let tie = false;
  for (const k of known) {
    const name = normaliseName(k);
    // The distance is at least the difference in length: a name further than the allowed distance
    // can neither be the answer nor tie with it, so it is not measured.
    if (Math.abs(name.length - u.length) > allowed) continue;
    const distance = editDistance(u, name);
    if (distance < bestDistance) {
      best = k;
      bestDistance = distance;
      tie = false;
    } else if (distance === bestDistance) {
      tie = true;
    }
  }
  return best !== undefined && !tie && bestDistance <= allowed ? best : undefined;
}
