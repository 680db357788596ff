/**
 * The tables of a ledger on a PostgreSQL server, created and migrated by shipbook itself, with the
 * version recorded in `shipbook_schema` (one row per migration applied):
 *
 * - `shipbook_records`: every record of every target, in the order written (`seq`), the record
 *   itself as JSONB (so a new field needs no migration), its target, time, document and event as
 *   columns for the queries (by document, by time); `writer` is the run that wrote it (its nonce),
 *   `source_hash` the hash of the line a `ledger push` copied it from (each line once).
 * - `shipbook_runs`: the runs using the ledger now, with their lease: a run's claims count while
 *   `lease_until` is ahead of the server's clock; each run renews its lease while it lives.
 *
 * Migrations run in one transaction under an advisory lock, so two stations starting at once
 * never both create the tables.
 */
import type { PoolClient } from 'pg';
import { ConfigError } from '../../errors.js';

/** The schema version this shipbook writes and reads. */
export const SCHEMA_VERSION = 1;

/** The advisory lock key under which migrations run (any constant of shipbook's own). */
const MIGRATION_LOCK = 7_301_046_001;

/** Each migration's statements, by the version it brings the schema to. */
const MIGRATIONS: ReadonlyArray<{ version: number; sql: string }> = [
  {
    version: 1,
    sql: `
      CREATE TABLE shipbook_records (
        seq bigserial PRIMARY KEY,
        target text NOT NULL,
        t timestamptz NOT NULL,
        id text NOT NULL,
        event text NOT NULL,
        record jsonb NOT NULL,
        writer text,
        source_hash text
      );
      CREATE INDEX shipbook_records_by_target ON shipbook_records (target, seq);
      CREATE INDEX shipbook_records_by_id ON shipbook_records (target, id, seq);
      CREATE INDEX shipbook_records_by_time ON shipbook_records (target, t);
      CREATE UNIQUE INDEX shipbook_records_pushed ON shipbook_records (target, source_hash) WHERE source_hash IS NOT NULL;
      CREATE TABLE shipbook_runs (
        nonce text PRIMARY KEY,
        target text NOT NULL,
        host text NOT NULL,
        pid integer NOT NULL,
        command text NOT NULL,
        since timestamptz NOT NULL DEFAULT now(),
        lease_until timestamptz NOT NULL
      );
      CREATE INDEX shipbook_runs_by_target ON shipbook_runs (target, lease_until);
    `,
  },
];

/**
 * The schema version recorded in the database, or 0 when shipbook's tables are not there yet.
 * @throws the driver's error when the database cannot be read
 */
export async function schemaVersion(client: Pick<PoolClient, 'query'>): Promise<number> {
  const exists = await client.query<{ present: boolean }>("SELECT to_regclass('shipbook_schema') IS NOT NULL AS present");
  if (!exists.rows[0]?.present) return 0;
  const r = await client.query<{ version: number | null }>('SELECT max(version) AS version FROM shipbook_schema');
  return r.rows[0]?.version ?? 0;
}

/**
 * Brings shipbook's tables to {@link SCHEMA_VERSION} (creating them in an empty database), in one
 * transaction under an advisory lock; returns the version found before.
 * @throws ConfigError (exit 4) when the database holds a newer schema than this shipbook knows;
 *   the driver's error when a statement fails (no permission to create tables …)
 */
export async function migrate(client: PoolClient, by: string): Promise<number> {
  await client.query(`BEGIN; SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
  try {
    await client.query(
      'CREATE TABLE IF NOT EXISTS shipbook_schema (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now(), applied_by text NOT NULL)',
    );
    const found = await schemaVersion(client);
    if (found > SCHEMA_VERSION) {
      throw new ConfigError(`the shared ledger's tables are of schema version ${found}, newer than this shipbook knows (${SCHEMA_VERSION}); nothing was sent`, {
        suggestion: 'Update shipbook on this machine to the version the other stations run.',
      });
    }
    for (const m of MIGRATIONS) {
      if (m.version <= found) continue;
      await client.query(m.sql);
      await client.query('INSERT INTO shipbook_schema (version, applied_by) VALUES ($1, $2)', [m.version, by]);
    }
    await client.query('COMMIT');
    return found;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}
