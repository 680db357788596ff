import { describe, expect, it } from 'vitest';
import { normaliseBaseUrl, urlUnder } from '../../src/api/base-url.js';

describe('urlUnder', () => {
  it('gives what URL parsing gives, for plain paths joined as they stand and for any other', () => {
    const bases = ['http://127.0.0.1:8787/', 'https://api.example.com/v1/', 'http://localhost:1234/a%20b/', 'https://API.example.com:443/x/'].map((b) =>
      normaliseBaseUrl(b),
    );
    const paths = [
      'orders/',
      '/orders/',
      'orders/ORD-1/accept/',
      'orders/ORD%201/',
      'orders/%zz/',
      '',
      '/',
      '//x',
      'a//b',
      'x~y_z-/',
      'q%2F/',
      '%',
      './a',
      '../b',
      'a/./b',
      'c:d',
      'a b',
      'é/',
      'a?b',
      'a#b',
    ];
    for (const base of bases) {
      for (const path of paths) expect(urlUnder(base, path), `${base} ${path}`).toBe(new URL(path.replace(/^\//, ''), base).toString());
    }
    expect(urlUnder('https://api.example.com/v1/', 'quote/', { weight: 2.5, unit: undefined })).toBe('https://api.example.com/v1/quote/?weight=2.5');
  });
});
