/**
 * Node.js's own process warnings (a library's `process.emitWarning`, an experimental feature
 * notice) never reach the user as `(node:1234) Warning: …` lines: Node's
 * default printer is removed and warnings go to a callback instead, which shipbook uses to show
 * them only with `--debug`. Input problems a library would warn about are reported by the
 * loaders as problems at their line and column instead.
 */

/** What {@link quietNodeWarnings} returns: puts Node's default printer back (for in-process tests). */
type RestoreWarnings = () => void;

/**
 * Replaces the `warning` listeners of `proc` (Node's default printer) with `onWarning`.
 * @param onWarning receives each warning as one line (`DeprecationWarning: …`); e.g. a `--debug` log.
 */
export function quietNodeWarnings(onWarning: (line: string) => void, proc: NodeJS.Process = process): RestoreWarnings {
  const previous = proc.listeners('warning');
  proc.removeAllListeners('warning');
  const listener = (warning: Error) => onWarning(`${warning.name}: ${warning.message}`);
  proc.on('warning', listener);
  return () => {
    proc.off('warning', listener);
    for (const l of previous) proc.on('warning', l as (w: Error) => void);
  };
}
