/**
 * The batch journal: an append-only NDJSON file (default `.shipbook/journal.ndjson`), each record
 * written, and flushed to disk (fsync, shared by the orders under way) BEFORE a request that changes something at the service is
 * sent, and after its answer: create sent, order created (its id), accept sent, accepted,
 * processed (tracking numbers), failed (the error). A rerun reads it and continues each order from
 * where it stands; a create that was sent and never answered is **unknown** and is not sent again
 * until `shipbook journal resolve` says what became of it (PRODUCT.md, "an answer that never came").
 *
 * One batch at a time per journal: a lock (proper-lockfile on `<journal>.lock`) with the holder's
 * pid and command in `<journal>.owner`, so a second batch refuses to start and names the first.
 */
import { closeSync, existsSync, fsync, fsyncSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import lockfile from 'proper-lockfile';
import { FILE_SYSTEM_REFUSALS, makeDirectory } from '../dirs.js';

/**
 * The default journal of earlier versions, relative to the working directory (it names no target;
 * the default journal is now one per target, src/ledger/ledger.ts `defaultJournalPath`).
 */
export const DEFAULT_JOURNAL = '.shipbook/journal.ndjson';

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
  /** The first record of a journal or ledger: the target service it was written against (never a key). */
  | 'target';

/** One line of the journal. */
export interface JournalRecord {
  /** ISO time of writing. */
  t: string;
  /** The order's identity (src/batch/identity.ts). */
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
  /** What `journal resolve` last recorded: the order id, or `not_created`. */
  resolvedAs?: string;
  /** The transient ids of the document's shipments, as its create recorded them. */
  transientIds?: string[];
}

/** Folds one record into the state of its order. */
export function applyRecord(state: EntryState | undefined, r: JournalRecord): EntryState {
  const s: EntryState = state ?? { id: r.id, stage: 'new', shipmentIds: [], records: 0 };
  s.records++;
  if (r.file !== undefined) s.file = r.file;
  if (r.line !== undefined) s.line = r.line;
  switch (r.event) {
    case 'create_sent':
      s.stage = 'unknown';
      s.unknownStep = r.step;
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
      break;
    case 'failed':
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
      break;
    case 'target':
      break;
  }
  return s;
}

/** Reads a journal file into the state of each order, in first-seen order. @throws Error naming the line for a line that is not a record */
export function readJournal(path: string): Map<string, EntryState> {
  const states = new Map<string, EntryState>();
  if (!existsSync(path)) return states;
  const lines = readFileSync(path, 'utf8').split('\n');
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    let r: JournalRecord;
    try {
      r = JSON.parse(line) as JournalRecord;
    } catch {
      // The last line may be cut short by a kill -9 while it was written: it was never acted on.
      if (i >= lines.length - 2) return;
      throw new Error(`${path}:${i + 1}: not a journal record`);
    }
    if (typeof r?.id !== 'string' || typeof r.event !== 'string') throw new Error(`${path}:${i + 1}: not a journal record`);
    if (r.event === 'target') return;
    states.set(r.id, applyRecord(states.get(r.id), r));
  });
  return states;
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

/** True when a process with this pid runs on this machine. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Who holds a journal's lock. */
export interface JournalOwner {
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
}

/** An open journal: the state of every order and an append that reaches the disk before it returns. */
export class Journal {
  private constructor(
    readonly path: string,
    private readonly fd: number,
    readonly states: Map<string, EntryState>,
    private readonly release: (() => Promise<void>) | undefined,
  ) {}

  /**
   * Opens (creating it and its directory) the journal at `path`. With `lock`, takes the lock for
   * this batch.
   * @throws JournalLockedError when another batch holds it; JournalUnusableError when the file
   *   system refuses the file or its directory
   */
  static async open(path: string, options: { lock: boolean; command: string }): Promise<Journal> {
    try {
      return await Journal.openFile(path, options);
    } catch (err) {
      if (FILE_SYSTEM_REFUSALS.has((err as NodeJS.ErrnoException)?.code ?? '')) throw new JournalUnusableError(path, err as NodeJS.ErrnoException);
      throw err;
    }
  }

  private static async openFile(path: string, options: { lock: boolean; command: string }): Promise<Journal> {
    makeDirectory(dirname(path));
    if (!existsSync(path)) writeFileSync(path, '');
    let release: (() => Promise<void>) | undefined;
    if (options.lock) {
      const take = () => lockfile.lock(path, { lockfilePath: `${path}.lock`, realpath: false, stale: 10_000, update: 3_000, retries: 0 });
      try {
        release = await take();
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ELOCKED') throw err;
        let owner: JournalOwner | undefined;
        try {
          owner = JSON.parse(readFileSync(`${path}.owner`, 'utf8')) as JournalOwner;
        } catch {
          owner = undefined;
        }
        // A batch killed with -9 leaves its lock behind: on this machine, a holder that no longer
        // runs does not hold it (the rerun of a cancelled CI job must not wait for it to go stale).
        if (owner === undefined || owner.host !== hostname() || isAlive(owner.pid)) throw new JournalLockedError(path, owner);
        rmSync(`${path}.lock`, { recursive: true, force: true });
        release = await take();
      }
      const owner: JournalOwner = { pid: process.pid, host: hostname(), started_at: new Date().toISOString(), command: options.command };
      writeFileSync(`${path}.owner`, `${JSON.stringify(owner)}\n`);
    }
    const states = readJournal(path);
    const fd = openSync(path, 'a');
    return new Journal(path, fd, states, release);
  }

  /**
   * Appends a record (written to the file at once, so a `kill -9` after this call finds it) and
   * updates the order's state. Call {@link durable} before a request that depends on it.
   */
  append(record: Omit<JournalRecord, 't'>): EntryState {
    const full: JournalRecord = { t: new Date().toISOString(), ...record };
    writeSync(this.fd, `${JSON.stringify(full)}\n`);
    const state = applyRecord(this.states.get(full.id), full);
    this.states.set(full.id, state);
    return state;
  }

  private inFlight: Promise<void> | undefined;
  private next: { promise: Promise<void>; resolve: () => void; reject: (err: unknown) => void } | undefined;

  /**
   * Resolves once every record appended so far is on disk (fsync). Orders booked at once share
   * one fsync (a group commit), so the journal costs no more than one flush per round of requests
   * and never blocks the other orders while the disk works.
   */
  durable(): Promise<void> {
    const waiting = this.next;
    if (waiting !== undefined) return waiting.promise;
    let resolve!: () => void;
    let reject!: (err: unknown) => void;
    const promise = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    this.next = { promise, resolve, reject };
    this.kick();
    return promise;
  }

  /** Starts the next fsync once the one under way is done (it covers every write made before it starts). */
  private kick(): void {
    if (this.inFlight !== undefined || this.next === undefined) return;
    const batch = this.next;
    this.next = undefined;
    this.inFlight = new Promise<void>((done) =>
      fsync(this.fd, (err) => {
        if (err) batch.reject(err);
        else batch.resolve();
        done();
      }),
    ).then(() => {
      this.inFlight = undefined;
      this.kick();
    });
  }

  /** Closes the file and releases the lock. */
  async close(): Promise<void> {
    await this.inFlight;
    fsyncSync(this.fd);
    closeSync(this.fd);
    if (this.release) {
      rmSync(`${this.path}.owner`, { force: true });
      await this.release().catch(() => {});
    }
  }
}
