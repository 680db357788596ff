import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aud, displayCents, formatCents, Money, parseAmountInput, percentOf, readCents } from '../../src/schema/money.js';

describe('money is read exactly, never as a binary float', () => {
  it('reads numbers and decimal strings to the same cents', () => {
    expect(readCents(12.3)).toBe(1230);
    expect(readCents('12.30')).toBe(1230);
    expect(readCents(0.1 + 0.2)).toBe(30); // 0.30000000000000004 → 30 cents
    expect(readCents('1,234.56')).toBe(123456);
    expect(readCents(7500)).toBe(750000);
    expect(readCents('abc')).toBeUndefined();
    expect(readCents(Number.NaN)).toBeUndefined();
  });

  it('reads a number the same whether it takes the short way for plain amounts or its text', () => {
    // Plain amounts (integers, one or two decimals), negative ones and zero.
    expect(readCents(0)).toBe(0);
    expect(Object.is(readCents(-0), 0)).toBe(true);
    expect(readCents(12)).toBe(1200);
    expect(readCents(12.34)).toBe(1234);
    expect(readCents(-12.34)).toBe(-1234);
    expect(readCents(0.01)).toBe(1);
    expect(readCents(1099511627775.99)).toBe(109951162777599);
    // More decimals, or too large for the short way: read through the text, rounded on its digits.
    expect(readCents(1.005)).toBe(101);
    expect(readCents(2.675)).toBe(268);
    expect(readCents(0.005)).toBe(1);
    expect(readCents(-2.345)).toBe(-235);
    expect(readCents(1e-7)).toBe(0);
    expect(readCents(2 ** 40 + 0.25)).toBe(109951162777625);
    expect(readCents(1e21)).toBeUndefined();
    // Any number: the cents of its shortest decimal text, rounded half away from zero on the digits.
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e13, max: 1e13 }), (v) => {
        const text = String(v);
        if (/e/i.test(text)) return;
        const [whole = '0', frac = ''] = text.replace('-', '').split('.');
        const digits = frac.padEnd(3, '0');
        const cents = Number(whole) * 100 + Number(digits.slice(0, 2)) + (Number(digits[2]) >= 5 ? 1 : 0);
        expect(readCents(v)).toBe(v < 0 && cents !== 0 ? -cents : cents);
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: -1e13, max: 1e13 }), (c) => {
        expect(readCents(c / 100)).toBe(c === 0 ? 0 : c);
      }),
    );
  });

  it('rounds a third decimal half away from zero on the digits', () => {
    expect(readCents('2.345')).toBe(235);
    expect(readCents('2.344')).toBe(234);
    expect(readCents('-2.345')).toBe(-235);
  });

  it('accepts at most two decimals on input', () => {
    expect(parseAmountInput('7500.00')).toEqual({ cents: 750000 });
    expect(parseAmountInput(18.5)).toEqual({ cents: 1850 });
    expect(parseAmountInput('1.005')).toEqual({ problem: 'at most 2 decimal places in AUD (got 1.005)' });
    expect(parseAmountInput('12,00')).toHaveProperty('problem');
  });

  it('formats for the wire and for people', () => {
    expect(formatCents(5)).toBe('0.05');
    expect(formatCents(-1234)).toBe('-12.34');
    expect(displayCents(123456789)).toBe('1,234,567.89');
    expect(JSON.stringify({ total: new Money(3520) })).toBe('{"total":"35.20"}');
    expect(new Money(3520).toNumber()).toBe(35.2);
  });

  it('gives as a number exactly what its two-decimal string reads as, for any cents', () => {
    const sameNumber = (cents: number) => Object.is(new Money(cents).toNumber() + 0, Number(formatCents(cents)) + 0);
    fc.assert(fc.property(fc.maxSafeInteger(), sameNumber), { numRuns: 20_000 });
    fc.assert(fc.property(fc.integer({ min: -10_000_000, max: 10_000_000 }), sameNumber), { numRuns: 20_000 });
    for (const cents of [1, 7, 10, 29, 190, 2090, 123456789, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER]) expect(sameNumber(cents)).toBe(true);
  });

  it('takes percentages in integer maths, rounding half up', () => {
    expect(percentOf(12345, 1000)).toBe(1235); // 10 % of 123.45 = 12.345 → 12.35
    expect(percentOf(100, 150)).toBe(2); // 1.5 % of 1.00 = 0.015 → 0.02
  });
});

describe('aud: the one wording of an amount in AUD', () => {
  it('writes cents plain or grouped, Money grouped, and text as it is, each followed by " AUD"', () => {
    expect(aud(123456)).toBe('1234.56 AUD');
    expect(aud(-5)).toBe('-0.05 AUD');
    expect(aud(123456, { grouped: true })).toBe('1,234.56 AUD');
    expect(aud(new Money(750000))).toBe('7,500.00 AUD');
    expect(aud('12.30')).toBe('12.30 AUD');
  });
});
