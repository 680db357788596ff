/**
 * `shipbook order list`: the orders shipbook knows, from the ledger of the target (src/ledger/orders.ts),
 * with filters by reference (a shipment's transient id), tracking number, status, day and user; works
 * offline. `--from-service` lists a shipbook sandbox's own orders instead (`GET /_sandbox/orders/`,
 * a route of every shipbook sandbox; the booking interface has no list of orders).
 */
import { Command, Option } from 'commander';
import { listSandboxOrders } from '../../api/orders.js';
import type { Context } from '../../context.js';
import { ApiError, ProtocolError, UsageError, cmd } from '../../errors.js';
import { localDay, KNOWN_ORDER_STATUSES, knownOrders, passesOrderFilter, type KnownOrderFilter, type KnownOrderStatus } from '../../ledger/index.js';
import { printOrderList, type OrderListRow } from '../../output/order-list.js';
import { orderStatusWord } from '../../schema/status.js';

/** Flags of `order list`. */
interface OrderListFlags {
  reference?: string;
  tracking?: string;
  status?: KnownOrderStatus;
  day?: string;
  user?: string;
  fromService?: boolean;
}

/**
 * `--day`: `today`, `yesterday` or YYYY-MM-DD, as a day in the machine's time zone.
 * @throws UsageError (exit 2)
 */
function parseDay(value: string, now: Date): string {
  const v = value.trim().toLowerCase();
  if (v === 'today') return localDay(now);
  if (v === 'yesterday') return localDay(new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1));
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (m && !Number.isNaN(new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3])).getTime())) return v;
  throw new UsageError(`--day "${value}" is not a day`, { suggestion: 'For example --day today, --day yesterday or --day 2026-11-26' });
}

/**
 * The orders of a shipbook sandbox, as rows (no user: a sandbox does not know who created them).
 * @throws UsageError (exit 2) when the target has no list of orders (a real service: 404)
 */
async function serviceRows(ctx: Context): Promise<OrderListRow[]> {
  let orders;
  try {
    orders = await listSandboxOrders(await ctx.api(), { retry: 'safe' });
  } catch (err) {
    if (err instanceof ProtocolError || (err instanceof ApiError && (err.status === 404 || err.status === 405))) {
      throw new UsageError('--from-service lists the orders of a shipbook sandbox; this service has no list of orders (the booking interface has none)', {
        suggestion: [`Ask the service's operator for its orders; what shipbook knows of them: `, cmd('order', 'list')],
        cause: err,
      });
    }
    throw err;
  }
  return orders.map((o) => ({
    order_id: o.id,
    status: orderStatusWord(o.status),
    references: o.shipments.map((s) => s.transient_id).filter((t): t is string => typeof t === 'string' && t !== ''),
    tracking_numbers: o.shipments.map((s) => s.tracking_number).filter((t): t is string => typeof t === 'string' && t !== '' && t !== 'N/A'),
    created_at: o.created_at ?? null,
  }));
}

/**
 * Lists the orders that pass the filters: a table on a terminal, tab-separated lines otherwise,
 * `{orders: [rows]}` in json and yaml, one row per line in ndjson, the order ids under `--quiet`.
 * @throws UsageError (exit 2) for a bad `--day`, `--user` with `--from-service`, or a service without a list
 */
async function runOrderList(flags: OrderListFlags, ctx: Context): Promise<void> {
  const filter: KnownOrderFilter = {
    ...(flags.reference !== undefined ? { reference: flags.reference } : {}),
    ...(flags.tracking !== undefined ? { tracking: flags.tracking } : {}),
    ...(flags.status !== undefined ? { status: flags.status } : {}),
    ...(flags.day !== undefined ? { day: parseDay(flags.day, ctx.now()) } : {}),
    ...(flags.user !== undefined ? { user: flags.user } : {}),
  };
  let rows: OrderListRow[];
  if (flags.fromService) {
    if (flags.user !== undefined)
      throw new UsageError('--user filters what the ledger recorded; a sandbox does not know who created its orders', {
        suggestion: 'Leave out --user or --from-service.',
      });
    // An order without a creation time matches no --day.
    rows = (await serviceRows(ctx)).filter((r) => passesOrderFilter({ ...r, status: r.status as KnownOrderStatus, created_at: r.created_at ?? '' }, filter));
  } else {
    const ledger = await ctx.ledger('query');
    rows = (await knownOrders(ledger.records(), filter)).map(
      ({ identity, order_id, status, references, tracking_numbers, total, created_at, user, host, service_choice }) => ({
        ...(order_id !== undefined ? { order_id } : {}),
        status,
        references,
        tracking_numbers,
        ...(total !== undefined ? { total } : {}),
        created_at,
        ...(user !== undefined ? { user } : {}),
        ...(host !== undefined ? { host } : {}),
        identity,
        ...(service_choice !== undefined ? { service_choice } : {}),
      }),
    );
  }
  // One record per order: a line each in ndjson, the ids under --quiet, `{orders: [...]}` in json and yaml.
  const stream = ctx.output.stream<OrderListRow>();
  for (const row of rows) stream.add(row, () => undefined);
  stream.end((kept) => ({ orders: kept }));
  if (!ctx.output.machine && !ctx.output.choice.quiet && rows.length > 0) printOrderList(ctx.io, ctx.output.format, rows);
  if (rows.length === 0 && !ctx.output.machine) ctx.io.err(flags.fromService ? 'No order at the service matches.\n' : 'No order in the ledger matches.\n');
}

/** The `order list` command. */
export function orderListCommand(ctx: Context): Command {
  return new Command('list')
    .summary("list the orders shipbook knows (from the ledger), or a sandbox's own")
    .description(
      'List the orders the ledger of the target knows, one per document: order id, status (unknown: a create sent whose answer never came; ' +
        "pending, accepted, processed, failed, cancelled, not_created), references (the shipments' transient ids), tracking numbers, total, " +
        'when and by whom it was created, its identity (what journal resolve takes), and the service choice the rules recorded ' +
        "(each shipment's service and rule; --json adds how and the reason). Reads the ledger only: works offline. " +
        'With --from-service, the orders a shipbook sandbox holds (built-in or shipbook sandbox; a real service has no list of orders).',
    )
    .option('--reference <transient-id>', 'only orders with a shipment of this reference (transient_id)')
    .option('--tracking <number>', 'only orders with this tracking number')
    .addOption(new Option('--status <status>', 'only orders with this status').choices(KNOWN_ORDER_STATUSES))
    .option('--day <day>', 'only orders created on this day: today, yesterday or YYYY-MM-DD')
    .option('--user <name>', 'only orders created by this operating-system user (from the ledger)')
    .option('--from-service', "list a shipbook sandbox's own orders instead of the ledger's")
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  shipbook order list\n' +
        '  shipbook order list --status unknown\n' +
        '  shipbook order list --day today --json\n' +
        '  shipbook order list --reference SO-10482\n' +
        '  shipbook order list --from-service --reference SO-10482\n',
    )
    .action(async (flags: OrderListFlags) => runOrderList(flags, ctx));
}
