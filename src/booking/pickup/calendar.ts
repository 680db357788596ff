/**
 * Collection days: which days a carrier collects from an Australian address, and the next one from
 * now. A collection day is a weekday that is not a public holiday of the whole country or of the
 * collection address's state (found from its postcode), nor a day the sender closes; today counts
 * only before the sender's cut-off. Days and times are those of the collection address's time zone,
 * whatever the zone of the machine running shipbook.
 *
 * The holidays come from the date-holidays package (its data for Australia and its states), loaded
 * on first use by {@link loadCollectionCalendar}; everything after that is synchronous.
 *
 * The interface's pickup object (`collection.pickup`: `date`, `time_earliest`, `time_latest`) is
 * where the days end up; the interface itself states no rule for them.
 */
import type HolidaysClass from 'date-holidays';
import { addressReference } from '../../address/load.js';
import { ZONE_TABLE, ZONE_TABLE_END } from './zone-table.js';

/** The states and territories of Australia, as the locality data and date-holidays name them. */
export type AuState = 'ACT' | 'NSW' | 'NT' | 'QLD' | 'SA' | 'TAS' | 'VIC' | 'WA';

const AU_STATES: readonly AuState[] = ['ACT', 'NSW', 'NT', 'QLD', 'SA', 'TAS', 'VIC', 'WA'];

/** The time zone of each state's capital: where "today" and the cut-off are read. */
const STATE_ZONES: Readonly<Record<AuState, string>> = {
  ACT: 'Australia/Sydney',
  NSW: 'Australia/Sydney',
  NT: 'Australia/Darwin',
  QLD: 'Australia/Brisbane',
  SA: 'Australia/Adelaide',
  TAS: 'Australia/Hobart',
  VIC: 'Australia/Melbourne',
  WA: 'Australia/Perth',
};

/** The zone used when the collection address's state is not known (a postcode the data lacks). */
const DEFAULT_ZONE = 'Australia/Sydney';

/** What a sender says of its own days: the cut-off for a pickup today, and days it is closed. */
export interface CollectionRules {
  /** `HH:MM`, local to the collection address: a pickup today is booked only before it. Default `14:00`. */
  cutoff?: string;
  /** Extra days the sender is closed, `YYYY-MM-DD` (a stocktake, the days between Christmas and New Year). */
  closed?: readonly string[];
}

/** The cut-off when none is set: the usual same-day booking deadline of Australian carriers. */
export const DEFAULT_CUTOFF = '14:00';

/** Where a pickup is collected: enough to find its state, its zone and its holidays. */
interface CollectionPlace {
  /** ISO 3166-1 alpha-2; only `AU` has states and holidays here. */
  country: string;
  postcode?: string;
  /** The locality, to choose the state of a postcode that lies on a state border. */
  city?: string;
}

/** Why a day is no collection day. */
export type ClosedReason = { kind: 'weekend'; weekday: 'Saturday' | 'Sunday' } | { kind: 'holiday'; name: string; state?: AuState } | { kind: 'closed' };

/** What is wrong with a pickup date, and the collection day to use instead. */
type PickupDateProblem =
  | { kind: 'invalid'; date: string; next: string }
  | { kind: 'past'; date: string; today: string; next: string }
  | { kind: 'after-cutoff'; date: string; cutoff: string; now: string; next: string }
  | { kind: 'not-a-collection-day'; date: string; reason: ClosedReason; next: string };

/** A local moment: `date` as `YYYY-MM-DD` and `time` as `HH:MM`, in `zone`. */
interface LocalNow {
  date: string;
  time: string;
  zone: string;
  /** The zone's abbreviation at that moment (`AEDT`), or its offset when it has none. */
  zoneName: string;
}

/** The state or states of a collection place (a border postcode may have two); none outside Australia or for an unknown postcode. */
export function statesOf(place: CollectionPlace): AuState[] {
  if (place.country.toUpperCase() !== 'AU' || place.postcode === undefined) return [];
  const entries = addressReference().auPostcode(place.postcode.trim());
  const known = entries.filter((e) => (AU_STATES as readonly string[]).includes(e.state));
  const city = place.city?.trim().toUpperCase();
  const named = city === undefined ? [] : known.filter((e) => e.names.includes(city));
  const chosen = named.length > 0 ? named : known;
  return [...new Set(chosen.map((e) => e.state as AuState))];
}

/** The time zone of a collection place: its state's, else Sydney's. */
export function zoneOf(states: readonly AuState[]): string {
  return states.length > 0 ? STATE_ZONES[states[0]!] : DEFAULT_ZONE;
}

