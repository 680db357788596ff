/**
 * The order slots of a batch: at most `size` holders at once, served first come, first served. An
 * order holds one from its first request until it starts waiting for its booking result, so
 * `--concurrency n` bounds the orders being created and accepted at once, and an order whose
 * booking is still running at the service does not keep the next one from starting. How fast
 * requests leave is not decided here but by the API client's pacer (src/api/pacer.ts), which
 * every request of the run (polls included) goes through.
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
