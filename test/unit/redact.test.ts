import { describe, expect, it } from 'vitest';
import { maskSecret, redactText, redactValue } from '../../src/api/redact.js';

describe('secrets are never shown in full', () => {
  it('masks keys to their last four characters', () => {
    expect(maskSecret('sk_live_abcdefgh1234')).toBe('****1234');
    expect(maskSecret('short')).toBe('****');
    expect(maskSecret(undefined)).toBe('(none)');
  });

  it('redacts card number and CVV inside request bodies', () => {
    const body = {
      request: { order: { payment: { type: 'credit_card', credit_card: { number: '4111111111111111', cvv: '123', holder_name: 'P R', expire: '08/29' } } } },
    };
    const text = JSON.stringify(redactValue(body));
    expect(text).not.toContain('4111111111111111');
    expect(text).not.toContain('"123"');
    expect(text).toContain('****1111');
    expect(text).toContain('P R');
  });

  it('scrubs listed secrets and Luhn-valid card numbers from free text', () => {
    const text = redactText('key sk_test_0123456789abcdef card 4111 1111 1111 1111 order 1234567890123', ['sk_test_0123456789abcdef']);
    expect(text).toBe('key ****cdef card ****1111 order 1234567890123');
  });
});
