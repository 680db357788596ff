/**
 * One station at the dock: a {@link DockSession} whose scans are recorded in the ledger as they
 * come (src/booking/record.ts), and which takes in the scans other stations record in the
 * same ledger (the shared one on PostgreSQL, or the file ledger of this machine), so that a parcel
 * scanned at the next station is "already scanned" here. UI-free: it reports through
 * {@link StationOptions.onOtherScan} and its return values.
 */
import type { DockMark } from '../../ledger/index.js';
import type { LedgerStore } from '../../ledger/index.js';
import { recordDock } from '../record.js';
import type { DockParcel, DockSession, DockSummary, ScanEvent } from './session.js';

/** How far back each read of other stations' scans starts before the latest record seen, ms: writers' clocks differ a little. */
const CLOCK_MARGIN_MS = 5_000;

/** What a station needs. */
export interface StationOptions {
  session: DockSession;
  /** The ledger opened for writing (src/ledger/open.ts `openLedger`). */
  ledger: LedgerStore;
  /** The session id, the station, and the driver and vehicle when named before the scans. */
  mark: DockMark;
  /** The operating-system user scanning here. */
  user?: string;
  now: () => Date;
  /** Another station's scan of an expected parcel, news to this one. */
  onOtherScan?: (parcel: DockParcel, scan: { at: string; by?: string; station: string }) => void;
}

/** A station (see the module's comment). */
export class DockStation {
  readonly #o: StationOptions;
  /** The time of the latest record read: the next read starts a little before it. */
  #latest: number;
  /** When the last read of other stations' scans ended, and how long it took, ms (a large file ledger is read whole). */
  #readAt = 0;
  #readMs = 0;

  constructor(o: StationOptions) {
    this.#o = o;
    // Scans recorded a little before this session began, by a clock slightly ahead, are read too.
    this.#latest = o.now().getTime() - 60_000;
  }

  /** The session scanned into. */
  get session(): DockSession {
    return this.#o.session;
  }

  /**
   * Reads the scans other stations recorded since the last read (from a little before the latest
   * record seen), taking in those it did not know.
   * @throws as src/ledger/store.ts `LedgerStore.records`
   */
  async refresh(): Promise<void> {
    const started = Date.now();
    for await (const r of this.#o.ledger.records({ since: new Date(this.#latest - CLOCK_MARGIN_MS) })) {
      this.#latest = Math.max(this.#latest, Date.parse(r.t));
      if (r.event !== 'scanned' || r.dock === undefined || r.dock.session === this.#o.mark.session) continue;
      const tracking = r.tracking_numbers?.[0];
      if (tracking === undefined) continue;
      const scan = { at: r.t, station: r.dock.station, ...(r.user !== undefined ? { by: r.user } : {}) };
      const parcel = this.#o.session.otherScan(tracking, scan);
      if (parcel !== undefined) this.#o.onOtherScan?.(parcel, scan);
    }
    this.#readAt = Date.now();
    this.#readMs = this.#readAt - started;
  }

  /**
   * Matches `code` (after reading what other stations scanned since the last read: before every
   * scan, unless reading takes long, as a large file ledger does, when reads are spaced so that
   * they take a fifth of the time at most) and records a parcel handed over; the record is visible
   * to other stations once this resolves.
   * @throws JournalWriteError (exit 10) when the scan cannot be recorded
   */
  async scan(code: string): Promise<ScanEvent> {
    if (Date.now() - this.#readAt >= 4 * this.#readMs) await this.refresh();
    const event = this.#o.session.scan(code, this.#o.now());
    if (event.kind === 'ok') {
      await recordDock(this.#o.ledger, 'scanned', [event.parcel!], this.#o.mark);
      this.#o.session.noteOwnScan(event.parcel!.tracking, this.#o.user, this.#o.mark.station);
    }
    return event;
  }

  /**
   * Ends the session: when the driver was named only now, records that each parcel scanned here went
   * to them; when `confirmedMissing`, records each expected parcel still missing as not handed over.
   * @throws JournalWriteError (exit 10)
   */
  async finish(o: { driver?: string; vehicle?: string; confirmedMissing: boolean }): Promise<DockSummary> {
    await this.refresh();
    const mark: DockMark = {
      ...this.#o.mark,
      ...(o.driver !== undefined ? { driver: o.driver } : {}),
      ...(o.vehicle !== undefined ? { vehicle: o.vehicle } : {}),
    };
    if (this.#o.mark.driver === undefined && o.driver !== undefined) await recordDock(this.#o.ledger, 'handed_over', this.#o.session.scannedHere(), mark);
    const summary = this.#o.session.summary();
    if (o.confirmedMissing && summary.missing.length > 0) await recordDock(this.#o.ledger, 'not_handed_over', summary.missing, mark);
    return summary;
  }
}
