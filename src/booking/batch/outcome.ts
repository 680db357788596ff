/**
 * How a batch ends: its outcome (whose exit code src/errors.ts `exitCodeOf` gives) and, when not
 * every order was booked, the error that says so with the command that continues it. Also the
 * errors of a batch whose ledger could not be opened (another run holds its journal, a journal it
 * cannot write): both end the run before anything is sent.
 */
import { dirname } from 'node:path';
import { ShipbookError, cmd, type ErrorKind, type Hint } from '../../errors.js';
import { JournalLockedError, JournalUnusableError } from '../../ledger/index.js';
import type { LedgerStore } from '../../ledger/index.js';
import { storageCode, storageHint } from '../../storage.js';
import type { BatchResult, BatchSummary } from './results.js';
import { aud } from '../../schema/money.js';

/**
 * Opens the batch's ledger with `open`, turning the journal's refusals into what the user does
 * next: another run holds it (wait for it, or `--shard` with a journal of its own), or it cannot be
 * written (the disk, or `--journal` elsewhere).
 * @throws ShipbookError `journal_locked` (exit 2), `journal_unusable` (exit 2 or 10); else what `open` throws
 */
export async function openBatchLedger(open: () => Promise<LedgerStore>): Promise<LedgerStore> {
  try {
    return await open();
  } catch (err) {
    if (err instanceof JournalLockedError) {
      throw new ShipbookError('journal_locked', err.message, 'input', {
        suggestion: `Wait for it to finish, then run the same command again: what it booked is in the ledger and is not booked twice. Several jobs at once each take a share with --shard i/n and a journal of their own.`,
      });
    }
    if (err instanceof JournalUnusableError) {
      const code = storageCode(err);
      throw new ShipbookError('journal_unusable', `${err.message}; nothing was sent`, err.kind, {
        suggestion:
          code !== undefined
            ? storageHint(code, dirname(err.path), 'run the same command again (or give --journal <file> on another disk)')
            : 'Give the batch a journal it can write: --journal <file> in a directory you own (not a file, not read-only).',
        cause: err,
      });
    }
    throw err;
  }
}

/**
 * The outcome of a batch: `ok` when every order is booked (now or before); `limit_refused` (exit 9)
 * when nothing failed and some orders were held to `--max-total` or `--budget` (cancelled before
 * acceptance, or never created); `pending` (done, results pending) when every order is booked or
 * accepted and some results were not read yet; after a signal, the signal's (`interrupted` for
 * SIGINT, `terminated` for SIGTERM) whenever an order is left unfinished; `stdout_closed` (exit 141)
 * when stdout's reader went away with orders left and none failed or unknown; else `incomplete`
 * (an order failed or is unknown). `reason`: the run's abort reason, when it was stopped.
 */
export function batchOutcome(s: BatchSummary, reason: string | undefined): ErrorKind {
  const left = s.failed + s.unknown + s.still_booking + s.pending + s.not_started;
  if (left === 0) return s.over_limit + s.over_budget > 0 ? 'limit_refused' : s.accepted > 0 ? 'pending' : 'ok';
  if (s.interrupted && reason === 'SIGTERM') return 'terminated';
  if (s.interrupted && reason === 'SIGINT') return 'interrupted';
  // Its reader went away (`| head -1`): nothing failed, the rest was left for the next run.
  if (s.interrupted && reason === 'EPIPE' && s.failed + s.unknown === 0) return 'stdout_closed';
  return 'incomplete';
}

/**
 * The end of a batch that nothing failed but whose caps left orders unaccepted (exit 9): how many,
 * the limits, what this run spent, and how to book them.
 */
function capsRefusal(s: BatchSummary, command: string): ShipbookError {
  const parts = [
    ...(s.over_limit > 0 ? [`${s.over_limit} order(s) above --max-total were cancelled before acceptance`] : []),
    ...(s.over_budget > 0
      ? [`${s.over_budget} order(s) were left by --budget ${aud(s.budget?.limit ?? '?')} (${aud(s.budget?.spent ?? '0.00')} spent by this run)`]
      : []),
  ];
  const accepted = s.accepted > 0 ? `; ${s.accepted} accepted, result pending` : '';
  return new ShipbookError('limit_refused', `not every order was booked: ${parts.join('; ')}; nothing over a limit was accepted${accepted}`, 'limit_refused', {
    reported: true,
    suggestion: `Each one's line above gives its price. To book them, run the same command again with a higher limit (nothing is booked twice):\n  ${command}`,
  });
}

/**
 * The error a batch ends with when not every order was booked (undefined for `ok`): what is left
 * and the command that continues it, alone at the end of its line so that pasting that line runs
 * it. `journal` and `ledger` are where the run recorded; `failures`, the orders that did not end booked.
 */
export function batchEnd(
  outcome: ErrorKind,
  summary: BatchSummary,
  x: { reason: string | undefined; command: string; journal: string; ledger: string; failures: readonly BatchResult[] },
): ShipbookError | undefined {
  if (outcome === 'ok') return undefined;
  const journalNote = `Journal: ${x.journal}; ledger: ${x.ledger}.`;
  if (outcome === 'limit_refused') return capsRefusal(summary, x.command);
  const pending = outcome === 'pending';
  const [message, next]: [string, string | Hint] = pending
    ? [
        `done, results pending: ${summary.accepted} order(s) accepted (paid) whose booking result was not read yet; nothing failed`,
        `${journalNote}\nRun the same command again to read their results (nothing is accepted or booked again):\n  ${x.command}`,
      ]
    : summary.interrupted
      ? [
          `${x.reason === 'EPIPE' ? 'stdout was closed' : 'interrupted'}: ${summary.still_booking} order(s) accepted and still booking, ${summary.pending} created and pending, ${summary.not_started} not started, ${summary.failed} failed, ${summary.unknown} unknown`,
          `${journalNote}\nRun the same command again to continue: accepted orders are waited for, not accepted again, and nothing is booked twice:\n  ${x.command}`,
        ]
      : [
          `${summary.failed} order(s) failed and ${summary.unknown} are unknown${summary.accepted > 0 ? `; ${summary.accepted} accepted, result pending` : ''}`,
          [
            ...(x.failures.some((r) => r.next?.action === 'resolve')
              ? ['Settle the unknown ones with "', cmd('journal', 'resolve'), `" (each one's hint above gives the command). `]
              : []),
            `${journalNote}\nRun the same command again to retry the failed ones${summary.accepted > 0 ? ' and read the pending results' : ''} (nothing is booked twice):\n  ${x.command}`,
          ],
        ];
  const code = pending ? 'results_pending' : x.reason === 'EPIPE' ? 'stdout_closed' : summary.interrupted ? 'interrupted' : 'batch_incomplete';
  return new ShipbookError(code, message, outcome, { reported: true, suggestion: next });
}
