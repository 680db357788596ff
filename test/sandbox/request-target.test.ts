/**
 * The sandbox reads a plain request target without `new URL` (for throughput: nothing per request
 * that could be done once or not at all); it must read every target exactly as URL parsing does.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { requestTarget } from '../../src/sandbox/server.js';

/** What URL parsing makes of a target: its path and query, or `malformed` when it is not a URL. */
const viaUrl = (raw: string) => {
  try {
    const url = new URL(raw, 'http://sandbox.invalid');
    return { pathname: url.pathname, query: [...url.searchParams] };
  } catch {
    return 'malformed';
  }
};
const viaTarget = (raw: string) => {
  try {
    const t = requestTarget(raw);
    return { pathname: t.pathname, query: [...t.query()] };
  } catch (err) {
    return (err as { status?: number }).status === 400 ? 'malformed' : err;
  }
};

describe('request targets', () => {
  it('reads any target as new URL does: path and query', () => {
    const chars = fc.constantFrom(..."/ab-_Z09?=&%#.+;:@!$'()*,~\\ é".split(''));
    fc.assert(
      fc.property(fc.string({ unit: chars, maxLength: 30 }), (s) => {
        expect(viaTarget(`/${s}`)).toEqual(viaUrl(`/${s}`));
      }),
      { numRuns: 5_000 },
    );
  });

  it('leaves dot segments, escapes and protocol-relative targets to URL parsing', () => {
    expect(viaTarget('/orders/../quote/')).toEqual({ pathname: '/quote/', query: [] });
    expect(viaTarget('/orders/ORD%2D1/')).toEqual({ pathname: '/orders/ORD%2D1/', query: [] });
    expect(viaTarget('//evil.example/quote/')).toEqual({ pathname: '/quote/', query: [] });
    expect(viaTarget('//')).toBe('malformed');
    expect(viaTarget('/quote/?weight=2.5&unit=cm#x')).toEqual({
      pathname: '/quote/',
      query: [
        ['weight', '2.5'],
        ['unit', 'cm'],
      ],
    });
    expect(viaTarget('/quote/?city=Sydney%20CBD&a=b+c')).toEqual({
      pathname: '/quote/',
      query: [
        ['city', 'Sydney CBD'],
        ['a', 'b c'],
      ],
    });
  });
});
