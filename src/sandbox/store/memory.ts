/** The in-memory store: `shipbook sandbox` without `--state`, and tests. Transactions run one at a time. */
import type { StoredCardRecord, StoredOrder, StoredShipment } from '../records.js';
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

/** Records kept in this process only; gone when it exits. */
export function memoryStore(): SandboxStore {
  let queue: Promise<unknown> = Promise.resolve();
  return {
    location: 'memory',
    orders: new MapCollection<StoredOrder>(),
    shipments: new MapCollection<StoredShipment>(),
    cards: new MapCollection<StoredCardRecord>(),
    failures: new MapCollection<string>(),
    transaction<T>(fn: () => T | Promise<T>): Promise<T> {
      const run = queue.then(fn, fn);
      queue = run.catch(() => {});
      return run;
    },
    async close() {},
  };
}
