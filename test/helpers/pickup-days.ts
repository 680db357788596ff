/**
 * The fixtures write `pickup: { date: next }`, which shipbook turns into the next collection day
 * while it reads a file for a command. Tests that hand a fixture straight to a schema, the
 * sandbox or the booking engine (with no command in between) settle the word themselves, on a
 * fixed Tuesday that no Australian calendar closes.
 */
import type { LoadedDocument } from '../../src/input/loaded.js';

/** The pickup day such tests use for `next`, `today` and `tomorrow`. */
const FIXTURE_PICKUP_DAY = '2026-12-01';

/** `value` with every `pickup.date` written as a word replaced by {@link FIXTURE_PICKUP_DAY} (in place; returned). */
export function settleFixturePickups<T>(value: T): T {
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(visit);
    else if (v !== null && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      const pickup = o.pickup as Record<string, unknown> | undefined;
      if (pickup !== null && typeof pickup === 'object' && typeof pickup.date === 'string' && /^(next|today|tomorrow)$/i.test(pickup.date.trim()))
        pickup.date = FIXTURE_PICKUP_DAY;
      for (const child of Object.values(o)) visit(child);
    }
  };
  visit(value);
  return value;
}

/** A loaded document with its pickup words settled ({@link settleFixturePickups}). */
export function settledDocument(doc: LoadedDocument): LoadedDocument {
  settleFixturePickups(doc.data);
  return doc;
}
