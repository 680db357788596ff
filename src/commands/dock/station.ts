/**
 * What both screens of `shipbook dock` share (the lines of a pipe, src/commands/dock/index.ts, and
 * the terminal's, src/commands/dock/screen.ts): opening the day's session and this station, and
 * the exit code of its end.
 */
import { hintText } from '../../output/hints.js';
import { randomBytes } from 'node:crypto';
import { hostname, userInfo } from 'node:os';
import type { Context } from '../../context.js';
import { ConfigError, ShipbookError, cmd } from '../../errors.js';
import { DockSession, extractorOf, DockStation, type StationOptions } from '../../booking/index.js';
import type { DockMark } from '../../ledger/index.js';
import { openLedgerFor } from '../common/record.js';
import { sheetDay } from '../handover/index.js';
import { dayCarriers, dayOrders } from './day.js';

/** Flags of `dock`. */
export interface DockFlags {
  date?: string;
  collection?: string;
  driver?: string;
  vehicle?: string;
  station?: string;
  offline?: boolean;
}

/** A name given by a flag, trimmed; undefined when empty. */
function named(v: string | undefined): string | undefined {
  const t = v?.trim();
  return t === undefined || t === '' ? undefined : t;
}

/**
 * Opens the day's session and this station: reads the pending results (unless `--offline`), the
 * expected parcels, and opens the ledger for the scans; `onOtherScan` hears of other stations' scans.
 * @throws ConfigError (exit 4) for a `scan-pattern` that is not a pattern with one group; as src/commands/dock/day.ts `dayOrders`
 */
export async function openStation(
  flags: DockFlags,
  ctx: Context,
  onOtherScan?: StationOptions['onOtherScan'],
): Promise<{ station: DockStation; mark: DockMark; mayBeMissing: number }> {
  const date = sheetDay(flags.date, ctx.now());
  const profile = await ctx.profile();
  let extract;
  try {
    extract = extractorOf(profile.scanPattern);
  } catch (err) {
    throw new ConfigError(`the scan-pattern setting of profile ${profile.name} cannot be used: ${(err as Error).message}`, {
      suggestion: `Set it to a regular expression with one group around the tracking number, e.g. shipbook config set scan-pattern '420\\d{5}(SBX\\d{10})', or remove it: shipbook config unset scan-pattern`,
    });
  }
  const day = await dayOrders(ctx, date, { offline: flags.offline === true, op: 'dock' });
  const carrierOf = await dayCarriers(ctx, day.orders, date, flags.offline === true);
  const session = new DockSession({
    orders: day.orders,
    date,
    carrierOf,
    extract,
    mayBeMissing: day.mayBeMissing,
    ...(named(flags.collection) !== undefined ? { collection: named(flags.collection)! } : {}),
  });
  const ledger = await openLedgerFor(ctx, { op: 'dock', command: hintText([cmd('dock', '--date', date)], ctx.settings.hints) });
  const driver = named(flags.driver);
  const vehicle = named(flags.vehicle);
  const mark: DockMark = {
    session: randomBytes(6).toString('hex'),
    station: named(flags.station) ?? hostname(),
    ...(driver !== undefined ? { driver } : {}),
    ...(vehicle !== undefined ? { vehicle } : {}),
  };
  const station = new DockStation({
    session,
    ledger,
    mark,
    user: userInfo().username,
    now: () => ctx.now(),
    ...(onOtherScan !== undefined ? { onOtherScan } : {}),
  });
  return { station, mark, mayBeMissing: day.mayBeMissing };
}

/**
 * The end of a session, whatever the screen: exit 0 when every expected parcel was scanned and no
 * scan was an exception; else exit 8 (the summary said what).
 * @throws ShipbookError `dock_incomplete` (exit 8)
 */
export function endOfSession(s: { missing: unknown[]; exceptions: Record<string, number | undefined> }): void {
  const exceptions = Object.values(s.exceptions).reduce<number>((n, v) => n + (v ?? 0), 0);
  if (s.missing.length === 0 && exceptions === 0) return;
  throw new ShipbookError('dock_incomplete', `${s.missing.length} parcel(s) missing, ${exceptions} scan(s) were exceptions`, 'incomplete', { reported: true });
}
