/**
 * The requests a booking would send, without sending any (`book --dry-run`):
 * the same steps as {@link bookDocument} (create the order, or create each shipment and combine
 * them; then accept), each as the redacted record the API client reports (`ApiClient.plan`).
 * Ids that only the service can assign appear as placeholders: `<order id>`, `<shipment id 1>` …
 * Waiting for the result sends nothing of its own when it waits by callback, and only reads
 * (fetch-order-data) when it polls, so it is not part of the plan.
 */
import type { ApiClient, PlannedRequest } from '../api/client.js';
import type { AcceptRequest } from '../schema/payment.js';
import type { BookingDocument } from './book.js';

/** What planning a booking needs: the client (for its base URL and key) and the accept request builder. */
interface PlanDeps {
  api: Pick<ApiClient, 'plan'>;
  /** Builds the accept request for an order id (here a placeholder), as for a real booking. */
  accept: (orderId: string) => Promise<AcceptRequest>;
}

/**
 * Plans every request of a booking, in order.
 * @throws what `deps.accept` throws (an invalid payment: UsageError/ValidationError, exit 2)
 */
export async function planBooking(doc: BookingDocument, deps: PlanDeps): Promise<PlannedRequest[]> {
  const plan = (name: 'createOrder' | 'createShipment' | 'combineShipments' | 'acceptOrder', body: unknown, orderId?: string): PlannedRequest => {
    return deps.api.plan({ endpoint: name, ...(orderId === undefined ? {} : { params: { order_id: orderId } }), body });
  };
  const requests: PlannedRequest[] = [];
  let orderId: string;
  if (doc.kind === 'regular') {
    requests.push(plan('createOrder', doc.order));
    orderId = '<order id>';
  } else if (doc.kind === 'consolidated') {
    const ids = doc.booking.shipments.map((shipment, i) => {
      requests.push(plan('createShipment', { shipment }));
      return `<shipment id ${i + 1}>`;
    });
    const main = doc.booking.main_shipment;
    requests.push(plan('combineShipments', { shipments: ids, ...(main !== undefined ? { main_shipment: main } : {}) }));
    orderId = '<parent order id>';
  } else {
    orderId = doc.orderId;
  }
  requests.push(plan('acceptOrder', await deps.accept(orderId), orderId));
  return requests;
}
