/**
 * What `shipbook doctor` finds out about a shared ledger on PostgreSQL: that it can be reached, the
 * server's version, the schema version of shipbook's tables, and how far the server's clock is
 * from this machine's (leases are judged on the server's clock; record times are this machine's).
 */
import { openPool } from './connect.js';
import { SCHEMA_VERSION, schemaVersion } from './schema.js';

/** What a probe found. */
interface LedgerProbe {
  /** The server's version, e.g. `15.8`. */
  serverVersion: string;
  /** The schema version of shipbook's tables in the database (0: not created yet). */
  schema: number;
  /** The schema version this shipbook writes. */
  known: number;
  /** The server's clock minus this machine's, ms (at the middle of the round trip). */
  skewMs: number;
}

/**
 * Connects to `url`, reads the versions and the server's clock; creates nothing.
 * @throws the driver's error when the database cannot be reached or read
 */
export async function probeLedger(url: string, timeoutMs = 5000): Promise<LedgerProbe> {
  const pool = await openPool(url, () => undefined, 1);
  try {
    const connected = pool.connect();
    const timer = new Promise<never>((_, reject) =>
      setTimeout(() => reject(Object.assign(new Error('the connection timed out'), { code: 'ETIMEDOUT' })), timeoutMs).unref(),
    );
    const client = await Promise.race([connected, timer]);
    try {
      const before = Date.now();
      const r = await client.query<{ now: Date; version: string }>("SELECT now() AS now, current_setting('server_version') AS version");
      const after = Date.now();
      const row = r.rows[0]!;
      return {
        serverVersion: row.version.split(' ')[0]!,
        schema: await schemaVersion(client),
        known: SCHEMA_VERSION,
        skewMs: row.now.getTime() - (before + after) / 2,
      };
    } finally {
      client.release();
    }
  } finally {
    await pool.end().catch(() => undefined);
  }
}
