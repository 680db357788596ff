/**
 * The queries of the shared ledger (src/ledger/store.ts `records`): a document's records, an
 * order's, a time range's or a day's, read from PostgreSQL page by page in the order they were
 * committed, through the indexes by target and id and by target and time. Used by an open
 * {@link PgLedger} and, without opening one (no lease, no fold of every document), by `history` and
 * `handover` through src/ledger/index.ts `openLedger` (query).
 */
import type { Pool } from 'pg';
import type { JournalRecord } from '../records.js';
import { dayFilter, type LedgerStore, type RecordFilter } from '../store.js';
import { LedgerUnreachableError, openPool, shownUrl } from './connect.js';
import { schemaVersion } from './schema.js';

/** How many records a query reads at a time. */
const PAGE = 1000;

/**
 * The records of `target` that `filter` selects (the same rules as the file ledger's: `since`
 * inclusive, `until` exclusive, a day in the machine's time zone), oldest first.
 * @throws RangeError for a `day` that is not a date `YYYY-MM-DD`; what `lost(err)` returns when a
 *   page cannot be read
 */
export async function* pagedRecords(
  pool: Pick<Pool, 'query'>,
  target: string,
  filter: RecordFilter,
  lost: (err: unknown) => Error,
): AsyncIterable<JournalRecord> {
  const day = filter.day === undefined ? undefined : dayFilter(filter.day);
  if (filter.day !== undefined && day === undefined) throw new RangeError(`not a day (YYYY-MM-DD): ${filter.day}`);
  const since = Math.max(filter.since?.getTime() ?? -Infinity, day?.since.getTime() ?? -Infinity);
  const until = Math.min(filter.until?.getTime() ?? Infinity, day?.until.getTime() ?? Infinity);
  const where = ['target = $1', "event <> 'target'", 'seq > $2::bigint'];
  const params: unknown[] = [target, '0'];
  if (filter.id !== undefined) where.push(`id = $${params.push(filter.id)}`);
  if (filter.orderId !== undefined)
    where.push(`id IN (SELECT id FROM shipbook_records WHERE target = $1 AND record->>'order_id' = $${params.push(filter.orderId)})`);
  if (since > -Infinity) where.push(`t >= $${params.push(new Date(since).toISOString())}::timestamptz`);
  if (until < Infinity) where.push(`t < $${params.push(new Date(until).toISOString())}::timestamptz`);
  const sql = `SELECT seq, record FROM shipbook_records WHERE ${where.join(' AND ')} ORDER BY seq LIMIT ${PAGE}`;
  for (;;) {
    let rows: Array<{ seq: string; record: JournalRecord }>;
    try {
      rows = (await pool.query<{ seq: string; record: JournalRecord }>(sql, params)).rows;
    } catch (err) {
      throw lost(err);
    }
    for (const row of rows) yield row.record;
    if (rows.length < PAGE) return;
    params[1] = rows[rows.length - 1]!.seq;
  }
}

/**
 * The shared ledger at `url` opened for questions only (`history`, `handover`): the records of
 * `target`, streamed page by page, without reading every document, taking a lease or creating
 * tables. `close()` ends the connection.
 * @throws LedgerUnreachableError (exit 10) when the database cannot be reached, now or while a query reads
 */
export async function queryPgLedger(url: string, target: string): Promise<Pick<LedgerStore, 'records' | 'location'> & { close(): Promise<void> }> {
  const pool = await openPool(url, () => undefined, 1);
  let empty: boolean;
  try {
    empty = (await schemaVersion(pool)) === 0;
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw err instanceof LedgerUnreachableError ? err : new LedgerUnreachableError(url, err);
  }
  return {
    location: shownUrl(url),
    // A database where shipbook never wrote has no tables yet: nothing recorded.
    records: (filter = {}) => (empty ? (async function* () {})() : pagedRecords(pool, target, filter, (err) => new LedgerUnreachableError(url, err))),
    close: () => pool.end().catch(() => undefined),
  };
}
