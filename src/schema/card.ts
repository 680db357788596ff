/**
 * Stored cards: the answer of fetch-credit-card (referenced by the interface document, "Accept
 * order": "The stored card id is obtained from a fetch-credit-card operation"; path assumed
 * `GET /credit-cards/`, a setting of the profile). A stored card is what the service
 * keeps of a card saved with `save: true`: never the full number or the CVV.
 *
 * Wire form (snake_case like the interface document):
 * `{credit_cards: [{id, brand, last_four, expire: "MM/YY", holder_name, expired}]}`.
 */
import * as z from 'zod';
import { lazySchema } from './lazy.js';

/** `MM/YY`, two-digit month and year, as card expiry dates are written in the interface document. */
const CARD_EXPIRY_PATTERN = /^(0[1-9]|1[0-2])\/\d{2}$/;

/** One stored card in a response. `expired` is the service's own judgement (true once the month is over). */
export const storedCard = lazySchema(() =>
  z.looseObject({
    id: z.union([z.string().min(1), z.number()]).transform(String),
    brand: z
      .string()
      .nullish()
      .transform((b) => b ?? ''),
    last_four: z
      .union([z.string(), z.number()])
      .transform((v) => String(v).padStart(4, '0'))
      .pipe(z.string().regex(/^\d{4}$/, { error: 'expected the last four digits' })),
    expire: z.string().regex(CARD_EXPIRY_PATTERN, { error: 'expected MM/YY' }),
    holder_name: z
      .string()
      .nullish()
      .transform((h) => h ?? ''),
    expired: z.boolean().optional(),
  }),
);
/** One stored card of a response, as {@link storedCard} reads it. */
export type StoredCard = z.output<typeof storedCard>;

/** `result` of fetch-credit-card: `{credit_cards: […]}`. */
export const storedCardsResult = lazySchema(() => z.looseObject({ credit_cards: z.array(storedCard) }));

/**
 * True when a card expiring `MM/YY` can no longer be used at `now`: a card is valid to the end
 * of its expiry month (UTC). A value not matching {@link CARD_EXPIRY_PATTERN} counts as expired.
 */
export function cardExpired(expire: string, now: Date): boolean {
  const m = CARD_EXPIRY_PATTERN.exec(expire);
  if (!m) return true;
  const month = Number(m[1]);
  const year = 2000 + Number(expire.slice(3));
  // First moment after the expiry month.
  return now.getTime() >= Date.UTC(year, month, 1);
}
