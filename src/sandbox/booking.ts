/**
 * The asynchronous booking: interface document, "States and transitions" (order `ACC` → booking
 * completes → `processed`, and a POST to the callback URL when one was supplied) and "Events".
 * After accept, the booking completes `processingDelayMs` later; timers are cancelled on close.
 */
import type { CallbackSender } from './callbacks.js';
import type { CallbackRecord, SandboxState } from './state.js';

/** Schedules booking completions and sends their callbacks. */
export class BookingRunner {
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(
    private readonly state: SandboxState,
    private readonly callbacks: CallbackSender,
    private readonly delayMs: number,
    private readonly now: () => Date,
  ) {}

  /** Completes the booking of accepted order `orderId` after the processing delay, then sends its callback if any. */
  schedule(orderId: string): void {
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      // complete() never rejects (a state it cannot read is left to the next request) and keeps its own promise for close.
      void this.complete(orderId);
    }, this.delayMs);
    this.timers.add(timer);
  }

  /** Completes the booking now (also used by tests that do not want to wait). */
  complete(orderId: string): Promise<void> {
    if (this.closed) return Promise.resolve();
    // Inside the store's transaction: another process may be reading (and settling) the same order.
    const done = this.state.store
      .transaction(() => {
        const body = this.state.completeBooking(orderId, this.now());
        const url = this.state.findOrder(orderId)?.callback;
        return body === undefined || url === undefined ? undefined : { body, url };
      })
      .then((due) => {
        if (due === undefined || this.closed) return;
        const record: CallbackRecord = { orderId, attempts: 0, state: 'pending' };
        this.state.callbacks.push(record);
        void this.callbacks.deliver(due.url, due.body, record);
      })
      .catch(() => {}); // a state that cannot be read is reported by the next request that reads it
    this.pending.add(done);
    void done.finally(() => this.pending.delete(done));
    return done;
  }

  /** Completions under way (for close). */
  private readonly pending = new Set<Promise<void>>();

  /** True while a booking of this process waits for its processing delay or is being completed. */
  get busy(): boolean {
    return this.timers.size > 0 || this.pending.size > 0;
  }

  /** Cancels every pending completion. */
  close(): void {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}
