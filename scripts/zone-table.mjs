// Writes src/booking/pickup/zone-table.ts: the UTC offset and abbreviation of each Australian
// state capital's time zone, period by period, as Intl (the ICU time zone data of the Node.js that
// runs this script) gives them. `localNow` in src/booking/pickup/calendar.ts reads a collection
// address's local day and time from the table: the first Intl.DateTimeFormat of a process loads
// ICU's locale and zone data, which took about a fifth of the start of `shipbook validate`. A
// moment outside the table's years, or another zone, is still asked of Intl.
// test/unit/zone-table.test.ts compares the table with Intl, so a Node.js whose zone data moved
// (a state that changes its daylight saving) fails it, and this script brings the table up to date:
//   node scripts/zone-table.mjs
import { writeFileSync } from 'node:fs';
import { format as prettier, resolveConfig } from 'prettier';
import { fileURLToPath } from 'node:url';

/** The zones of shipbook's collection calendar (each state's capital). */
const ZONES = [
  'Australia/Adelaide',
  'Australia/Brisbane',
  'Australia/Darwin',
  'Australia/Hobart',
  'Australia/Melbourne',
  'Australia/Perth',
  'Australia/Sydney',
];
/** The years the table holds: a release outlives its last year rarely, and Intl answers after it. */
const FIRST_YEAR = 2024;
const LAST_YEAR = 2040;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The offset (minutes east of UTC) and abbreviation of `zone` at `t` (ms), by Intl. */
function at(format, t) {
  const parts = format.formatToParts(new Date(t));
  const n = (type) => Number(parts.find((p) => p.type === type).value);
  const local = Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'));
  return { offset: Math.round((local - Math.floor(t / MINUTE) * MINUTE) / MINUTE), name: parts.find((p) => p.type === 'timeZoneName').value };
}

const same = (a, b) => a.offset === b.offset && a.name === b.name;

/** The periods of `zone` from the first year to the last: [start (ms UTC), offset (minutes), abbreviation]. */
function periodsOf(zone) {
  // The options of localNow's own formatter (LOCAL_NOW_FORMAT in src/booking/pickup/calendar.ts),
  // so the table reads as localNow read before it.
  const format = new Intl.DateTimeFormat('en-AU', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  });
  const start = Date.UTC(FIRST_YEAR, 0, 1);
  const end = Date.UTC(LAST_YEAR + 1, 0, 1);
  let current = at(format, start);
  const periods = [[start, current.offset, current.name]];
  for (let t = start + HOUR; t < end; t += HOUR) {
    const next = at(format, t);
    if (same(next, current)) continue;
    // The change lies within the hour before t: find its minute.
    let lo = t - HOUR;
    let hi = t;
    while (hi - lo > MINUTE) {
      const mid = lo + Math.floor((hi - lo) / 2 / MINUTE) * MINUTE;
      if (same(at(format, mid), current)) lo = mid;
      else hi = mid;
    }
    periods.push([hi, next.offset, next.name]);
    current = next;
  }
  return periods;
}

// Zones whose periods are the same (Sydney, Melbourne and Hobart keep the same daylight saving)
// share one list, written once.
const lists = new Map();
const zoneList = new Map();
for (const zone of ZONES) {
  const periods = periodsOf(zone);
  const key = JSON.stringify(periods.map(([start, offset, name]) => [start, offset, name]));
  if (!lists.has(key)) lists.set(key, { name: `PERIODS_${lists.size + 1}`, periods, zones: [] });
  lists.get(key).zones.push(zone);
  zoneList.set(zone, lists.get(key).name);
}
const lines = ['// Written by scripts/zone-table.mjs from Intl (ICU time zone data); run it again rather than editing this file.', ''];
for (const { name, periods, zones } of lists.values()) {
  lines.push(`/** The periods of ${zones.join(', ')}. */`);
  lines.push(`const ${name}: ReadonlyArray<readonly [number, number, string]> = [`);
  for (const [start, offset, abbreviation] of periods) lines.push(`  [${start}, ${offset}, '${abbreviation}'], // ${new Date(start).toISOString()}`);
  lines.push('];', '');
}
lines.push(
  '/**',
  " * The UTC offset and abbreviation of each Australian state capital's time zone, period by period:",
  ' * `[start, offset, abbreviation]`, the start in ms since the epoch (UTC), the offset in minutes east of',
  ' * UTC; each period lasts until the next one starts, the last until {@link ZONE_TABLE_END}.',
  ' */',
  'export const ZONE_TABLE: Readonly<Record<string, ReadonlyArray<readonly [number, number, string]>>> = {',
);
for (const zone of ZONES) lines.push(`  '${zone}': ${zoneList.get(zone)},`);
lines.push('};', '');
lines.push(`/** Where the table ends (ms since the epoch, UTC): the start of ${LAST_YEAR + 1}. */`);
lines.push(`export const ZONE_TABLE_END = ${Date.UTC(LAST_YEAR + 1, 0, 1)};`, '');
const target = fileURLToPath(new URL('../src/booking/pickup/zone-table.ts', import.meta.url));
writeFileSync(target, await prettier(lines.join('\n'), { ...(await resolveConfig(target)), filepath: target }));
