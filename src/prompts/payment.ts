/**
 * The payment questions (interface document, "Accept order", payment types): the credit
 * account, a stored card, or a new card — number (Luhn check), expiry `MM/YY`, CVV and holder
 * name, each checked by the card schema of `src/schema/payment.ts`. The number and the CVV are
 * typed hidden (shown as `*`) and never echoed, written to a file or logged.
 */
import type * as z from 'zod';
import type { Choice } from '../prompter.js';
import { creditCardRequest, paymentRequest, type PaymentType } from '../schema/payment.js';
import { text } from '../schema/common.js';
import { askText, checkedBy, type PromptIO } from './ask.js';

/** The payment object as an accept request holds it (input form). */
type PaymentInput = z.input<ReturnType<typeof paymentRequest>>;

/** Options of {@link askPayment}. */
interface AskPaymentOptions {
  /** The type highlighted first (the profile's default payment). */
  defaultType?: PaymentType;
  /** The profile's default stored card id, offered as the default answer. */
  defaultCard?: string;
  /** The account's stored cards, when they can be listed; otherwise the id is typed. */
  storedCards?: () => Promise<ReadonlyArray<Choice<string>>>;
}

/**
 * Asks how to pay.
 * @returns a payment object the accept-request schema accepts
 */
export async function askPayment(io: PromptIO, o: AskPaymentOptions = {}): Promise<PaymentInput> {
  const type = await io.prompter.select<PaymentType>({
    message: 'Payment',
    choices: [
      { name: 'credit account (ship now, pay later)', value: 'credit' },
      { name: 'a stored card', value: 'stored_card' },
      { name: 'a new card', value: 'credit_card' },
    ],
    default: o.defaultType ?? 'credit',
  });
  if (type === 'credit') return { type };
  if (type === 'stored_card') {
    const cards = o.storedCards ? await o.storedCards() : [];
    const card =
      cards.length > 0
        ? await io.prompter.select<string>({ message: 'Stored card', choices: cards, default: o.defaultCard })
        : await askText(io, { message: 'Stored card id', schema: text(), default: o.defaultCard });
    return { type, credit_card: card };
  }
  return askNewCard(io);
}

/**
 * Asks for a new card (number and CVV typed hidden, expiry, holder name, whether to save it).
 * @returns the `credit_card` payment object of an accept request
 */
export async function askNewCard(io: PromptIO): Promise<PaymentInput> {
  const type = 'credit_card' as const;
  const card = creditCardRequest(io.now).shape;
  const number = (await io.prompter.password({ message: 'Card number', validate: checkedBy(card.number) })).replace(/[\s-]/g, '');
  const expire = await askText(io, { message: 'Expiry (MM/YY)', schema: card.expire });
  const cvv = (await io.prompter.password({ message: 'CVV', validate: checkedBy(card.cvv) })).trim();
  const holder_name = await askText(io, { message: 'Name on the card', schema: card.holder_name });
  const save = await io.prompter.confirm({ message: 'Save the card with the service for next time?', default: false });
  return { type, credit_card: { number, expire, cvv, holder_name, ...(save ? { save } : {}) } };
}
