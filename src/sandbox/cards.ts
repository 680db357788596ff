/**
 * The sandbox account's stored cards (interface document, "Accept order": stored card
 * ids come from fetch-credit-card). A few cards are seeded (always there: three usable, one
 * expired); a card paid with at acceptance with `save: true` is added to the store, masked (brand,
 * last four digits, expiry, holder: never the full number or the CVV).
 */
import type { CreditCardRequest } from '../schema/payment.js';
import { cardExpired } from '../schema/card.js';
import type { StoredCardRecord } from './records.js';
import type { SandboxStore } from './store/types.js';

/** The seeded cards of the sandbox account, in the order `card list` shows them. `card_visa_1881` has expired. */
const SEEDED_CARDS: readonly StoredCardRecord[] = Object.freeze([
  { id: 'card_visa_4242', brand: 'Visa', last4: '4242', expire: '12/29', holder: 'Mei Chen', savedAt: new Date('2025-01-10T00:00:00Z') },
  { id: 'card_mc_5454', brand: 'Mastercard', last4: '5454', expire: '08/28', holder: 'Mei Chen', savedAt: new Date('2025-02-14T00:00:00Z') },
  {
    id: 'card_amex_0005',
    brand: 'American Express',
    last4: '0005',
    expire: '03/30',
    holder: 'Koala Crafts Pty Ltd',
    savedAt: new Date('2025-03-01T00:00:00Z'),
  },
  { id: 'card_visa_1881', brand: 'Visa', last4: '1881', expire: '01/25', holder: 'Daniel Brooks', savedAt: new Date('2023-01-20T00:00:00Z') },
]);

/** The brand of a card number, from its first digits. */
function cardBrand(number: string): string {
  if (/^4/.test(number)) return 'Visa';
  if (/^(5[1-5]|2[2-7])/.test(number)) return 'Mastercard';
  if (/^3[47]/.test(number)) return 'American Express';
  return 'Card';
}

/** Every stored card: the seeded ones, then the saved ones, oldest first. */
export function storedCards(store: SandboxStore): StoredCardRecord[] {
  const saved = store.cards.values().sort((a, b) => new Date(a.savedAt).getTime() - new Date(b.savedAt).getTime() || a.id.localeCompare(b.id));
  return [...SEEDED_CARDS, ...saved];
}

/** The stored card with this id, or undefined. */
export function findStoredCard(store: SandboxStore, id: string): StoredCardRecord | undefined {
  return SEEDED_CARDS.find((c) => c.id === id) ?? store.cards.get(id);
}

/**
 * Saves a card paid with (`save: true`): keeps brand, last four digits, expiry and holder under
 * a new id `card_saved_<last4>_<n>`, or returns the card already saved with the same last four
 * digits, expiry and holder. The number and CVV are not kept.
 */
export function saveCard(store: SandboxStore, card: CreditCardRequest, now: Date): StoredCardRecord {
  const last4 = card.number.slice(-4);
  const existing = storedCards(store).find((c) => c.last4 === last4 && c.expire === card.expire && c.holder === card.holder_name);
  if (existing) return existing;
  let n = store.cards.count() + 1;
  while (store.cards.has(`card_saved_${last4}_${n}`)) n += 1;
  const record: StoredCardRecord = {
    id: `card_saved_${last4}_${n}`,
    brand: cardBrand(card.number),
    last4,
    expire: card.expire,
    holder: card.holder_name,
    savedAt: now,
  };
  store.cards.set(record.id, record);
  return record;
}

/** A stored card in wire form (`fetch-credit-card`): `{id, brand, last_four, expire, holder_name, expired}`. */
export function storedCardWire(card: StoredCardRecord, now: Date) {
  return { id: card.id, brand: card.brand, last_four: card.last4, expire: card.expire, holder_name: card.holder, expired: cardExpired(card.expire, now) };
}