/**
 * One formatter per zone, made when first asked for: building an Intl.DateTimeFormat costs about
 * a quarter of a millisecond and memory outside the JavaScript heap, and a batch asks once per
 * order (a few zones in all).
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * How {@link localNow} asks Intl (en-AU, with the zone's short name): scripts/zone-table.mjs makes
 * the zone table with the same options, and the table's test compares the two with them.
 */
export const LOCAL_NOW_FORMAT: Readonly<Intl.DateTimeFormatOptions> = {
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZoneName: 'short',
};

function formatterOf(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-AU', { ...LOCAL_NOW_FORMAT, timeZone: zone });
    formatters.set(zone, f);
  }
  return f;
}

/**
 * The date, time and zone name of `at` in `zone`. The state capitals' zones are read from a table
 * made from Intl's own data (zone-table.ts, from the year 2024 to 2040): a command that reads one
 * pickup day then starts without loading ICU's locale and zone data, which the first
 * Intl.DateTimeFormat of a process does (about a fifth of the start of `validate`). Any other zone
 * or moment is asked of Intl.
 */
export function localNow(at: Date, zone: string): LocalNow {
  const periods = ZONE_TABLE[zone];
  const t = at.getTime();
  if (periods !== undefined && t >= periods[0]![0] && t < ZONE_TABLE_END) {
    let i = periods.length - 1;
    while (periods[i]![0] > t) i--;
    const [, offset, zoneName] = periods[i]!;
    const local = new Date(t + offset * 60_000).toISOString();
    return { date: local.slice(0, 10), time: local.slice(11, 16), zone, zoneName };
  }
  const parts = formatterOf(zone).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return { date: `${part('year')}-${part('month')}-${part('day')}`, time: `${part('hour')}:${part('minute')}`, zone, zoneName: part('timeZoneName') };
}

/** `YYYY-MM-DD` plus `days` (negative too), in the calendar, with no zone involved. */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/** The English name of a date's weekday (`Monday`), `YYYY-MM-DD` read in the calendar, with no zone involved. */
export function weekdayOf(date: string): string {
  return WEEKDAYS[new Date(`${date}T00:00:00Z`).getUTCDay()]!;
}

/** True for a real calendar date written `YYYY-MM-DD`. */
export function isIsoDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
}

