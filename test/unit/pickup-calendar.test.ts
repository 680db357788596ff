/**
 * The collection-day rule over two years (2026 and 2027), with fixed "now" moments and every state:
 * weekends, national and state public holidays (Melbourne Cup, the King's Birthday, Christmas and
 * Boxing Day on a weekend with their substitute days), the cut-off read in the collection
 * address's zone, and a sender's own closed days.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  addDays,
  checkPickupWindow,
  loadCollectionCalendar,
  localNow,
  resolvePickupDate,
  statesOf,
  weekdayOf,
  zoneOf,
  type AuState,
  type CollectionCalendar,
} from '../../src/booking/pickup/calendar.js';

let calendar: CollectionCalendar;
beforeAll(async () => {
  calendar = await loadCollectionCalendar();
});

const CAPITALS: Record<AuState, string> = { ACT: '2600', NSW: '2000', NT: '0800', QLD: '4000', SA: '5000', TAS: '7000', VIC: '3000', WA: '6000' };
const ALL = Object.keys(CAPITALS) as AuState[];

/** A moment given as a local time in a state's capital: `at('VIC', '2026-11-02', '15:30')`. */
function at(state: AuState, date: string, time: string): Date {
  // Search the UTC moment whose local reading is the one asked for (zones are whole quarter hours).
  const zone = zoneOf([state]);
  const guess = new Date(`${date}T${time}:00Z`);
  for (let minutes = -14 * 60; minutes <= 14 * 60; minutes += 15) {
    const t = new Date(guess.getTime() - minutes * 60_000);
    const l = localNow(t, zone);
    if (l.date === date && l.time === time) return t;
  }
  throw new Error(`no moment reads ${date} ${time} in ${zone}`);
}

describe('the state of a collection address', () => {
  it('comes from the postcode, one state per capital', () => {
    for (const state of ALL) expect(statesOf({ country: 'AU', postcode: CAPITALS[state] })).toEqual([state]);
  });
  it('is none outside Australia or for a postcode that does not exist', () => {
    expect(statesOf({ country: 'NZ', postcode: '6011' })).toEqual([]);
    expect(statesOf({ country: 'AU', postcode: '0001' })).toEqual([]);
  });
  it('follows the locality on a border postcode', () => {
    const both = statesOf({ country: 'AU', postcode: '2620' });
    expect(both.length).toBeGreaterThanOrEqual(1);
  });
});

describe('the next collection day', () => {
  it('is today before the cut-off on a working day, and the next working day after it', () => {
    expect(calendar.nextCollectionDay(at('NSW', '2026-11-25', '13:59'), ['NSW'])).toBe('2026-11-25');
    expect(calendar.nextCollectionDay(at('NSW', '2026-11-25', '14:00'), ['NSW'])).toBe('2026-11-26');
    expect(calendar.nextCollectionDay(at('NSW', '2026-11-25', '11:00'), ['NSW'], { cutoff: '10:30' })).toBe('2026-11-26');
  });

  it('is Monday after a Friday past the cut-off, in every state (a week with no holiday)', () => {
    for (const state of ALL) expect(calendar.nextCollectionDay(at(state, '2026-11-27', '16:00'), [state]), state).toBe('2026-11-30');
  });

  it("is Tuesday when Monday is a holiday of that state only (Labour Day in NSW, ACT and SA, 2026-10-05; the King's Birthday in QLD)", () => {
    for (const state of ALL) {
      const expected = ['NSW', 'ACT', 'SA', 'QLD'].includes(state) ? '2026-10-06' : '2026-10-05';
      expect(calendar.nextCollectionDay(at(state, '2026-10-02', '15:00'), [state]), state).toBe(expected);
    }
  });

  it('skips Melbourne Cup day in Victoria only', () => {
    const monday = '2026-11-02';
    expect(calendar.nextCollectionDay(at('VIC', monday, '15:00'), ['VIC'])).toBe('2026-11-04');
    expect(calendar.nextCollectionDay(at('NSW', monday, '15:00'), ['NSW'])).toBe('2026-11-03');
    expect(calendar.closedReason('2027-11-02', ['VIC'])).toEqual({ kind: 'holiday', name: 'Melbourne Cup', state: 'VIC' });
    expect(calendar.closedReason('2027-11-02', ['NSW'])).toBeUndefined();
  });

  it("knows the King's Birthday differs in WA and QLD", () => {
    const kings = (state: AuState, year: number) => {
      for (let d = `${year}-01-01`; d < `${year + 1}-01-01`; d = addDays(d, 1)) if (calendar.holidayOn(d, [state])?.name === "King's Birthday") return d;
      return undefined;
    };
    expect(kings('VIC', 2026)).toBe('2026-06-08');
    expect(kings('NSW', 2026)).toBe('2026-06-08');
    expect(kings('WA', 2026)).toBe('2026-09-28');
    expect(kings('QLD', 2026)).toBe('2026-10-05');
    expect(kings('WA', 2027)).toBe('2027-09-27');
    expect(kings('QLD', 2027)).toBe('2027-10-04');
    expect(calendar.closedReason('2026-06-08', ['WA'])).toBeUndefined();
  });

  it('moves Christmas and Boxing Day on a weekend to their substitute days (2027: Saturday and Sunday)', () => {
    expect(weekdayOf('2027-12-25')).toBe('Saturday');
    for (const state of ALL) {
      expect(calendar.closedReason('2027-12-27', [state]), state).toMatchObject({ kind: 'holiday' });
      expect(calendar.closedReason('2027-12-28', [state]), state).toMatchObject({ kind: 'holiday' });
      expect(calendar.nextCollectionDay(at(state, '2027-12-24', '15:00'), [state]), state).toBe('2027-12-29');
    }
    // 2026: Christmas on a Friday, Boxing Day on a Saturday, its substitute on Monday the 28th.
    expect(calendar.nextCollectionDay(at('NSW', '2026-12-24', '15:00'), ['NSW'])).toBe('2026-12-29');
  });

  it('treats an evening holiday (Christmas Eve from 6 pm in Queensland) as a collection day', () => {
    expect(calendar.closedReason('2026-12-24', ['QLD'])).toBeUndefined();
    expect(calendar.closedReason('2026-12-24', ['SA'])).toBeUndefined();
  });

  it("keeps a sender's closed days", () => {
    expect(calendar.nextCollectionDay(at('NSW', '2026-11-27', '16:00'), ['NSW'], { closed: ['2026-11-30'] })).toBe('2026-12-01');
  });

  it('reads today and the cut-off in the collection address zone, whatever the machine zone', () => {
    // 13:30 in Perth is 16:30 in Sydney (no daylight saving in WA): before Perth's cut-off.
    const moment = at('WA', '2026-11-25', '13:30');
    expect(calendar.nextCollectionDay(moment, ['WA'])).toBe('2026-11-25');
    expect(calendar.nextCollectionDay(moment, ['NSW'])).toBe('2026-11-26');
    expect(localNow(moment, zoneOf(['NSW'])).zoneName).toBe('AEDT');
  });

  it('lists five days for a person to choose, every day in two years a weekday and no holiday', () => {
    const five = calendar.collectionDays(at('VIC', '2026-10-30', '15:00'), ['VIC'], {}, 5);
    expect(five).toEqual(['2026-11-02', '2026-11-04', '2026-11-05', '2026-11-06', '2026-11-09']);
    for (const state of ALL) {
      const days = calendar.collectionDays(at(state, '2026-01-01', '08:00'), [state], {}, 520);
      expect(days.at(-1)! > '2027-12-31', state).toBe(true);
      for (const d of days) {
        expect(['Saturday', 'Sunday']).not.toContain(weekdayOf(d));
        expect(calendar.holidayOn(d, [state]), `${state} ${d}`).toBeUndefined();
      }
      // 261 weekdays in each of 2026 and 2027, and every state has at least 8 full-day public holidays on weekdays a year.
      const inTwoYears = days.filter((d) => d < '2028-01-01').length;
      expect(inTwoYears, state).toBeLessThanOrEqual(2 * 261 - 16);
    }
  });
});

