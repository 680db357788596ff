/**
 * The batch journal: an append-only NDJSON file (one per target by default, src/ledger/ledger.ts
 * `defaultJournalPath`). An intent (create sent, accept sent) is written and flushed to disk BEFORE
 * the request that changes something at the service is sent (a group commit: the intents of the
 * orders under way share one write and one fdatasync per turn); what an answer said (order created
 * with its id, accepted, processed with its tracking numbers) is written at once, as soon as it
 * arrives; a failure records the error. A rerun reads it and continues each order from
 * where it stands; a create that was sent and never answered is **unknown** and is not sent again
 * until `shipbook journal resolve` says what became of it (docs/batch.md, "Unknown orders").
 *
 * One batch at a time per journal: a lock (`<journal>.lock`, src/lock.ts) with the holder's pid,
 * host and command, held until the holder ends, so a second batch refuses to start and names the
 * first. A record is written whole and flushed before its request, or the request is not sent: a
 * full disk ends the batch with exit 10 and a message saying what was not recorded; an incomplete
 * last record left by it (or by a crash) is set aside by the next run.
 */
import {
  appendFileSync,
  closeSync,
  existsSync,
  fdatasync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  readFileSync,
  readSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { FILE_SYSTEM_REFUSALS, makeDirectory } from '../dirs.js';
import { EXIT, ShipbookError } from '../errors.js';
import { acquireLock, LockHeldError, type HeldLock } from '../lock.js';
import { scrubKnown } from '../api/redact.js';

/**
 * The default journal of earlier versions, relative to the working directory (it names no target;
 * the default journal is now one per target, src/ledger/ledger.ts `defaultJournalPath`).
 */
export const LEGACY_JOURNAL = '.shipbook/journal.ndjson';

/** What a record says happened. */
type JournalEvent =
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
  | 'target';

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

/** Folds one record into the state of its order. */
export function applyRecord(state: EntryState | undefined, r: JournalRecord): EntryState {
  const s: EntryState = state ?? { id: r.id, stage: 'new', shipmentIds: [], records: 0 };
  if (r.event !== 'claimed' && r.event !== 'released') s.records++;
  if (r.file !== undefined) s.file = r.file;
  if (r.line !== undefined) s.line = r.line;
  switch (r.event) {
    case 'create_sent':
      s.stage = 'unknown';
      s.unknownStep = r.step;
      // A resolution answered an earlier create: a newer one is a new question, answered afresh.
      s.resolvedAs = undefined;
      if (r.transient_ids) s.transientIds = [...r.transient_ids];
      break;
    case 'shipment_created':
      s.shipmentIds = [...(r.shipment_ids ?? s.shipmentIds)];
      s.stage = 'failed'; // shipments exist, no parent yet: only a combine continues it
      s.unknownStep = undefined;
      break;
    case 'created':
      s.stage = 'created';
      s.orderId = r.order_id;
      if (r.shipment_ids) s.shipmentIds = [...r.shipment_ids];
      if (r.total) s.total = r.total;
      s.unknownStep = undefined;
      break;
    case 'accept_sent':
      // An accept is safe to send again: a rerun reads the order when the service answers 409.
      break;
    case 'accepted':
      s.stage = 'accepted';
      break;
    case 'processed':
      s.stage = 'processed';
      s.trackingNumbers = r.tracking_numbers;
      if (r.total) s.total = r.total;
      s.claim = undefined;
      break;
    case 'claimed':
      if (r.run) s.claim = { ...r.run, since: r.t };
      break;
    case 'released':
      if (s.claim !== undefined && s.claim.nonce === r.run?.nonce) s.claim = undefined;
      break;
    case 'failed':
      s.claim = undefined;
      s.error = r.error;
      s.limit = r.limit;
      s.stage = r.created === false && s.orderId === undefined ? 'new' : 'failed';
      if (r.created === false && s.orderId === undefined) s.unknownStep = undefined;
      break;
    case 'resolved':
      if (r.not_created) {
        s.stage = 'new';
        s.orderId = undefined;
      } else {
        s.stage = 'created';
        s.orderId = r.order_id;
      }
      s.unknownStep = undefined;
      s.error = undefined;
      s.resolvedAs = r.not_created ? 'not_created' : r.order_id;
      s.claim = undefined;
      break;
    case 'target':
      break;
  }
  return s;
}

/** What reading a journal found besides its records. */
interface JournalReading {
  states: Map<string, EntryState>;
  /** Things set aside while reading, for people (a torn last record, the torn start of a line). */
  notes: string[];
  /**
   * Where the complete records end, bytes, when the file ends with an incomplete record (cut short
   * by a full disk or a crash while it was written: never acknowledged, so never acted on).
   */
  tornAt?: number;
  /** Where the last complete record read ends, bytes (a shared file is read on from there). */
  end: number;
}

/** Every record starts with its time: the start of a record glued to a torn one before it. */
const RECORD_START = '{"t":';

const isRecord = (r: unknown): r is JournalRecord => typeof (r as JournalRecord)?.id === 'string' && typeof (r as JournalRecord).event === 'string';

/**
 * Reads a journal file into the state of each order, in first-seen order, with notes on what was
 * set aside: an incomplete last record (no newline, or not a record), and the torn start of a line
 * that an older shipbook appended to after a failed write (the record that follows is kept).
 * @throws JournalCorruptError (exit 2) naming the line for a line that is not a record
 */
function readJournalFile(path: string): JournalReading {
  const reading: JournalReading = { states: new Map(), notes: [], end: 0 };
  if (!existsSync(path)) return reading;
  const bytes = readFileSync(path);
  const text = bytes.toString('utf8');
  reading.end = bytes.length;
  const lines = text.split('\n');
  let offset = 0;
  lines.forEach((line, i) => {
    const start = offset;
    offset += Buffer.byteLength(line) + 1;
    if (line.trim() === '') return;
    const last = i === lines.length - 1 || (i === lines.length - 2 && lines[lines.length - 1] === '');
    let r: unknown;
    try {
      r = JSON.parse(line);
    } catch {
      r = undefined;
    }
    const torn = () => {
      reading.tornAt = start;
      reading.end = start;
      reading.notes.push(
        `${path}:${i + 1}: an incomplete last record (cut short by a full disk or a crash while it was written, so never acted on) was set aside`,
      );
    };
    // The last line without its newline was never acknowledged: a write cut short.
    if (i === lines.length - 1) return torn();
    if (!isRecord(r)) {
      const at = line.lastIndexOf(RECORD_START);
      try {
        r = at > 0 ? JSON.parse(line.slice(at)) : undefined;
      } catch {
        r = undefined;
      }
      if (!isRecord(r)) {
        if (last) return torn();
        throw new JournalCorruptError(path, i + 1);
      }
      reading.notes.push(`${path}:${i + 1}: the torn start of the line (${at} bytes, a record cut short before it, never acted on) was skipped`);
    }
    // The record naming the journal's target is about the file, not about an order.
    if (r.event === 'target') return;
    reading.states.set(r.id, applyRecord(reading.states.get(r.id), r));
  });
  return reading;
}

/** Reads a journal file into the state of each order, in first-seen order. @throws JournalCorruptError (exit 2) naming the line for a line that is not a record */
export function readJournal(path: string): Map<string, EntryState> {
  return readJournalFile(path).states;
}

/** A line in the middle of the journal is not a record (edited by hand, or another file). Exit 2. */
class JournalCorruptError extends ShipbookError {
  constructor(
    readonly path: string,
    readonly line: number,
  ) {
    super('journal_corrupt', `${path}:${line}: not a journal record`, EXIT.INPUT, {
      suggestion: 'The journal is NDJSON written by shipbook book; restore that line, or move the journal aside and resolve its orders by hand.',
    });
  }
}

/**
 * The target service a journal was written against: its first `target` record (src/config/target.ts
 * `targetId`); undefined for an empty journal, or one written before journals named their target.
 */
export function journalTarget(path: string): string | undefined {
  if (!existsSync(path)) return undefined;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    try {
      const r = JSON.parse(line) as Partial<JournalRecord>;
      if (r.event === 'target' && typeof r.target === 'string') return r.target;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** How to open a journal. */
interface JournalOpenOptions {
  /** One batch at a time: take the journal's lock. */
  lock: boolean;
  /** Names the holder in the lock. */
  command: string;
  /** Other processes append to it too (the ledger): keep reading it with {@link Journal.refresh}. */
  shared?: boolean;
}

/** A line as a record, or undefined when it is not one. */
function parseRecord(line: string): JournalRecord | undefined {
  try {
    const r: unknown = JSON.parse(line);
    return isRecord(r) ? r : undefined;
  } catch {
    return undefined;
  }
}

/** Who holds a journal's lock. */
interface JournalOwner {
  pid: number;
  host: string;
  started_at: string;
  command: string;
}

/** The journal is in use by another batch. */
export class JournalLockedError extends Error {
  constructor(
    readonly path: string,
    readonly owner: JournalOwner | undefined,
  ) {
    super(
      `the journal ${path} is in use by another batch${owner ? ` (pid ${owner.pid} on ${owner.host}, started ${owner.started_at}: ${owner.command})` : ''}`,
    );
    this.name = 'JournalLockedError';
  }
}

/** Refusals of a disk that cannot take writes, whatever the path: exit 10, not a wrong path (exit 2). */
const STORAGE_CODES: ReadonlySet<string> = new Set(['ENOSPC', 'EDQUOT', 'EIO', 'EROFS']);

/** What a refusal means, in words. */
const REFUSAL_WORDS: Record<string, string> = {
  ENOENT: 'its directory cannot be created',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOTDIR: 'a file is where a directory belongs',
  EEXIST: 'a file is where a directory belongs',
  EISDIR: 'it is a directory',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EIO: 'input/output error',
  EFBIG: 'the file is too large',
  ELOOP: 'too many symbolic links',
  ENAMETOOLONG: 'the name is too long',
};

/**
 * The journal's file or directory cannot be created, read or written (no permission, a file where
 * a directory belongs, read-only, full …): `cause` is the file system's error, `path` the journal.
 */
export class JournalUnusableError extends Error {
  constructor(
    readonly path: string,
    override readonly cause: NodeJS.ErrnoException,
  ) {
    const where = cause.path && cause.path !== path ? ` (${cause.path})` : '';
    super(`cannot use the journal ${path}: ${REFUSAL_WORDS[cause.code ?? ''] ?? cause.message}${where} [${cause.code}]`);
    this.name = 'JournalUnusableError';
  }

  /** The exit code of the refusal: 10 for a disk that cannot take writes (full, quota, I/O error, read-only), else 2. */
  get exitCode(): typeof EXIT.STORAGE | typeof EXIT.INPUT {
    return STORAGE_CODES.has(this.cause.code ?? '') ? EXIT.STORAGE : EXIT.INPUT;
  }
}

/** In words, what a record that could not be written would have said. */
export function describeRecord(r: Omit<JournalRecord, 't'>): string {
  const who = r.file !== undefined ? `the order of ${r.file}${r.line !== undefined ? `:${r.line}` : ''}` : `booking ${r.id}`;
  switch (r.event) {
    case 'create_sent':
      return `that the ${r.step ?? 'create'} request of ${who} was about to be sent, so it was not sent`;
    case 'accept_sent':
      return `that the accept of order ${r.order_id ?? '?'} (${who}) was about to be sent, so it was not sent`;
    case 'created':
      return `that ${who} was created as order ${r.order_id ?? '?'} (the journal keeps its create as sent, answer unknown)`;
    case 'shipment_created':
      return `that shipments ${(r.shipment_ids ?? []).join(', ')} of ${who} were created (the journal keeps the create as sent, answer unknown)`;
    case 'accepted':
      return `that order ${r.order_id ?? '?'} (${who}) was accepted (a rerun accepts it again, which is safe)`;
    case 'processed':
      return `that order ${r.order_id ?? '?'} (${who}) was booked (a rerun reads its result again)`;
    case 'failed':
      return `that ${who} failed`;
    case 'resolved':
      return `the resolution of ${who}`;
    case 'target':
      return `which service the journal was written against (${r.target ?? '?'})`;
    case 'claimed':
      return `that this run took ${who} in hand, so nothing was sent for it`;
    case 'released':
      return `that this run let go of ${who}`;
  }
}

/**
 * A record could not be written or made durable (no space left, quota, I/O error, read-only):
 * the message names the journal and what was not recorded; a request that depended on it was not
 * sent. The journal takes no more records in this run (a record after a torn one would be lost).
 * Exit 10.
 */
export class JournalWriteError extends ShipbookError {
  constructor(
    readonly path: string,
    override readonly cause: NodeJS.ErrnoException,
    readonly notRecorded: string,
  ) {
    super(
      'journal_write_failed',
      `cannot write the journal ${path}: ${REFUSAL_WORDS[cause.code ?? ''] ?? cause.message} [${cause.code ?? 'error'}]; not recorded: ${notRecorded}`,
      EXIT.STORAGE,
      {
        suggestion:
          'Free space on that disk (or fix it), then run the same command again: nothing recorded as sent is sent twice, and an order whose answer was not recorded shows as unknown until "shipbook journal resolve" settles it.',
        cause,
      },
    );
  }
}

/**
 * The journal's lock was removed or taken by another process while this batch ran: it sends no
 * new request (what was under way is still recorded) and ends with exit 11.
 */
class JournalLockLostError extends ShipbookError {
  constructor(
    readonly path: string,
    detail: string,
  ) {
    super('journal_lock_lost', `${detail}; no new request was sent after that, and what was under way is recorded in ${path}`, EXIT.LOCK_LOST, {
      suggestion: 'Make sure only one batch uses this journal (give each its own --journal), then run the same command again: nothing recorded is sent twice.',
    });
  }
}

/** A record with its time, and its line as written to a journal file. */
interface PreparedRecord {
  record: JournalRecord;
  /** The NDJSON line, newline included, every known secret masked. */
  line: string;
}

/**
 * Stamps a record with the time and serialises it once (the ledger writes the same line to the
 * ledger and to the run's journal copy). Never a secret in clear on disk: an error message that
 * echoed the key or a card number is masked.
 */
export function prepareRecord(record: Omit<JournalRecord, 't'>): PreparedRecord {
  const full: JournalRecord = { t: new Date().toISOString(), ...record };
  return { record: full, line: `${scrubKnown(JSON.stringify(full))}\n` };
}

/** Records of what an answer said: still written once the lock is lost (see {@link Journal.append}). */
const FACTS: ReadonlySet<JournalEvent> = new Set(['created', 'shipment_created', 'accepted', 'processed']);

/** A write that lets the file grow to at most `limit` bytes (then ENOSPC), for tests of a full disk (see {@link Journal.open}). */
function limitedWrite(limit: number): (fd: number, bytes: Buffer, offset: number, length: number) => number {
  return (fd, bytes, offset, length) => {
    const room = limit - fstatSync(fd).size;
    if (room <= 0) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });
    return writeSync(fd, bytes, offset, Math.min(room, length));
  };
}

/**
 * An open journal: the state of every order, and its appends: intents written in groups (one write
 * per turn of the event loop, one flush per round: {@link Journal.durable}), answers written at once.
 */
export class Journal {
  /** Set once a write or flush failed: no record is written after a torn one. */
  private broken: NodeJS.ErrnoException | undefined;
  /** The first failure, thrown again by every later append: what people need to know is where it began. */
  private failure: JournalWriteError | undefined;
  /** The file's size after the last complete record this process wrote (locked journals only: the sole writer). */
  private size: number;

  private constructor(
    readonly path: string,
    private readonly fd: number,
    readonly states: Map<string, EntryState>,
    private readonly lock: HeldLock | undefined,
    /** What opening set aside (a torn last record …), for people: one sentence each. */
    readonly notes: readonly string[],
    private readonly write: (fd: number, bytes: Buffer, offset: number, length: number) => number,
    /** Shared with other runs (the ledger): where this process has read up to, bytes; undefined for a file of one run. */
    private readTo: number | undefined,
  ) {
    this.size = fstatSync(fd).size;
    process.on('exit', this.writeAtExit);
  }

  /** Lines this process wrote to a shared file that {@link refresh} has not read back yet (line → how many). */
  private readonly own = new Map<string, number>();

  /**
   * Reads what other processes appended to a shared file since this process last read it, and
   * folds it into {@link states}: one fstat, and one read of the new bytes only. A line still being
   * written (no newline yet) is left for the next refresh; this process's own lines are recognised
   * and skipped (they were folded when appended). Returns the ids whose state another process
   * changed. A file of one run (not shared) has nothing to read.
   * @throws the file system's error when the file cannot be read
   */
  refresh(): Set<string> {
    const changed = new Set<string>();
    if (this.readTo === undefined) return changed;
    const size = fstatSync(this.fd).size;
    if (size <= this.readTo) return changed;
    const bytes = Buffer.alloc(size - this.readTo);
    const got = readSync(this.fd, bytes, 0, bytes.length, this.readTo);
    const last = bytes.lastIndexOf(10, got - 1);
    if (last < 0) return changed;
    this.readTo += last + 1;
    for (const line of bytes.toString('utf8', 0, last).split('\n')) {
      if (line === '') continue;
      let r = parseRecord(line);
      let key = line;
      if (r === undefined) {
        // A record cut short by a process that died while writing it, glued to the next one.
        const at = line.lastIndexOf(RECORD_START);
        if (at <= 0) continue;
        key = line.slice(at);
        r = parseRecord(key);
        if (r === undefined) continue;
      }
      const mine = this.own.get(key);
      if (mine !== undefined) {
        if (mine <= 1) this.own.delete(key);
        else this.own.set(key, mine - 1);
        continue;
      }
      if (r.event === 'target') continue;
      this.states.set(r.id, applyRecord(this.states.get(r.id), r));
      changed.add(r.id);
    }
    return changed;
  }

  /**
   * Writes what is still pending when the process exits without closing the journal (a second
   * Ctrl-C exits at once): records of answers already received are not lost with the turn.
   */
  private readonly writeAtExit = (): void => {
    try {
      this.writePending();
    } catch {
      // the process is ending: the next run sets a torn record aside
    }
  };

  /**
   * Opens (creating it and its directory) the journal at `path`. With `lock`, takes the lock for
   * this batch (`<path>.lock`, held until this process ends: see src/lock.ts) and sets aside an
   * incomplete last record (into `<path>.torn`, with a note in {@link notes}).
   *
   * For tests of a full disk, `SHIPBOOK_TEST_JOURNAL_SPACE=<bytes>` makes writes fail with ENOSPC
   * (after a short write) once the file would grow past that size.
   * @throws JournalLockedError when another batch holds it; JournalUnusableError when the file
   *   system refuses the file or its directory; JournalCorruptError when a line is not a record
   */
  static async open(path: string, options: JournalOpenOptions): Promise<Journal> {
    try {
      return await Journal.openFile(path, options);
    } catch (err) {
      if (FILE_SYSTEM_REFUSALS.has((err as NodeJS.ErrnoException)?.code ?? '')) throw new JournalUnusableError(path, err as NodeJS.ErrnoException);
      throw err;
    }
  }

  private static async openFile(path: string, options: JournalOpenOptions): Promise<Journal> {
    makeDirectory(dirname(path));
    if (!existsSync(path)) writeFileSync(path, '', { flag: 'a' });
    let lock: HeldLock | undefined;
    if (options.lock) {
      try {
        // Held while this process runs, however long it pauses; lost only if removed or taken by force.
        lock = await acquireLock(`${path}.lock`, { command: options.command });
      } catch (err) {
        if (err instanceof LockHeldError) throw new JournalLockedError(path, err.owner);
        throw err;
      }
    }
    try {
      const reading = readJournalFile(path);
      const notes = [...reading.notes];
      if (lock !== undefined && reading.tornAt !== undefined) notes.splice(0, notes.length, ...setAsideTorn(path, reading.tornAt, reading.notes));
      const fd = openSync(path, options.shared ? 'a+' : 'a');
      const limit = Number(process.env.SHIPBOOK_TEST_JOURNAL_SPACE);
      return new Journal(
        path,
        fd,
        reading.states,
        lock,
        notes,
        Number.isFinite(limit) && limit > 0 ? limitedWrite(limit) : writeSync,
        options.shared ? reading.end : undefined,
      );
    } catch (err) {
      lock?.release();
      throw err;
    }
  }

  /** Fails when nothing more may be written: a write failed earlier, or (for a request about to be sent) the lock was lost. */
  private check(record: Omit<JournalRecord, 't'>): void {
    if (this.broken) throw this.failure ?? new JournalWriteError(this.path, this.broken, describeRecord(record));
    // Once the lock is lost, only what answers already said is recorded (created, accepted,
    // processed): no request is started, and no failure is written over another batch's records.
    if (this.lock !== undefined && !FACTS.has(record.event) && !this.lock.verify()) {
      throw new JournalLockLostError(this.path, this.lock.compromised?.message ?? `the lock ${this.lock.path} was lost`);
    }
  }

  /** Lines appended and not yet written, in order (one write takes them all: see {@link writePending}). */
  private pending: string[] = [];
  /** The first record of {@link pending}, to say what was not recorded when their write fails. */
  private pendingFirst: Omit<JournalRecord, 't'> | undefined;
  /** Callers of {@link written} waiting for the next write of {@link pending}. */
  private writeWaiters: Array<{ resolve: () => void; reject: (err: unknown) => void }> = [];
  /** A write of {@link pending} is scheduled for the end of this turn of the event loop. */
  private writeScheduled = false;

  /**
   * Appends a record and updates the order's state. An intent joins the others appended in the
   * same turn of the event loop: they are written together, whole, in one write (a group commit)
   * before the turn ends, or before the flush of {@link durable} starts, whichever comes first; an
   * answer (created, shipment_created, accepted, processed) is written at once, with them.
   * Call {@link durable} before a request that depends on it, {@link written} to know it reached
   * the file.
   * @throws JournalWriteError (exit 10) when an earlier write or flush failed, or the write of an answer fails; JournalLockLostError
   *   (exit 11) for any record but what an answer said (created, shipment_created, accepted,
   *   processed) once the lock was lost
   */
  append(record: Omit<JournalRecord, 't'>): EntryState {
    return this.appendPrepared(prepareRecord(record), record);
  }

  /**
   * {@link append} of a record already serialised by {@link prepareRecord} (the ledger writes the
   * same line to two files).
   */
  appendPrepared(prepared: PreparedRecord, record: Omit<JournalRecord, 't'> = prepared.record): EntryState {
    this.check(record);
    if (this.pending.length === 0) this.pendingFirst = record;
    this.pending.push(prepared.line);
    // What an answer said (an order created, accepted, processed) is written at once, with whatever
    // is pending before it: shipbook prints it and acts on it next, and a process killed the moment
    // after must still find it. Intents (a request about to be sent) wait for the turn's group
    // write: their request leaves only after durable(), so one lost with the process sent nothing.
    if (FACTS.has(record.event)) {
      this.writePending();
    } else if (!this.writeScheduled) {
      this.writeScheduled = true;
      setImmediate(() => {
        this.writeScheduled = false;
        try {
          this.writePending();
        } catch {
          // kept in this.failure: every waiter was told, and the next append or flush throws it
        }
      });
    }
    const state = applyRecord(this.states.get(prepared.record.id), prepared.record);
    this.states.set(prepared.record.id, state);
    return state;
  }

  /**
   * Writes every pending line in one write (written whole: a write that takes only part of the
   * bytes is followed by the rest, or fails), then tells the callers of {@link written}.
   * @throws JournalWriteError when the write fails (the part written is cut off again where
   *   possible, and the journal takes no more records)
   */
  private writePending(): void {
    if (this.broken) {
      const failure = this.failure ?? new JournalWriteError(this.path, this.broken, 'the records appended since the last write');
      this.settleWriters(failure);
      throw failure;
    }
    if (this.pending.length === 0) {
      this.settleWriters(undefined);
      return;
    }
    if (this.readTo !== undefined) {
      for (const line of this.pending) {
        const key = line.slice(0, -1);
        this.own.set(key, (this.own.get(key) ?? 0) + 1);
      }
    }
    const bytes = Buffer.from(this.pending.length === 1 ? this.pending[0]! : this.pending.join(''));
    const first = this.pendingFirst!;
    this.pending = [];
    this.pendingFirst = undefined;
    let written = 0;
    try {
      // A write may take only part of the bytes (a disk filling up): the rest follows, or it fails.
      while (written < bytes.length) written += this.write(this.fd, bytes, written, bytes.length - written);
    } catch (err) {
      this.broken = err as NodeJS.ErrnoException;
      if (this.lock !== undefined && written > 0) {
        try {
          // The sole writer: what was written of these records goes again, so the file ends with a whole record.
          ftruncateSync(this.fd, this.size);
        } catch {
          // the next run sets the torn record aside
        }
      }
      this.failure = new JournalWriteError(this.path, this.broken, `${describeRecord(first)}, nor anything after it`);
      this.settleWriters(this.failure);
      throw this.failure;
    }
    this.size += bytes.length;
    this.settleWriters(undefined);
  }

  /**
   * Writes what is pending now, in one write (a shared file's claims must be in the file before its
   * lock is given back).
   * @throws JournalWriteError (exit 10) when the write, or an earlier one, failed
   */
  writeNow(): void {
    this.writePending();
  }

  /** Resolves (or, with `failure`, rejects) every caller of {@link written} so far. */
  private settleWriters(failure: JournalWriteError | undefined): void {
    if (this.writeWaiters.length === 0) return;
    const waiters = this.writeWaiters;
    this.writeWaiters = [];
    for (const w of waiters)
      if (failure === undefined) w.resolve();
      else w.reject(failure);
  }

  /**
   * Resolves once every record appended so far is written to the file (not yet flushed: a crash of
   * this process then finds it, a crash of the machine may not). Records of the same turn share
   * the write.
   * @throws JournalWriteError (exit 10) when that write, or an earlier one, failed
   */
  written(): Promise<void> {
    if (this.broken) return Promise.reject(this.failure ?? new JournalWriteError(this.path, this.broken, 'the records appended since the last write'));
    if (this.pending.length === 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => this.writeWaiters.push({ resolve, reject }));
  }

  private inFlight: Promise<void> | undefined;
  private next: { promise: Promise<void>; resolve: () => void; reject: (err: unknown) => void } | undefined;

  /**
   * Resolves once every record appended so far is on disk (written, then fdatasync: the data and
   * the file's size). Orders booked at once share one write and one flush (a group commit): the
   * records appended while a flush is under way are written together when it ends, and flushed by
   * the next one, so the journal costs one write and one flush per round of requests and never
   * blocks the other orders while the disk works.
   * @throws JournalWriteError (exit 10) when the write or the flush fails (the records may not be
   *   on disk): every caller waiting for that flush gets it
   */
  durable(): Promise<void> {
    if (this.broken)
      return Promise.reject(
        this.failure ?? new JournalWriteError(this.path, this.broken, 'the records written since the last flush (their requests were not sent)'),
      );
    const waiting = this.next;
    if (waiting !== undefined) return waiting.promise;
    let resolve!: () => void;
    let reject!: (err: unknown) => void;
    const promise = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    this.next = { promise, resolve, reject };
    this.scheduleKick();
    return promise;
  }

  /** A flush is to start at the end of this turn of the event loop. */
  private kickScheduled = false;

  /**
   * Starts the next flush at the end of this turn (so every order appending in this turn joins
   * it), unless one is under way: then it starts when that one ends.
   */
  private scheduleKick(): void {
    if (this.inFlight !== undefined || this.kickScheduled || this.next === undefined) return;
    this.kickScheduled = true;
    setImmediate(() => {
      this.kickScheduled = false;
      this.kick();
    });
  }

  /**
   * Starts the next flush unless one is under way: writes what is pending first, so the flush
   * covers every record appended before it starts.
   */
  private kick(): void {
    if (this.inFlight !== undefined || this.next === undefined) return;
    const batch = this.next;
    this.next = undefined;
    try {
      this.writePending();
    } catch (err) {
      batch.reject(err);
      return;
    }
    this.inFlight = new Promise<void>((done) =>
      fdatasync(this.fd, (err) => {
        if (err) {
          // After a failed flush the kernel may have dropped the pages: nothing more is trusted to this file.
          this.broken ??= err;
          this.failure ??= new JournalWriteError(
            this.path,
            err,
            'the records written since the last flush (their requests were not sent), nor anything after them',
          );
          batch.reject(this.failure);
        } else batch.resolve();
        done();
      }),
    ).then(() => {
      this.inFlight = undefined;
      this.scheduleKick();
    });
  }

  /** Closes the file and releases the lock. Never fails for a journal that already failed a write. */
  async close(): Promise<void> {
    await this.inFlight;
    process.off('exit', this.writeAtExit);
    // A flush still to start is made here, once, for its callers.
    const waiting = this.next;
    this.next = undefined;
    try {
      try {
        this.writePending();
      } catch {
        // the failure was the callers' to report; what was written stays
      }
      if (!this.broken) fsyncSync(this.fd);
      if (this.broken) waiting?.reject(this.failure ?? new JournalWriteError(this.path, this.broken, 'the records written since the last flush'));
      else waiting?.resolve();
    } catch (err) {
      waiting?.reject(err);
      throw err;
    } finally {
      closeSync(this.fd);
      this.lock?.release();
    }
  }
}

/**
 * Cuts an incomplete last record off the journal (its write never completed, so nothing acted on
 * it: an intent's request was never sent, an answer was never printed) and keeps its bytes in
 * `<path>.torn` with a note; returns the notes to show.
 */
function setAsideTorn(path: string, tornAt: number, notes: readonly string[]): string[] {
  const fd = openSync(path, 'r+');
  try {
    const size = fstatSync(fd).size;
    const torn = Buffer.alloc(size - tornAt);
    readSync(fd, torn, 0, torn.length, tornAt);
    let kept = true;
    try {
      appendFileSync(
        `${path}.torn`,
        Buffer.concat([Buffer.from(`# ${new Date().toISOString()}: cut from the end of ${path} (byte ${tornAt}), never acted on\n`), torn, Buffer.from('\n')]),
      );
    } catch {
      kept = false; // a disk still full: the bytes were never acted on, dropping them loses nothing
    }
    ftruncateSync(fd, tornAt);
    fsyncSync(fd);
    return notes.map((n) =>
      n.endsWith('was set aside')
        ? `${n} ${kept ? `in ${path}.torn` : '(dropped: it could not be copied aside)'}; the journal continues after the last whole record`
        : n,
    );
  } finally {
    closeSync(fd);
  }
}
