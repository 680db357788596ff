/**
 * The on-disk store of the built-in sandbox: one JSON file per record under the state directory,
 * so one operation reads and writes only the records it touches, whatever the number stored.
 *
 * Layout: `sandbox-state.json` (format marker and the number of orders), `orders/<id>.json`,
 * `shipments/<id>.json`, `cards/<stored card id>.json` (saved cards, masked), `failures/<order id>.json`, and `state.lock` while a transaction runs.
 *
 * Safety (several shipbook commands at once, a `kill -9` at any moment):
 * - a transaction holds a lock on the directory (src/lock.ts: held until its holder ends, however
 *   long it pauses; taken over at once from a holder killed with -9) and, in the same process, a queue;
 * - a transaction's records are all written to temporary files first and only then renamed over the
 *   old ones, so a record is always either the old or the new version, and a disk that fills up
 *   (or fails) part-way changes nothing ({@link StoreFullError}: no order without its shipments,
 *   no shipment without its order);
 * - records and the marker that cannot be read are reported ({@link StoreCorruptError}) and never
 *   overwritten: `shipbook sandbox reset` is the fix.
 * Files and a lock directory were chosen over SQLite because Node 20 has no built-in driver and the kept
 * drivers are native modules that would compile from source on every CI install.
 *
 * At most {@link MAX_STORED_ORDERS} orders are kept: past that, the oldest finished ones
 * (processed, failed, cancelled) are pruned with their shipments.
 */
import { chmodSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import type { StoredCardRecord, StoredOrder, StoredShipment } from '../records.js';
import { decodeRecord, encodeRecord } from './codec.js';
import { StoreBusyError, StoreCorruptError, StoreFullError, type Collection, type SandboxStore } from './types.js';
import { makeDirectory } from '../../dirs.js';
import { acquireLock, LockHeldError } from '../../lock.js';

/** Orders kept at most; beyond it the oldest finished orders are pruned (to 90 % of it). */
export const MAX_STORED_ORDERS = 10_000;
/** The marker file's name and its format tag. */
export const STATE_FILE = 'sandbox-state.json';
const FORMAT = 'shipbook-sandbox-state';
const VERSION = 1;

interface Meta {
  format: string;
  version: number;
  created_at: string;
  orders: number;
}

/** A record read in the running transaction: its value (changed in place by the state machine) and its text as read. */
interface Entry {
  value: unknown;
  text: string | undefined;
  deleted: boolean;
}

const ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * How long a transaction waits for another process's, ms, before the store answers that it is busy
 * (HTTP 503, naming the holder): well within a client's wait for an answer (30 s for shipbook's),
 * so a request that waited is answered "not done", never left without an answer.
 */
const LOCK_WAIT_MS = 20_000;

/** File system errors that mean the disk cannot take the write: answered as a full store, not an internal error. */
const STORAGE_FAULTS: ReadonlySet<string> = new Set(['ENOSPC', 'EDQUOT', 'EIO', 'EROFS', 'EFBIG']);

/**
 * Writes one record's text to `path` (a temporary file: the caller renames it into place; not
 * flushed: the sandbox simulates a service). `SHIPBOOK_TEST_STORE_SPACE=<bytes>` (tests of
 * a full disk only) fails a write with ENOSPC once the state directory's records hold that many
 * bytes, and then the lock of a transaction too (a file, which a full disk refuses).
 */
function writeRecord(dir: string, path: string, text: string): void {
  if (!testSpaceFor(dir, Buffer.byteLength(text))) throw noSpace(path);
  writeFileSync(path, text, { mode: 0o600 });
}

/**
 * False when `SHIPBOOK_TEST_STORE_SPACE=<bytes>` (tests of a full disk only) is set and `bytes`
 * more would take the state's records past it; true otherwise. A lock (a small file) needs one byte.
 */
function testSpaceFor(dir: string, bytes: number): boolean {
  const limit = Number(process.env.SHIPBOOK_TEST_STORE_SPACE);
  return !(Number.isFinite(limit) && limit > 0 && limit < Infinity && storedBytes(dir) + bytes > limit);
}

/** The error of a write the disk refused for want of space, as Node.js gives it. */
function noSpace(path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`ENOSPC: no space left on device, write '${path}'`), { code: 'ENOSPC', errno: -28, syscall: 'write', path });
}

