import { describe, expect, it } from 'vitest';
import { plannedRequestData, redactHeaders, renderPlannedRequests } from '../../src/output/dry-run.js';

const accept = {
  method: 'PUT',
  url: 'https://api.example.com/orders/ORD-1/accept/',
  headers: { authorization: 'Bearer sk_live_abcdefgh12345678', 'content-type': 'application/json' },
  body: { request: { order: { payment: { type: 'credit_card', credit_card: { number: '4111111111111111', cvv: '737', expiry: '12/29', name: 'A B' } } } } },
};

describe('dry-run output', () => {
  it('shows method, URL, headers and body, with key, card number and CVV redacted', () => {
    const text = renderPlannedRequests([accept], ['sk_live_abcdefgh12345678']);
    expect(text).toContain('PUT https://api.example.com/orders/ORD-1/accept/');
    expect(text).toContain('authorization: Bearer ****5678');
    expect(text).toContain('"number": "****1111"');
    expect(text).toContain('"cvv": "***"');
    expect(text).toContain('"expiry": "12/29"');
    for (const secret of ['sk_live_abcdefgh12345678', '4111111111111111', '737']) expect(text).not.toContain(secret);
  });

  it('masks an auth header even when the key is not known, by its name', () => {
    expect(redactHeaders({ 'X-Api-Key': 'abcdefghijkl9876' })).toEqual({ 'X-Api-Key': '****9876' });
  });

  it('gives the same redacted request as data', () => {
    const data = plannedRequestData(accept, ['sk_live_abcdefgh12345678']);
    expect(JSON.stringify(data)).not.toMatch(/4111111111111111|sk_live_abcdefgh12345678|"737"/);
    expect(data.method).toBe('PUT');
  });
});
