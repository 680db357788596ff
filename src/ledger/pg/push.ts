/**
 * `shipbook ledger push`: copies a machine's file ledger of one target into the shared ledger on
 * PostgreSQL, so that what the station booked before it joined counts for every station. Each
 * line is copied once: its row carries the hash of the line (`source_hash`, unique per target),
 * so a second push, or a push of a file that grew since, copies only what is new.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { parseRecord } from '../records.js';
import { LedgerUnreachableError, openPool } from './connect.js';
import { migrate } from './schema.js';
import { thisProcess } from '../../lock.js';

/** What a push did. */
interface PushResult {
  /** Records read from the file (its `target` record left out). */
  records: number;
  /** Records copied now (the others were copied by an earlier push). */
  copied: number;
  /** Documents the file has records of. */
  documents: number;
}

/**
 * Copies every record of the file ledger `path` (written against `target`) into the shared ledger
 * at `url`, in one transaction under the target's lock, each line once; with `ids`, only the
 * records of those documents.
 * @throws LedgerUnreachableError (exit 10) when the database cannot be reached or used
 */
export async function pushFileLedger(o: { url: string; target: string; path: string; lockKey: string; ids?: ReadonlySet<string> }): Promise<PushResult> {
  const lines = existsSync(o.path) ? readFileSync(o.path, 'utf8').split('\n') : [];
  const rows: Array<{ r: unknown; h: string }> = [];
  const documents = new Set<string>();
  // The last line without its newline was never acknowledged: left out, as a reader of the file does.
  for (const line of lines.slice(0, -1)) {
    const r = parseRecord(line);
    if (r === undefined || r.event === 'target' || (o.ids !== undefined && !o.ids.has(r.id))) continue;
    documents.add(r.id);
    rows.push({ r, h: createHash('sha256').update(line, 'utf8').digest('hex') });
  }
  const pool = await openPool(o.url, () => undefined, 1);
  try {
    const client = await pool.connect();
    try {
      await migrate(client, `${thisProcess().host}: shipbook ledger push`);
      await client.query(`BEGIN; SELECT pg_advisory_xact_lock(${o.lockKey})`);
      const r = await client.query(
        `INSERT INTO shipbook_records (target, t, id, event, record, writer, source_hash)
         SELECT $1, (e.x->'r'->>'t')::timestamptz, e.x->'r'->>'id', e.x->'r'->>'event', e.x->'r', 'push', e.x->>'h'
         FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS e(x, n)
         ORDER BY e.n
         ON CONFLICT (target, source_hash) WHERE source_hash IS NOT NULL DO NOTHING`,
        [o.target, JSON.stringify(rows)],
      );
      await client.query('COMMIT');
      return { records: rows.length, copied: r.rowCount ?? 0, documents: documents.size };
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  } catch (err) {
    if (err instanceof Error && err.name === 'ConfigError') throw err;
    throw new LedgerUnreachableError(o.url, err);
  } finally {
    await pool.end().catch(() => undefined);
  }
}
