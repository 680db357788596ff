/**
 * The ledger's questions about the past, answered from its records as the store streams them
 * (src/ledger/store.ts `LedgerStore.records`: a ledger of 100,000 records is never held whole as
 * rows): the changes made at the service, one row per request that
 * changes something with its outcome ({@link historyRows}), and the orders as the hand-over sheet
 * needs them ({@link sheetOrders}).
 *
 * A change is an intent record (`create_sent`, `accept_sent`, `cancel_sent`: on disk before the request
 * left) closed by the first answer recorded for the same document afterwards (`created`,
 * `shipment_created`, `accepted`, `cancelled`: done; `failed`, `refused`: failed). An
 * intent never answered is `unknown`: the request may or may not have reached the service. A
 * result learned later (`processed`, a booking that failed, by the run, `order get` or a callback)
 * is a row of its own.
 */
import { currentRecord, type JournalRecord } from '../records.js';
import type { SheetOrder } from './sheet.js';

/** What became of a change. */
export const HISTORY_STATUSES = ['done', 'failed', 'unknown', 'processed'] as const;
/** A status of {@link HistoryRow}. */
export type HistoryStatus = (typeof HISTORY_STATUSES)[number];

/** One change made at the service, or one result learned, as the ledger recorded it. */
export interface HistoryRow {
  /** ISO time the intent (or the result) was recorded. */
  time: string;
  /** Operating-system user, host and profile of the run, when recorded (older records have none). */
  user?: string;
  host?: string;
  profile?: string;
  /** The command that made it: `book`, `order create`, `order accept`, `order cancel`, `shipment create`, `shipment combine`, `order get`, `callback`, `journal resolve`. */
  operation: string;
  /** The request: `create_order`, `create_shipment`, `combine`, `accept`, `cancel`, or `result` for a result learned. */
  step: string;
  /** The document's identity in the ledger. */
  id: string;
  order_id?: string;
  shipment_ids?: string[];
  tracking_numbers?: string[];
  /** Total price, AUD, a decimal string. */
  total?: string;
  /** Payment type of an accept (`credit`, `credit_card`, `stored_card`). */
  payment?: string;
  status: HistoryStatus;
  /** Why it failed. */
  error?: string;
  /** For the dock's rows (`scan`, `handed_over`, `not_handed_over`): the station, and the driver (and vehicle) when named. */
  station?: string;
  driver?: string;
  vehicle?: string;
  /** For the create of an order whose service the rules chose: each shipment's decision, as recorded. */
  service_choice?: unknown[];
}

/** Filters of {@link historyRows}; all optional. */
export interface HistoryFilter {
  /** Rows at or after this time, ms since the epoch. */
  since?: number;
  /** Rows before this time, ms since the epoch. */
  until?: number;
  order?: string;
  /** An operation (`order accept`) or a step (`accept`). */
  operation?: string;
  status?: HistoryStatus;
}

/** The step of an intent record. */
function stepOf(r: JournalRecord): string {
  if (r.event === 'accept_sent') return 'accept';
  if (r.event === 'cancel_sent') return 'cancel';
  return r.step ?? 'create_order';
}

/** The operation a record was made by; records of older versions were all made by `book`. */
function operationOf(r: JournalRecord): string {
  return r.op ?? (r.event === 'resolved' ? 'journal resolve' : 'book');
}

/** A row opened by `r`. */
function rowOf(r: JournalRecord, step: string, status: HistoryStatus): HistoryRow {
  const row: HistoryRow = { time: r.t, operation: operationOf(r), step, id: r.id, status };
  if (r.user !== undefined) row.user = r.user;
  if (r.host !== undefined) row.host = r.host;
  if (r.profile !== undefined) row.profile = r.profile;
  if (r.order_id !== undefined) row.order_id = r.order_id;
  if (r.payment !== undefined) row.payment = r.payment;
  if (r.total !== undefined) row.total = r.total;
  if (r.tracking_numbers !== undefined) row.tracking_numbers = r.tracking_numbers;
  if (r.shipment_ids !== undefined && r.shipment_ids.length > 0) row.shipment_ids = r.shipment_ids;
  return row;
}

