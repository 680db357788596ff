/**
 * The order slots of a batch: at most `size` holders at once, served first come, first served. An
 * order holds one from its first request until it starts waiting for its booking result, so
 * `--concurrency n` (the one thing that flag sets) bounds the orders being created and accepted
 * at once, and an order whose booking is still running at the service does not keep the next one
 * from starting. How fast requests leave is not decided here but by the API client's pacer
 * (src/api/pacer.ts), which every request of the run (polls included) goes through; how many may
 * be in flight at once is the size of the run's connection pool ({@link batchConnections}).
 */
export class Slots {
  private free: number;
  private readonly queue: Array<() => void> = [];

  /** `size` ≥ 1: how many may hold a slot at once. */
  constructor(readonly size: number) {
    this.free = Math.max(1, size);
  }

  /** Resolves once the caller holds a slot; give it back with {@link release}. */
  acquire(): Promise<void> {
    if (this.free > 0 && this.queue.length === 0) {
      this.free--;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => this.queue.push(resolve));
  }

  /** Gives a slot back: the longest waiter gets it, else it is free. */
  release(): void {
    const next = this.queue.shift();
    if (next !== undefined) next();
    else this.free++;
  }

  /** Runs `task` in a slot of its own, released when it settles. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  /** Slots held now. */
  get held(): number {
    return Math.max(1, this.size) - this.free;
  }
}

/**
 * The keep-alive connections of a batch's pool (the API client's `connections`), which are also
 * the ceiling of the pacer's window of requests in flight: one per order slot. An order being
 * created or accepted sends one request at a time, and the polls of orders waiting for their
 * booking results share the same places, so a batch of `--concurrency n` never has more than n
 * requests in flight. Derived here, in one place, rather than read from the flag elsewhere.
 */
export function batchConnections(orderSlots: number): number {
  return Math.max(1, orderSlots);
}
