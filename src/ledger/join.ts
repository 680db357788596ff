/**
 * A station and the shared ledger: what it booked on its own before joining is carried in, what
 * the shared ledger knows is kept in its file ledger too, and what other keys of the same service
 * booked there is found before a create leaves.
 *
 * - **Join** ({@link joinShared}): before a run on the shared ledger books anything, the lines of
 *   every document this station's file ledger knows further along than the shared ledger are
 *   copied in (as `ledger push` does: each line once, by its hash), so the station's history
 *   counts for every station, without a `ledger push` by hand.
 * - **Going back** ({@link mirrorToFile}): at the end of each run on the shared ledger, what it
 *   knows further along than the station's file ledger is written there, so a station that goes
 *   back to the file ledger books none of it again.
 * - **Other keys** ({@link bookedUnderOtherKeys}): the orders created under the other accounts of
 *   the service in the shared ledger.
 *
 * The bridge between the two implementations, so it lives in the room's root beside the chooser
 * (src/ledger/open.ts), and is loaded only with the shared ledger.
 */
import { existsSync } from 'node:fs';
import { serviceIdentity, splitTargetId } from '../config/target.js';
import { Ledger } from './file/ledger.js';
import { readJournal } from './file/read.js';
import { ledgerPath } from './paths.js';
import { LedgerUnreachableError, openPool, shownUrl } from './pg/connect.js';
import { PgLedger, targetLockKey } from './pg/ledger.js';
import { pushFileLedger } from './pg/push.js';
import { schemaVersion } from './pg/schema.js';
import { rank, recordsOf } from './rank.js';
import type { EntryState } from './records.js';
import type { BookedElsewhere } from './store.js';

/** What a join copied. */
interface JoinResult {
  /** The station's file ledger of the target. */
  path: string;
  /** Documents the file ledger knows further along than the shared ledger (copied now). */
  documents: number;
  /** Records of those documents read from the file. */
  records: number;
  /** Records copied now (the others were copied before). */
  copied: number;
}

/**
 * The documents of this station's file ledger of `target` that the shared ledger at `url` lacks,
 * or knows less far along (read only: nothing is copied).
 * @throws LedgerUnreachableError (exit 10)
 */
export async function missingFromShared(o: { url: string; stateDir: string; target: string }): Promise<{ path: string; ids: Set<string> }> {
  const path = ledgerPath(o.stateDir, o.target);
  if (!existsSync(path)) return { path, ids: new Set() };
  const file = readJournal(path);
  if (file.size === 0) return { path, ids: new Set() };
  const shared = await PgLedger.peek({ url: o.url, target: o.target });
  const ids = new Set<string>();
  for (const s of file.values()) if (rank(s) > rank(shared(s.id))) ids.add(s.id);
  return { path, ids };
}

/**
 * Copies into the shared ledger at `url` the lines of every document this station's file ledger
 * of `target` knows further along (see the module comment); idempotent.
 * @throws LedgerUnreachableError (exit 10)
 */
export async function joinShared(o: { url: string; stateDir: string; target: string }): Promise<JoinResult> {
  const { path, ids } = await missingFromShared(o);
  if (ids.size === 0) return { path, documents: 0, records: 0, copied: 0 };
  const r = await pushFileLedger({ url: o.url, target: o.target, path, lockKey: targetLockKey(o.target), ids });
  return { path, documents: ids.size, records: r.records, copied: r.copied };
}

/**
 * Writes into this station's file ledger of `target` what `entries` (the shared ledger's documents,
 * as a run read them) know further along than it, so that going back to the file ledger books none
 * of them again.
 * @throws as src/ledger/file/ledger.ts `Ledger.open` and `append`
 */
export async function mirrorToFile(o: { stateDir: string; target: string; entries: readonly EntryState[] }): Promise<number> {
  const path = ledgerPath(o.stateDir, o.target);
  const known = existsSync(path) ? readJournal(path) : new Map<string, EntryState>();
  const ahead = o.entries.filter((s) => rank(s) > rank(known.get(s.id)) && recordsOf(s).length > 0);
  if (ahead.length === 0) return 0;
  const file = await Ledger.open({ stateDir: o.stateDir, target: o.target, command: 'shipbook: keeping the file ledger up to date with the shared ledger' });
  try {
    for (const s of ahead) if (rank(s) > rank(file.get(s.id))) for (const r of recordsOf(s)) file.append(r);
    await file.durable();
  } finally {
    await file.close();
  }
  return ahead.length;
}

/**
 * The orders created in the shared ledger at `url` under the other accounts of the service of
 * `target` (any spelling of its URL), leaving out the accounts in `separate`: the first order of
 * each document.
 * @throws LedgerUnreachableError (exit 10)
 */
export async function bookedUnderOtherKeys(url: string, target: string, separate: ReadonlySet<string>): Promise<Map<string, BookedElsewhere>> {
  const out = new Map<string, BookedElsewhere>();
  const mine = splitTargetId(target);
  if (mine === undefined || separate.has(mine.account)) return out;
  const pool = await openPool(url, () => undefined, 1);
  try {
    if ((await schemaVersion(pool)) === 0) return out;
    const targets = (await pool.query<{ target: string }>('SELECT DISTINCT target FROM shipbook_records')).rows
      .map((r) => r.target)
      .filter((t) => {
        const p = splitTargetId(t);
        return t !== target && p !== undefined && serviceIdentity(p.service) === mine.service && p.account !== mine.account && !separate.has(p.account);
      });
    if (targets.length === 0) return out;
    const r = await pool.query<{ target: string; id: string; order_id: string; t: Date }>(
      `SELECT DISTINCT ON (id) target, id, record->>'order_id' AS order_id, t FROM shipbook_records
       WHERE target = ANY($1::text[]) AND event = 'created' AND record ? 'order_id' ORDER BY id, seq`,
      [targets],
    );
    for (const row of r.rows)
      out.set(row.id, {
        orderId: row.order_id,
        at: new Date(row.t).toISOString(),
        where: `the shared ledger at ${shownUrl(url)}`,
        account: splitTargetId(row.target)!.account,
      });
    return out;
  } catch (err) {
    throw err instanceof LedgerUnreachableError ? err : new LedgerUnreachableError(url, err);
  } finally {
    await pool.end().catch(() => undefined);
  }
}
