/**
 * The identity of a batch order must never change between releases (a journal written by one is
 * read by the next): the loop form of canonicalJson (src/ledger/identity.ts) gives exactly what its
 * first, one-expression form gave, for any JSON a document can hold and for objects with
 * `undefined` members.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, contentHash } from '../../src/ledger/identity.js';

/** The first form, kept as the oracle. */
function reference(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(reference).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    return `{${Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${reference(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

describe('canonicalJson', () => {
  it('agrees with its first form on any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(canonicalJson(v)).toBe(reference(v));
      }),
      { numRuns: 2000 },
    );
  });

  it('agrees with it on objects with undefined members and odd keys', () => {
    const key = fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', '', '"', '\u2028', '10', '2', 'a.b'));
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        fc.constant(undefined),
        fc.jsonValue({ maxDepth: 1 }),
        fc.array(tie('node'), { maxLength: 4 }),
        fc.dictionary(key, tie('node'), { maxKeys: 5 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, (v) => {
        expect(canonicalJson(v)).toBe(reference(v));
      }),
      { numRuns: 2000 },
    );
  });

  it('sorts keys at every level and keeps array order', () => {
    expect(canonicalJson({ b: [3, { d: 1, c: null }], a: 'x', u: undefined })).toBe('{"a":"x","b":[3,{"c":null,"d":1}]}');
    expect(contentHash({ b: 1, a: 2 })).toBe(contentHash({ a: 2, b: 1 }));
  });
});
