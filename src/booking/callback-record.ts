/**
 * Recording what callbacks say: each callback that carries an order (processed with its tracking
 * numbers, failed …) is recorded in the ledger of the target when the ledger does not know it yet
 * (src/booking/record.ts `recordLearned`), one after the other, in the order they came.
 */
import type { LedgerStore } from '../ledger/index.js';
import type { ReceivedCallback } from './receiver.js';
import { recordLearned } from './record.js';

/** Records callbacks in arrival order; {@link CallbackRecorder.settled} waits for the last one. */
interface CallbackRecorder {
  /** Queues the callback's order to be recorded; a callback without an order records nothing. */
  record(cb: ReceivedCallback): void;
  /** Settles once every callback queued so far is recorded (or reported through `onProblem`). */
  settled(): Promise<void>;
}

/**
 * A recorder into `ledger` (re-read before each record: other runs write it too). A record that
 * fails does not stop the next: it is handed to `onProblem` with the order's id (as sent).
 */
export function callbackRecorder(ledger: LedgerStore, onProblem: (orderId: string, err: Error) => void): CallbackRecorder {
  let recording = Promise.resolve();
  return {
    record(cb) {
      const order = cb.body.result?.order;
      if (order === undefined || order === null) return;
      recording = recording
        .then(async () => {
          ledger.refresh();
          await recordLearned(ledger, order, cb.body.message);
        })
        .catch((err: unknown) => onProblem(order.id, err as Error));
    },
    settled: () => recording,
  };
}
