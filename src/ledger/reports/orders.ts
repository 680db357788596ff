/**
 * The orders the ledger knows, one per document, folded from its records as the store streams them
 * (src/ledger/store.ts `LedgerStore.records`): the document's identity, its order id once the
 * service gave one, where it stands, its shipments' references (the `transient_id`s its create
 * sent), tracking numbers, total, and who created it and when. A create sent without an answer is
 * an order of status `unknown` with no order id: the one `shipbook journal resolve` settles.
 */
import { currentRecord, type JournalRecord } from '../records.js';
import { localDay } from './history.js';

/** Where an order stands, in the words people see (pending = created, not yet accepted). */
export const KNOWN_ORDER_STATUSES = ['unknown', 'pending', 'accepted', 'processed', 'failed', 'cancelled', 'not_created'] as const;
/** A status of {@link KnownOrder}. */
export type KnownOrderStatus = (typeof KNOWN_ORDER_STATUSES)[number];

/** One order (or one create of unknown outcome) as the ledger knows it. */
interface KnownOrder {
  /** The document's identity in the ledger (`<hash>-<n>`), what `journal resolve` takes. */
  identity: string;
  /** The order id, once the service gave it (absent for `unknown` and `not_created`). */
  order_id?: string;
  status: KnownOrderStatus;
  /** The transient ids of its shipments, as its create sent them (the user's own references). */
  references: string[];
  tracking_numbers: string[];
  /** Total price, AUD, a decimal string, once known. */
  total?: string;
  /** ISO time of its first record (the create's intent). */
  created_at: string;
  /** Operating-system user, host and profile of the run that created it (older records have none). */
  user?: string;
  host?: string;
  profile?: string;
  /** The input file as the user named it. */
  file?: string;
  /**
   * What service-selection rules chose for each shipment, when the ledger recorded it with the
   * create: the service code, the rule that chose (absent when the cheapest was taken by default or
   * the order named it), how (`prefer`, `choose`, `cheapest`, `written`) and the reason.
   */
  service_choice?: Array<{ service?: string; rule?: string; how?: string; reason: string }>;
}

/** The service choice of a `created` record as the list shows it: service, rule, how and reason of each shipment. */
function choiceOf(recorded: readonly unknown[]): KnownOrder['service_choice'] {
  const out: NonNullable<KnownOrder['service_choice']> = [];
  for (const c of recorded) {
    if (typeof c !== 'object' || c === null) continue;
    const { service, rule, how, reason } = c as Record<string, unknown>;
    if (typeof reason !== 'string') continue;
    out.push({
      ...(typeof service === 'string' ? { service } : {}),
      ...(typeof rule === 'string' ? { rule } : {}),
      ...(typeof how === 'string' ? { how } : {}),
      reason,
    });
  }
  return out.length > 0 ? out : undefined;
}

/** Filters of {@link knownOrders}; all optional, all must hold. */
export interface KnownOrderFilter {
  /** A shipment's transient id (the user's reference). */
  reference?: string;
  tracking?: string;
  status?: KnownOrderStatus;
  /** The day it was created, YYYY-MM-DD in the machine's time zone. */
  day?: string;
  /** The operating-system user who created it. */
  user?: string;
}

/** Whether `o` passes `f`. */
export function passesOrderFilter(o: Pick<KnownOrder, 'references' | 'tracking_numbers' | 'status' | 'created_at' | 'user'>, f: KnownOrderFilter): boolean {
  if (f.reference !== undefined && !o.references.includes(f.reference)) return false;
  if (f.tracking !== undefined && !o.tracking_numbers.some((t) => t.toUpperCase() === f.tracking!.toUpperCase())) return false;
  if (f.status !== undefined && o.status !== f.status) return false;
  if (f.day !== undefined && localDay(new Date(o.created_at)) !== f.day) return false;
  if (f.user !== undefined && o.user !== f.user) return false;
  return true;
}

/**
 * The orders of `records` that pass `filter`, oldest first (by their first record). Documents the
 * ledger knows nothing sent for (claimed and let go) are left out.
 */
export async function knownOrders(records: AsyncIterable<JournalRecord>, filter: KnownOrderFilter = {}): Promise<KnownOrder[]> {
  const byId = new Map<string, KnownOrder>();
  for await (const given of records) {
    // A shipment created by hand is not an order (until a combine makes one).
    if (given.step === 'create_shipment' || (given.event === 'answered' && given.order_id === undefined)) continue;
    const r = currentRecord(given);
    let o = byId.get(r.id);
    const opens = r.event === 'create_sent' || r.event === 'accept_sent' || r.event === 'cancel_sent' || r.event === 'created';
    if (o === undefined) {
      if (!opens) continue;
      o = { identity: r.id, status: 'unknown', references: [], tracking_numbers: [], created_at: r.t };
      if (r.user !== undefined) o.user = r.user;
      if (r.host !== undefined) o.host = r.host;
      if (r.profile !== undefined) o.profile = r.profile;
      if (r.file !== undefined) o.file = r.file;
      byId.set(r.id, o);
    }
    if (r.transient_ids !== undefined && r.transient_ids.length > 0) o.references = [...r.transient_ids];
    if (r.order_id !== undefined) o.order_id = r.order_id;
    if (r.total !== undefined) o.total = r.total;
    if (r.tracking_numbers !== undefined && r.tracking_numbers.length > 0) o.tracking_numbers = [...r.tracking_numbers];
    switch (r.event) {
      case 'create_sent':
        if (o.order_id === undefined) o.status = 'unknown';
        break;
      case 'created': {
        o.status = 'pending';
        const choice = r.service_choice !== undefined ? choiceOf(r.service_choice) : undefined;
        if (choice !== undefined) o.service_choice = choice;
        break;
      }
      case 'accepted':
        if (o.status !== 'processed') o.status = 'accepted';
        break;
      case 'processed':
        o.status = 'processed';
        break;
      case 'cancelled':
        o.status = 'cancelled';
        break;
      case 'failed':
        // A failure after the order existed is the order's; one before (nothing created) leaves no order.
        if (r.created === true && o.order_id !== undefined) o.status = 'failed';
        else if (o.order_id === undefined) o.status = 'failed';
        break;
      case 'resolved':
        if (r.not_created) {
          o.status = 'not_created';
          delete o.order_id;
        } else if (o.status === 'unknown') o.status = 'pending';
        break;
      default:
        break;
    }
    // An order met first through an accept or a cancel typed by hand exists: pending at least.
    if (o.status === 'unknown' && o.order_id !== undefined && r.event !== 'create_sent') o.status = 'pending';
  }
  return [...byId.values()].filter((o) => passesOrderFilter(o, filter));
}
