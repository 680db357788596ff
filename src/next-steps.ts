/**
 * Sentences that name the next command to run, shared by the flows (their errors quote them, and a
 * batch report carries those errors) and by output/, which prints them. Plain text, no terminal:
 * every command in them is quoted for a POSIX shell (src/shell.ts), so it can be pasted as printed.
 */
import { cmd, type Hint } from './errors.js';
import { shellCommand, type HintStyle } from './shell.js';

/**
 * What to say of an order whose booking goes on at the service after shipbook stopped waiting
 * (a timeout or an interruption): `order ORD-… is accepted and the booking is still running; run
 * "shipbook order get ORD-…" to see it later`.
 */
export function stillRunningNote(orderId: string, hints: HintStyle): string {
  return `order ${orderId} is accepted and the booking is still running; run "${shellCommand(hints, 'order', 'get', orderId)}" to see it later`;
}

/** How to look at an order, as data: `See the order with: shipbook order get ORD-…`. */
export function seeOrderHint(orderId: string): Hint {
  return ['See the order with: ', cmd('order', 'get', orderId)];
}
