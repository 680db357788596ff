// The public holidays of pickup days, worked out when shipbook is built instead of at each start.
//
// date-holidays finds a year's holidays by parsing its rules ("easter -2", "1st monday in June",
// "if saturday then next monday") over its data and placing each day in the state's time zone: at
// the start of `validate` or `quote`, loading the package and answering the first question took
// about as long as everything else those commands do (compiling 220 kB, unpacking its zone data,
// running the rules). The answers do not depend on the machine, its zone or the day shipbook runs,
// so scripts/build.mjs asks the package itself, once, for every state and the years around the
// build, and writes them as a table in the file the program loads for 'date-holidays'
// (dist/vendor/date-holidays.cjs). That file answers `new Holidays('AU'[, state])
// .getHolidays(year[, 'en'])` from the table, with objects equal to the package's (the same keys,
// in the same order; `start` and `end` as Dates); any other question, or any call that changes an
// instance (setRule, setTimezone …), is answered by the package itself, loaded then from the file
// beside it (dist/vendor/date-holidays-rules.cjs), so nothing it could answer is lost.
import { createRequire } from 'node:module';
import { isDeepStrictEqual } from 'node:util';

/** The states and territories of Australia, as date-holidays names them. */
const STATES = ['ACT', 'NSW', 'NT', 'QLD', 'SA', 'TAS', 'VIC', 'WA'];

/**
 * The years the table holds, from the build's year (SOURCE_DATE_EPOCH, for a reproducible build,
 * else the clock): the year before (a pickup date in the past is reported as such) to six years
 * after, which a package in use outlives rarely. Other years are asked of the package.
 */
function tableYears(env = process.env) {
  const epoch = Number(env.SOURCE_DATE_EPOCH);
  const year = (Number.isFinite(epoch) && env.SOURCE_DATE_EPOCH !== '' ? new Date(epoch * 1000) : new Date()).getUTCFullYear();
  return [year - 1, year + 6];
}

/**
 * The text of the front file, from the package as built in `rulesFile` (so the table comes from the
 * very code that ships beside it): pure ASCII, CommonJS.
 * @param {string} rulesFile the path of the built date-holidays file (its module.exports: the class)
 * @param {string} rulesName how the front file requires it, relative to itself (`./date-holidays-rules.cjs`)
 * @throws when the package answers a year without the language differently than with 'en' (the
 *   table stands for both), or gives a value the table cannot hold
 */
export function holidayFrontFile(rulesFile, rulesName, env = process.env) {
  const Holidays = createRequire(import.meta.url)(rulesFile);
  const [first, last] = tableYears(env);
  const strings = [];
  const stringIndex = new Map();
  const intern = (s) => {
    if (!stringIndex.has(s)) stringIndex.set(s, strings.push(s) - 1);
    return stringIndex.get(s);
  };
  const shapes = [];
  const shapeIndex = new Map();
  // Each holiday as [shape, ...values]: the shape is its list of keys, in order; a string is its
  // index in `strings`, a Date its time in ms, written as a difference from the holiday before.
  const regions = {};
  for (const region of ['AU', ...STATES]) {
    const years = [];
    for (let year = first; year <= last; year++) {
      const make = () => (region === 'AU' ? new Holidays('AU') : new Holidays('AU', region));
      const days = make().getHolidays(year, 'en');
      if (!isDeepStrictEqual(days, make().getHolidays(year))) throw new Error(`date-holidays: ${region} ${year} differs without the language`);
      let before = Date.UTC(year, 0, 1);
      years.push(
        days.map((day) => {
          const keys = Object.keys(day);
          const shapeKey = keys.join(',');
          if (!shapeIndex.has(shapeKey)) shapeIndex.set(shapeKey, shapes.push(keys) - 1);
          return [
            shapeIndex.get(shapeKey),
            ...keys.map((k) => {
              const v = day[k];
              if (v instanceof Date) {
                const d = v.getTime() - before;
                before = v.getTime();
                return { d };
              }
              if (typeof v === 'string') return intern(v);
              if (v === true) return -1;
              throw new Error(`date-holidays: ${region} ${year} ${k}: a value the table cannot hold (${typeof v})`);
            }),
          ];
        }),
      );
    }
    regions[region] = years;
  }
  // Dates as {d} in the walk above, written as strings "d" below: a number is a string's index.
  const data = JSON.stringify(regions, (_k, v) => (v !== null && typeof v === 'object' && 'd' in v && Object.keys(v).length === 1 ? `${v.d}` : v));
  const methods = Object.getOwnPropertyNames(Object.getPrototypeOf(Holidays.prototype))
    .concat(Object.getOwnPropertyNames(Holidays.prototype))
    .filter((m, i, all) => m !== 'constructor' && m !== 'getHolidays' && all.indexOf(m) === i && /^[A-Za-z_$][\w$]*$/.test(m));
  const text = `'use strict';
// Made by scripts/build.mjs (scripts/holiday-table.mjs): date-holidays' answers for Australia and
// its states in ${first}-${last}, and the package itself (${rulesName}) for everything else.
const FIRST = ${first};
const LAST = ${last};
const STRINGS = ${JSON.stringify(strings)};
const SHAPES = ${JSON.stringify(shapes)};
const REGIONS = JSON.parse(${JSON.stringify(data)});
let Rules;
// A single executable (scripts/release/sea-main.cjs) has its vendored files as assets, each required
// by its path from the program; installed, this file requires its neighbour.
const rules = () => (Rules ??= require(require('node:sea').isSea() ? ${JSON.stringify(`./vendor/${rulesName.slice(2)}`)} : ${JSON.stringify(rulesName)}));
function holidaysOf(region, year) {
  let before = Date.UTC(year, 0, 1);
  return REGIONS[region][year - FIRST].map((row) => {
    const day = {};
    const keys = SHAPES[row[0]];
    for (let i = 0; i < keys.length; i++) {
      const v = row[i + 1];
      if (typeof v === 'string') {
        before += Number(v);
        day[keys[i]] = new Date(before);
      } else day[keys[i]] = v === -1 ? true : STRINGS[v];
    }
    return day;
  });
}
class Holidays {
  constructor(...args) {
    this.args = args;
    const [country, state] = args;
    this.region = args.length <= 2 && country === 'AU' ? (state === undefined ? 'AU' : Object.hasOwn(REGIONS, state) && state !== 'AU' ? state : undefined) : undefined;
    this.rules = undefined;
  }
  real() {
    this.region = undefined;
    return (this.rules ??= new (rules())(...this.args));
  }
  getHolidays(year, lang) {
    if (this.region !== undefined && Number.isInteger(year) && year >= FIRST && year <= LAST && (lang === undefined || lang === 'en')) return holidaysOf(this.region, year);
    return this.real().getHolidays(year, lang);
  }
}
for (const m of ${JSON.stringify(methods)}) Holidays.prototype[m] = function (...a) { return this.real()[m](...a); };
Holidays.FIRST_YEAR = FIRST;
Holidays.LAST_YEAR = LAST;
module.exports = Holidays;
`;
  if (/[^\x00-\x7f]/.test(text)) throw new Error('date-holidays table: not pure ASCII');
  return text;
}
