/**
 * A scanning session at the dock: the day's expected parcels of one collection address (or all of
 * them), read from the ledger, and each code scanned matched against them. A code is a tracking
 * number (or what the profile's `scan-pattern` extracts from a label barcode), or a shipment or
 * order id from a label printed by the shipper. Every scan gives a {@link ScanEvent}: a parcel
 * handed over, or one of the exceptions. UI-free: the command records and shows what it returns.
 */
import type { SheetOrder, SheetScan } from '../../ledger/index.js';
import type { RecordedParcel } from '../record.js';

/** A parcel the dock knows: a shipment of an order of the ledger, with where and when it is collected. */
export interface DockParcel extends RecordedParcel {
  city: string;
  country: string;
  carrier: string;
  /** The collection address on one line, or `drop-off (no collection)`. */
  collection: string;
  /** The pickup date (or for a drop-off, the day its order was created), YYYY-MM-DD. */
  day: string;
  packages: number;
}

/** What a scan turned out to be. */
export type ScanKind =
  /** A parcel of the day, scanned now for the first time: handed over. */
  | 'ok'
  /** No parcel of the ledger has this code (or the label's barcode does not match `scan-pattern`). */
  | 'unknown'
  /** The parcel's order was cancelled. */
  | 'cancelled'
  /** The parcel is collected on another day. */
  | 'another_day'
  /** The parcel is collected at another collection address than the session's. */
  | 'another_collection'
  /** The parcel was scanned before (by this station or another). */
  | 'already_scanned'
  /** The parcel's order is not processed (accepted and waiting for its result, never accepted, or its booking failed). */
  | 'not_processed';

/** One scan and what it was. */
export interface ScanEvent {
  kind: ScanKind;
  /** The code as read. */
  code: string;
  /** ISO time of the scan. */
  at: string;
  /** The parcel the code names, when the ledger knows it. */
  parcel?: DockParcel;
  /** For `already_scanned`: the earlier scan (when, by whom, on which station). */
  earlier?: Pick<SheetScan, 'at' | 'by' | 'station'>;
  /** For `not_processed`: where the order stands (`accepted`, `created`, `failed`). */
  stage?: string;
}

/** Expected against scanned, for one carrier. */
interface CarrierCount {
  carrier: string;
  expected: number;
  scanned: number;
}

/** The end of a session, as data. */
export interface DockSummary {
  date: string;
  /** The collection filter, when one was given. */
  collection?: string;
  expected: number;
  /** Expected parcels scanned (in this session or by another station). */
  scanned: number;
  /** Scanned in this session. */
  scannedHere: number;
  carriers: CarrierCount[];
  /** Exceptions by kind (only those that happened). */
  exceptions: Partial<Record<Exclude<ScanKind, 'ok'>, number>>;
  /** Expected parcels not scanned. */
  missing: DockParcel[];
  /** Orders of the day accepted and not processed: no tracking number yet, not expected. */
  notProcessed: number;
  /** Orders of the day whose result was not read (`--offline`): they may be missing. */
  mayBeMissing: number;
}

/** What a session starts from. */
interface SessionOptions {
  /** Every order of the ledger, as src/ledger/history.ts `sheetOrders` folds them (scans included). */
  orders: readonly SheetOrder[];
  /** The day, YYYY-MM-DD. */
  date: string;
  /** Only this collection address (text it contains, case-insensitive). */
  collection?: string;
  /** The carrier of a service code. */
  carrierOf: (code: string | undefined) => string;
  /** The tracking number in a code (the profile's `scan-pattern`); undefined when it has none. */
  extract: (code: string) => string | undefined;
  /** Orders of the day whose result was not read. */
  mayBeMissing?: number;
}

/** A code's parcel in the ledger, with its order. */
interface Known {
  order: SheetOrder;
  parcel: DockParcel;
}

/**
 * The tracking number a code carries, by `pattern` (a regular expression with one capturing group,
 * the profile's `scan-pattern`; the whole pattern must match the code); without a pattern, the code
 * itself, trimmed.
 * @throws SyntaxError when `pattern` is not a regular expression; Error when it has no capturing group
 */
export function extractorOf(pattern: string | undefined): (code: string) => string | undefined {
  if (pattern === undefined || pattern === '') return (code) => (code.trim() === '' ? undefined : code.trim());
  const re = new RegExp(`^(?:${pattern})$`);
  if (new RegExp(`${pattern}|`).exec('')!.length < 2) throw new Error('it has no capturing group ( … ) around the tracking number');
  return (code) => {
    const m = re.exec(code.trim());
    const t = m?.[1]?.trim();
    return t === undefined || t === '' ? undefined : t;
  };
}

/** A scanning session (see the module's comment). */
export class DockSession {
  readonly date: string;
  readonly #o: SessionOptions;
  /** Every parcel of the ledger by code: tracking number, shipment id, and order id for an order of one shipment. */
  readonly #byCode = new Map<string, Known>();
  readonly #expected: DockParcel[] = [];
  /** Parcels scanned (by tracking number, or shipment id for one without): the earliest scan known. */
  readonly #scanned = new Map<string, Pick<SheetScan, 'at' | 'by' | 'station'> & { here: boolean }>();
  readonly #exceptions: DockSummary['exceptions'] = {};
  #notProcessed = 0;

