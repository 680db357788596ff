/**
 * Work that must run as the process exits, whatever ends it (a second Ctrl-C's `process.exit`, a
 * closed stdout, an uncaught error): give back a lock, write what is still pending. Only main
 * listens to the process; everything else registers its work with the run's context
 * (`ctx.onExit`), and the layers below the context are handed the registration function.
 */

/**
 * Registers `work` (synchronous: the process is exiting) to run as the process exits, after the
 * work registered before it. Returns the function that unregisters it, called once the work is
 * done by the ordinary path (a ledger closed, a batch finished).
 */
export type OnExit = (work: () => void) => () => void;

/** A registry of exit work: {@link ExitWork.add} registers, {@link ExitWork.run} runs what is still registered, once. */
interface ExitWork {
  readonly add: OnExit;
  /** Runs every work still registered, in the order registered; a work that throws does not stop the others. */
  run(): void;
}

/** A new, empty registry of exit work. */
export function exitWork(): ExitWork {
  const works = new Set<() => void>();
  return {
    add(work) {
      // Each registration is its own entry, so the same function registered twice runs twice.
      const entry = () => work();
      works.add(entry);
      return () => void works.delete(entry);
    },
    run() {
      const pending = [...works];
      works.clear();
      for (const work of pending) {
        try {
          work();
        } catch {
          // the process is ending: the rest of the work still runs
        }
      }
    },
  };
}
