/**
 * The records of the ledger and of a journal file: one NDJSON line each, what it says happened
 * (an intent before its request, an answer as it arrived, a claim, a failure, a resolution), and
 * how a record is stamped and serialised once for every file it goes to. Where a document stands
 * is folded from its records (src/ledger/fold.ts).
 */
import type { SheetShipment } from './reports/sheet.js';
import { scrubKnown } from '../api/redact.js';

/** What a record says happened. */
export type JournalEvent =
  | 'create_sent'
  | 'shipment_created'
  | 'created'
  | 'accept_sent'
  | 'accepted'
  | 'processed'
  | 'failed'
  | 'resolved'
  /** A run took the document in hand (see {@link RunClaim}): no other live run sends anything for it. */
  | 'claimed'
  /** A run let go of its claim with the document in a non-final stage (interrupted: not started, pending, accepted). */
  | 'released'
  /** The first record of a journal or ledger: the target service it was written against (never a key). */
  | 'target'
  /** A cancel is about to be sent (`order_id`); on disk before it leaves. */
  | 'cancel_sent'
  /**
   * A request typed by hand (`shipbook api`) that changes something shipbook has no step of its own
   * for is about to be sent (`step` names it: create_shipment, combine, or `METHOD path`).
   */
  | 'change_sent'
  /** The service answered a `change_sent` request. */
  | 'changed'
  /**
   * Older records only (read as {@link currentRecord} says, never written now): a command typed by
   * hand was about to send a request (`step`: create_shipment, combine, cancel).
   */
  | 'sent'
  /** Older records only: the service answered a `sent` request (`order_id`, `shipment_ids`, `total`, `sheet` as it said). */
  | 'answered'
  /** The service refused a request (`error`): nothing changed there. */
  | 'refused'
  /** The order was cancelled (by `order cancel`, or as `order get` or a callback learned). */
  | 'cancelled'
  /** At the dock: a parcel of the order was scanned (`tracking_numbers`: the one scanned; `dock`: station, session, driver). */
  | 'scanned'
  /** At the dock: a parcel scanned in a session was handed over to the driver named at its end (`dock`). */
  | 'handed_over'
  /** At the dock: a parcel expected and not scanned was confirmed as not handed over (`dock`). */
  | 'not_handed_over'
  /** Customs papers were written for the order (`files`): src/booking/papers/. */
  | 'papers';

/** One line of the journal. */
export interface JournalRecord {
  /** ISO time of writing. */
  t: string;
  /** The order's identity (src/ledger/identity.ts). */
  id: string;
  event: JournalEvent;
  file?: string;
  line?: number;
  /** For `create_sent`: which request (create_order, create_shipment, combine). */
  step?: string;
  order_id?: string;
  shipment_ids?: string[];
  tracking_numbers?: string[];
  /** Total price, AUD, as a decimal string. */
  total?: string;
  /** For `failed`: the error, and whether the order was created before it (`created: false`: nothing exists, a rerun may book it). */
  error?: { code: string; message: string; exit_code?: number };
  created?: boolean;
  /** For `resolved`: what the user found out (`order_id`, or `not_created`). */
  not_created?: boolean;
  /** For `resolved`: recorded over an earlier, different answer (`journal resolve --force`). */
  forced?: boolean;
  /** For `create_sent`: the transient ids of the document's shipments (what `journal resolve --order` checks). */
  transient_ids?: string[];
  /** For `target`: the identity of the target service (src/config/target.ts `targetId`). */
  target?: string;
  /** For a `failed` refused by `--max-total`: the limit that refused it, AUD, a decimal string. */
  limit?: string;
  /** For `claimed` and `released`: the run that takes or lets go of the document. */
  run?: RunClaim;
  /** The command that wrote the record (`book`, `order accept`, `order get` …; absent: `book`, as before it was recorded). */
  op?: string;
  /** Operating-system user, host and profile of the run that wrote it. */
  user?: string;
  host?: string;
  profile?: string;
  /** For `accept_sent`: the payment type (`credit`, `credit_card`, `stored_card`); never a card number. */
  payment?: string;
  /** For `created` and `answered`: what the hand-over sheet needs of each shipment of the order (src/ledger/reports/sheet.ts). */
  sheet?: SheetShipment[];
  /**
   * For `created` and `answered` of an order that leaves Australia: what its customs papers need of
   * each shipment (addresses, packages, customs items; its shape is the papers' own, in
   * src/booking/papers/shipment.ts, which the ledger stores without reading).
   */
  papers?: unknown[];
  /**
   * For `created` of an order whose service the rules chose: each shipment's decision (the rule,
   * the reason, the quote used with every entry and its price; its shape is the rules' own, in
   * src/booking/rules/record.ts, which the ledger stores without reading).
   */
  service_choice?: unknown[];
  /** For `papers`: the files written. */
  files?: string[];
  /** For `scanned`, `handed_over` and `not_handed_over`: the dock's side of it. */
  dock?: DockMark;
}

