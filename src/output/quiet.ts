/**
 * `--quiet`: stdout carries only the ids a command produced, one per line, so
 * `ORDER=$(shipbook order create f.yaml --quiet)` works. Which ids: the order of an order result
 * (`order.id`, or `parent.id` for a combined parent), the shipment of a shipment result
 * (`shipment.id`), every order of a list (`orders[].id`), every shipment of a list that is not an
 * order's (`shipments[].id`), the service codes of a quote
 * (`services[].code`), the stored cards of a card list (`credit_cards[].id`), and the order of each booked
 * order of a batch (a batch result whose status is not `booked` or `already_booked` has no id to
 * give). Errors print nothing on stdout (stderr says what happened).
 */
import type { IOStreams } from '../io.js';
import type { OutputChoice } from './format.js';
import type { OutputWriter, RecordStream } from './writer.js';
import type { Target } from '../config/target.js';

function record(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function idOf(value: unknown, key = 'id'): string[] {
  const id = record(value)?.[key];
  return typeof id === 'string' && id !== '' ? [id] : [];
}

/** The ids `--quiet` prints for a command's result data (see the module documentation). */
function quietIds(data: unknown): string[] {
  const top = record(data);
  if (!top) return [];
  for (const key of ['order', 'parent']) if (top[key] !== undefined) return idOf(top[key]);
  if (top.shipment !== undefined) return idOf(top.shipment);
  if (Array.isArray(top.orders)) return top.orders.flatMap((o) => idOf(o));
  if (Array.isArray(top.shipments) && top.order === undefined) return top.shipments.flatMap((s) => idOf(s));
  if (Array.isArray(top.services)) return top.services.flatMap((s) => idOf(s, 'code'));
  if (Array.isArray(top.credit_cards)) return top.credit_cards.flatMap((c) => idOf(c));
  // A batch result: only a booked order's id (a failed one may have an order that is not booked).
  if (
    typeof top.status === 'string' &&
    typeof top.file === 'string' &&
    top.status !== 'booked' &&
    top.status !== 'already_booked' &&
    top.status !== 'booked_by_other_run'
  )
    return [];
  if (typeof top.order_id === 'string') return [top.order_id];
  return [];
}

/**
 * A writer that prints only {@link quietIds} of each result, on `io.out` (the real stdout: every
 * other write to it is dropped). Its format is `tsv`, so what a renderer draws is plain lines.
 */
export function createQuietWriter(io: Pick<IOStreams, 'out'>, choice: OutputChoice): OutputWriter {
  let target: Target | undefined;
  return {
    choice,
    format: 'tsv',
    machine: false,
    get target() {
      return target;
    },
    setTarget(next) {
      // ids only: the target line on stderr names it; kept for the reports a batch writes
      target = { ...next };
    },
    write(data) {
      for (const id of quietIds(data)) io.out(`${id}\n`);
    },
    data(data) {
      for (const id of quietIds(data)) io.out(`${id}\n`);
    },
    stream<T>(): RecordStream<T> {
      return {
        add: (record) => {
          for (const id of quietIds(record)) io.out(`${id}\n`);
        },
        end: () => {
          // ids only: the closing document is for the machine formats
        },
      };
    },
    error() {
      // people read the error on stderr
    },
    markSandbox() {
      // ids only: the sandbox banner on stderr says it
    },
  };
}
