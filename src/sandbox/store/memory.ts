/**
 * The in-memory store: `shipbook sandbox` without `--state`, and tests. Transactions run one at a time.
 *
 * A sandbox that serves a long run holds every order it was ever given, so orders and shipments
 * are kept in two forms: as objects while they are in use, and as their JSON text (see
 * {@link packRecord}), in UTF-8 outside the JavaScript heap, once their order is finished
 * (`processed`, `failed` or `cancelled`), when nothing moves them on any more: about 1.8 KB of
 * text for an order of one shipment, compressed by blocks to a few hundred bytes (see
 * {@link TextArena}), where its objects took several kilobytes in the heap, and more again in
 * the garbage collector's room to grow. Reading a packed record (`get`, `values`) turns it back
 * into an object, kept as such until the end of the next transaction, so a record read and
 * changed in place keeps its change whether it was packed or not; the end of each transaction
 * packs again what was read or stored since and is finished.
 */
import type { StoredCardRecord, StoredOrder, StoredShipment } from '../records.js';
import { serviceByCode } from '../rates.js';
import { constants, deflateRawSync, inflateRawSync } from 'node:zlib';
import { decodeRecord, encodeRecord } from './codec.js';
import type { Collection, SandboxStore } from './types.js';

/** A collection over a Map. */
class MapCollection<T> implements Collection<T> {
  private readonly map = new Map<string, T>();
  get(id: string): T | undefined {
    return this.map.get(id);
  }
  has(id: string): boolean {
    return this.map.has(id);
  }
  set(id: string, value: T): void {
    this.map.set(id, value);
  }
  delete(id: string): void {
    this.map.delete(id);
  }
  values(): T[] {
    return [...this.map.values()];
  }
  count(): number {
    return this.map.size;
  }
  get size(): number {
    return this.map.size;
  }
}

/**
 * The text a finished record is kept as: {@link encodeRecord}'s JSON (amounts and times tagged),
 * with a shipment's service as its code (the catalogue's entry is restored on reading).
 */
function packRecord(record: StoredOrder | StoredShipment): string {
  return 'service' in record ? encodeRecord({ ...record, service: record.service.code }) : encodeRecord(record);
}

/** A record from {@link packRecord}'s text. */
function unpackRecord<T extends StoredOrder | StoredShipment>(text: string): T {
  const record = decodeRecord<T & { service?: unknown }>(text);
  if (typeof record.service === 'string') record.service = serviceByCode(record.service) ?? record.service;
  return record;
}

/** Bytes of each block of {@link TextArena}: a few hundred records, compressed in a few milliseconds. */
const ARENA_BLOCK_BYTES = 256 * 1024;

/**
 * Record texts kept outside the JavaScript heap, as UTF-8 in blocks: a slot (a number) per text,
 * its block, offset and length in typed arrays. The heap then holds a number per packed record, and
 * its garbage collector has nothing to walk or grow for them. Texts are appended to the current
 * block; a full block is compressed (deflate, fast level: records of one kind repeat their keys
 * and much of their values, so a block shrinks about tenfold) and a new one begun. Reading a text
 * of a compressed block inflates that block, and the last block inflated is kept for the next
 * read. A text rewritten no longer than before in the current block keeps its place; any other is
 * appended (the old bytes are left unused).
 */
class TextArena {
  /** Compressed blocks, then the current one (`undefined` in this list: it is {@link current}). */
  private readonly sealed: Array<Buffer | undefined> = [];
  private current = Buffer.allocUnsafeSlow(ARENA_BLOCK_BYTES);
  private used = 0;
  /** Per slot: block index, offset, byte length. */
  private places = new Int32Array(3 * 1024);
  private slots = 0;
  /** The last compressed block read, inflated. */
  private cache: { block: number; bytes: Buffer } | undefined;

  constructor() {
    this.sealed.push(undefined);
  }

  /** Stores `text`, in place of slot `reuse` when it fits there; returns its slot. */
  put(text: string, reuse?: number): number {
    const bytes = Buffer.byteLength(text);
    const currentBlock = this.sealed.length - 1;
    if (reuse !== undefined && this.places[reuse * 3] === currentBlock && bytes <= this.places[reuse * 3 + 2]!) {
      this.current.write(text, this.places[reuse * 3 + 1]!, 'utf8');
      this.places[reuse * 3 + 2] = bytes;
      return reuse;
    }
    if (this.used + bytes > this.current.length) this.seal(bytes);
    const slot = reuse ?? this.slots++;
    if (slot * 3 + 3 > this.places.length) {
      const grown = new Int32Array(this.places.length * 2);
      grown.set(this.places);
      this.places = grown;
    }
    this.places[slot * 3] = this.sealed.length - 1;
    this.places[slot * 3 + 1] = this.used;
    this.places[slot * 3 + 2] = bytes;
    this.current.write(text, this.used, 'utf8');
    this.used += bytes;
    return slot;
  }