/** What a dock record says besides its time, user and host (a scan, a hand-over to a driver). */
export interface DockMark {
  /** The scanning session (one run of `shipbook dock`), random. */
  session: string;
  /** The station that scanned: a name given with `--station`, else the host. */
  station: string;
  /** The shipment of the parcel. */
  shipment_id?: string;
  /** The code as read from the label, when it was more than the tracking number. */
  code?: string;
  /** The driver (and vehicle) the parcel was handed to, once named. */
  driver?: string;
  vehicle?: string;
}

/**
 * The run that holds a document's claim in the ledger: which process (pid and its start time, on
 * which host), since when, and a nonce drawn once per run, which tells a run from a later one of a
 * reused pid and is what a release names.
 */
export interface RunClaim {
  pid: number;
  host: string;
  /** The process's start time (Linux clock ticks since boot), to tell a reused pid; absent where unknown. */
  start?: string;
  /** ISO time the run started. */
  at: string;
  /** Random, one per run. */
  nonce: string;
  /** What the run is, for the message of whoever finds it holding a document (a command line, no secrets). */
  command: string;
}

/** Where an order of the journal stands, folded from its records. */
export interface EntryState {
  id: string;
  /** `new` (nothing recorded or resolved not created), `unknown` (a create sent, no answer), `created`, `accepted`, `processed`, `failed`. */
  stage: 'new' | 'unknown' | 'created' | 'accepted' | 'processed' | 'failed';
  file?: string;
  line?: number;
  orderId?: string;
  shipmentIds: string[];
  trackingNumbers?: string[];
  total?: string;
  error?: JournalRecord['error'];
  /** The request whose answer never came, when `unknown`. */
  unknownStep?: string;
  /** How many records this order has (attempts and steps). */
  records: number;
  /** For an order refused by `--max-total`: the limit that refused it, AUD, a decimal string. */
  limit?: string;
  /** What `journal resolve` recorded about the latest create (a newer create clears it): the order id, or `not_created`. */
  resolvedAs?: string;
  /** The transient ids of the document's shipments, as its create recorded them. */
  transientIds?: string[];
  /**
   * The run holding the document, with the time of its claim: set by `claimed`, cleared by that
   * run's `released` and by a final outcome (processed, failed, resolved). Whether that run still
   * lives is for the reader to judge (src/ledger/claims.ts).
   */
  claim?: RunClaim & { since: string };
}

/** Every record starts with its time: the start of a record glued to a torn one before it. */
export const RECORD_START = '{"t":';

/** True for a parsed line that has the shape of a record (an id and an event). */
export const isRecord = (r: unknown): r is JournalRecord => typeof (r as JournalRecord)?.id === 'string' && typeof (r as JournalRecord).event === 'string';

/** A line as a record, or undefined when it is not one. */
export function parseRecord(line: string): JournalRecord | undefined {
  try {
    const r: unknown = JSON.parse(line);
    return isRecord(r) ? r : undefined;
  } catch {
    return undefined;
  }
}

/** A record with its time, and its line as written to a journal file. */
export interface PreparedRecord {
  record: JournalRecord;
  /** The NDJSON line, newline included, every known secret masked. */
  line: string;
}

/** What the ledger stamps on a record besides its time: who made it, and an accept's payment type. */
export type RecordStamp = Pick<JournalRecord, 'op' | 'user' | 'host' | 'profile' | 'payment'>;

/**
 * Stamps a record with the time (and `stamp`'s fields, after its own) and serialises it once (the
 * ledger writes the same line to the ledger and to the run's journal copy). Never a secret in
 * clear on disk: an error message that echoed the key or a card number is masked.
 */
export function prepareRecord(record: Omit<JournalRecord, 't'>, stamp?: RecordStamp): PreparedRecord {
  const full: JournalRecord = stamp === undefined ? { t: new Date().toISOString(), ...record } : { t: new Date().toISOString(), ...record, ...stamp };
  return { record: full, line: `${scrubKnown(JSON.stringify(full))}\n` };
}

/**
 * The prefix of the identity of a change that belongs to no document (a shipment created by hand,
 * a combine by hand): its records say what was sent and answered, never where a document stands.
 */
export const CHANGE_PREFIX = 'change:';

/** True for the identity of a change that belongs to no document (see {@link CHANGE_PREFIX}). */
export const isChangeIdentity = (id: string): boolean => id.startsWith(CHANGE_PREFIX);

/**
 * A record as the one dialect written today says it. Every request that changes something has its
 * intent (`create_sent` with its step, `accept_sent`, `cancel_sent`) and its answer (`created`,
 * `shipment_created`, `accepted`, `cancelled`, `refused`), whoever sent it. Older records of
 * commands typed by hand said `sent` (with the step) and `answered`: read here as `create_sent` /
 * `cancel_sent`, and as `created` (an answer that names an order) or `shipment_created`.
 */
export function currentRecord(r: JournalRecord): JournalRecord {
  if (r.event === 'sent') return { ...r, event: r.step === 'cancel' ? 'cancel_sent' : 'create_sent' };
  if (r.event === 'answered') return { ...r, event: r.order_id !== undefined ? 'created' : 'shipment_created' };
  return r;
}
