/**
 * Every record the dock writes in the ledger, from this one module: what it learns of an order's
 * booking result before a sheet is drawn or the dock opens ({@link recordResult}), each parcel
 * scanned ({@link recordScan}), and at the end of a session the driver it went to
 * ({@link recordHandedOver}) or that it was not handed over ({@link recordNotHandedOver}).
 */
import { claimLives } from '../../ledger/ledger.js';
import type { DockMark, EntryState } from '../../ledger/records.js';
import type { LedgerStore } from '../../ledger/store.js';
import type { OrderResponse } from '../../schema/order.js';
import { trackingNumberOf } from '../../schema/shipment.js';
import { orderStatusWord } from '../../schema/status.js';

/** The ledger identity of an order: the document that became it, else one keyed by the order id. */
function identityOf(ledger: LedgerStore, orderId: string): string {
  return ledger.entries().find((s) => s.orderId === orderId)?.id ?? `order:${orderId}`;
}

/**
 * Records what an order read from the service (fetch-order-data) says, when the ledger does not
 * know it yet: processed (with its tracking numbers), cancelled, or a booking that failed; the same
 * records `order get` writes. Nothing while another live run holds the order (it records the
 * outcome itself), nor when the ledger already says as much.
 * @returns what was recorded, or undefined when nothing was
 * @throws as src/ledger/store.ts `LedgerStore.append` (JournalWriteError, exit 10)
 */
export function recordResult(ledger: LedgerStore, order: OrderResponse, message: string | undefined): 'processed' | 'cancelled' | 'failed' | undefined {
  const id = identityOf(ledger, order.id);
  const state: EntryState | undefined = ledger.get(id);
  if (state?.claim !== undefined && claimLives(state.claim)) return undefined;
  const word = orderStatusWord(order.status);
  const total = order.price?.total?.toString();
  if (word === 'processed' && state?.stage !== 'processed') {
    const tracking = order.shipments.map((s) => trackingNumberOf(s) ?? 'N/A');
    ledger.append({ id, event: 'processed', order_id: order.id, tracking_numbers: tracking, ...(total ? { total } : {}) });
    return 'processed';
  }
  if (word === 'cancelled' && state?.error?.code !== 'cancelled') {
    ledger.append({ id, event: 'cancelled', order_id: order.id });
    return 'cancelled';
  }
  if (word === 'failed' && state?.stage !== 'failed') {
    ledger.append({ id, event: 'failed', order_id: order.id, created: true, error: { code: 'booking_failed', message: message ?? 'the booking failed' } });
    return 'failed';
  }
  return undefined;
}

/** A parcel as the dock records it: its order, shipment and tracking number. */
export interface RecordedParcel {
  orderId: string;
  shipmentId: string;
  tracking: string;
}

/**
 * Records the scan of `parcel` (the ledger stamps the time, user and host; `mark` names the station,
 * the session and, when known, the driver), visible to other stations once this resolves.
 * @throws as src/ledger/store.ts `LedgerStore.append` / `written` (JournalWriteError, exit 10)
 */
export async function recordScan(ledger: LedgerStore, parcel: RecordedParcel, mark: DockMark): Promise<void> {
  ledger.append({
    id: identityOf(ledger, parcel.orderId),
    event: 'scanned',
    order_id: parcel.orderId,
    tracking_numbers: [parcel.tracking],
    dock: { ...mark, shipment_id: parcel.shipmentId },
  });
  await ledger.written();
}

/**
 * Records that each of `parcels`, scanned in the session of `mark`, went to the driver `mark` names.
 * @throws as src/ledger/store.ts `LedgerStore.append` / `written`
 */
export async function recordHandedOver(ledger: LedgerStore, parcels: readonly RecordedParcel[], mark: DockMark): Promise<void> {
  for (const p of parcels)
    ledger.append({
      id: identityOf(ledger, p.orderId),
      event: 'handed_over',
      order_id: p.orderId,
      tracking_numbers: [p.tracking],
      dock: { ...mark, shipment_id: p.shipmentId },
    });
  await ledger.written();
}

/**
 * Records that each of `parcels`, expected and not scanned, was confirmed as not handed over.
 * @throws as src/ledger/store.ts `LedgerStore.append` / `written`
 */
export async function recordNotHandedOver(ledger: LedgerStore, parcels: readonly RecordedParcel[], mark: DockMark): Promise<void> {
  for (const p of parcels)
    ledger.append({
      id: identityOf(ledger, p.orderId),
      event: 'not_handed_over',
      order_id: p.orderId,
      tracking_numbers: [p.tracking],
      dock: { ...mark, shipment_id: p.shipmentId },
    });
  await ledger.written();
}
