/**
 * Money, exactly. Amounts are AUD (interface document, "Conventions": the only currency) held as
 * integer cents: never a binary float. The service sends prices as numbers in some responses and
 * as decimal strings in others ("Order" price object); both are read here.
 */

/** An amount of money in AUD cents (an integer). `1234` is AUD 12.34. */
export type Cents = number;

const DECIMAL = /^([+-])?(\d+)(?:\.(\d*))?$/;

/** Turns a number into its plain decimal text (no exponent), as JavaScript would print it. */
function numberToDecimalText(value: number): string {
  const text = String(value);
  if (!/e/i.test(text)) return text;
  // Exponent form only happens for very small or very large values; toFixed gives plain digits.
  return Math.abs(value) < 1 ? value.toFixed(20).replace(/0+$/, '') : BigInt(Math.round(value)).toString();
}

/**
 * The cents of a number that is an amount of at most two decimals (`12`, `12.3`, `12.34`), without
 * going through its text: `Math.round(value * 100)` is those cents exactly when dividing them by
 * 100 gives back the very same number (the division rounds correctly, so the number is the double
 * nearest to that two-decimal amount, which is what its shortest text spells). Undefined for any
 * other number (more decimals, 2^40 and beyond), which is read through its text.
 */
function plainNumberCents(value: number): Cents | undefined {
  // Below 2^40 two numbers a cent apart are hundreds of doubles apart, so no other amount of two
  // decimals is nearer to this number, nor shorter to write: its text reads as these cents.
  if (!(Math.abs(value) < 2 ** 40)) return undefined;
  const cents = Math.round(value * 100);
  if (cents / 100 !== value) return undefined;
  return cents === 0 ? 0 : cents;
}

/**
 * Reads a price as the service sends it (a JSON number like `12.3` or a decimal string like
 * `"12.30"`) into integer cents, exactly. More than two decimals are rounded half away from zero
 * on the decimal digits, never through floating point.
 *
 * @returns cents, or `undefined` when the value is not a decimal amount.
 */
export function readCents(value: unknown): Cents | undefined {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    const fast = plainNumberCents(value);
    if (fast !== undefined) return fast;
    text = numberToDecimalText(value);
  } else if (typeof value === 'string') {
    text = value.trim().replace(/,/g, '');
  } else {
    return undefined;
  }
  const m = DECIMAL.exec(text);
  if (!m) return undefined;
  const sign = m[1] === '-' ? -1 : 1;
  const whole = m[2] ?? '0';
  const frac = (m[3] ?? '').padEnd(3, '0');
  let cents = Number(whole) * 100 + Number(frac.slice(0, 2));
  if (Number(frac[2]) >= 5) cents += 1;
  if (!Number.isSafeInteger(cents)) return undefined;
  return sign * cents === 0 ? 0 : sign * cents;
}

/**
 * Reads an amount typed by a user (an item value, an insurance amount): at most two decimals.
 * @returns cents, or a reason string when the value is not an amount with at most 2 decimals.
 */
export function parseAmountInput(value: unknown): { cents: Cents } | { problem: string } {
  const text = typeof value === 'number' ? numberToDecimalText(value) : typeof value === 'string' ? value.trim() : undefined;
  if (text === undefined) return { problem: 'expected a decimal amount' };
  const m = DECIMAL.exec(text);
  if (!m) return { problem: `expected a decimal amount (got "${text}")` };
  if ((m[3] ?? '').replace(/0+$/, '').length > 2) return { problem: `at most 2 decimal places in AUD (got ${text})` };
  const cents = readCents(text);
  if (cents === undefined) return { problem: `amount out of range (got ${text})` };
  return { cents };
}

/** Formats cents as a plain decimal string with two decimals, e.g. `1234` → `"12.34"`, the wire form. */
export function formatCents(cents: Cents): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Formats cents for people: thousands separators and two decimals, e.g. `123456` → `"1,234.56"`. */
export function displayCents(cents: Cents): string {
  const [whole, frac] = formatCents(cents).split('.');
  return `${(whole ?? '0').replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${frac}`;
}

/**
 * An amount in AUD as shipbook words it, the one place that writes the currency (after the
 * amount): cents as two decimals (`aud(123456)` → `"1234.56 AUD"`; with `grouped`, thousands
 * separated for people: `"1,234.56 AUD"`), {@link Money} as its `toString` (grouped), and a
 * string as it is already written (a total a record or a report keeps as text: `"12.30"` →
 * `"12.30 AUD"`).
 */
export function aud(amount: Cents | Money | string, options: { grouped?: boolean } = {}): string {
  const text =
    typeof amount === 'string'
      ? amount
      : typeof amount === 'number'
        ? options.grouped === true
          ? displayCents(amount)
          : formatCents(amount)
        : amount.toString();
  return `${text} AUD`;
}

/** `cents × rate` for a rate given in basis points (1 % = 100 bp), rounded half up. Integer math only. */
export function percentOf(cents: Cents, basisPoints: number): Cents {
  const product = cents * basisPoints;
  const sign = product < 0 ? -1 : 1;
  return sign * Math.floor((Math.abs(product) + 5000) / 10000);
}

/**
 * An exact AUD amount read from the service or computed by the rate engine. Serialises to JSON as
 * a two-decimal string (`"12.30"`), so `--json` output never carries a binary float.
 */
export class Money {
  /** @param cents integer AUD cents */
  constructor(readonly cents: Cents) {
    if (!Number.isSafeInteger(cents)) throw new RangeError(`Money needs integer cents (got ${cents})`);
  }
  /** Two-decimal wire form, e.g. `"12.30"`. */
  toJSON(): string {
    return formatCents(this.cents);
  }
  /** Two-decimal form with thousands separators, for people. */
  toString(): string {
    return displayCents(this.cents);
  }
  /**
   * The amount as a JSON number with at most two decimals, for request bodies that want numbers.
   * `cents / 100` is the double nearest to the exact amount (IEEE division rounds correctly), which
   * is the number the two-decimal string parses to: the same value, without the string.
   */
  toNumber(): number {
    return this.cents / 100;
  }
}
