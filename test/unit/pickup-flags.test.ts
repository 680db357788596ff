/** The day words of the flags: `handover --date` and `--pickup-date`, refused before anything runs when they name no day. */
import { describe, expect, it } from 'vitest';
import { sheetDay } from '../../src/commands/handover/index.js';
import { checkPickupFlags } from '../../src/booking/pickup/rule.js';

describe('handover --date', () => {
  const friday = new Date(2026, 10, 27, 10, 0);
  it('takes today, tomorrow and yesterday in the local calendar, and a date', () => {
    expect(sheetDay(undefined, friday)).toBe('2026-11-27');
    expect(sheetDay('today', friday)).toBe('2026-11-27');
    expect(sheetDay('Yesterday', friday)).toBe('2026-11-26');
    expect(sheetDay('tomorrow', friday)).toBe('2026-11-28');
    expect(sheetDay('tomorrow', new Date(2026, 11, 31, 23, 30))).toBe('2027-01-01');
    expect(sheetDay('2026-11-20', friday)).toBe('2026-11-20');
  });
  it('refuses anything else, naming the words it takes', () => {
    expect(() => sheetDay('2026-11-31', friday)).toThrow('--date "2026-11-31" is not a day');
    expect(() => sheetDay('monday', friday)).toThrow('--date "monday" is not a day');
  });
});

describe('--pickup-date', () => {
  it('takes next, today, tomorrow and a date, and refuses the rest before anything is read', () => {
    for (const pickupDate of ['next', 'Today', 'tomorrow', '2026-12-01']) expect(() => checkPickupFlags({ pickupDate })).not.toThrow();
    expect(() => checkPickupFlags({ pickupDate: 'soon' })).toThrow('--pickup-date "soon" is not a day: give next, today, tomorrow or a date YYYY-MM-DD');
    expect(() => checkPickupFlags({ pickupDate: '2026-02-30' })).toThrow('is not a day');
    expect(() => checkPickupFlags({ rollPickupDates: true, allowPickupDate: true })).toThrow('--roll-pickup-dates and --allow-pickup-date');
  });
});
