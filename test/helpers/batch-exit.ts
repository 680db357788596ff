/**
 * The one exit code a finished (not interrupted) batch must end with, read from its report's
 * summary as docs/exit-codes.md gives it: 8 when any input is left failed, unknown or unbooked, 9
 * when the caps left some and nothing else is left, 7 when every order is accepted but some result
 * is still pending, else 0. A test whose scenario cannot fix in advance how many orders a kill
 * or a fault leaves unknown still names one code: the one its report calls for.
 */
/** The counts of a report's summary that decide the exit code (absent counts are 0). */
type Counted = 'failed' | 'unknown' | 'accepted' | 'still_booking' | 'pending' | 'not_started' | 'over_limit' | 'over_budget';

/** The exit code a batch whose report says `summary` ends with (see the module's comment). */
export function batchExitCode(summary: Partial<Record<Counted, unknown>>): 0 | 7 | 8 | 9 {
  const n = (k: Counted) => Number(summary[k] ?? 0);
  const left = n('failed') + n('unknown') + n('still_booking') + n('pending') + n('not_started');
  if (left > 0) return 8;
  if (n('over_limit') + n('over_budget') > 0) return 9;
  return n('accepted') > 0 ? 7 : 0;
}
