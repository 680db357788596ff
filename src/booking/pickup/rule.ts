/**
 * The pickup rule of a run (src/input/pickup.ts `PickupRule`): the collection calendar with the
 * profile's pickup settings, the clock and the flags `--pickup-date`, `--roll-pickup-dates` and
 * `--allow-pickup-date`, in words a person reads in an error.
 */
import type { PickupSettings } from '../../config/profile.js';
import { pickupWindowOf } from '../../config/pickup-settings.js';
import { UsageError } from '../../errors.js';
import type { PickupDateFault, PickupPlace, PickupRule } from '../../input/pickup.js';
import {
  DEFAULT_CUTOFF,
  PICKUP_DATE_WORDS,
  isIsoDate,
  loadCollectionCalendar,
  resolvePickupDate,
  statesOf,
  weekdayOf,
  type AuState,
  type ClosedReason,
  type CollectionCalendar,
  type CollectionRules,
} from './calendar.js';

/** The window a pickup without times gets when the profile sets none. */
const DEFAULT_PICKUP_WINDOW = { earliest: '09:00', latest: '15:00' } as const;
/** The shortest window accepted when the profile sets none: two hours. */
const DEFAULT_MIN_WINDOW_MINUTES = 120;

/** The flags of a command that books, about pickup dates. */
export interface PickupFlags {
  /** `--pickup-date next|today|tomorrow|YYYY-MM-DD`. */
  pickupDate?: string;
  /** `--roll-pickup-dates`. */
  rollPickupDates?: boolean;
  /** `--allow-pickup-date`. */
  allowPickupDate?: boolean;
}

/**
 * Checks the flags before anything is read or sent.
 * @throws UsageError (exit 2) for a `--pickup-date` that is neither a word nor a date, or
 *   `--roll-pickup-dates` with `--allow-pickup-date`
 */
export function checkPickupFlags(flags: PickupFlags): void {
  const value = flags.pickupDate?.trim();
  if (value !== undefined && !(PICKUP_DATE_WORDS as readonly string[]).includes(value.toLowerCase()) && !isIsoDate(value)) {
    throw new UsageError(`--pickup-date "${flags.pickupDate}" is not a day: give next, today, tomorrow or a date YYYY-MM-DD`, {
      suggestion: 'For example --pickup-date next (the next collection day after the cut-off, weekends and public holidays).',
    });
  }
  if (flags.rollPickupDates === true && flags.allowPickupDate === true) {
    throw new UsageError('--roll-pickup-dates and --allow-pickup-date say opposite things: move a date no carrier collects on, or send it as it is', {
      suggestion: 'Give one of them.',
    });
  }
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'] as const;

/**
 * `2026-11-30` → `Monday 30 November`, in the calendar (no zone involved), as en-AU writes it. Spelt
 * out here rather than asked of Intl: a first Intl formatter loads ICU's locale data, a cost the
 * start of `validate` or `quote` would pay for one message.
 */
export function dayWords(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  return `${weekdayOf(date)} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]!}`;
}

function closedWords(date: string, reason: ClosedReason): string {
  switch (reason.kind) {
    case 'weekend':
      return `pickup date ${date} is a ${reason.weekday}: carriers do not collect on weekends`;
    case 'holiday':
      return `pickup date ${date} is ${reason.name}, a public holiday${reason.state === undefined ? '' : ` in ${reason.state}`}`;
    case 'closed':
      return `pickup date ${date} is a day the sender is closed (the profile's pickup.closed)`;
  }
}

/** The calendar's rules from the profile's settings. */
function rulesOf(settings: PickupSettings | undefined): CollectionRules {
  return { cutoff: settings?.cutoff ?? DEFAULT_CUTOFF, closed: settings?.closed ?? [] };
}

/**
 * The pickup rule of a run: loads the collection calendar (date-holidays) and reads the clock at
 * each question, so a long batch that passes the cut-off sees it.
 */
export async function pickupRule(settings: PickupSettings | undefined, flags: PickupFlags, now: () => Date): Promise<PickupRule> {
  const calendar = await loadCollectionCalendar();
  return pickupRuleWith(calendar, settings, flags, now);
}

/** {@link pickupRule} with a calendar already loaded (the guided booking and tests). */
export function pickupRuleWith(calendar: CollectionCalendar, settings: PickupSettings | undefined, flags: PickupFlags, now: () => Date): PickupRule {
  const rules = rulesOf(settings);
  const states = (place: PickupPlace): AuState[] => statesOf(place);
  return {
    resolve: (value, place) => resolvePickupDate(value, calendar, now(), states(place), rules),
    fault: (date, place): PickupDateFault | undefined => {
      const s = states(place);
      // Only Australian addresses have a calendar here; elsewhere (a drop-off abroad has no pickup) nothing is known.
      if (place.country.toUpperCase() !== 'AU') return undefined;
      const problem = calendar.checkPickupDate(date, now(), s, rules);
      if (problem === undefined || problem.kind === 'invalid') return undefined;
      const where = s.length > 0 ? ` in ${s.join('/')}` : '';
      const message = (() => {
        switch (problem.kind) {
          case 'past':
            return `pickup date ${date} is in the past (today is ${dayWords(problem.today)}${where})`;
          case 'after-cutoff':
            return `pickup date ${date} is today, past the ${problem.cutoff} cut-off (it is ${problem.now}${where})`;
          case 'not-a-collection-day':
            return closedWords(date, problem.reason);
        }
      })();
      return { message, next: problem.next, nextWords: dayWords(problem.next) };
    },
    ...(flags.pickupDate !== undefined ? { override: flags.pickupDate.trim() } : {}),
    roll: flags.rollPickupDates === true,
    allow: flags.allowPickupDate === true,
    window: settings?.window ?? DEFAULT_PICKUP_WINDOW,
    minimumMinutes: settings?.minWindowMinutes ?? DEFAULT_MIN_WINDOW_MINUTES,
    days: (place, count) => calendar.collectionDays(now(), states(place), rules, count).map((date) => ({ date, words: dayWords(date) })),
    forSender: (own) =>
      pickupRuleWith(
        calendar,
        {
          ...settings,
          ...(own.cutoff !== undefined ? { cutoff: own.cutoff.trim().padStart(5, '0') } : {}),
          ...(own.pickup_window !== undefined && pickupWindowOf(own.pickup_window) !== undefined ? { window: pickupWindowOf(own.pickup_window) } : {}),
          ...(own.closed !== undefined ? { closed: [...(settings?.closed ?? []), ...own.closed] } : {}),
        },
        flags,
        now,
      ),
  };
}
