/**
 * Statuses: interface document, "States and transitions". Order `new`/`NEW`, `ACC`, `processed`;
 * shipment `PEN`, `NEW`, `TODO`. Compared case-insensitively and shown to people as words
 * (docs/assumptions.md, "statuses"). `cancelled` is the sandbox's state after cancel-order (not shown in the
 * interface document).
 */

/** What a status means to a person. */
export type StatusWord = 'pending' | 'new' | 'accepted' | 'processed' | 'to do' | 'cancelled' | 'failed' | 'unknown';

/** Reads an order status in any case: `new` → pending, `ACC` → accepted, `processed` → processed. */
export function orderStatusWord(raw: string | undefined): StatusWord {
  switch ((raw ?? '').trim().toLowerCase()) {
    case 'new':
    case 'pen':
    case 'pending':
      return 'pending';
    case 'acc':
    case 'accepted':
      return 'accepted';
    case 'processed':
      return 'processed';
    case 'cancelled':
    case 'canceled':
    case 'can':
      return 'cancelled';
    case 'failed':
    case 'error':
      return 'failed';
    default:
      return 'unknown';
  }
}

/** Reads a shipment status in any case: `PEN` → pending, `NEW` → new, `TODO` → to do, `processed` → processed. */
export function shipmentStatusWord(raw: string | undefined): StatusWord {
  switch ((raw ?? '').trim().toLowerCase()) {
    case 'pen':
    case 'pending':
      return 'pending';
    case 'new':
      return 'new';
    case 'todo':
      return 'to do';
    default:
      return orderStatusWord(raw);
  }
}

/** True when the raw order status means the booking is complete. */
export function isProcessed(raw: string | undefined): boolean {
  return orderStatusWord(raw) === 'processed';
}
