/**
 * The dock's words: what reading the day's pending results found, a sheet filter that matches
 * nothing, and the lines, summary and screen of `shipbook dock`.
 */
import type { PendingResults } from '../booking/dock/pending.js';
import type { NoMatch } from '../booking/dock/no-match.js';
import type { DockSummary, ScanEvent, ScanKind } from '../booking/dock/session.js';
import type { OutputFormat } from './format.js';
import { localTime } from './local-time.js';

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

/** A scan as data, for `--json` (one NDJSON line each): what it was, the code, and the parcel it names. */
export function scanData(e: ScanEvent): Record<string, unknown> {
  const p = e.parcel;
  return {
    scan: {
      result: e.kind,
      code: e.code,
      at: e.at,
      ...(p !== undefined
        ? {
            tracking_number: p.tracking === '' ? null : p.tracking,
            order_id: p.orderId,
            shipment_id: p.shipmentId,
            city: p.city,
            country: p.country,
            carrier: p.carrier,
            collection: p.collection,
            pickup_date: p.day,
          }
        : {}),
      ...(e.earlier !== undefined ? { earlier: e.earlier } : {}),
      ...(e.stage !== undefined ? { stage: e.stage } : {}),
    },
  };
}

/** Why a scan is an exception, in a few words (empty for a parcel handed over). */
function scanReason(e: ScanEvent): string {
  const p = e.parcel;
  switch (e.kind) {
    case 'ok':
      return '';
    case 'unknown':
      return 'unknown code: no parcel in the ledger has it';
    case 'cancelled':
      return `cancelled: order ${p!.orderId} was cancelled, keep the parcel`;
    case 'another_day':
      return `another day's: collected on ${p!.day}`;
    case 'another_collection':
      return `another collection address's: ${p!.collection}`;
    case 'already_scanned':
      return `already scanned at ${localTime(e.earlier!.at).slice(11, 19)}${e.earlier!.by !== undefined ? ` by ${e.earlier!.by}` : ''} at ${e.earlier!.station}`;
    case 'not_processed':
      return `not yet processed: order ${p!.orderId} is ${e.stage === 'accepted' ? 'accepted, no tracking number yet' : (e.stage ?? 'not booked')}`;
  }
}

/** The exceptions, in the order a summary lists them. */
const EXCEPTIONS: readonly Exclude<ScanKind, 'ok'>[] = ['unknown', 'cancelled', 'another_day', 'another_collection', 'already_scanned', 'not_processed'];

/** The short name of a scan's outcome, as lines and the screen show it. */
const SCAN_WORDS: Record<ScanKind, string> = {
  ok: 'ok',
  unknown: 'UNKNOWN',
  cancelled: 'CANCELLED',
  another_day: 'ANOTHER DAY',
  another_collection: 'ANOTHER COLLECTION',
  already_scanned: 'ALREADY SCANNED',
  not_processed: 'NOT PROCESSED',
};

/**
 * A scan as one line: for people (`ok  SBX0353286388  ORD-ZA52K85J  Melbourne, AU  StarTrack`, or
 * the exception's name and why), or tab-separated (outcome, code, tracking number, order, city,
 * country, carrier, why).
 */
export function scanLine(e: ScanEvent, format: OutputFormat): string {
  const p = e.parcel;
  if (format === 'tsv')
    return `${[e.kind, e.code, p?.tracking ?? '', p?.orderId ?? '', p?.city ?? '', p?.country ?? '', p?.carrier ?? '', scanReason(e)].map(oneCell).join('\t')}\n`;
  const where = p !== undefined ? `  ${p.orderId}  ${p.city}, ${p.country}  ${p.carrier}` : '';
  if (e.kind === 'ok') return `ok  ${p!.tracking}${where}\n`;
  return `${SCAN_WORDS[e.kind]}  ${e.code}${where}  (${scanReason(e)})\n`;
}

/** A cell of a tab-separated line: no tab or line break inside. */
function oneCell(s: string): string {
  return s.replace(/[\t\r\n]+/g, ' ');
}

/** The summary of a session as data (`--json`), with the driver and station it was recorded with. */
export function summaryData(s: DockSummary, o: { driver?: string; vehicle?: string; station: string; session: string }): Record<string, unknown> {
  return {
    summary: {
      date: s.date,
      ...(s.collection !== undefined ? { collection: s.collection } : {}),
      station: o.station,
      session: o.session,
      ...(o.driver !== undefined ? { driver: o.driver } : {}),
      ...(o.vehicle !== undefined ? { vehicle: o.vehicle } : {}),
      expected: s.expected,
      scanned: s.scanned,
      scanned_here: s.scannedHere,
      carriers: s.carriers,
      exceptions: s.exceptions,
      missing: s.missing.map((p) => ({ tracking_number: p.tracking, order_id: p.orderId, city: p.city, country: p.country, carrier: p.carrier })),
      not_processed: s.notProcessed,
      ...(s.mayBeMissing > 0 ? { may_be_missing: s.mayBeMissing } : {}),
    },
  };
}

