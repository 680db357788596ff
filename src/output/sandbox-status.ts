/**
 * The words of `sandbox status`: the orders and shipments of the simulated service's state counted
 * by documented state (pending, accepted, processed, failed, cancelled: the words of every machine
 * document's `state`) and by wire status (`new`, `PEN`, `TODO` …), and their lines.
 */
import type { IOStreams } from '../io.js';

/** The order in which states are listed: the course of an order. */
const STATE_ORDER = ['pending', 'accepted', 'processed', 'failed', 'cancelled'];

/** Counts of one kind of record: by documented state (the words shown), and by wire status. */
interface Counts {
  total: number;
  by_state: Record<string, number>;
  by_status: Record<string, number>;
}

/** Counts of orders and shipments by state and by wire status, and where the state lives. */
export interface SandboxStatus {
  state_dir: string;
  exists: boolean;
  orders: Counts;
  shipments: Counts;
  /** At most this many orders are kept; the oldest finished ones are pruned beyond it. */
  max_orders: number;
}

/** Counts `values` by the state `stateOf` gives each and by its wire `status`. */
export function countStates<T extends { status: string }>(values: Iterable<T>, stateOf: (v: T) => string): Counts {
  const byState: Record<string, number> = {};
  const byStatus: Record<string, number> = {};
  let total = 0;
  for (const v of values) {
    total++;
    const state = stateOf(v);
    byState[state] = (byState[state] ?? 0) + 1;
    byStatus[v.status] = (byStatus[v.status] ?? 0) + 1;
  }
  return { total, by_state: byState, by_status: byStatus };
}

/** Prints where the state lives, then a line for orders and one for shipments (`processed 50, failed 1`). */
export function printSandboxStatus(io: IOStreams, status: SandboxStatus): void {
  const line = (what: string, c: Counts) =>
    `${what}\t${c.total}${
      c.total > 0
        ? `\t${Object.entries(c.by_state)
            .sort(([a], [b]) => STATE_ORDER.indexOf(a) - STATE_ORDER.indexOf(b))
            .map(([k, n]) => `${k} ${n}`)
            .join(', ')}`
        : ''
    }\n`;
  io.out(`state\t${status.state_dir}${status.exists ? '' : '\t(empty: nothing stored yet)'}\n`);
  io.out(line('orders', status.orders));
  io.out(line('shipments', status.shipments));
}