  constructor(o: SessionOptions) {
    this.#o = o;
    this.date = o.date;
    for (const order of o.orders) {
      order.shipments.forEach((s, i) => {
        const tracking = order.tracking?.[i];
        const parcel: DockParcel = {
          orderId: order.orderId,
          shipmentId: s.id,
          tracking: tracking !== undefined && tracking !== 'N/A' ? tracking : '',
          city: s.city ?? '',
          country: s.country ?? '',
          carrier: o.carrierOf(s.svc),
          collection: s.from ?? 'drop-off (no collection)',
          day: s.pickup ?? order.createdDay,
          packages: s.pkgs,
        };
        const known = { order, parcel };
        if (parcel.tracking !== '') this.#byCode.set(parcel.tracking, known);
        this.#byCode.set(s.id, known);
        if (order.shipments.length === 1) this.#byCode.set(order.orderId, known);
        if (parcel.day !== o.date || !this.#atCollection(parcel)) return;
        if (order.stage === 'processed' && parcel.tracking !== '') this.#expected.push(parcel);
        else if (order.stage === 'accepted' && i === 0) this.#notProcessed++;
        const mark = parcel.tracking === '' ? undefined : order.dock?.get(parcel.tracking);
        if (mark !== undefined && !mark.not_handed_over)
          this.#scanned.set(parcel.tracking, { at: mark.at, ...(mark.by !== undefined ? { by: mark.by } : {}), station: mark.station, here: false });
      });
    }
    // Scans of parcels of other days and collections matter too: a second scan of one is "already scanned".
    for (const order of o.orders)
      for (const [tracking, mark] of order.dock ?? [])
        if (!mark.not_handed_over && !this.#scanned.has(tracking))
          this.#scanned.set(tracking, { at: mark.at, ...(mark.by !== undefined ? { by: mark.by } : {}), station: mark.station, here: false });
    this.#expected.sort((a, b) => a.carrier.localeCompare(b.carrier) || a.tracking.localeCompare(b.tracking));
  }

  #atCollection(p: DockParcel): boolean {
    return this.#o.collection === undefined || p.collection.toLowerCase().includes(this.#o.collection.toLowerCase());
  }

  /** The parcels expected: processed shipments of the day (and collection), by carrier then tracking number. */
  get expected(): readonly DockParcel[] {
    return this.#expected;
  }

  /** Whether the expected parcel `p` was scanned (here or elsewhere). */
  isScanned(p: DockParcel): boolean {
    return this.#scanned.has(p.tracking);
  }

  /**
   * What the code `code`, scanned at `at`, is. A parcel of the day scanned for the first time is
   * `ok` and counts as scanned from now on (the caller records it); anything else is an exception,
   * counted for the summary.
   */
  scan(code: string, at: Date): ScanEvent {
    const event = this.#match(code.trim(), at.toISOString());
    if (event.kind === 'ok') this.#scanned.set(event.parcel!.tracking, { at: event.at, station: '', here: true });
    else this.#exceptions[event.kind] = (this.#exceptions[event.kind] ?? 0) + 1;
    return event;
  }

  #match(code: string, at: string): ScanEvent {
    const tracking = this.#o.extract(code);
    const known = tracking === undefined ? undefined : (this.#byCode.get(tracking) ?? this.#byCode.get(code));
    if (known === undefined) return { kind: 'unknown', code, at };
    const { order, parcel } = known;
    const base = { code, at, parcel };
    if (order.stage === 'cancelled') return { kind: 'cancelled', ...base };
    if (order.stage !== 'processed' || parcel.tracking === '') return { kind: 'not_processed', ...base, stage: order.stage };
    if (parcel.day !== this.date) return { kind: 'another_day', ...base };
    if (!this.#atCollection(parcel)) return { kind: 'another_collection', ...base };
    const earlier = this.#scanned.get(parcel.tracking);
    if (earlier !== undefined) {
      const { here: _h, ...when } = earlier;
      return { kind: 'already_scanned', ...base, earlier: when };
    }
    return { kind: 'ok', ...base };
  }

  /** Completes what is known of this session's own scan of `tracking` (who and where), once recorded. */
  noteOwnScan(tracking: string, by: string | undefined, station: string): void {
    const s = this.#scanned.get(tracking);
    if (s === undefined) return;
    s.station = station;
    if (by !== undefined) s.by = by;
  }

  /**
   * Takes in a scan another station recorded (read from the shared ledger). Returns the expected
   * parcel it names when it is news for this session, else undefined.
   */
  otherScan(tracking: string, scan: Pick<SheetScan, 'at' | 'by' | 'station'>): DockParcel | undefined {
    if (this.#scanned.has(tracking)) return undefined;
    this.#scanned.set(tracking, { ...scan, here: false });
    return this.#expected.find((p) => p.tracking === tracking);
  }

  /** Expected against scanned, per carrier. */
  counts(): CarrierCount[] {
    const by = new Map<string, CarrierCount>();
    for (const p of this.#expected) {
      let c = by.get(p.carrier);
      if (c === undefined) by.set(p.carrier, (c = { carrier: p.carrier, expected: 0, scanned: 0 }));
      c.expected++;
      if (this.#scanned.has(p.tracking)) c.scanned++;
    }
    return [...by.values()];
  }

  /** The expected parcels not scanned yet. */
  missing(): DockParcel[] {
    return this.#expected.filter((p) => !this.#scanned.has(p.tracking));
  }

  /** The parcels scanned in this session, in the order of the expected list. */
  scannedHere(): DockParcel[] {
    return this.#expected.filter((p) => this.#scanned.get(p.tracking)?.here === true);
  }

  /** The session as it ends. */
  summary(): DockSummary {
    const carriers = this.counts();
    return {
      date: this.date,
      ...(this.#o.collection !== undefined ? { collection: this.#o.collection } : {}),
      expected: this.#expected.length,
      scanned: carriers.reduce((n, c) => n + c.scanned, 0),
      scannedHere: this.scannedHere().length,
      carriers,
      exceptions: { ...this.#exceptions },
      missing: this.missing(),
      notProcessed: this.#notProcessed,
      mayBeMissing: this.#o.mayBeMissing ?? 0,
    };
  }
}
