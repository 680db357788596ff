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
  const { createInterface } = await import('node:readline');

  for (;;) {
    draw();
    // Scanning: a line per code, until an empty line or `q`.
    const lines = createInterface({ input: ctx.io.stdin, crlfDelay: Infinity });
    // Ctrl-C ends the scanning at once: the scans made stay recorded, no hand-over is.
    const stop = () => lines.close();
    ctx.signal.addEventListener('abort', stop, { once: true });
    let reading = false;
    const timer = setInterval(() => {
      // One read at a time: a large file ledger may take longer than the interval to read.
      if (reading) return;
      reading = true;
      const before = scans.length;
      station
        .refresh()
        .then(() => {
          if (scans.length !== before) draw();
        })
        .catch(() => undefined)
        .finally(() => (reading = false));
    }, OTHERS_EVERY_MS);
    try {
      for await (const line of lines) {
        const code = line.trim();
        if (code === '' || code.toLowerCase() === 'q') break;
        const event: ScanEvent = await station.scan(code);
        scans.push({ event });
        if (event.kind !== 'ok') exceptions++;
        draw();
        if (event.kind !== 'ok') ctx.io.stdout.write(BELL);
      }
    } finally {
      clearInterval(timer);
      ctx.signal.removeEventListener('abort', stop);
      lines.close();
    }
    if (ctx.signal.aborted) return;
    // The station listened for other stations' scans until now.
    await station.refresh();
    const missing = session.missing();
    if (missing.length === 0) break;
    ctx.io.out(`\n${missing.length} parcel(s) expected and not scanned:\n`);
    for (const p of missing.slice(0, 20)) ctx.io.out(`  ${p.tracking}  ${p.orderId}  ${p.city}, ${p.country}  ${p.carrier}\n`);
    if (missing.length > 20) ctx.io.out(`  … and ${missing.length - 20} more\n`);
    const confirmed = await ctx.prompter().confirm({
      message: `Record these ${missing.length} parcel(s) as not handed over? (no: go on scanning)`,
      default: false,
    });
    if (confirmed) break;
  }
  const driver =
    mark.driver ??
    (
      await ctx.prompter().input({
        message: "Driver's name:",
        validate: (v) => (v.trim() !== '' ? true : "Type the driver's name (it is recorded with the hand-over)."),
      })
    ).trim();
  const vehicle = mark.vehicle ?? ((await ctx.prompter().input({ message: 'Vehicle (registration, optional):' })).trim() || undefined);
  const summary = await station.finish({ driver, ...(vehicle !== undefined ? { vehicle } : {}), confirmedMissing: true });
  ctx.io.err(summaryText(summary, driver));
  if (summary.missing.length > 0) ctx.io.err(`Recorded ${summary.missing.length} parcel(s) as not handed over.\n`);
  endOfSession(summary);
}
