/**
 * Pickup days in input documents, before the schema sees them: `pickup.date` written as a word
 * (`next`, `today`, `tomorrow`) or replaced by `--pickup-date` becomes a date; a pickup without its
 * times gets the profile's window; a date no carrier collects on (in the past, a weekend, a public
 * holiday of the collection address's state, today after the cut-off) is an error naming the next
 * collection day, moved there with `--roll-pickup-dates`, or sent as it is with
 * `--allow-pickup-date`; a window shorter than the minimum is an error.
 *
 * What a collection day is comes from outside (a {@link PickupRule}, made by the booking room's
 * calendar from the profile's settings and the clock): this module only walks the document.
 */
import { ValidationError, type InputIssue } from '../errors.js';
import type { SchemaProblem } from '../schema/issues.js';
import { formatPath } from '../schema/issues.js';
import type { LoadedDocument } from './loaded.js';

/** Where a pickup is collected, as the document's collection address says. */
export interface PickupPlace {
  country: string;
  postcode?: string;
  city?: string;
}

/** What is wrong with a pickup date: a sentence, and the collection day to use instead (`YYYY-MM-DD`). */
export interface PickupDateFault {
  message: string;
  next: string;
  /** The next day as people read it (`Monday 30 November`). */
  nextWords: string;
}

/**
 * The pickup settings of a run: how to read a date, what is wrong with one, and what to do about it.
 * Made from the profile, the sender and the flags (`--pickup-date`, `--roll-pickup-dates`,
 * `--allow-pickup-date`).
 */
export interface PickupRule {
  /** The date a `pickup.date` value stands for at `place` (`next`, `today`, `tomorrow`, `YYYY-MM-DD`), or undefined when it is none of these. */
  resolve(value: string, place: PickupPlace): string | undefined;
  /** What is wrong with `date` (`YYYY-MM-DD`) as a pickup at `place`, or undefined when a carrier collects then. */
  fault(date: string, place: PickupPlace): PickupDateFault | undefined;
  /** `--pickup-date`: the date (or word) every pickup of the document takes. */
  override?: string;
  /** `--roll-pickup-dates`: a faulty date moves to the next collection day, with a warning. */
  roll: boolean;
  /** `--allow-pickup-date`: a faulty date is sent as it is, with a warning. */
  allow: boolean;
  /** The window a pickup without times gets (`HH:MM`, local to the collection address). */
  window: { earliest: string; latest: string };
  /** The shortest window accepted, in minutes. */
  minimumMinutes: number;
  /** The next `count` collection days at `place` from now, each with its words (`Monday 30 November`), for a person to choose from. */
  days(place: PickupPlace, count: number): Array<{ date: string; words: string }>;
  /** The same rule with a saved sender's own settings over the profile's (its cut-off, window and closed days). */
  forSender(settings: SenderPickupSettings): PickupRule;
  /**
   * The saved senders' settings of one document whose `collection: "@name"` references a command
   * resolved itself, by the path of each collection ({@link withSenders}).
   */
  readonly senders?: ReadonlyArray<SenderPickupSettings & { segments: PropertyKey[] }>;
}

/** `rule` with the saved senders' settings of one document (see {@link PickupRule.senders}). */
export function withSenders(rule: PickupRule, senders: ReadonlyArray<SenderPickupSettings & { segments: PropertyKey[] }>): PickupRule {
  return senders.length === 0 ? rule : { ...rule, senders };
}

/** A saved sender's pickup settings, as its address file writes them. */
interface SenderPickupSettings {
  cutoff?: string;
  pickup_window?: string;
  closed?: readonly string[];
}

/** A pickup date changed by the rule: the document's date (or word) and the date sent. */
interface PickupDateChange {
  segments: PropertyKey[];
  from: string;
  to: string;
}

