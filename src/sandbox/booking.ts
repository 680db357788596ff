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
      this.complete(orderId);
    }, this.delayMs);
    this.timers.add(timer);
  }

  /** Completes the booking now (also used by tests that do not want to wait). */
  complete(orderId: string): void {
    if (this.closed) return;
    const body = this.state.completeBooking(orderId, this.now());
    const order = this.state.findOrder(orderId);
    if (body === undefined || order?.callback === undefined) return;
    const record: CallbackRecord = { orderId, attempts: 0, state: 'pending' };
    this.state.callbacks.push(record);
    void this.callbacks.deliver(order.callback, body, record);
  }

  /** Cancels every pending completion. */
  close(): void {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}
