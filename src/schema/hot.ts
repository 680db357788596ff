/**
 * Parsing for hot paths ("nothing per request that could be done once, schema
 * compilation"). A schema parsed often (every request the sandbox answers, every document and
 * answer of a batch) is compiled with `z.compile` once it has been used {@link COMPILE_AFTER}
 * times: a generated fast path that builds the same output, about 2–3 times faster. An input the
 * fast path rejects is parsed again by the schema itself, so failures carry exactly the issues they
 * always did. One-shot commands (`validate`, `quote`) never reach the threshold and never pay the
 * few milliseconds compiling costs.
 *
 * Before the threshold, a schema is also parsed without zod's own generated fast path for objects
 * (`jitless`): zod generates that code for each object schema on its first parse, a cost a
 * schema used once (one file, one answer) never wins back; the result and issues are the same.
 */
import * as z from 'zod';
import { withoutStandIns } from './lazy.js';

/** Uses of a schema before it is compiled. */
export const COMPILE_AFTER = 16;

/** Parse options of the first uses: no generated fast path (see the module comment). */
const JITLESS = { jitless: true } as const;

const uses = new WeakMap<z.ZodType, number | z.ZodType>();

/**
 * `schema.safeParse(value)`, through the schema's compiled form once it has been used
 * {@link COMPILE_AFTER} times (see the module comment). The same result and issues either way.
 */
export function safeParseHot<S extends z.ZodType>(schema: S, value: unknown): z.ZodSafeParseResult<z.output<S>> {
  const seen = uses.get(schema);
  if (typeof seen === 'object') return (seen as S).safeParse(value);
  const n = (seen ?? 0) + 1;
  // z.compile never throws: a schema its code generator cannot model comes back unchanged. It
  // compiles the built schemas, not the stand-ins of lazily built ones (src/schema/lazy.ts), so the
  // hot path reads no schema through a stand-in.
  uses.set(schema, n >= COMPILE_AFTER ? z.compile(withoutStandIns(schema)) : n);
  return schema.safeParse(value, n >= COMPILE_AFTER ? undefined : JITLESS);
}