  /** Compresses the current block and begins a new one, large enough for `bytes`. */
  private seal(bytes: number): void {
    const block = this.sealed.length - 1;
    this.sealed[block] = deflateRawSync(this.current.subarray(0, this.used), { level: constants.Z_BEST_SPEED });
    if (this.cache?.block === block) this.cache = undefined;
    this.sealed.push(undefined);
    if (bytes > ARENA_BLOCK_BYTES || this.current.length > ARENA_BLOCK_BYTES) this.current = Buffer.allocUnsafeSlow(Math.max(ARENA_BLOCK_BYTES, bytes));
    this.used = 0;
  }

  /** The text in `slot`. */
  get(slot: number): string {
    const block = this.places[slot * 3]!;
    const offset = this.places[slot * 3 + 1]!;
    const end = offset + this.places[slot * 3 + 2]!;
    const packed = this.sealed[block];
    if (packed === undefined) return this.current.toString('utf8', offset, end);
    if (this.cache?.block !== block) this.cache = { block, bytes: inflateRawSync(packed) };
    return this.cache.bytes.toString('utf8', offset, end);
  }
}

/**
 * A collection of objects (orders or shipments) whose records can be packed into text: one Map,
 * so every record keeps its place in the order of insertion whatever its form; a packed record is
 * held as the number of its slot in the store's {@link TextArena}.
 */
class PackingCollection<T extends StoredOrder | StoredShipment> implements Collection<T> {
  private readonly map = new Map<string, T | number>();
  /** Ids read or stored since the last {@link pack}: the only records that can have become finished. */
  private touched = new Set<string>();
  /** Records unpacked since the last {@link pack}: their slot and text, so one read and not changed is not written again. */
  private unpacked = new Map<string, { slot: number; text: string }>();

  constructor(private readonly arena: TextArena) {}

  get(id: string): T | undefined {
    const held = this.map.get(id);
    if (held === undefined) return undefined;
    this.touched.add(id);
    if (typeof held !== 'number') return held;
    const text = this.arena.get(held);
    const value = unpackRecord<T>(text);
    this.unpacked.set(id, { slot: held, text });
    this.map.set(id, value);
    return value;
  }
  has(id: string): boolean {
    return this.map.has(id);
  }
  set(id: string, value: T): void {
    this.map.set(id, value);
    this.touched.add(id);
  }
  delete(id: string): void {
    this.map.delete(id);
    this.touched.delete(id);
    this.unpacked.delete(id);
  }
  values(): T[] {
    return [...this.map.keys()].map((id) => this.get(id)!);
  }
  count(): number {
    return this.map.size;
  }
  get size(): number {
    return this.map.size;
  }
  /** The record as an object, or `undefined` when it is packed or unknown (never unpacks). */
  peek(id: string): T | undefined {
    const held = this.map.get(id);
    return typeof held === 'number' ? undefined : held;
  }
  /** True when the record is packed. */
  isPacked(id: string): boolean {
    return typeof this.map.get(id) === 'number';
  }
  /** Packs one record held as an object. */
  private packHeld(id: string, held: T): void {
    const text = packRecord(held);
    const before = this.unpacked.get(id);
    this.map.set(id, before !== undefined && before.text === text ? before.slot : this.arena.put(text, before?.slot));
    this.unpacked.delete(id);
  }
  /**
   * Packs every record read or stored since the last call for which `finished` is true, telling
   * `packed` of each (as the object it was).
   */
  pack(finished: (record: T) => boolean, packed: (record: T) => void = () => {}): void {
    const ids = this.touched;
    this.touched = new Set();
    for (const id of ids) {
      const held = this.map.get(id);
      if (held === undefined || typeof held === 'number' || !finished(held)) continue;
      this.packHeld(id, held);
      packed(held);
    }
    // Records read and left as objects (their order under way) keep no copy of their old text.
    this.unpacked.clear();
  }
  /** Packs one record now, when it is held as an object. */
  packOne(id: string): void {
    const held = this.map.get(id);
    if (held !== undefined && typeof held !== 'number') {
      this.packHeld(id, held);
      this.touched.delete(id);
    }
  }
}

/** Order statuses nothing moves on from: their orders (and shipments) are packed. */
const FINISHED = new Set<StoredOrder['status']>(['processed', 'failed', 'cancelled']);

/** Records kept in this process only; gone when it exits. */
export function memoryStore(): SandboxStore {
  let queue: Promise<unknown> = Promise.resolve();
  const arena = new TextArena();
  const orders = new PackingCollection<StoredOrder>(arena);
  const shipments = new PackingCollection<StoredShipment>(arena);
  /** Packs what finished since the last call: finished orders, their shipments, and shipments read since of orders already packed. */
  const packFinished = () => {
    orders.pack(
      (o) => FINISHED.has(o.status),
      (o) => {
        for (const s of o.shipmentIds) shipments.packOne(s);
      },
    );
    shipments.pack((s) => {
      if (s.orderId === undefined) return false;
      const order = orders.peek(s.orderId);
      return orders.isPacked(s.orderId) || (order !== undefined && FINISHED.has(order.status));
    });
  };
  return {
    location: 'memory',
    orders,
    shipments,
    cards: new MapCollection<StoredCardRecord>(),
    failures: new MapCollection<string>(),
    transaction<T>(fn: () => T | Promise<T>): Promise<T> {
      const run = queue.then(fn, fn).finally(packFinished);
      queue = run.catch(() => {});
      return run;
    },
    async close() {},
  };
}