/** A row of the dock: a parcel scanned, handed to the driver named at the end, or confirmed not handed over. */
function dockRow(r: JournalRecord): HistoryRow {
  const row = rowOf(r, r.event === 'scanned' ? 'scan' : r.event, 'done');
  if (r.dock !== undefined) {
    row.station = r.dock.station;
    if (r.dock.driver !== undefined) row.driver = r.dock.driver;
    if (r.dock.vehicle !== undefined) row.vehicle = r.dock.vehicle;
    if (r.dock.shipment_id !== undefined) row.shipment_ids = [r.dock.shipment_id];
  }
  return row;
}

/** Whether `row` passes `f`. */
function passes(row: HistoryRow, f: HistoryFilter): boolean {
  if (f.status !== undefined && row.status !== f.status) return false;
  if (f.order !== undefined && row.order_id !== f.order) return false;
  if (f.operation !== undefined && row.operation !== f.operation && row.step !== f.operation) return false;
  if (f.since !== undefined || f.until !== undefined) {
    const t = Date.parse(row.time);
    if (f.since !== undefined && t < f.since) return false;
    if (f.until !== undefined && t >= f.until) return false;
  }
  return true;
}

/**
 * The changes and results recorded in `records`, oldest first (by the time of their intent), that
 * pass `filter`. Rows are yielded as soon as they are known: a change when its answer is read, an
 * unanswered one at the end (in time order among themselves).
 */
export async function* historyRows(records: AsyncIterable<JournalRecord>, filter: HistoryFilter = {}): AsyncGenerator<HistoryRow> {
  /** Open intents by document identity. */
  const open = new Map<string, HistoryRow>();
  /** Known order ids by document identity (a `failed` record names none). */
  const orders = new Map<string, string>();
  const close = (r: JournalRecord, status: HistoryStatus): HistoryRow | undefined => {
    const row = open.get(r.id);
    if (row === undefined) return undefined;
    open.delete(r.id);
    row.status = status;
    const orderId = r.order_id ?? orders.get(r.id);
    if (orderId !== undefined) row.order_id = orderId;
    if (r.total !== undefined) row.total = r.total;
    if (r.shipment_ids !== undefined && r.shipment_ids.length > 0) row.shipment_ids = r.shipment_ids;
    if (r.error !== undefined) row.error = r.error.message;
    if (r.service_choice !== undefined) row.service_choice = r.service_choice;
    return row;
  };
  for await (const given of records) {
    const r = currentRecord(given);
    if (r.order_id !== undefined) orders.set(r.id, r.order_id);
    let row: HistoryRow | undefined;
    switch (r.event) {
      case 'create_sent':
      case 'accept_sent':
      case 'cancel_sent':
      case 'change_sent': {
        // A new intent for the same document before an answer: the earlier one was never answered.
        const before = open.get(r.id);
        const opened = rowOf(r, stepOf(r), 'unknown');
        if (opened.order_id === undefined && orders.has(r.id)) opened.order_id = orders.get(r.id);
        open.set(r.id, opened);
        if (before !== undefined && passes(before, filter)) yield before;
        continue;
      }
      case 'created':
      case 'shipment_created':
      case 'accepted':
      case 'cancelled':
      case 'changed':
        row = close(r, 'done');
        break;
      case 'failed':
      case 'refused':
        row = close(r, 'failed') ?? (r.created === true ? { ...rowOf(r, 'result', 'failed'), error: r.error?.message ?? 'failed' } : undefined);
        if (row !== undefined && row.order_id === undefined && orders.has(r.id)) row.order_id = orders.get(r.id);
        break;
      case 'processed':
        row = rowOf(r, 'result', 'processed');
        break;
      case 'resolved':
        row = rowOf(r, 'result', r.not_created ? 'failed' : 'done');
        if (r.not_created) row.error = 'not created (journal resolve)';
        break;
      case 'scanned':
      case 'handed_over':
      case 'not_handed_over':
        row = dockRow(r);
        break;
      default:
        continue;
    }
    if (row !== undefined && passes(row, filter)) yield row;
  }
  for (const row of [...open.values()].sort((a, b) => a.time.localeCompare(b.time))) if (passes(row, filter)) yield row;
}

