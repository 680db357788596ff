/**
 * Reaching a ledger on a PostgreSQL server: the driver (node-postgres, `pg`, loaded only when such
 * a ledger is configured: its own file in the build, never read by a run on the file ledger), a
 * small pool of connections, and errors worded for people, the password never shown.
 */
import type { Pool, PoolConfig } from 'pg';
import { redactUrlPassword, scrubKnown } from '../../api/redact.js';
import { ShipbookError } from '../../errors.js';

/** The connection URL as it may be shown: its password masked. */
export function shownUrl(url: string): string {
  return redactUrlPassword(url);
}

/** What a driver or network error says, in a few words, without secrets. */
export function describeDbError(err: unknown): string {
  const e = err as { code?: string; message?: string };
  const words: Record<string, string> = {
    ECONNREFUSED: 'connection refused (is the server running, on that host and port?)',
    ENOTFOUND: 'no such host',
    ETIMEDOUT: 'the connection timed out',
    ECONNRESET: 'the connection was reset',
    EPIPE: 'the connection was closed',
    '28P01': 'the password was refused',
    '28000': 'the server refused this user (pg_hba.conf)',
    '3D000': 'no such database',
    '57P01': 'the server was shut down',
    '57P02': 'the server crashed',
    '57P03': 'the server is starting up or shutting down',
    '42501': 'permission denied',
    lease_lapsed: "this run's lease ran out (the process was paused or cut off longer than the lease): another station may hold its claims now",
  };
  const word = e.code !== undefined ? words[e.code] : undefined;
  const message = scrubKnown(String(e.message ?? err));
  if (word !== undefined) return `${word} [${e.code}]`;
  return e.code !== undefined ? `${message} [${e.code}]` : message;
}

/** The shared ledger cannot be reached or used when a run starts: nothing was sent. Exit 10. */
export class LedgerUnreachableError extends ShipbookError {
  constructor(url: string, cause: unknown) {
    super('ledger_unreachable', `cannot reach the shared ledger at ${shownUrl(url)}: ${describeDbError(cause)}; nothing was sent`, 'storage', {
      suggestion:
        'Check that the database server runs and this machine may connect (host, port, user, password, sslmode), with "shipbook doctor"; then run the same command again. Nothing recorded in the shared ledger is sent twice.',
      cause,
    });
  }
}

/**
 * The shared ledger was lost while the run went on: it takes no more records, no new request is
 * sent; `notRecorded` says what the database did not take. Carries the code of a journal that
 * cannot be written (`journal_write_failed`), which ends a batch. Exit 10.
 */
export class LedgerLostError extends ShipbookError {
  /**
   * @param notRecorded what the database did not take, in words
   * @param o.inFlight the documents (file:line) whose create was in flight when it was lost
   * @param o.copy the run's journal copy, which keeps the answers that came back after
   */
  constructor(url: string, cause: unknown, notRecorded: string, o: { inFlight?: string[]; copy?: string } = {}) {
    const inFlight = o.inFlight ?? [];
    const unknown =
      inFlight.length === 0
        ? ''
        : `. Unknown in the shared ledger until settled (a create was in flight: the order may exist): ${inFlight.slice(0, 20).join(', ')}${inFlight.length > 20 ? ` and ${inFlight.length - 20} more` : ''}`;
    super(
      'journal_write_failed',
      `lost the shared ledger at ${shownUrl(url)}: ${describeDbError(cause)}; no new request was sent after that; not recorded: ${notRecorded}${unknown}`,
      'storage',
      {
        suggestion:
          (o.copy !== undefined
            ? `The answers that came back are kept in the journal ${o.copy}: once the database is back, run the same command again from this directory, and they are taken into the shared ledger. `
            : 'Once the database is back, run the same command again. ') +
          'Nothing recorded as sent is sent twice; an order whose answer was recorded nowhere shows as unknown until "shipbook journal resolve" settles it.',
        cause,
      },
    );
  }
}

/**
 * A pool of connections to `url` (a `postgres://` or `postgresql://` URL; TLS as its `sslmode`
 * says; a password left out is taken from PGPASSWORD or ~/.pgpass by the driver). Errors of idle
 * connections (the server gone) go to `onError`, never crash the process.
 */
export async function openPool(url: string, onError: (err: unknown) => void, max = 4): Promise<Pool> {
  const pg = await import('pg');
  const Pool = (pg as unknown as { default?: typeof pg }).default?.Pool ?? pg.Pool;
  redactUrlPassword(url);
  const config: PoolConfig = {
    connectionString: url,
    max,
    connectionTimeoutMillis: 10_000,
    keepAlive: true,
    application_name: 'shipbook',
  };
  const pool = new Pool(config);
  pool.on('error', onError);
  // The pool listens for errors of idle connections only: a connection checked out (a claim's
  // transaction, a migration) that the server drops emits 'error' with no listener, which would
  // end the process as an internal error. Its failure reaches the caller anyway, through the
  // query under way or the next one ("not queryable"), so this listener only keeps it there.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}
