/** The schemas of fetch-credit-card and fetch-service-data. */
import { describe, expect, it } from 'vitest';
import { cardExpired, storedCard, storedCardsResult } from '../../src/schema/card.js';
import { serviceDataResult } from '../../src/schema/service-data.js';

describe('stored card schema', () => {
  it('reads a stored card, padding a numeric last four and defaulting brand and holder', () => {
    expect(storedCard.parse({ id: 'card_x', brand: null, last_four: 42, expire: '08/29', holder_name: null })).toEqual({
      id: 'card_x',
      brand: '',
      last_four: '0042',
      expire: '08/29',
      holder_name: '',
    });
    expect(storedCardsResult.parse({ credit_cards: [] })).toEqual({ credit_cards: [] });
  });

  it('refuses a card without an id, with a bad expiry or more than four digits', () => {
    expect(storedCard.safeParse({ brand: 'Visa', last_four: '4242', expire: '08/29' }).success).toBe(false);
    expect(storedCard.safeParse({ id: 'c', last_four: '4242', expire: '2029-08' }).success).toBe(false);
    expect(storedCard.safeParse({ id: 'c', last_four: '4111111111111111', expire: '08/29' }).success).toBe(false);
    expect(storedCardsResult.safeParse({ cards: [] }).success).toBe(false);
  });

  it('a card is usable to the end of its expiry month (UTC)', () => {
    expect(cardExpired('01/25', new Date('2025-01-31T23:59:59Z'))).toBe(false);
    expect(cardExpired('01/25', new Date('2025-02-01T00:00:00Z'))).toBe(true);
    expect(cardExpired('12/29', new Date('2029-12-31T12:00:00Z'))).toBe(false);
    expect(cardExpired('13/29', new Date('2020-01-01T00:00:00Z'))).toBe(true);
  });
});

describe('service data schema', () => {
  it('reads consolidated mail with its collection data, and another service with none', () => {
    const hub = {
      collection_type: 'dropoff',
      collection: { first_name: 'Receiving', last_name: 'Desk', country: 'AU', postcode: '2020', city: 'Mascot', address_lines: ['190 Coward Street', '', ''] },
    };
    const global = serviceDataResult.parse({
      service: { code: 'SB-GLOBAL-MAIL', name: 'Global Mail', carrier: 'ShipBook', global_mail: true, collection_data: hub },
    }).service;
    expect(global.collection_data?.collection.address_lines).toEqual(['190 Coward Street']);
    expect(global.collection_data?.collection_type).toBe('dropoff');
    const road = serviceDataResult.parse({ service: { code: 'SB-DOM-ROAD', name: 'Road Express', carrier: 'StarTrack' } }).service;
    expect(road).toEqual({ code: 'SB-DOM-ROAD', name: 'Road Express', carrier: 'StarTrack', global_mail: false, collection_data: null });
  });

  it('refuses service data without a code or with collection data lacking collection_type', () => {
    expect(serviceDataResult.safeParse({ service: { name: 'x' } }).success).toBe(false);
    expect(serviceDataResult.safeParse({ service: { code: 'X', collection_data: { collection: {} } } }).success).toBe(false);
  });
});
