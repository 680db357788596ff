/**
 * `shipbook history`: every change made at the target service from this machine, as its ledger
 * recorded it (src/ledger/history.ts): when, by which operating-system user on which host with
 * which profile, the operation, the order, price and payment, and what became of it (done, failed,
 * unknown, processed). Offline: it reads the ledger only, as a stream.
 */
import { Command, Option } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { HISTORY_STATUSES, historyRows, type HistoryFilter, type HistoryRow, type HistoryStatus } from '../../ledger/index.js';
import { printHistory } from '../../output/history.js';

/** Units of `--since 2d`-style durations, ms. */
const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/**
 * A point in time given to `--since` or `--until`: a date (`2026-11-26`, midnight in the machine's
 * time zone), an ISO time (`2026-11-26T09:30`, `…Z`), or a duration back from now (`2d`, `12h`, `30m`, `1w`).
 * @returns ms since the epoch
 * @throws UsageError (exit 2) naming the flag
 */
export function parseWhen(flag: string, value: string, now: Date): number {
  const d = /^(\d+)\s*([mhdw])$/i.exec(value.trim());
  if (d) return now.getTime() - Number(d[1]) * UNITS[d[2]!.toLowerCase()]!;
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
  if (day) {
    const t = new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3])).getTime();
    if (!Number.isNaN(t)) return t;
  }
  const t = /^\d{4}-\d{2}-\d{2}T/.test(value.trim()) ? Date.parse(value.trim()) : Number.NaN;
  if (Number.isNaN(t))
    throw new UsageError(`${flag} "${value}" is not a date, a time or a duration`, {
      suggestion: `For example ${flag} 2026-11-26, ${flag} 2026-11-26T09:30, or ${flag} 2d (two days ago)`,
    });
  return t;
}

/** Flags of `history`. */
interface HistoryFlags {
  since?: string;
  until?: string;
  order?: string;
  operation?: string;
  status?: HistoryStatus;
}

/**
 * Lists the ledger's changes that pass the filters: a table on a terminal, tab-separated lines
 * otherwise, or `{history: [rows]}` (json, yaml), one row per line (ndjson).
 * @throws UsageError (exit 2) for a date that cannot be read
 */
async function runHistory(flags: HistoryFlags, ctx: Context): Promise<void> {
  const now = ctx.now();
  const filter: HistoryFilter = {
    ...(flags.since !== undefined ? { since: parseWhen('--since', flags.since, now) } : {}),
    ...(flags.until !== undefined ? { until: parseWhen('--until', flags.until, now) } : {}),
    ...(flags.order !== undefined ? { order: flags.order } : {}),
    ...(flags.operation !== undefined ? { operation: flags.operation } : {}),
    ...(flags.status !== undefined ? { status: flags.status } : {}),
  };
  const ledger = await ctx.ledger('query');
  // An order's records are picked by the store; the other filters apply to the rows.
  const records = ledger.records(flags.order !== undefined ? { orderId: flags.order } : {});
  // A table is drawn once its widths are known; tab-separated lines are written a few thousand at
  // a time as rows are read; the machine formats go through the writer's stream.
  const { format, machine } = ctx.output;
  const held: HistoryRow[] = [];
  const stream = ctx.output.stream<HistoryRow>();
  let count = 0;
  for await (const row of historyRows(records, filter)) {
    count++;
    if (machine) stream.add(row, () => undefined);
    else if (held.push(row) >= 2000 && format !== 'table') printHistory(ctx.io, format, held.splice(0));
  }
  if (held.length > 0) printHistory(ctx.io, format, held);
  stream.end((rows) => ({ history: rows }));
  if (count === 0 && !ctx.output.machine) ctx.io.err('No changes recorded in the ledger match.\n');
}

/** The `history` command. */
export function historyCommand(ctx: Context): Command {
  return new Command('history')
    .summary('list every change made at the service, with who and when')
    .description(
      'List what the ledger of the target recorded: every order create, accept and cancel, shipment create and combine, ' +
        'and every booking, with its time, operating-system user, host, profile, order, price, payment type and outcome ' +
        '(done, failed, unknown: sent without an answer, processed: a result learned). Reads the ledger only: works offline.',
    )
    .option(
      '--since <when>',
      "only changes at or after this date (2026-11-26), time (2026-11-26T09:30) or duration back (2d, 12h), in this machine's time zone",
    )
    .option('--until <when>', "only changes before this date, time or duration back, in this machine's time zone")
    .option('--order <order-id>', 'only changes of this order')
    .option('--operation <name>', 'only this operation ("order accept", book …) or request (accept, cancel, create_order …)')
    .addOption(new Option('--status <status>', 'only changes with this outcome').choices(HISTORY_STATUSES))
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  shipbook history\n' +
        '  shipbook history --since 2d --operation "order accept"\n' +
        '  shipbook history --order ORD-1A2B3C4D --json\n' +
        '  shipbook history --since 2026-11-01 --until 2026-12-01 --status unknown -o ndjson\n',
    )
    .action(async (flags: HistoryFlags) => runHistory(flags, ctx));
}
