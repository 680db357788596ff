/**
 * What a command that changes something at the service records in the ledger of the target
 * (src/ledger/ledger.ts), so that `shipbook history` can say who did what and when: every record
 * of the run says which command, operating-system user, host and profile made it; a request typed
 * by hand is recorded as an intent on disk before it leaves, and its answer as soon as it comes
 * ({@link recordedRequest}).
 */
import { randomBytes } from 'node:crypto';
import type { Context } from '../../context.js';
import { ApiError } from '../../errors.js';
import type { EntryState, JournalRecord } from '../../ledger/records.js';
import { claimLives } from '../../ledger/ledger.js';
import { openLedger } from '../../ledger/open.js';
import type { LedgerStore } from '../../ledger/store.js';
import { sheetShipmentsOf } from '../../ledger/sheet.js';
import type { OrderResponse } from '../../schema/order.js';
import { trackingNumberOf } from '../../schema/shipment.js';
import { orderStatusWord } from '../../schema/status.js';

/** What {@link openLedgerFor} needs besides the context. */
interface OpenFor {
  /** The operation as `history` names it: `book`, `order accept` … */
  op: string;
  /** The command line, for claims and locks (no secrets). */
  command: string;
  /** The run's journal copy (a batch). */
  copy?: { path: string; lock: boolean };
  /** The payment type of the run's accepts, once known (stamped on each `accept_sent`). */
  payment?: () => string | undefined;
}

/**
 * Opens the ledger of the run's target (src/ledger/open.ts `openLedger`) with the run's actor (the operation, and the profile; the
 * user and host are the process's), closed when the command ends.
 * @throws as src/ledger/open.ts `openLedger`
 */
export async function openLedgerFor(ctx: Context, o: OpenFor): Promise<LedgerStore> {
  const profile = await ctx.profile();
  const ledger = await openLedger({
    setting: profile.ledger,
    stateDir: ctx.stateDir(),
    target: await ctx.targetId(),
    command: o.command,
    ...(o.copy ? { copy: o.copy } : {}),
    actor: { op: o.op, profile: profile.name, ...(o.payment ? { payment: o.payment } : {}) },
    onExit: ctx.onExit,
  });
  ctx.defer(() => ledger.close());
  return ledger;
}

/**
 * The ledger identity an order typed by hand is recorded under: the document that became this
 * order when the ledger knows it (a `book` or batch created it), else one keyed by the order id.
 */
export function identityOfOrder(ledger: LedgerStore, orderId: string): string {
  return ledger.entries().find((s) => s.orderId === orderId)?.id ?? `order:${orderId}`;
}

/** A fresh identity for a change that belongs to no document (a shipment created by hand, a combine). */
export function changeIdentity(): string {
  return `change:${randomBytes(6).toString('hex')}`;
}

/**
 * Sends a request typed by hand under the ledger: the intent (`intent`, under `id`) is on disk
 * before the request leaves; the answer (`answer(result)`) is written as soon as it comes; a
 * refusal by the service (4xx: nothing changed there) is recorded as `refused`. Any other failure
 * (no answer, a timeout, a 5xx) leaves the intent unanswered: `history` shows it as unknown.
 * @throws what `send` throws; JournalWriteError (exit 10) when the intent cannot be recorded (then nothing was sent)
 */
export async function recordedRequest<T>(
  ledger: LedgerStore,
  id: string,
  intent: Omit<JournalRecord, 't' | 'id'>,
  send: () => Promise<T>,
  answer: (result: T) => Omit<JournalRecord, 't' | 'id'>,
): Promise<T> {
  ledger.append({ id, ...intent });
  await ledger.durable();
  let result: T;
  try {
    result = await send();
  } catch (err) {
    if (err instanceof ApiError && err.status >= 400 && err.status < 500) {
      ledger.append({ id, event: 'refused', ...(intent.order_id ? { order_id: intent.order_id } : {}), error: { code: err.code, message: err.message } });
      await ledger.written();
    }
    throw err;
  }
  ledger.append({ id, ...answer(result) });
  await ledger.written();
  return result;
}

/** The answer record of an order the service returned (created, combined). */
export function orderAnswer(order: OrderResponse): Omit<JournalRecord, 't' | 'id'> {
  const total = order.price?.total?.toString();
  return { event: 'answered', order_id: order.id, ...(total ? { total } : {}), sheet: sheetShipmentsOf(order) };
}

/**
 * Records what an order read from the service says, when the ledger does not know it yet: processed
 * (with its tracking numbers), cancelled, or a booking that failed. Nothing while another live run
 * holds the order (it records the outcome itself), nor when the ledger already says as much.
 * @throws as src/ledger/store.ts `LedgerStore.append`
 */
export async function recordLearned(ledger: LedgerStore, order: OrderResponse, message: string | undefined): Promise<void> {
  const id = identityOfOrder(ledger, order.id);
  const state: EntryState | undefined = ledger.get(id);
  if (state?.claim !== undefined && claimLives(state.claim)) return;
  const word = orderStatusWord(order.status);
  const total = order.price?.total?.toString();
  if (word === 'processed' && state?.stage !== 'processed') {
    const tracking = order.shipments.map((s) => trackingNumberOf(s) ?? 'N/A');
    ledger.append({ id, event: 'processed', order_id: order.id, tracking_numbers: tracking, ...(total ? { total } : {}) });
  } else if (word === 'cancelled' && state?.error?.code !== 'cancelled') {
    ledger.append({ id, event: 'cancelled', order_id: order.id });
  } else if (word === 'failed' && state?.stage !== 'failed') {
    ledger.append({ id, event: 'failed', order_id: order.id, created: true, error: { code: 'booking_failed', message: message ?? 'the booking failed' } });
  } else return;
  await ledger.written();
}