/** A date as YYYY-MM-DD in the machine's time zone. */
export function localDay(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/**
 * Folds a dock record into what the sheet knows of a parcel: a scan replaces what was known; a
 * hand-over names the driver of that session's scan; a confirmation that it was not handed over
 * counts only for a parcel no one scanned.
 */
function foldDock(o: SheetOrder, r: JournalRecord): void {
  const tracking = r.tracking_numbers?.[0];
  if (tracking === undefined || r.dock === undefined) return;
  const dock = (o.dock ??= new Map());
  const known = dock.get(tracking);
  const d = r.dock;
  const named = { ...(d.driver !== undefined ? { driver: d.driver } : {}), ...(d.vehicle !== undefined ? { vehicle: d.vehicle } : {}) };
  if (r.event === 'scanned') dock.set(tracking, { at: r.t, ...(r.user !== undefined ? { by: r.user } : {}), station: d.station, session: d.session, ...named });
  else if (r.event === 'handed_over') {
    if (known !== undefined && known.session === d.session) Object.assign(known, named);
  } else if (known === undefined || known.not_handed_over) dock.set(tracking, { at: r.t, station: d.station, session: d.session, not_handed_over: true });
}

/**
 * Folds a record into where a created order stands (created → accepted → processed with its
 * tracking numbers, or cancelled, or failed), as the hand-over sheet and the customs papers read it;
 * records of other events leave it as it is.
 */
export function foldOrderStage(o: { stage: 'created' | 'accepted' | 'processed' | 'cancelled' | 'failed'; tracking?: string[] }, r: JournalRecord): void {
  switch (r.event) {
    case 'accepted':
      if (o.stage === 'created') o.stage = 'accepted';
      break;
    case 'processed':
      o.stage = 'processed';
      if (r.tracking_numbers !== undefined) o.tracking = r.tracking_numbers;
      break;
    case 'cancelled':
      o.stage = 'cancelled';
      break;
    case 'failed':
      // An order cancelled (by hand, or because it was above a price cap) stays cancelled: the
      // failure recorded after its cancel says why, not that it failed at the carrier.
      if (r.created !== false && o.stage !== 'processed' && o.stage !== 'cancelled') o.stage = 'failed';
      break;
  }
}

/**
 * The orders of `records` as the hand-over sheet needs them (src/ledger/reports/sheet.ts): each order with
 * what its `created` (or `answered`) record holds for the sheet, its stage (accepted, processed
 * with its tracking numbers, cancelled, failed) and the profile that created it. Orders recorded
 * without sheet data (by versions before it was recorded) are left out.
 */
export async function sheetOrders(records: AsyncIterable<JournalRecord>): Promise<SheetOrder[]> {
  const byOrder = new Map<string, SheetOrder>();
  const orderOfId = new Map<string, string>();
  for await (const r of records) {
    if (r.order_id !== undefined) orderOfId.set(r.id, r.order_id);
    const orderId = r.order_id ?? orderOfId.get(r.id);
    if (orderId === undefined) continue;
    let o = byOrder.get(orderId);
    if (r.sheet !== undefined && (r.event === 'created' || r.event === 'answered')) {
      const day = localDay(new Date(r.t));
      if (o === undefined) byOrder.set(orderId, (o = { orderId, stage: 'created', createdDay: day, shipments: r.sheet }));
      else o.shipments = r.sheet;
      if (r.profile !== undefined) o.profile = r.profile;
      continue;
    }
    if (o === undefined) continue;
    switch (r.event) {
      case 'scanned':
      case 'handed_over':
      case 'not_handed_over':
        foldDock(o, r);
        break;
      default:
        foldOrderStage(o, r);
    }
  }
  return [...byOrder.values()];
}
