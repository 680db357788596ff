/**
 * Waiting, shared by the waiters, the API client's pacer and the context (a module of its own:
 * the context loads nothing heavy).
 *
 * Every wait of a run hangs off ONE listener per signal ({@link onAbort}'s fan-out), so a batch
 * with a thousand orders waiting at once adds one `abort` listener to the run's signal, not a
 * thousand (Node warns past ten: `MaxListenersExceededWarning`).
 */

/** Waits `ms` milliseconds; rejects (with an AbortError whose cause is the signal's reason) when `signal` aborts first. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** The callbacks of each signal, called by its one listener. */
const fanOuts = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Calls `callback` once when `signal` aborts, through the signal's one shared listener; returns
 * the function that removes it (call it once the wait is over). A signal already aborted is not
 * called back: check `signal.aborted` first.
 */
export function onAbort(signal: AbortSignal, callback: () => void): () => void {
  let callbacks = fanOuts.get(signal);
  if (callbacks === undefined) {
    const set = new Set<() => void>();
    callbacks = set;
    fanOuts.set(signal, set);
    signal.addEventListener(
      'abort',
      () => {
        fanOuts.delete(signal);
        for (const c of set) c();
        set.clear();
      },
      { once: true },
    );
  }
  const own = () => callback();
  callbacks.add(own);
  return () => {
    callbacks.delete(own);
  };
}

/** The real {@link Sleep}: a timer, cut short through the signal's fan-out ({@link onAbort}). */
export const realSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError(signal));
      return;
    }
    let unlisten = () => {};
    const timer = setTimeout(() => {
      unlisten();
      resolve();
    }, ms);
    if (signal !== undefined) {
      unlisten = onAbort(signal, () => {
        clearTimeout(timer);
        reject(abortError(signal));
      });
    }
  });

/** The error of a wait cut short, as node:timers/promises gives it: an `AbortError` whose cause is the signal's reason. */
function abortError(signal: AbortSignal): Error {
  const err = new Error('The operation was aborted', { cause: signal.reason });
  err.name = 'AbortError';
  return err;
}
