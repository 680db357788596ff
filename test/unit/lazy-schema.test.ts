/**
 * Schemas built on first use (src/schema/lazy.ts): a stand-in builds its schema once, only when
 * something reads it, and then behaves as that schema in every way shipbook relies on: the same
 * output and the same issues, `instanceof`, methods that derive schemas, and the JSON Schema of a
 * schema that contains it (hints registered on either side hold for both).
 */
import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { inputJsonSchemaHints, toInputJsonSchema, withJsonSchema } from '../../src/schema/jsonschema.js';
import { builtSchema, lazySchema } from '../../src/schema/lazy.js';
import { safeParseHot } from '../../src/schema/hot.js';

const makePostcode = () => z.string({ error: 'expected a postcode' }).regex(/^\d{4}$/, { error: 'four digits' });

describe('lazySchema', () => {
  it('builds nothing until first used, then builds once', () => {
    const build = vi.fn(makePostcode);
    const postcode = lazySchema(build);
    const holder = z.object({ postcode });
    expect(build).not.toHaveBeenCalled();
    expect(holder.safeParse({ postcode: '2000' }).success).toBe(true);
    expect(postcode.safeParse('3000').success).toBe(true);
    expect(build).toHaveBeenCalledTimes(1);
    expect(builtSchema(postcode)).toBe(builtSchema(postcode));
  });

  it('accepts, rejects and reports exactly as the schema built at once', () => {
    const eager = z.object({ postcode: makePostcode(), list: z.array(makePostcode()).min(1) });
    const lazy = lazySchema(() => z.object({ postcode: lazySchema(makePostcode), list: z.array(lazySchema(makePostcode)).min(1) }));
    for (const input of [{ postcode: '2000', list: ['3000'] }, { postcode: 2000, list: [] }, { list: ['x', 5] }, 'nothing', null]) {
      const a = eager.safeParse(input);
      const b = lazy.safeParse(input);
      expect(b.success).toBe(a.success);
      expect(b.data).toEqual(a.data);
      expect(b.error?.issues).toEqual(a.error?.issues);
      expect(safeParseHot(lazy, input).error?.issues).toEqual(a.error?.issues);
    }
  });

  it('is an instance of its schema class and derives schemas through its methods', () => {
    const shape = lazySchema(() => z.strictObject({ a: z.string() }));
    expect(shape).toBeInstanceOf(z.ZodObject);
    expect(Object.keys(shape.shape)).toEqual(['a']);
    expect(shape.extend({ b: z.number() }).safeParse({ a: 'x', b: 1 }).success).toBe(true);
    expect(shape.optional().safeParse(undefined).success).toBe(true);
  });

  it('shares JSON Schema hints with the schema it builds, whichever side they were registered on', () => {
    const hintedBefore = lazySchema(makePostcode);
    withJsonSchema(hintedBefore, { type: 'string', pattern: '^before$' });
    const hintedInside = lazySchema(() => withJsonSchema(makePostcode(), { type: 'string', pattern: '^inside$' }));
    const json = toInputJsonSchema(z.strictObject({ a: hintedBefore, b: hintedInside, c: hintedBefore.optional() }));
    expect(json.properties).toEqual({
      a: { type: 'string', pattern: '^before$' },
      b: { type: 'string', pattern: '^inside$' },
      c: { type: 'string', pattern: '^before$' },
    });
    expect(inputJsonSchemaHints.has(builtSchema(hintedBefore))).toBe(true);
  });
});