/** The document with its pickups settled, and what was found on the way. */
interface AppliedPickups {
  data: unknown;
  errors: SchemaProblem[];
  warnings: SchemaProblem[];
  changes: PickupDateChange[];
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Minutes since midnight of `HH:MM` or `HH:MM:SS` (no fraction, no offset), or undefined. */
function minutesOf(time: unknown): number | undefined {
  if (typeof time !== 'string') return undefined;
  const m = /^(\d{2}):(\d{2})(?::\d{2})?$/.exec(time.trim());
  if (!m) return undefined;
  const minutes = Number(m[1]) * 60 + Number(m[2]);
  return Number(m[2]) < 60 && minutes <= 24 * 60 ? minutes : undefined;
}

/** `90` → `1 h 30 min`. */
function duration(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return h === 0 ? `${m} min` : m === 0 ? `${h} h` : `${h} h ${m} min`;
}

/**
 * Applies `rule` to every pickup of `data` (any object holding a `pickup` object beside its
 * address's `country`): the document itself is not changed; a changed copy is returned when
 * anything was filled in or moved. Paths are those of `data`.
 */
function applyPickupRule(data: unknown, rule: PickupRule, senders: ReadonlyArray<SenderPickupSettings & { segments: PropertyKey[] }> = []): AppliedPickups {
  const errors: SchemaProblem[] = [];
  const warnings: SchemaProblem[] = [];
  const changes: PickupDateChange[] = [];
  const problem = (list: SchemaProblem[], segments: PropertyKey[], message: string) => list.push({ segments, path: formatPath(segments), message });
  let copied = false;
  let out = data;
  /** The object at `segments` in the copy, copying the way down on the first change. */
  const writable = (segments: PropertyKey[]): Record<string, unknown> => {
    if (!copied) {
      out = structuredClone(data);
      copied = true;
    }
    let at = out as Record<PropertyKey, unknown>;
    for (const s of segments) at = at[s] as Record<PropertyKey, unknown>;
    return at as Record<string, unknown>;
  };

  const visit = (v: unknown, path: PropertyKey[]): void => {
    if (Array.isArray(v)) {
      v.forEach((item, i) => visit(item, [...path, i]));
      return;
    }
    if (!isPlainObject(v)) return;
    const pickup = v.pickup;
    if (isPlainObject(pickup) && typeof v.country === 'string') {
      const own = [...senders, ...(rule.senders ?? [])].find((x) => x.segments.length === path.length && x.segments.every((seg, i) => seg === path[i]));
      settle(v as Record<string, unknown> & { country: string }, pickup, [...path, 'pickup'], own === undefined ? rule : rule.forSender(own));
    }
    for (const [key, child] of Object.entries(v)) if (key !== 'pickup' && child !== null && typeof child === 'object') visit(child, [...path, key]);
  };

  const settle = (address: Record<string, unknown> & { country: string }, pickup: Record<string, unknown>, at: PropertyKey[], rule: PickupRule) => {
    const place: PickupPlace = {
      country: address.country,
      ...(typeof address.postcode === 'string' ? { postcode: address.postcode } : {}),
      ...(typeof address.city === 'string' ? { city: address.city } : {}),
    };
    const datePath = [...at, 'date'];
    const written = rule.override ?? (typeof pickup.date === 'string' ? pickup.date : undefined);
    if (pickup.time_earliest === undefined && pickup.time_latest === undefined && (pickup.date !== undefined || rule.override !== undefined)) {
      const target = writable(at);
      target.time_earliest = rule.window.earliest;
      target.time_latest = rule.window.latest;
    }
    if (written === undefined) return;
    let date = rule.resolve(written, place);
    if (date === undefined) {
      // Not a date nor a word: the schema says so, naming what it expects (an --pickup-date is refused before reading).
      return;
    }
    if (date !== pickup.date) {
      writable(at).date = date;
      changes.push({ segments: datePath, from: written, to: date });
    }
    const fault = rule.fault(date, place);
    if (fault !== undefined) {
      if (rule.roll) {
        writable(at).date = fault.next;
        const last = changes.at(-1);
        if (last !== undefined && last.to === date && last.segments.join('/') === datePath.join('/')) last.to = fault.next;
        else changes.push({ segments: datePath, from: written, to: fault.next });
        problem(warnings, datePath, `${fault.message}: moved to ${fault.nextWords} (${fault.next}) by --roll-pickup-dates`);
        date = fault.next;
      } else if (rule.allow) {
        problem(warnings, datePath, `${fault.message}: sent as it is (--allow-pickup-date)`);
      } else {
        problem(
          errors,
          datePath,
          `${fault.message}; the next collection day is ${fault.nextWords} (${fault.next}): write it, or book with --roll-pickup-dates`,
        );
      }
    }
    const from = minutesOf(pickup.time_earliest ?? rule.window.earliest);
    const to = minutesOf(pickup.time_latest ?? rule.window.latest);
    if (from !== undefined && to !== undefined && to > from && to - from < rule.minimumMinutes) {
      problem(
        errors,
        [...at, 'time_latest'],
        `the pickup window ${String(pickup.time_earliest)}-${String(pickup.time_latest)} is ${duration(to - from)}, shorter than the ${duration(rule.minimumMinutes)} carriers need (the profile's pickup.min-window)`,
      );
    }
  };

  visit(data, []);
  return { data: out, errors, warnings, changes };
}

/**
 * A loaded document with its pickups settled by `rule` (and the saved senders' own settings, by
 * the path of each collection): the document (a copy when anything changed), and the errors and
 * warnings at their lines and columns.
 */
export function settledDocument(
  doc: LoadedDocument,
  rule: PickupRule,
  senders: ReadonlyArray<SenderPickupSettings & { segments: PropertyKey[] }> = [],
): { doc: LoadedDocument; errors: InputIssue[]; warnings: InputIssue[] } {
  const applied = applyPickupRule(doc.data, rule, senders);
  const located = (p: SchemaProblem, severity: 'error' | 'warning'): InputIssue => ({
    file: doc.file,
    ...doc.locate(p.segments),
    path: p.path,
    message: p.message,
    severity,
  });
  return {
    doc: applied.data === doc.data ? doc : { ...doc, data: applied.data },
    errors: applied.errors.map((p) => located(p, 'error')),
    warnings: applied.warnings.map((p) => located(p, 'warning')),
  };
}

/**
 * {@link settledDocument} for commands that validate with a schema of their own, such as
 * `shipment combine`: the document and the warnings to show.
 * @throws ValidationError (exit 2) with every pickup error, at its line and column
 */
export function settlePickups(doc: LoadedDocument, rule: PickupRule): { doc: LoadedDocument; warnings: InputIssue[] } {
  const settled = settledDocument(doc, rule);
  if (settled.errors.length > 0) throw new ValidationError(settled.errors);
  return { doc: settled.doc, warnings: settled.warnings };
}
