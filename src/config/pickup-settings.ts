/**
 * The text forms of the pickup settings (`pickup.cutoff`, `pickup.window`, `pickup.closed` of a
 * profile, `cutoff`, `pickup_window` and `closed` of a saved sender), read without zod: the
 * booking room's pickup rule reads them at every run that books.
 */

/** Minutes since midnight of a clock time `HH:MM` (00:00-24:00), or undefined. */
export function clockMinutes(text: string): number | undefined {
  const m = /^\s*(\d{1,2}):(\d{2})\s*$/.exec(text);
  if (!m) return undefined;
  const minutes = Number(m[1]) * 60 + Number(m[2]);
  return Number(m[2]) < 60 && minutes <= 24 * 60 ? minutes : undefined;
}

/** `09:00-15:00` as its two times (`HH:MM`), or undefined unless the end is after the start. */
export function pickupWindowOf(text: string): { earliest: string; latest: string } | undefined {
  const parts = text.split('-');
  if (parts.length !== 2) return undefined;
  const [from, to] = parts.map((p) => clockMinutes(p));
  if (from === undefined || to === undefined || to <= from) return undefined;
  const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
  return { earliest: hhmm(from), latest: hhmm(to) };
}

/** `2026-12-24,2026-12-31` as its dates, or undefined when one is not a date `YYYY-MM-DD`; empty text is no day. */
export function closedDaysOf(text: string): string[] | undefined {
  const days = text
    .split(/[\s,]+/)
    .map((d) => d.trim())
    .filter((d) => d !== '');
  for (const d of days) {
    const t = /^\d{4}-\d{2}-\d{2}$/.test(d) ? new Date(`${d}T00:00:00Z`) : undefined;
    if (t === undefined || Number.isNaN(t.getTime()) || t.toISOString().slice(0, 10) !== d) return undefined;
  }
  return days;
}
