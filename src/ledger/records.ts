/**
 * The records of the ledger and of a journal file: one NDJSON line each, what it says happened
 * (an intent before its request, an answer as it arrived, a claim, a failure, a resolution), and
 * how a record is stamped and serialised once for every file it goes to. Where a document stands
 * is folded from its records (src/ledger/fold.ts).
 */
import type { SheetShipment } from './sheet.js';
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
  /** A command typed by hand is about to send a request that changes something (`step`: create_shipment, combine, cancel); on disk before it leaves. */
  | 'sent'
  /** The service answered a `sent` request: done (`order_id`, `shipment_ids`, `total`, `sheet` as it said). */
  | 'answered'
  /** The service refused a request typed by hand (`error`): nothing changed there. */
  | 'refused'
  /** The order was cancelled (by `order cancel`, or as `order get` or a callback learned). */
  | 'cancelled';

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
  /** For `created` and `answered`: what the hand-over sheet needs of each shipment of the order (src/ledger/sheet.ts). */
  sheet?: SheetShipment[];
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