/** Minutes since midnight of `HH:MM` or `HH:MM:SS` (`24:00` is 1440), or undefined. */
function minutesOf(time: string): number | undefined {
  const m = /^(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(time);
  if (!m) return undefined;
  const h = Number(m[1]);
  const min = Number(m[2]);
  if (min > 59 || h > 24 || (h === 24 && min > 0)) return undefined;
  return h * 60 + min;
}

/** Which holidays date-holidays reports count: public ones; a part-day holiday starting from noon (Christmas Eve's evening in some states) leaves a day's pickup possible. */
function closesTheDay(h: { type: string; date: string }): boolean {
  if (h.type !== 'public') return false;
  const time = h.date.slice(11, 16);
  return time === '' || time < '12:00';
}

/**
 * The calendar of collection days, made by {@link loadCollectionCalendar}. Holidays are looked up
 * per state and year once and kept.
 */
export class CollectionCalendar {
  private readonly byStateYear = new Map<string, Map<string, string>>();

  constructor(private readonly Holidays: typeof HolidaysClass) {}

  /** The holidays (date → name) that close a whole day in `state` (or nationally, with none) in `year`. */
  private holidays(state: AuState | undefined, year: number): Map<string, string> {
    const key = `${state ?? 'AU'}-${year}`;
    let found = this.byStateYear.get(key);
    if (found === undefined) {
      found = new Map();
      const h = state === undefined ? new this.Holidays('AU') : new this.Holidays('AU', state);
      for (const day of h.getHolidays(year, 'en') || []) if (closesTheDay(day) && !found.has(day.date.slice(0, 10))) found.set(day.date.slice(0, 10), day.name);
      this.byStateYear.set(key, found);
    }
    return found;
  }

  /** The public holiday on `date` in any of `states` (national ones with no state), or undefined. */
  holidayOn(date: string, states: readonly AuState[]): { name: string; state?: AuState } | undefined {
    const year = Number(date.slice(0, 4));
    if (states.length === 0) {
      const name = this.holidays(undefined, year).get(date);
      return name === undefined ? undefined : { name };
    }
    for (const state of states) {
      const name = this.holidays(state, year).get(date);
      if (name !== undefined) return this.holidays(undefined, year).has(date) ? { name } : { name, state };
    }
    return undefined;
  }

  /** Why `date` is no collection day in `states` under `rules`, or undefined when it is one. */
  closedReason(date: string, states: readonly AuState[], rules: CollectionRules = {}): ClosedReason | undefined {
    const day = new Date(`${date}T00:00:00Z`).getUTCDay();
    if (day === 0 || day === 6) return { kind: 'weekend', weekday: day === 0 ? 'Sunday' : 'Saturday' };
    const holiday = this.holidayOn(date, states);
    if (holiday !== undefined) return { kind: 'holiday', ...holiday };
    if (rules.closed?.includes(date) === true) return { kind: 'closed' };
    return undefined;
  }

  /**
   * The first collection day from `now` (a moment; read in the zone of `states`): today when it is
   * a collection day and the local time is before the cut-off, else the first collection day after.
   */
  nextCollectionDay(now: Date, states: readonly AuState[], rules: CollectionRules = {}): string {
    return this.collectionDays(now, states, rules, 1)[0]!;
  }

  /** The first `count` collection days from `now`, in order (see {@link nextCollectionDay}). */
  collectionDays(now: Date, states: readonly AuState[], rules: CollectionRules, count: number): string[] {
    const local = localNow(now, zoneOf(states));
    const cutoff = minutesOf(rules.cutoff ?? DEFAULT_CUTOFF) ?? minutesOf(DEFAULT_CUTOFF)!;
    const days: string[] = [];
    let date = minutesOf(local.time)! < cutoff ? local.date : addDays(local.date, 1);
    // A year of closed days in a row is a list of closed days gone wrong, not a calendar.
    for (let closedInARow = 0; days.length < count && closedInARow < 366; date = addDays(date, 1)) {
      if (this.closedReason(date, states, rules) === undefined) {
        days.push(date);
        closedInARow = 0;
      } else closedInARow++;
    }
    if (days.length < count) throw new Error(`no collection day in the year after ${date}: every day is closed`);
    return days;
  }

  /**
   * What is wrong with `date` as a pickup date at `now`, or undefined when a carrier collects then:
   * not a date, before today (in the collection address's zone), today after the cut-off, a
   * weekend, a public holiday of the state or the country, or a day the sender is closed.
   */
  checkPickupDate(date: string, now: Date, states: readonly AuState[], rules: CollectionRules = {}): PickupDateProblem | undefined {
    const next = this.nextCollectionDay(now, states, rules);
    if (!isIsoDate(date)) return { kind: 'invalid', date, next };
    const local = localNow(now, zoneOf(states));
    if (date < local.date) return { kind: 'past', date, today: local.date, next };
    const reason = this.closedReason(date, states, rules);
    if (reason !== undefined) return { kind: 'not-a-collection-day', date, reason, next };
    const cutoff = rules.cutoff ?? DEFAULT_CUTOFF;
    if (date === local.date && minutesOf(local.time)! >= (minutesOf(cutoff) ?? 0))
      return { kind: 'after-cutoff', date, cutoff, now: `${local.time} ${local.zoneName}`, next };
    return undefined;
  }
}

let loaded: Promise<CollectionCalendar> | undefined;

/** The collection calendar, with date-holidays loaded on the first call (later calls share it). */
export function loadCollectionCalendar(): Promise<CollectionCalendar> {
  loaded ??= import('date-holidays').then((m) => new CollectionCalendar(m.default));
  return loaded;
}

/** The words `--pickup-date` and `pickup.date` take besides a date. */
export const PICKUP_DATE_WORDS = ['next', 'today', 'tomorrow'] as const;

/**
 * The date a `--pickup-date` value or a `pickup.date` of a file stands for: `next` is the next
 * collection day; `today` and `tomorrow` are those days in the collection address's zone (checked
 * like any date afterwards); a `YYYY-MM-DD` date is itself. Undefined for any other text.
 */
export function resolvePickupDate(
  value: string,
  calendar: CollectionCalendar,
  now: Date,
  states: readonly AuState[],
  rules: CollectionRules = {},
): string | undefined {
  const word = value.trim().toLowerCase();
  if (word === 'next') return calendar.nextCollectionDay(now, states, rules);
  const today = localNow(now, zoneOf(states)).date;
  if (word === 'today') return today;
  if (word === 'tomorrow') return addDays(today, 1);
  return isIsoDate(value.trim()) ? value.trim() : undefined;
}

/** What is wrong with a pickup window, or undefined: `time_latest` after `time_earliest`, at least `minimumMinutes` apart. */
export function checkPickupWindow(
  earliest: string,
  latest: string,
  minimumMinutes = 120,
): { kind: 'unreadable' } | { kind: 'not-after' } | { kind: 'too-short'; minutes: number; minimum: number } | undefined {
  const from = minutesOf(earliest);
  const to = minutesOf(latest);
  if (from === undefined || to === undefined) return { kind: 'unreadable' };
  if (to <= from) return { kind: 'not-after' };
  if (to - from < minimumMinutes) return { kind: 'too-short', minutes: to - from, minimum: minimumMinutes };
  return undefined;
}
