/**
 * What goes wrong with a journal or ledger file: a line that is not a record (exit 2), a lock held
 * by another batch, a file or directory the file system refuses (exit 2, or 10 for a disk that
 * takes no writes), a write or flush that failed (exit 10), and a lock lost while running (exit 11).
 */
import { ShipbookError, cmd } from '../errors.js';
import { shellCommand } from '../shell.js';
import { isChangeIdentity, type JournalRecord } from './records.js';
import { targetLabel } from '../config/target.js';

/** A line in the middle of the journal is not a record (edited by hand, or another file). Exit 2. */
export class JournalCorruptError extends ShipbookError {
  constructor(
    readonly path: string,
    readonly line: number,
  ) {
    super('journal_corrupt', `${path}:${line}: not a journal record`, 'input', {
      suggestion: 'The journal is NDJSON written by shipbook book; restore that line, or move the journal aside and resolve its orders by hand.',
    });
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

  /** The kind of the refusal: `storage` (exit 10) for a disk that cannot take writes (full, quota, I/O error, read-only), else `input` (exit 2). */
  get kind(): 'storage' | 'input' {
    return STORAGE_CODES.has(this.cause.code ?? '') ? 'storage' : 'input';
  }
}

/** In words, what a record that could not be written would have said. */
export function describeRecord(r: Omit<JournalRecord, 't'>): string {
  const who = r.file !== undefined ? `the order of ${r.file}${r.line !== undefined ? `:${r.line}` : ''}` : `booking ${r.id}`;
  switch (r.event) {
    case 'create_sent':
      if (isChangeIdentity(r.id)) return `that the ${r.step ?? ''} request (${r.op ?? 'by hand'}) was about to be sent, so it was not sent`;
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
    case 'cancel_sent':
      return `that the cancel request (${r.op ?? 'by hand'}) was about to be sent, so it was not sent`;
    case 'change_sent':
    case 'sent':
      return `that the ${r.step ?? ''} request (${r.op ?? 'by hand'}) was about to be sent, so it was not sent`;
    case 'changed':
    case 'answered':
      return `what the service answered to ${r.op ?? 'the request'}${r.order_id !== undefined ? ` (order ${r.order_id})` : ''}`;
    case 'refused':
      return `that the service refused ${r.op ?? 'the request'}`;
    case 'cancelled':
      return `that order ${r.order_id ?? '?'} was cancelled`;
    case 'scanned':
      return `the scan of parcel ${r.tracking_numbers?.[0] ?? '?'} at the dock`;
    case 'handed_over':
      return `that parcel ${r.tracking_numbers?.[0] ?? '?'} was handed over to ${r.dock?.driver ?? 'the driver'}`;
    case 'not_handed_over':
      return `that parcel ${r.tracking_numbers?.[0] ?? '?'} was not handed over`;
    case 'papers':
      return `that the customs papers of order ${r.order_id ?? '?'} were written (${(r.files ?? []).join(', ')})`;
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
      'storage',
      {
        suggestion: [
          'Free space on that disk (or fix it), then run the same command again: nothing recorded as sent is sent twice, and an order whose answer was not recorded shows as unknown until "',
          cmd('journal', 'resolve'),
          '" settles it.',
        ],
        cause,
      },
    );
  }
}

/**
 * The journal's lock was removed or taken by another process while this batch ran: it sends no
 * new request (what was under way is still recorded) and ends with exit 11.
 */
export class JournalLockLostError extends ShipbookError {
  constructor(
    readonly path: string,
    detail: string,
  ) {
    super('journal_lock_lost', `${detail}; no new request was sent after that, and what was under way is recorded in ${path}`, 'lock_lost', {
      suggestion: 'Make sure only one batch uses this journal (give each its own --journal), then run the same command again: nothing recorded is sent twice.',
    });
  }
}

/**
 * A document about to be created was found booked in another ledger of the same service (another
 * key, not linked to this one, not declared another account): nothing was sent. Exit 2. The
 * message says where and when; the suggestion names the command that links the two keys (same
 * account) and the one that books it anyway (`again`, given by the command that knows its file).
 */
export class BookedElsewhereError extends ShipbookError {
  constructor(
    readonly identity: string,
    readonly booked: { orderId: string; at: string; where: string; account: string },
    again?: string,
  ) {
    super(
      'booked_elsewhere',
      `not sent: this document was booked on ${booked.at} as order ${booked.orderId} under another key of this service (key fingerprint ${booked.account}, ledger ${booked.where})`,
      'input',
      {
        suggestion: [
          'If that key is the same account as this one (a rotated key), link them and the ledger carries on: ',
          cmd('ledger', 'link', booked.account),
          '. ' +
            (again !== undefined
              ? `To book it anyway (a second order, paid again): ${again}`
              : `To book it anyway (a second order, paid again), book the file alone with --again.`) +
            ' If the two keys are two accounts (a test and a live key): ',
          cmd('ledger', 'separate', booked.account),
        ],
      },
    );
  }
}

/** Who holds a lock another run waits for. */
interface LockHolder {
  pid: number;
  host: string;
  command: string;
}

/**
 * The ledger's claims lock was still held by another run (a paused or hung process) when this run's
 * wait for it ended: nothing was claimed, so nothing was sent. Exit 7, as for a document another run
 * still holds when the wait ends; a batch stops with it (src/booking/batch/runner.ts).
 */
export class ClaimsLockWaitError extends ShipbookError {
  constructor(
    readonly path: string,
    /** The holder as last read (undefined when the lock changed hands before it was read). */
    readonly holder: LockHolder | undefined,
    /** How long this run waited, ms. */
    readonly waitedMs: number,
  ) {
    super(
      'wait_timeout',
      `the ledger's claims lock ${path} was still held${holder ? ` by another run (pid ${holder.pid} on ${holder.host}: ${holder.command})` : ''} when the wait ended after ${Math.round(waitedMs / 1000)} s; nothing was sent`,
      'pending',
      {
        suggestion: `That run is paused or hung: continue it (kill -CONT ${holder?.pid ?? '<pid>'}) or end it, then run the same command again; nothing is booked twice.`,
      },
    );
  }
}

/** The journal named by `--journal` (or the default one) was written against another target. */
export class JournalTargetError extends ShipbookError {
  constructor(path: string, written: string, current: string) {
    super(
      'journal_other_target',
      `the journal ${path} was written against ${targetLabel(written)}, and this run books on ${targetLabel(current)}; nothing was sent`,
      'input',
      {
        suggestion: `Give this run a journal of its own (--journal <new file>): the ledger of ${targetLabel(current)} still keeps every document it booked from being booked again. Or run against the journal's target to continue it.`,
      },
    );
  }
}
