/**
 * The day's orders as the hand-over sheet and the dock read them: from the ledger (the shared one
 * included), after the result of every order of the day accepted but not processed has been read
 * from the service and recorded (src/booking/dock/pending.ts), unless `--offline`.
 */
import { cmd } from '../../errors.js';
import { hintText } from '../../output/hints.js';
import type { Context } from '../../context.js';
import { fetchOrderWithMessage } from '../../api/orders.js';
import { fetchServiceData } from '../../api/services.js';
import { acceptedOn, readPendingResults, type PendingResults } from '../../booking/index.js';
import { sheetOrders, type SheetOrder } from '../../ledger/index.js';
import { pendingNote } from '../../output/dock.js';
import { openLedgerFor } from '../common/record.js';

/** The day's orders, and what is known of the orders that may be missing. */
interface DayOrders {
  orders: SheetOrder[];
  /** What reading the pending results found (absent with `--offline`). */
  pending?: PendingResults;
  /** Orders accepted on the day whose result was not read (offline, or unreadable): the sheet may be short of them. */
  mayBeMissing: number;
  /** Where the ledger is, for people. */
  location: string;
}

/**
 * Reads the ledger, reads and records the pending results of `date` (unless `offline`), and reads
 * the ledger again when something was recorded. Says on stderr what it read.
 * @throws LedgerUnreachableError (exit 10) for a shared ledger that cannot be reached; JournalWriteError (exit 10)
 */
export async function dayOrders(ctx: Context, date: string, o: { offline: boolean; op: string }): Promise<DayOrders> {
  const profile = await ctx.profile();
  const ledger = await ctx.ledger('query');
  let orders = await sheetOrders(ledger.records());
  if (o.offline) return { orders, mayBeMissing: acceptedOn(orders, date).length, location: ledger.location };
  const pending = await readPendingResults({
    orders,
    date,
    fetch: async (id) => fetchOrderWithMessage(await ctx.api(), id, profile.paths),
    ledger: () => openLedgerFor(ctx, { op: o.op, command: hintText([cmd(o.op, '--date', date)], ctx.settings.hints) }),
    signal: ctx.signal,
  });
  if (pending.accepted > 0) {
    ctx.io.err(pendingNote(pending, date));
    if (pending.processed + pending.cancelled + pending.failed > 0) orders = await sheetOrders(ledger.records());
  }
  return { orders, pending, mayBeMissing: pending.unread.length, location: ledger.location };
}

/**
 * The carrier of each service code of `date`'s shipments: asked of the service (fetch-service-data),
 * once per code; the code itself when the service cannot say (unknown code), or is not asked (`offline`).
 */
export async function dayCarriers(ctx: Context, orders: readonly SheetOrder[], date: string, offline = false): Promise<(code: string | undefined) => string> {
  if (offline) return (code) => code ?? 'unknown carrier';
  const codes = new Set<string>();
  for (const o of orders) for (const s of o.shipments) if ((s.pickup ?? o.createdDay) === date && s.svc !== undefined) codes.add(s.svc);
  const out = new Map<string, string>();
  const profile = await ctx.profile();
  let failed = 0;
  await Promise.all(
    [...codes].map(async (code) => {
      try {
        const data = await fetchServiceData(await ctx.api(), code, profile.paths);
        out.set(code, data.carrier ?? code);
      } catch {
        failed++;
        out.set(code, code);
      }
    }),
  );
  if (failed > 0) ctx.io.err(`note: the service did not name the carrier of ${failed} service code(s); the sheet shows the code instead\n`);
  return (code) => (code === undefined ? 'unknown carrier' : (out.get(code) ?? code));
}
