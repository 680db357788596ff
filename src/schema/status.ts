/**
 * Statuses: interface document, "States and transitions". Order `new`/`NEW`, `ACC`, `processed`;
 * shipment `PEN`, `NEW`, `TODO`. Compared case-insensitively and shown to people as words
 * (docs/assumptions.md, "statuses"). `cancelled` is the sandbox's state after cancel-order (not shown in the
 * interface document).
 */

/** What a status means to a person. */
type StatusWord = 'pending' | 'new' | 'accepted' | 'processed' | 'to do' | 'cancelled' | 'failed' | 'unknown';

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
