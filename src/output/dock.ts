/**
 * The dock's words: what reading the day's pending results found, a sheet filter that matches
 * nothing, and the lines, summary and screen of `shipbook dock`.
 */
import type { PendingResults } from '../booking/dock/pending.js';
import type { NoMatch } from '../booking/dock/no-match.js';

/** One line (or two) on what reading the results of the day's accepted orders found. */
export function pendingNote(p: PendingResults, date: string): string {
  const found = [
    p.processed > 0 ? `${p.processed} processed` : '',
    p.cancelled > 0 ? `${p.cancelled} cancelled` : '',
    p.failed > 0 ? `${p.failed} failed` : '',
    p.stillAccepted.length > 0 ? `${p.stillAccepted.length} not processed yet` : '',
  ].filter((x) => x !== '');
  let out = `Read the booking result of ${p.accepted} accepted order(s) of ${date}: ${found.length > 0 ? found.join(', ') : 'nothing new'}.\n`;
  if (p.unread.length > 0)
    out += `note: the result of ${p.unread.length} order(s) could not be read (${p.unread.slice(0, 5).join(', ')}${p.unread.length > 5 ? ', …' : ''}): they may be missing\n`;
  return out;
}

/** The message of a filter that matched nothing: `no shipment matches --carrier "Star Track" (40 shipments on 2026-12-01: StarTrack 40)`. */
export function noMatchMessage(m: NoMatch, date: string): string {
  const names = m.names
    .slice(0, 6)
    .map((n) => `${n.name} ${n.shipments}`)
    .join(', ');
  const day =
    m.shipments === 0
      ? `no shipment with a tracking number on ${date}`
      : `${m.shipments} shipment${m.shipments === 1 ? '' : 's'} on ${date}${names !== '' ? `: ${names}` : ''}${m.names.length > 6 ? ', …' : ''}`;
  return `no shipment matches ${m.flag} "${m.value}" (${day})`;
}
