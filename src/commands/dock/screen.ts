/**
 * `shipbook dock` on a terminal: a live screen redrawn after each scan (src/output/dock.ts
 * `dockScreen`), the bell for each exception, other stations' scans read every second; at the end
 * the parcels still missing are confirmed as not handed over (or scanning goes on), the driver's
 * name (and vehicle) asked unless given, and the hand-over recorded.
 */
import type { Context } from '../../context.js';
import type { DockParcel, ScanEvent } from '../../booking/index.js';
import { dockScreen, summaryText, type DockScreenState } from '../../output/dock.js';
import { endOfSession, openStation, type DockFlags } from './station.js';

/** Clears the terminal and puts the cursor home. */
const CLEAR = '\x1b[H\x1b[2J';
/** The terminal bell. */
const BELL = '\x07';
/** How often other stations' scans are read, ms. */
const OTHERS_EVERY_MS = 1000;

/**
 * Runs the screen until the scanning ends and the missing parcels are confirmed.
 * @throws as src/commands/dock/station.ts `openStation`; ShipbookError `dock_incomplete` (exit 8); an interrupted prompt (exit 130)
 */
export async function runScreen(flags: DockFlags, ctx: Context): Promise<void> {
  const scans: Array<DockScreenState['scans'][number]> = [];
  const onOther = (parcel: DockParcel, scan: { station: string; by?: string }) => {
    scans.push({
      other: {
        tracking: parcel.tracking,
        orderId: parcel.orderId,
        city: parcel.city,
        station: scan.station,
        ...(scan.by !== undefined ? { by: scan.by } : {}),
      },
    });
  };
  const { station, mark, mayBeMissing } = await openStation(flags, ctx, onOther);
  const session = station.session;
  let exceptions = 0;
  const notProcessed = session.summary().notProcessed;
  const draw = () => {
    const state: DockScreenState = {
      date: session.date,
      ...(flags.collection !== undefined ? { collection: flags.collection } : {}),
      station: mark.station,
      ...(mark.driver !== undefined ? { driver: mark.driver } : {}),
      counts: session.counts(),
      scans,
      exceptions,
      notProcessed,
      mayBeMissing,
    };
    const out = ctx.io.stdout;
    // The control sequences go to the terminal as they are; the text through io (escaped, secrets masked).
    out.write(CLEAR);
    ctx.io.out(dockScreen(state, out.columns ?? 80, (out as { rows?: number }).rows ?? 24));
  };
  for (;;) {
    draw();
    await readScans(
      ctx,
      station,
      () => scans.length,
      (event) => {
        scans.push({ event });
        if (event.kind !== 'ok') exceptions++;
        draw();
        if (event.kind !== 'ok') ctx.io.stdout.write(BELL);
      },
      draw,
    );
    if (ctx.signal.aborted) return;
    // The station listened for other stations' scans until now.
    await station.refresh();
    if (await missingConfirmed(ctx, session.missing())) break;
  }
  const { driver, vehicle } = await handoverBy(ctx, mark);
  const summary = await station.finish({ driver, ...(vehicle !== undefined ? { vehicle } : {}), confirmedMissing: true });
  ctx.io.err(summaryText(summary, driver));
  if (summary.missing.length > 0) ctx.io.err(`Recorded ${summary.missing.length} parcel(s) as not handed over.\n`);
  endOfSession(summary);
}

type Station = Awaited<ReturnType<typeof openStation>>['station'];

/**
 * Reads scanned codes, a line each, until an empty line, `q` or Ctrl-C (the scans made stay
 * recorded), handing each scan's event to `onScan`; other stations' scans are read every second
 * meanwhile, the screen redrawn (`redraw`) when they brought any (`seen` counts the scans shown).
 */
async function readScans(ctx: Context, station: Station, seen: () => number, onScan: (e: ScanEvent) => void, redraw: () => void): Promise<void> {
  const { createInterface } = await import('node:readline');
  const lines = createInterface({ input: ctx.io.stdin, crlfDelay: Infinity });
  const stop = () => lines.close();
  ctx.signal.addEventListener('abort', stop, { once: true });
  let reading = false;
  const timer = setInterval(() => {
    // One read at a time: a large file ledger may take longer than the interval to read.
    if (reading) return;
    reading = true;
    const before = seen();
    station
      .refresh()
      .then(() => {
        if (seen() !== before) redraw();
      })
      .catch(() => undefined)
      .finally(() => (reading = false));
  }, OTHERS_EVERY_MS);
  try {
    for await (const line of lines) {
      const code = line.trim();
      if (code === '' || code.toLowerCase() === 'q') break;
      onScan(await station.scan(code));
    }
  } finally {
    clearInterval(timer);
    ctx.signal.removeEventListener('abort', stop);
    lines.close();
  }
}

/** None missing, or the missing parcels listed (the first 20) and confirmed as not handed over; false: scan on. */
async function missingConfirmed(ctx: Context, missing: ReadonlyArray<DockParcel & { country: string; carrier: string }>): Promise<boolean> {
  if (missing.length === 0) return true;
  ctx.io.out(`\n${missing.length} parcel(s) expected and not scanned:\n`);
  for (const p of missing.slice(0, 20)) ctx.io.out(`  ${p.tracking}  ${p.orderId}  ${p.city}, ${p.country}  ${p.carrier}\n`);
  if (missing.length > 20) ctx.io.out(`  … and ${missing.length - 20} more\n`);
  return ctx.prompter().confirm({
    message: `Record these ${missing.length} parcel(s) as not handed over? (no: go on scanning)`,
    default: false,
  });
}

/** The driver's name (asked unless given) and vehicle (asked, optional, unless given). */
async function handoverBy(ctx: Context, mark: { driver?: string; vehicle?: string }): Promise<{ driver: string; vehicle?: string }> {
  const driver =
    mark.driver ??
    (
      await ctx.prompter().input({
        message: "Driver's name:",
        validate: (v) => (v.trim() !== '' ? true : "Type the driver's name (it is recorded with the hand-over)."),
      })
    ).trim();
  const vehicle = mark.vehicle ?? ((await ctx.prompter().input({ message: 'Vehicle (registration, optional):' })).trim() || undefined);
  return { driver, ...(vehicle !== undefined ? { vehicle } : {}) };
}
