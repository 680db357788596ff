/** The polling waiter: fetch-order-data every interval until the result (src/booking/wait.ts `pollForResult`). */
import { pollForResult } from '../wait.js';
import { WaitState, waitInterrupted, type Deps, type ResultWaiter } from './state.js';

/** Waits by polling fetch-order-data every `pollMs`, for up to `timeoutMs`; ends when its signal aborts. */
export function pollingWaiter(deps: Deps, pollMs: number, timeoutMs: number): ResultWaiter {
  const state = new WaitState(deps);
  return {
    route: 'poll',
    async wait(orderId, signal) {
      if (signal?.aborted) throw waitInterrupted(orderId, deps.hints);
      const running = state.begin(orderId, { route: 'poll', pollMs, timeoutMs }, signal);
      let warned = false;
      try {
        return await pollForResult(deps.api, orderId, {
          intervalMs: pollMs,
          timeoutMs,
          paths: deps.paths,
          now: deps.now,
          sleep: deps.sleep,
          hints: deps.hints,
          signal: running.signal,
          onPoll(order) {
            deps.onEvent({ type: 'polled', orderId, order });
          },
          onTransientError(err) {
            if (!warned) deps.onEvent({ type: 'wait_notice', notice: { kind: 'poll_failed', reason: err.message } });
            warned = true;
          },
        });
      } catch (err) {
        throw running.signal.aborted ? waitInterrupted(orderId, deps.hints) : err;
      } finally {
        running.end();
      }
    },
    async close() {
      state.close();
    },
  };
}