/** The summary of a session for people: expected against scanned per carrier, the exceptions, and each parcel missing. */
export function summaryText(s: DockSummary, driver: string | undefined): string {
  const lines = [
    `Dock ${s.date}${s.collection !== undefined ? ` (collection "${s.collection}")` : ''}: ${s.scanned} of ${s.expected} parcel(s) scanned` +
      `${s.scannedHere !== s.scanned ? ` (${s.scannedHere} at this station)` : ''}${driver !== undefined ? `, handed to ${driver}` : ', no driver named (--driver)'}`,
  ];
  for (const c of s.carriers) lines.push(`  ${c.carrier}: ${c.scanned} of ${c.expected}`);
  const exceptions = EXCEPTIONS.filter((k) => (s.exceptions[k] ?? 0) > 0).map((k) => `${s.exceptions[k]} ${SCAN_WORDS[k].toLowerCase()}`);
  lines.push(`Exceptions: ${exceptions.length > 0 ? exceptions.join(', ') : 'none'}`);
  if (s.missing.length > 0) {
    lines.push(`Missing: ${s.missing.length} parcel(s) expected and not scanned:`);
    for (const p of s.missing) lines.push(`  ${p.tracking}  ${p.orderId}  ${p.city}, ${p.country}  ${p.carrier}`);
  } else lines.push('Missing: none');
  if (s.notProcessed > 0) lines.push(`Not processed yet: ${s.notProcessed} order(s) of the day have no tracking number yet (not expected)`);
  if (s.mayBeMissing > 0)
    lines.push(`note: ${s.mayBeMissing} accepted order(s) whose result was not read (--offline) may be missing from the expected parcels`);
  return `${lines.join('\n')}\n`;
}

/** What the dock's screen shows: its heading, the counts per carrier, and the latest scans (newest last). */
export interface DockScreenState {
  date: string;
  collection?: string;
  station: string;
  driver?: string;
  counts: ReadonlyArray<{ carrier: string; expected: number; scanned: number }>;
  /** Scans made here, and other stations' scans of expected parcels. */
  scans: ReadonlyArray<{ event?: ScanEvent; other?: { tracking: string; station: string; by?: string; orderId: string; city: string } }>;
  exceptions: number;
  /** Orders of the day not processed yet; orders whose result was not read (`--offline`). */
  notProcessed: number;
  mayBeMissing: number;
}

/** `text` cut to `width` columns (one character a column: the screen's text is plain). */
function fit(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`;
}

/**
 * The dock's screen, redrawn whole after each scan: the heading, expected against scanned per
 * carrier with a bar, then as many of the latest scans as the rows allow (a tick and the order and
 * recipient city for a parcel handed over, a cross and the exception for the others), then the
 * line the scanner types on. Every line fits `columns`.
 */
export function dockScreen(s: DockScreenState, columns: number, rows: number): string {
  const w = Math.max(40, columns) - 1;
  const out: string[] = [];
  const scanned = s.counts.reduce((n, c) => n + c.scanned, 0);
  const expected = s.counts.reduce((n, c) => n + c.expected, 0);
  out.push(
    fit(
      `Dock ${s.date}${s.collection !== undefined ? `  collection "${s.collection}"` : ''}  station ${s.station}${s.driver !== undefined ? `  driver ${s.driver}` : ''}`,
      w,
    ),
  );
  out.push(fit(`Scanned ${scanned} of ${expected}    exceptions ${s.exceptions}${s.notProcessed > 0 ? `    not processed yet ${s.notProcessed}` : ''}`, w));
  if (s.mayBeMissing > 0) out.push(fit(`note: ${s.mayBeMissing} accepted order(s) not read (--offline) may be missing`, w));
  out.push('');
  const name = Math.min(24, Math.max(...s.counts.map((c) => c.carrier.length), 7));
  const bar = Math.max(10, Math.min(40, w - name - 20));
  for (const c of s.counts) {
    const filled = c.expected === 0 ? 0 : Math.round((c.scanned / c.expected) * bar);
    out.push(
      fit(
        `${fit(c.carrier, name).padEnd(name)}  ${String(c.scanned).padStart(3)}/${String(c.expected).padEnd(3)} [${'#'.repeat(filled)}${'.'.repeat(bar - filled)}]`,
        w,
      ),
    );
  }
  if (s.counts.length === 0) out.push('No parcel expected: nothing with a tracking number is booked for this day.');
  out.push('');
  const room = Math.max(3, rows - out.length - 3);
  for (const item of s.scans.slice(-room)) {
    if (item.other !== undefined) {
      const o = item.other;
      out.push(fit(`+ ${o.tracking}  ${o.orderId}  ${o.city}  (scanned at ${o.station}${o.by !== undefined ? ` by ${o.by}` : ''})`, w));
      continue;
    }
    const e = item.event!;
    if (e.kind === 'ok') out.push(fit(`✓ ${e.parcel!.tracking}  ${e.parcel!.orderId}  ${e.parcel!.city}, ${e.parcel!.country}  ${e.parcel!.carrier}`, w));
    else out.push(fit(`✗ ${SCAN_WORDS[e.kind]}  ${e.code}  ${scanReason(e)}`, w));
  }
  out.push('');
  out.push(fit('Scan a parcel (Enter on an empty line, or q, to finish):', w));
  return `${out.join('\n')}\n`;
}
