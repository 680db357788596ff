/**
 * Times for people: a recorded instant (ISO 8601, UTC, as the ledger and JSON output keep it) shown
 * in a time zone, to the second, with the zone's name: `2026-11-28 01:24:06 AEDT`.
 */

const formats = new Map<string, Intl.DateTimeFormat>();

function formatOf(zone: string | undefined, locale: string): Intl.DateTimeFormat {
  const key = `${locale} ${zone ?? ''}`;
  let f = formats.get(key);
  if (f === undefined) {
    f = new Intl.DateTimeFormat(locale, {
      ...(zone !== undefined ? { timeZone: zone } : {}),
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    });
    formats.set(key, f);
  }
  return f;
}

/**
 * `iso` (any instant `Date.parse` reads) as `YYYY-MM-DD HH:MM:SS ZONE` in `zone` (an IANA name;
 * this machine's zone when undefined). The zone's name is its abbreviation where one is in use
 * (AEDT, AWST, UTC, EST), else its offset (GMT+5:30). Text that is not an instant comes back as it is.
 */
export function localTime(iso: string, zone?: string): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  const parts = (locale: string) => {
    const all = formatOf(zone, locale).formatToParts(at);
    const part = (type: Intl.DateTimeFormatPartTypes) => all.find((p) => p.type === type)?.value ?? '';
    return { text: `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}:${part('second')}`, zone: part('timeZoneName') };
  };
  // English (US) names the zones of the Americas and UTC; English (Australia) those of Australia.
  const us = parts('en-US');
  if (!/^GMT[+-]/.test(us.zone)) return `${us.text} ${us.zone}`;
  const au = parts('en-AU');
  return `${au.text} ${au.zone}`;
}

/** A recorded time as a table shows it (local, {@link localTime}), and as it was recorded (ISO 8601, UTC) in any other format. */
export function shownTime(iso: string, format: string): string {
  return format === 'table' ? localTime(iso) : iso;
}
