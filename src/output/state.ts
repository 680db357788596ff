/**
 * The documented `state` of orders and shipments in machine output: beside the
 * wire `status` (mixed case, as the service sends it: `new`, `NEW`, `ACC`, `PEN`, `processed`)
 * every order and shipment carries `state`, one of {@link STATES}. A shipment inside an order
 * shares its order's state (the interface document shows a child as `PEN` or `NEW` while its
 * parent is pending, and `NEW` once accepted), unless its own status says processed, failed or
 * cancelled; a shipment on its own (created, not yet combined) is pending. A status that neither
 * the interface's lists (order `new`/`ACC`/`processed`, shipment `PEN`/`NEW`/`TODO`) nor the
 * assumed `failed` and `cancelled` hold is `unknown`, never taken for a known state: people see it
 * as it came ({@link stateShown}), machines see `state: unknown` beside the wire `status`.
 */
import { orderStatusWord } from '../schema/status.js';
import { isObject } from '../schema/object.js';
import { trackingNumberOf } from '../schema/shipment.js';

/** The documented states, the same word everywhere (docs/output-formats.md, "Statuses"). */
const STATES = ['pending', 'accepted', 'processed', 'failed', 'cancelled', 'unknown'] as const;

/** One documented state. */
export type State = (typeof STATES)[number];

/** The state of an order's wire status; `unknown` for a status the interface document does not list (or none). */
export function orderState(status: string | undefined): State {
  return orderStatusWord(status);
}

/**
 * The state of a shipment: its own final status if it has one, `unknown` for a status of no list
 * (`DECLINED`), else (`PEN`, `NEW`, `TODO`, none) its order's state (pending alone).
 */
export function shipmentState(status: string | undefined, order: State = 'pending'): State {
  if (status === undefined || status.trim() === '') return order;
  const own = orderStatusWord(status);
  if (own === 'processed' || own === 'failed' || own === 'cancelled') return own;
  if (own === 'unknown' && status.trim().toUpperCase() !== 'TODO') return 'unknown';
  return order;
}

/** What people are shown for a state: its word, or for `unknown` the wire status as it came (`DECLINED`), or `unknown` when none came. */
export function stateShown(state: State, status: string | null | undefined): string {
  if (state !== 'unknown') return state;
  return status === undefined || status === null || status.trim() === '' ? 'unknown' : status.trim();
}

type Json = Record<string, unknown>;

/** `obj` with `state` placed right after `status`. */
function withState(obj: Json, state: State): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(obj)) {
    if (k === 'state') continue;
    out[k] = v;
    if (k === 'status') out.state = state;
  }
  return out;
}

function shipmentWithState(s: unknown, order: State | undefined): unknown {
  if (!isObject(s) || typeof s.status !== 'string') return s;
  const out = withState(s, shipmentState(s.status, order));
  // No tracking number yet: null, as the table's "—" says, never the wire's placeholder `N/A`.
  if (typeof out.tracking_number === 'string' && trackingNumberOf({ tracking_number: out.tracking_number }) === undefined) out.tracking_number = null;
  return out;
}

/**
 * A copy of a result (as written to stdout) where every order (an object with a string `status`
 * and a `shipments` list) and every shipment carries `state` beside `status`, and a shipment
 * without a tracking number yet has `tracking_number: null` (the wire's `N/A`). Other values pass
 * through unchanged; objects with a class (Money) are kept as they are so they keep their JSON form.
 */
export function addStates(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(addStates);
  if (!isObject(value) || Object.getPrototypeOf(value) !== Object.prototype) return value;
  if (typeof value.status === 'string' && Array.isArray(value.shipments)) {
    const state = orderState(value.status);
    const order = withState(value, state);
    order.shipments = (value.shipments as unknown[]).map((s) => shipmentWithState(s, state));
    for (const [k, v] of Object.entries(order)) if (k !== 'shipments') order[k] = addStates(v);
    return order;
  }
  const out: Json = {};
  for (const [k, v] of Object.entries(value)) {
    if ((k === 'shipment' || k === 'main_shipment') && isObject(v)) out[k] = shipmentWithState(v, undefined);
    else if (k === 'shipments' && Array.isArray(v)) out[k] = v.map((s) => shipmentWithState(s, undefined));
    else out[k] = addStates(v);
  }
  return out;
}
