/**
 * The words of a waiter's events (src/booking/result/): the spinner's text while waiting, and the
 * `warning:`, `note:` and dim lines of its {@link WaitNotice}s. The waiters report data; this is
 * where it becomes English.
 */
import type { BookingEvent, CallbackClaim, WaitNotice } from '../booking/progress.js';
import { orderStatusWord } from '../schema/status.js';

/** How a line is shown: a `warning:`, a `note:`, or a dim line (how the result is awaited). */
type NoticeLevel = 'warning' | 'note' | 'dim';

/** `2 s`, or `500 ms` for a duration that is not whole seconds. */
function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/** `10 min` for whole minutes, else as {@link seconds}. */
export function minutes(ms: number): string {
  return ms >= 60_000 && ms % 60_000 === 0 ? `${ms / 60_000} min` : seconds(ms);
}

/** The spinner's text when a wait begins: `waiting for the booking result of ORD-… by polling every 2 s (up to 10 min)`. */
export function waitingText(e: Extract<BookingEvent, { type: 'waiting' }>): string {
  const how = e.route === 'poll' ? `by polling every ${seconds(e.pollMs ?? 0)}` : 'by callback';
  return `waiting for the booking result of ${e.orderId} ${how} (up to ${minutes(e.timeoutMs)})`;
}

/** The spinner's text after a poll: `waiting for the booking result of ORD-… by polling (accepted)`. */
export function polledText(e: Extract<BookingEvent, { type: 'polled' }>): string {
  return `waiting for the booking result of ${e.orderId} by polling (${orderStatusWord(e.order.status)})`;
}

/** A callback's claim in words: `processed`, `failed (no driver available)`, `accepted` … */
function claimText(claim: CallbackClaim): string {
  return claim.detail !== undefined ? `${claim.word} (${claim.detail})` : claim.word;
}

/** The lines of a notice, in the order they are shown. */
export function waitNoticeLines(n: WaitNotice): Array<{ level: NoticeLevel; text: string }> {
  switch (n.kind) {
    case 'own_callback':
      return [{ level: 'dim', text: `The booking result goes to your callback URL; shipbook waits by polling fetch-order-data every ${n.pollMs / 1000} s.` }];
    case 'loopback_unreachable':
      return [
        {
          level: 'dim',
          text: `The service at ${n.serviceOrigin} cannot reach a receiver on this machine's loopback, so shipbook waits by polling fetch-order-data every ${n.pollMs / 1000} s.`,
        },
        { level: 'dim', text: 'To wait by callback, expose a receiver (e.g. through a tunnel) and give --public-url https://… --listen 127.0.0.1:8787.' },
      ];
    case 'receiver_on_network':
      return [{ level: 'warning', text: `the callback receiver listens on ${n.host}, reachable from the network; only its unguessable path is accepted` }];
    case 'receiver_address':
      return [{ level: 'dim', text: `callback receiver on ${n.localUrl}${n.publicUrl !== undefined ? `, reached through ${n.publicUrl}` : ''}` }];
    case 'poll_failed':
      return [{ level: 'warning', text: `a poll failed (${n.reason}); still polling` }];
    case 'receiver_problem': {
      const line =
        n.summary !== undefined ? `callback receiver: ${n.summary}` : `callback receiver answered ${n.status} to a ${n.method} from ${n.remote}: ${n.reason}`;
      return [{ level: 'warning', text: `${line}; still waiting` }];
    }
    case 'callback_unconfirmed_yet':
      return [
        {
          level: 'warning',
          text: `a callback says order ${n.orderId} is ${claimText(n.claim)}, but fetch-order-data could not confirm it yet (${n.reason}); checking again`,
        },
      ];
    case 'callback_unconfirmed':
      return [{ level: 'warning', text: `could not confirm the callback with fetch-order-data (${n.reason}); going by the callback alone` }];
    case 'callback_overruled':
      return [
        {
          level: 'warning',
          text: `the callback said order ${n.orderId} ${n.claim.success ? 'is processed' : claimText(n.claim)}, but the service shows it ${n.serviceWord}: going by the service`,
        },
      ];
    case 'callback_ahead':
      return [
        {
          level: 'warning',
          text: `a callback says order ${n.orderId} is ${claimText(n.claim)}, but the service still shows it ${n.serviceWord}: waiting for the service`,
        },
      ];
    case 'tracking_differs':
      return [
        {
          level: 'warning',
          text: `the callback's tracking numbers (${n.callback.join(', ')}) differ from the service's (${n.service.join(', ')}): showing the service's`,
        },
      ];
    case 'processed_without_callback':
      return [{ level: 'note', text: `no callback arrived, but fetch-order-data shows order ${n.orderId} processed` }];
  }
}
