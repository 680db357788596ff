/**
 * The words of a wait for another run (on this machine, or another one sharing the ledger): the
 * ledger's claims lock held by a paused process, a document or order another run is booking, the
 * orders a batch comes back to at its end. Each wait is said once, with who the other run is
 * (pid, host, command) and how this run stops waiting.
 */
import type { ClaimNote } from '../booking/claim.js';
import type { IOStreams } from '../io.js';
import { printable } from './printable.js';
import { paint } from './style.js';
import { minutes } from './wait-notice.js';

/** Another run, as a lock's holder file or a claim record names it. */
interface OtherRun {
  pid: number;
  host: string;
  command: string;
}

/** How long a wait lasts at most, and what ends it. */
interface WaitLimit {
  /** The longest wait, ms. */
  timeoutMs: number;
  /** The flag that sets it, when the command has one (`--wait-timeout`). */
  flag?: string;
  /** What happens when it has passed, e.g. `this run stops, nothing sent`. */
  then: string;
}

/** `pid 123 on host: shipbook book order.yaml`. */
function who(r: OtherRun): string {
  return printable(`pid ${r.pid} on ${r.host}: ${r.command}`);
}

/** `Waiting up to 10 min (--wait-timeout), then …; press Ctrl-C to stop waiting.` */
function howLong(limit: WaitLimit): string {
  return `Waiting up to ${minutes(limit.timeoutMs)}${limit.flag !== undefined ? ` (${limit.flag})` : ''}, then ${limit.then}; press Ctrl-C to stop waiting.`;
}

/** The note of a run waiting for the ledger's claims lock, held by `holder` for more than a moment (paused or slow). */
export function claimsLockNote(io: Pick<IOStreams, 'color'>, holder: OtherRun, limit: WaitLimit): string {
  return `${paint(io, 'yellow', 'note:')} waiting for the ledger's claims lock, held by another run (${who(holder)}), which is paused or slow; nothing is sent meanwhile. ${howLong(limit)}\n`;
}

/** The note of a run waiting for another run that is booking `what` (`this document`, `order ORD-…`) right now. */
function heldDocumentNote(io: Pick<IOStreams, 'color'>, what: string, by: OtherRun, limit: WaitLimit): string {
  return `${paint(io, 'yellow', 'note:')} another run is booking ${what} right now (${who(by)}); waiting for its outcome, nothing is sent meanwhile. ${howLong(limit)}\n`;
}

/** The note of a batch that, its own orders done, waits for `orders` orders the runs `runs` are booking. */
export function heldOrdersNote(io: Pick<IOStreams, 'color'>, e: { orders: number; runs: readonly OtherRun[] }, limit: WaitLimit): string {
  const runs = e.runs.map(who).join('; ');
  return `${paint(io, 'yellow', 'note:')} waiting for ${e.orders} order(s) that ${e.runs.length === 1 ? 'another run is' : 'other runs are'} booking (${runs}); nothing is sent for them meanwhile. ${howLong(limit)}\n`;
}

/** A claim's note (src/booking/claim.ts `ClaimNote`) in words, for stderr. */
export function claimNote(io: Pick<IOStreams, 'color'>, note: ClaimNote): string {
  return note.kind === 'lock' ? claimsLockNote(io, note.holder, note.limit) : heldDocumentNote(io, note.what, note.by, note.limit);
}
