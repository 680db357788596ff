/**
 * Order statuses: interface document, "States and transitions" (`new`/`NEW`, `ACC`, `processed`),
 * compared case-insensitively and shown to people as words (docs/assumptions.md, "order
 * statuses"). `cancelled` is the sandbox's state after cancel-order and `failed` the state assumed
 * for a failed booking (neither is shown in the interface document). A shipment's own status
 * (`PEN`, `NEW`, `TODO`) is read with the same function where only a final one counts
 * (src/output/state.ts).
 */

/** What a status means to a person. */
type StatusWord = 'pending' | 'accepted' | 'processed' | 'cancelled' | 'failed' | 'unknown';

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
