/**
 * The on-disk store of the built-in sandbox: one JSON file per record under the state directory,
 * so one operation reads and writes only the records it touches, whatever the number stored.
 *
 * Layout: `sandbox-state.json` (format marker and the number of orders), `orders/<id>.json`,
 * `shipments/<id>.json`, `cards/<stored card id>.json` (saved cards, masked), `failures/<order id>.json`, and `state.lock` while a transaction runs.
 *
 * Safety (several shipbook commands at once, a `kill -9` at any moment):
 * - a transaction holds a lock on the directory (proper-lockfile: an atomic `mkdir`, refreshed while
 *   held and taken over when stale, so a killed holder never blocks the others for long) and, in
 *   the same process, a queue;
 * - records are written with write-file-atomic (a temporary file renamed over the old one), so a
 *   record is always either the old or the new version, never half written;
 * - records and the marker that cannot be read are reported ({@link StoreCorruptError}) and never
 *   overwritten: `shipbook sandbox reset` is the fix.
 * These two libraries were chosen over SQLite because Node 20 has no built-in driver and the kept
 * drivers are native modules that would compile from source on every CI install.
 *
 * At most {@link MAX_STORED_ORDERS} orders are kept: past that, the oldest finished ones
 * (processed, failed, cancelled) are pruned with their shipments.
 */
import { chmodSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import writeFileAtomic from 'write-file-atomic';
import type { StoredCardRecord, StoredOrder, StoredShipment } from '../records.js';
import { decodeRecord, encodeRecord } from './codec.js';
import { StoreCorruptError, type Collection, type SandboxStore } from './types.js';
import { makeDirectory } from '../../dirs.js';

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

/** Opens (creating when absent) the store in `dir`. @throws StoreCorruptError when the marker cannot be read */
export function openDiskStore(dir: string, options: { maxOrders?: number } = {}): SandboxStore {
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

  /** Writes every record the transaction created, changed or deleted; keeps the order count. */
  const commit = (changes: Map<string, Entry>) => {
    let orderDelta = 0;
    const ordersDir = join(dir, 'orders');
    for (const [path, e] of changes) {
      const isOrder = path.startsWith(ordersDir);
      if (e.deleted) {
        if (e.text !== undefined) {
          rmSync(path, { force: true });
          if (isOrder) orderDelta--;
        }
        continue;
      }
      const text = encodeRecord(e.value);
      if (text === e.text) continue;
      writeFileAtomic.sync(path, text, { mode: 0o600, fsync: false });
      if (isOrder && e.text === undefined) orderDelta++;
      e.text = text;
    }
    if (orderDelta !== 0) {
      meta = { ...readMeta(), orders: Math.max(0, readMeta().orders + orderDelta) };
      writeFileAtomic.sync(metaPath, `${JSON.stringify(meta)}\n`, { mode: 0o600, fsync: false });
    }
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
      const release = await lockfile.lock(dir, {
        lockfilePath: lockPath,
        realpath: false,
        // A holder killed with -9 leaves the lock behind: it counts as stale (and is taken over) after 2 s.
        stale: 2_000,
        update: 1_000,
        retries: { retries: 2_000, factor: 1, minTimeout: 2, maxTimeout: 20, randomize: true },
      });
      try {
        meta = readMeta();
        session = new Map();
        const result = await fn();
        prune();
        commit(session);
        return result;
      } finally {
        session = undefined;
        await release().catch(() => {});
      }
    });
    queue = run.catch(() => {});
    return run;
  };

  return { location: dir, orders, shipments, cards, failures, transaction, close: async () => void (await queue) };
}
