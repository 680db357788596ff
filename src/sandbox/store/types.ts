/**
 * The sandbox's persistence behind one interface: routes and the
 * state machine ({@link SandboxState}) read and write records through a {@link SandboxStore} and
 * never know whether it lives in memory (`shipbook sandbox`, tests) or on disk (the built-in
 * sandbox, which lives across commands; docs/sandbox.md).
 */

/** A keyed set of records of one kind (orders, shipments, saved cards, pending failures). */
export interface Collection<T> {
  /** The record with this id, or `undefined`. Within a transaction, the same object every time. */
  get(id: string): T | undefined;
  has(id: string): boolean;
  /** Stores (or replaces) a record; written out when the transaction ends. */
  set(id: string, value: T): void;
  delete(id: string): void;
  /** Every record (reads them all: for inspection routes and status, not for booking operations). */
  values(): T[];
  /** How many records there are. */
  count(): number;
  /** The same as {@link count} (Map-like). */
  readonly size: number;
}

/** Where the records live and how changes to them are made safely. */
export interface SandboxStore {
  /** `memory`, or the directory of an on-disk store. */
  readonly location: string;
  readonly orders: Collection<import('../records.js').StoredOrder>;
  readonly shipments: Collection<import('../records.js').StoredShipment>;
  /** Cards saved with `save: true` at acceptance, by stored card id (masked: never a full number or CVV). */
  readonly cards: Collection<import('../records.js').StoredCardRecord>;
  /** Booking failures asked for by the test hook, by order id (the message). */
  readonly failures: Collection<string>;
  /**
   * Runs `fn` alone: no other transaction of this process or (on disk) of any other process runs at
   * the same time. Records read inside see every change committed before; objects read and changed
   * in place are written back when `fn` returns (atomically, record by record). A transaction that
   * throws writes nothing.
   */
  transaction<T>(fn: () => T | Promise<T>): Promise<T>;
  /** Releases what the store holds. */
  close(): Promise<void>;
}

/** The on-disk state cannot be read (bad JSON, unknown format): reported with its path, never overwritten. */
export class StoreCorruptError extends Error {
  constructor(
    readonly path: string,
    detail: string,
  ) {
    super(`the sandbox state at ${path} cannot be read (${detail})`);
    this.name = 'StoreCorruptError';
  }
}

/**
 * The disk under the state refused a write (no space left, quota, I/O error, read-only): the
 * transaction changed nothing. The sandbox answers it with HTTP 507.
 */
export class StoreFullError extends Error {
  constructor(
    readonly dir: string,
    override readonly cause: NodeJS.ErrnoException,
  ) {
    const words: Record<string, string> = {
      ENOSPC: 'no space left on the device',
      EDQUOT: 'disk quota exceeded',
      EIO: 'input/output error',
      EROFS: 'read-only file system',
      EFBIG: 'file too large',
    };
    super(`the sandbox cannot store its state in ${dir}: ${words[cause.code ?? ''] ?? cause.message} [${cause.code}]; nothing was changed`);
    this.name = 'StoreFullError';
  }
}

/** Another process held the state's lock for longer than a transaction waits (a stopped process): nothing was done. HTTP 503. */
export class StoreBusyError extends Error {
  constructor(
    readonly dir: string,
    detail: string,
  ) {
    super(`the sandbox state in ${dir} is busy: ${detail}; nothing was done`);
    this.name = 'StoreBusyError';
  }
}