describe('a pickup date checked before sending', () => {
  const now = at('NSW', '2026-11-27', '15:00');
  it('is refused in the past, on a weekend, on a holiday, today after the cut-off, with the next day named', () => {
    expect(calendar.checkPickupDate('2026-11-20', now, ['NSW'])).toEqual({ kind: 'past', date: '2026-11-20', today: '2026-11-27', next: '2026-11-30' });
    expect(calendar.checkPickupDate('2026-11-28', now, ['NSW'])).toMatchObject({
      kind: 'not-a-collection-day',
      reason: { kind: 'weekend', weekday: 'Saturday' },
    });
    expect(calendar.checkPickupDate('2026-12-25', now, ['NSW'])).toMatchObject({
      kind: 'not-a-collection-day',
      reason: { kind: 'holiday', name: 'Christmas Day' },
    });
    expect(calendar.checkPickupDate('2026-11-27', now, ['NSW'])).toMatchObject({ kind: 'after-cutoff', cutoff: '14:00', next: '2026-11-30' });
    expect(calendar.checkPickupDate('2026-11-31', now, ['NSW'])).toMatchObject({ kind: 'invalid' });
    expect(calendar.checkPickupDate('2026-11-30', now, ['NSW'])).toBeUndefined();
  });

  it('takes next, today and tomorrow as words', () => {
    expect(resolvePickupDate('next', calendar, now, ['NSW'])).toBe('2026-11-30');
    expect(resolvePickupDate('today', calendar, now, ['NSW'])).toBe('2026-11-27');
    expect(resolvePickupDate('Tomorrow', calendar, now, ['NSW'])).toBe('2026-11-28');
    expect(resolvePickupDate('2026-12-01', calendar, now, ['NSW'])).toBe('2026-12-01');
    expect(resolvePickupDate('soon', calendar, now, ['NSW'])).toBeUndefined();
  });

  it('checks the window: the latest time after the earliest, at least two hours apart by default', () => {
    expect(checkPickupWindow('09:00', '15:00')).toBeUndefined();
    expect(checkPickupWindow('15:00', '09:00')).toEqual({ kind: 'not-after' });
    expect(checkPickupWindow('09:00', '10:00')).toEqual({ kind: 'too-short', minutes: 60, minimum: 120 });
    expect(checkPickupWindow('09:00', '10:00', 60)).toBeUndefined();
    expect(checkPickupWindow('22:00', '24:00')).toBeUndefined();
    expect(checkPickupWindow('9am', '10:00')).toEqual({ kind: 'unreadable' });
  });
});
