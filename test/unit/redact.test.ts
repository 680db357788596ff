import { describe, expect, it } from 'vitest';
import { clearSecrets, maskSecret, redactAnswer, redactText, redactValue, registerSecret, scrubCell, scrubKnown } from '../../src/api/redact.js';

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

  it('masks secret members written as text, by key, whatever their value', () => {
    expect(scrubKnown('name {"cvv":"482","x":1}')).toBe('name {"cvv":"***","x":1}');
    expect(scrubKnown('name {\\"cvv\\": 482}')).toBe('name {\\"cvv\\": ***}');
    expect(scrubKnown('cvc=9876; card_cvv: 111')).toBe('cvc=***; card_cvv: ***');
    // A schema's member is not a value.
    expect(scrubKnown('"cvv": {')).toBe('"cvv": {');
  });

  it('masks a short registered secret inside a cell, not a cell that is only a number', () => {
    clearSecrets();
    registerSecret('482');
    registerSecret('4111111111111111');
    expect(scrubCell('Express (echo: 482 / 4111 1111 1111 1111)')).toBe('Express (echo: **** / ****1111)');
    expect(scrubCell('482')).toBe('482');
    expect(scrubCell('482.50')).toBe('482.50');
    clearSecrets();
  });

  it('redacts an answer whatever the member and however deep, keeping ids, tracking numbers and prices', () => {
    const answer = {
      order: {
        id: 'ORD-1',
        price: { total: 47.3 },
        shipments: [{ id: 'SHP-1', transient_id: 'T1', tracking_number: '4111111111111111', description: 'Books' }],
        echo: {
          request: { payment: { credit_card: { number: '5555 5555 5555 4444', cvv: '737', holder_name: 'P R' } } },
          notes: ['paid with 5555555555554444, cvv: 737'],
          pan_as_number: 5555555555554444,
          card_cvv: 737,
          api_key: 'sk_live_abcdefgh1234',
        },
      },
    };
    const out = redactAnswer(answer);
    const text = JSON.stringify(out);
    expect(text).not.toMatch(/5555 ?5555 ?5555 ?4444|737/);
    expect(text).not.toContain('sk_live_abcdefgh');
    expect(out.order.echo.request.payment.credit_card).toEqual({ number: '****4444', cvv: '***', holder_name: 'P R' });
    expect(out.order.echo.notes).toEqual(['paid with ****4444, cvv: ***']);
    expect(out.order.echo.pan_as_number).toBe('****4444');
    // Identifiers and amounts are what the flows compare: left as they came.
    expect(out.order.shipments[0]).toEqual(answer.order.shipments[0]);
    expect(out.order.price).toEqual({ total: 47.3 });
    expect(answer.order.echo.card_cvv).toBe(737);
  });
});
