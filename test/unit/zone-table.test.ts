import { describe, expect, it } from 'vitest';
import { LOCAL_NOW_FORMAT, addDays, localNow, weekdayOf } from '../../src/booking/pickup/calendar.js';
import { dayWords } from '../../src/booking/pickup/rule.js';
import { ZONE_TABLE, ZONE_TABLE_END } from '../../src/booking/pickup/zone-table.js';

/** Intl's reading of `t` in `zone`, as localNow gives it: the reference the table was made from. */
const formats = new Map<string, Intl.DateTimeFormat>();
function byIntl(t: number, zone: string) {
  let format = formats.get(zone);
  format ??= new Intl.DateTimeFormat('en-AU', { ...LOCAL_NOW_FORMAT, timeZone: zone });
  formats.set(zone, format);
  const parts = format.formatToParts(new Date(t));
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return { date: `${part('year')}-${part('month')}-${part('day')}`, time: `${part('hour')}:${part('minute')}`, zone, zoneName: part('timeZoneName') };
}

const MINUTE = 60_000;

describe('the time zone table of the collection calendar', () => {
  // A failure here means this Node.js's zone data differs from the table's: a state changed its
  // daylight saving. `node scripts/zone-table.mjs` writes the table again from it.
  it('reads every zone as Intl does, at each change of offset and every 7 hours from 2024 to 2040', () => {
    let compared = 0;
    const differences: string[] = [];
    for (const [zone, periods] of Object.entries(ZONE_TABLE)) {
      const moments = new Set<number>();
      for (const [start] of periods) for (const d of [-MINUTE, -1, 0, 1, MINUTE, 59 * MINUTE]) moments.add(start + d);
      for (let t = periods[0]![0]; t < ZONE_TABLE_END; t += 7 * 60 * MINUTE + 13 * MINUTE) moments.add(t);
      moments.add(ZONE_TABLE_END - 1);
      for (const t of moments) {
        if (t < periods[0]![0]) continue;
        const table = JSON.stringify(localNow(new Date(t), zone));
        const intl = JSON.stringify(byIntl(t, zone));
        if (table !== intl) differences.push(`${zone} at ${new Date(t).toISOString()}: table ${table}, Intl ${intl}`);
        compared++;
      }
    }
    expect(differences.slice(0, 10)).toEqual([]);
    expect(compared).toBeGreaterThan(7 * 20_000);
  });

  it('has the daylight saving changes of the zones that keep it, and none for those that do not', () => {
    expect(ZONE_TABLE['Australia/Sydney']!.length).toBe(1 + 2 * 17);
    expect(ZONE_TABLE['Australia/Adelaide']!.map(([, offset]) => offset)).toContain(630);
    for (const zone of ['Australia/Brisbane', 'Australia/Darwin', 'Australia/Perth']) expect(ZONE_TABLE[zone]).toHaveLength(1);
  });

  it('asks Intl outside the table: another zone, a moment before or after it', () => {
    const lordHowe = Date.UTC(2026, 0, 15, 3, 0);
    expect(localNow(new Date(lordHowe), 'Australia/Lord_Howe')).toEqual(byIntl(lordHowe, 'Australia/Lord_Howe'));
    for (const t of [Date.UTC(2019, 11, 31, 20), Date.UTC(2041, 6, 1, 12), ZONE_TABLE_END]) {
      expect(localNow(new Date(t), 'Australia/Sydney')).toEqual(byIntl(t, 'Australia/Sydney'));
    }
  });
});

describe('day words', () => {
  it('names every day from 2024 to 2040 as en-AU does', () => {
    const words = new Intl.DateTimeFormat('en-AU', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' });
    const weekday = new Intl.DateTimeFormat('en-AU', { weekday: 'long', timeZone: 'UTC' });
    const differences: string[] = [];
    let days = 0;
    for (let date = '2024-01-01'; date < '2041-01-01'; date = addDays(date, 1)) {
      const utc = new Date(`${date}T00:00:00Z`);
      if (weekdayOf(date) !== weekday.format(utc)) differences.push(`${date}: ${weekdayOf(date)}`);
      if (dayWords(date) !== words.format(utc)) differences.push(`${date}: ${dayWords(date)}`);
      days++;
    }
    expect(differences.slice(0, 10)).toEqual([]);
    expect(days).toBe(6210);
  });
});
