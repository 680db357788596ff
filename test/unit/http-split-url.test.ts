/**
 * The request URL split without parsing (src/http/undici.ts `splitUrl`) says what WHATWG URL
 * parsing says, for the URLs a batch sends and for those it must leave to the parser (dot
 * segments, escapes, other origins, default ports, upper case, user info, spaces).
 */
import { describe, expect, it } from 'vitest';
import { splitUrl } from '../../src/http/undici.js';

const parsed = (url: string) => {
  const u = new URL(url);
  return { origin: u.origin, path: `${u.pathname}${u.search}` };
};

const URLS = [
  'http://127.0.0.1:8787/',
  'http://127.0.0.1:8787/orders/',
  'http://127.0.0.1:8787/orders/ORD-X1Y2Z3/accept/',
  'http://127.0.0.1:8787/orders/ORD-X1Y2Z3/',
  'http://127.0.0.1:8787/quote/?collection_country=AU&weight=2.5&unit=cm',
  'http://127.0.0.1:8787/orders/../services/',
  'http://127.0.0.1:8787/orders/./x/',
  'http://127.0.0.1:8787/orders/%2e%2e/x/',
  'http://127.0.0.1:8787/orders/a b/',
  'http://127.0.0.1:8787/orders/\\x/',
  'http://127.0.0.1:8787/orders/x#frag',
  'http://127.0.0.1:8787//double/',
  'http://127.0.0.1:8787/q?a="b"&c=<d>',
  'http://127.0.0.1:8787/q?%zz',
  'HTTP://127.0.0.1:8787/orders/',
  'http://127.0.0.1:80/orders/',
  'http://user:pw@127.0.0.1:8787/orders/',
  'https://api.example.com/v1/orders/',
  'https://API.example.com/v1/orders/',
  'https://api.example.com:443/v1/orders/',
  'https://api.example.com/v1/orders/ORD-1/accept/',
  'http://[::1]:8787/orders/',
  'http://127.0.0.1:8787/orders/ünïcode/',
];

describe('splitUrl', () => {
  it('gives the origin and path with query that URL parsing gives, in any order of calls', () => {
    for (const first of URLS) {
      for (const url of URLS) {
        splitUrl(first);
        expect(splitUrl(url), `${url} after ${first}`).toEqual(parsed(url));
      }
    }
  });

  it('refuses what is not a URL, as the parser does', () => {
    splitUrl('http://127.0.0.1:8787/');
    expect(() => splitUrl('not a url')).toThrow(TypeError);
    expect(() => splitUrl('/orders/')).toThrow(TypeError);
  });
});
