/**
 * The public holidays the built program reads (dist/vendor/date-holidays.cjs: a table made by
 * scripts/holiday-table.mjs when shipbook is built) are date-holidays' own answers: for Australia
 * and every state, every year the table holds, the same holidays with the same keys in the same
 * order, and any other question answered by the package itself (dist/vendor/date-holidays-rules.cjs).
 * Run on dist/ (`npm run build` first, as `npm run test:unit` does).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { runInThisContext } from 'node:vm';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const vendor = join(import.meta.dirname, '..', '..', 'dist', 'vendor');

interface HolidayLike {
  date: string;
  start: Date;
  end: Date;
  name: string;
  type: string;
}
interface HolidaysLike {
  getHolidays(year?: number, lang?: string): HolidayLike[];
  isHoliday(date: Date): false | HolidayLike[];
  setTimezone(zone: string): void;
}
type HolidaysClass = (new (country: string, state?: string) => HolidaysLike) & { FIRST_YEAR?: number; LAST_YEAR?: number };

const Table = require(join(vendor, 'date-holidays.cjs')) as HolidaysClass;
const Rules = require(join(vendor, 'date-holidays-rules.cjs')) as HolidaysClass;
const STATES = [undefined, 'ACT', 'NSW', 'NT', 'QLD', 'SA', 'TAS', 'VIC', 'WA'];
const make = (C: HolidaysClass, state: string | undefined) => (state === undefined ? new C('AU') : new C('AU', state));

describe('the holidays table of the built program', () => {
  it('holds the years around the build: the year before to six after', () => {
    const year = new Date().getUTCFullYear();
    expect(Table.FIRST_YEAR).toBeLessThanOrEqual(year);
    expect(Table.LAST_YEAR! - Table.FIRST_YEAR!).toBe(7);
  });

  it("answers each state's and the country's years as date-holidays does: the same objects, keys in the same order", () => {
    let compared = 0;
    for (const state of STATES) {
      for (let year = Table.FIRST_YEAR! - 2; year <= Table.LAST_YEAR! + 2; year++) {
        for (const lang of ['en', undefined]) {
          const ours = make(Table, state).getHolidays(year, lang);
          const theirs = make(Rules, state).getHolidays(year, lang);
          expect(ours, `${state ?? 'AU'} ${year}`).toEqual(theirs);
          expect(JSON.stringify(ours)).toBe(JSON.stringify(theirs));
          expect(ours.every((h) => h.start instanceof Date && h.end instanceof Date)).toBe(true);
          compared += ours.length;
        }
      }
    }
    // Every public holiday of every state over twelve years, in two spellings: well over a thousand.
    expect(compared).toBeGreaterThan(2000);
  });

  it('a fresh list at each call: a caller that edits one does not change the next', () => {
    const first = new Table('AU', 'VIC').getHolidays(Table.FIRST_YEAR!, 'en');
    first[0]!.name = 'edited';
    first.pop();
    expect(new Table('AU', 'VIC').getHolidays(Table.FIRST_YEAR!, 'en')).toEqual(new Rules('AU', 'VIC').getHolidays(Table.FIRST_YEAR!, 'en'));
  });

  it('other questions go to date-holidays itself: isHoliday, another country, a changed instance', () => {
    const at = new Date('2026-01-26T03:00:00Z');
    expect(new Table('AU', 'NSW').isHoliday(at)).toEqual(new Rules('AU', 'NSW').isHoliday(at));
    expect(new Table('NZ').getHolidays(2026)).toEqual(new Rules('NZ').getHolidays(2026));
    expect(new Table('AU', 'nsw').getHolidays(2026, 'en')).toEqual(new Rules('AU', 'nsw').getHolidays(2026, 'en'));
    const ours = new Table('AU', 'WA');
    const theirs = new Rules('AU', 'WA');
    ours.setTimezone('Australia/Sydney');
    theirs.setTimezone('Australia/Sydney');
    expect(ours.getHolidays(2026, 'en')).toEqual(theirs.getHolidays(2026, 'en'));
    expect(ours.getHolidays(2026, 'en')).not.toEqual(new Rules('AU', 'WA').getHolidays(2026, 'en'));
  });

  it("in a single executable, a question the table does not hold finds the package among the executable's assets", () => {
    // The executable's require (scripts/release/sea-main.cjs) knows the vendored files by their
    // path from the program, `./vendor/<name>.cjs`, and node:sea says it is one.
    const asked: string[] = [];
    const assetRequire = (id: string): unknown => {
      asked.push(id);
      if (id === 'node:sea') return { isSea: () => true };
      if (id === './vendor/date-holidays-rules.cjs') return Rules;
      throw new Error(`not an asset: ${id}`);
    };
    const file = join(vendor, 'date-holidays.cjs');
    const module = { exports: {} as unknown };
    const wrapped = runInThisContext(`(function (exports, require, module, __filename, __dirname) {${readFileSync(file, 'utf8')}\n})`) as (
      ...a: unknown[]
    ) => void;
    wrapped(module.exports, assetRequire, module, file, vendor);
    const InExecutable = module.exports as HolidaysClass;
    expect(new InExecutable('AU', 'SA').getHolidays(Table.LAST_YEAR! + 1, 'en')).toEqual(new Rules('AU', 'SA').getHolidays(Table.LAST_YEAR! + 1, 'en'));
    expect(asked).toEqual(['node:sea', './vendor/date-holidays-rules.cjs']);
  });
});