/** Bytes held by the records under a state directory (for {@link writeRecord}'s test limit). */
function storedBytes(dir: string): number {
  let total = 0;
  for (const sub of ['orders', 'shipments', 'cards', 'failures']) {
    let names: string[];
    try {
      names = readdirSync(join(dir, sub));
    } catch {
      continue;
    }
    for (const n of names) total += statSync(join(dir, sub, n)).size;
  }
  return total;
}

/**
 * Opens (creating when absent) the store in `dir`; `onWait` is told when a transaction waits for
 * another process that holds the state's lock. @throws StoreCorruptError when the marker cannot be read
 */
export function openDiskStore(dir: string, options: { maxOrders?: number; onWait?: (holder: string, waitMs: number) => void } = {}): SandboxStore {
  const maxOrders = options.maxOrders ?? MAX_STORED_ORDERS;
  makeDirectory(dir, 0o700);
  try {
    if ((statSync(dir).mode & 0o077) !== 0) chmodSync(dir, 0o700);
  } catch {
    // not ours to change (e.g. a shared directory given with --state): the records are still private files
  }
  const metaPath = join(dir, STATE_FILE);
  const readMeta = (): Meta => {
    let text: string;
    try {
      text = readFileSync(metaPath, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { format: FORMAT, version: VERSION, created_at: new Date().toISOString(), orders: 0 };
      throw new StoreCorruptError(metaPath, (err as Error).message);
    }
    let meta: Partial<Meta>;
    try {
      meta = JSON.parse(text) as Partial<Meta>;
    } catch (err) {
      throw new StoreCorruptError(metaPath, `not JSON: ${(err as Error).message}`);
    }
    if (meta?.format !== FORMAT || meta.version !== VERSION || typeof meta.orders !== 'number') {
      throw new StoreCorruptError(metaPath, `not a shipbook sandbox state of version ${VERSION}`);
    }
    return meta as Meta;
  };
  let meta = readMeta();
  for (const sub of ['orders', 'shipments', 'cards', 'failures']) makeDirectory(join(dir, sub), 0o700);
  try {
    readFileSync(metaPath);
  } catch {
    writeFileAtomic.sync(metaPath, `${JSON.stringify(meta)}\n`, { mode: 0o600, fsync: false });
  }

  let session: Map<string, Entry> | undefined;
  const fileOf = (kind: string, id: string) => {
    if (!ID.test(id)) return undefined; // ids come from URLs: nothing else reaches the file system
    return join(dir, kind, `${id}.json`);
  };

  const read = (path: string): Entry | undefined => {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new StoreCorruptError(path, (err as Error).message);
    }
    try {
      return { value: decodeRecord(text), text, deleted: false };
    } catch (err) {
      throw new StoreCorruptError(path, `not JSON: ${(err as Error).message}`);
    }
  };

  function collection<T>(kind: string): Collection<T> {
    const entry = (id: string): Entry | undefined => {
      const path = fileOf(kind, id);
      if (path === undefined) return undefined;
      const cached = session?.get(path);
      if (cached !== undefined) return cached.deleted ? undefined : cached;
      const found = read(path);
      if (found !== undefined) session?.set(path, found);
      return found;
    };
    return {
      get: (id) => entry(id)?.value as T | undefined,
      has: (id) => entry(id) !== undefined,
      set(id, value) {
        const path = fileOf(kind, id);
        if (path === undefined) throw new Error(`not a record id: ${id}`);
        if (session === undefined) throw new Error('the on-disk sandbox store is changed only inside a transaction');
        const cached = session.get(path);
        if (cached !== undefined) Object.assign(cached, { value, deleted: false });
        else session.set(path, { value, text: read(path)?.text, deleted: false });
      },
      delete(id) {
        const path = fileOf(kind, id);
        if (path === undefined || session === undefined) return;
        const cached = session.get(path) ?? { value: undefined, text: read(path)?.text, deleted: true };
        cached.deleted = true;
        session.set(path, cached);
      },
      values() {
        const names = readdirSync(join(dir, kind)).filter((n) => n.endsWith('.json'));
        return names.map((n) => entry(n.slice(0, -5))?.value as T | undefined).filter((v): v is T => v !== undefined);
      },
      count() {
        return readdirSync(join(dir, kind)).filter((n) => n.endsWith('.json')).length;
      },
      get size() {
        return this.count();
      },
    };
  }

  const orders = collection<StoredOrder>('orders');
  const shipments = collection<StoredShipment>('shipments');
  const cards = collection<StoredCardRecord>('cards');
  const failures = collection<string>('failures');

  /**
   * Writes every record the transaction created, changed or deleted, and the order count: all new
   * texts to temporary files first, then each renamed into place (a rename takes no space), so a
   * write that fails leaves every record as it was.
   * @throws StoreFullError when the disk refuses a write (no space, quota, I/O error, read-only)
   */
  const commit = (changes: Map<string, Entry>) => {
    let orderDelta = 0;
    const ordersDir = join(dir, 'orders');
    const writes: Array<{ path: string; tmp: string; text: string; entry?: Entry }> = [];
    const removals: string[] = [];
    for (const [path, e] of changes) {
      const isOrder = path.startsWith(ordersDir);
      if (e.deleted) {
        if (e.text !== undefined) {
          removals.push(path);
          if (isOrder) orderDelta--;
        }
        continue;
      }
      const text = encodeRecord(e.value);
      if (text === e.text) continue;
      writes.push({ path, tmp: `${path}.${process.pid}.tmp`, text, entry: e });
      if (isOrder && e.text === undefined) orderDelta++;
    }
    if (orderDelta !== 0) {
      const current = readMeta();
      meta = { ...current, orders: Math.max(0, current.orders + orderDelta) };
      writes.push({ path: metaPath, tmp: `${metaPath}.${process.pid}.tmp`, text: `${JSON.stringify(meta)}\n` });
    }
    try {
      for (const w of writes) writeRecord(dir, w.tmp, w.text);
    } catch (err) {
      for (const w of writes) rmSync(w.tmp, { force: true });
      if (STORAGE_FAULTS.has((err as NodeJS.ErrnoException).code ?? '')) throw new StoreFullError(dir, err as NodeJS.ErrnoException);
      throw err;
    }
    for (const w of writes) {
      renameSync(w.tmp, w.path);
      if (w.entry) w.entry.text = w.text;
    }
    for (const path of removals) rmSync(path, { force: true });
  };

  /** Past the maximum, removes the oldest finished orders and their shipments (inside a transaction). */
  const prune = () => {
    if (meta.orders <= maxOrders) return;
    const finished = orders
      .values()
      .filter((o) => o.status === 'processed' || o.status === 'failed' || o.status === 'cancelled')
      .sort((a, b) => new Date(a.createdAt).getTime() - new Date(b.createdAt).getTime());
    let excess = meta.orders - Math.floor(maxOrders * 0.9);
    for (const o of finished) {
      if (excess-- <= 0) break;
      for (const s of o.shipmentIds) shipments.delete(s);
      failures.delete(o.id);
      orders.delete(o.id);
    }
  };

  let queue: Promise<unknown> = Promise.resolve();
  const lockPath = join(dir, 'state.lock');
  const transaction = <T>(fn: () => T | Promise<T>): Promise<T> => {
    const run = queue.then(async () => {
      let lock;
      try {
        // Held until this process ends or gives it back: a holder that pauses (SIGSTOP, a slow disk) still holds it.
        if (!testSpaceFor(dir, 1)) throw noSpace(lockPath);
        lock = await acquireLock(lockPath, {
          command: 'shipbook sandbox',
          waitMs: LOCK_WAIT_MS,
          retryMs: 2,
          // Said only past a second: two runs on one state take turns for a few milliseconds all the time.
          ...(options.onWait ? { onWait: (holder: string) => options.onWait?.(holder, LOCK_WAIT_MS), noticeMs: 1000 } : {}),
        });
      } catch (err) {
        if (err instanceof LockHeldError) throw new StoreBusyError(dir, err.message);
        if (STORAGE_FAULTS.has((err as NodeJS.ErrnoException).code ?? '')) throw new StoreFullError(dir, err as NodeJS.ErrnoException);
        throw err;
      }
      try {
        meta = readMeta();
        session = new Map();
        const result = await fn();
        prune();
        // A lock taken from this process while it ran (removed by hand, or by another machine
        // after a long pause): nothing is written over what the other holder may have written.
        if (!lock.verify()) throw new StoreBusyError(dir, lock.compromised?.message ?? 'its lock was lost');
        commit(session);
        return result;
      } finally {
        session = undefined;
        lock.release();
      }
    });
    queue = run.catch(() => {});
    return run;
  };

  return { location: dir, orders, shipments, cards, failures, transaction, close: async () => void (await queue) };
}
