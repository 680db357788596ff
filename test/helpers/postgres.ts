/**
 * A throwaway PostgreSQL server for tests of the shared ledger: `initdb` into a temporary directory
 * and `pg_ctl start` on 127.0.0.1 only, on a port of its own, with trust authentication for the
 * user `shipbook` (and a password-protected user, `secretive`, for tests of redaction). The
 * binaries are Debian's (`/usr/lib/postgresql/<version>/bin`, the highest version) or those on
 * PATH. PostgreSQL refuses to run as root: as root, the server runs as the `postgres` system user,
 * owning its directory. Tests skip with {@link POSTGRES_MISSING} as the reason when none is found.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The directory of PostgreSQL's server binaries (initdb, pg_ctl, psql), or undefined. */
function findBinaries(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0] !== undefined) return join(root, versions[0], 'bin');
  }
  const which = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' });
  const found = which.status === 0 ? which.stdout.trim() : '';
  return found === '' ? undefined : join(found, '..');
}

const BIN = findBinaries();

/** Why the PostgreSQL tests cannot run here, or undefined when they can. */
export const POSTGRES_MISSING: string | undefined =
  BIN === undefined ? 'no PostgreSQL server binaries (initdb, pg_ctl) under /usr/lib/postgresql/*/bin or on PATH: install Debian\'s "postgresql"' : undefined;

/** A running throwaway server. */
export interface TestPostgres {
  /** `postgresql://shipbook@127.0.0.1:<port>/<database>`: trust authentication. */
  url: string;
  /** The same server as the user `secretive`, with its password in the URL. */
  passwordUrl: string;
  /** The password of {@link passwordUrl}. */
  password: string;
  port: number;
  /** Stops the server at once (`pg_ctl stop -m immediate`): a database lost mid-run. */
  kill(): void;
  /** Starts it again after {@link kill}, on the same port and data. */
  start(): void;
  /** Runs SQL with psql as the test user; returns its output (unaligned, tuples only). */
  sql(query: string): string;
  /** Stops the server and removes its directory. */
  stop(): void;
}

const asRoot = process.getuid?.() === 0;

/** Runs one of the server's binaries, as the `postgres` user when this process is root. */
function run(bin: string, args: string[], timeout = 60_000): string {
  const exe = join(BIN!, bin);
  const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', exe, ...args]] : [exe, args];
  return execFileSync(cmd, argv, { encoding: 'utf8', timeout, stdio: ['ignore', 'pipe', 'pipe'], cwd: tmpdir() });
}

/**
 * A port on 127.0.0.1 that the kernel handed out a moment ago (a child process listens on port 0
 * and closes it): the server is started on it, so no test binds a fixed port that a person's own
 * PostgreSQL, or another test file, may hold.
 */
function freePort(): number {
  const script = "const s=require('node:net').createServer().listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})";
  return Number(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
}

/**
 * Starts a server on a free port and creates the database `shipbook` with its users. Call
 * {@link TestPostgres.stop} in afterAll.
 * @throws when no PostgreSQL is installed (check {@link POSTGRES_MISSING} first) or it fails to start
 */
export function startPostgres(): TestPostgres {
  if (BIN === undefined) throw new Error(POSTGRES_MISSING);
  const port = freePort();
  const dir = mkdtempSync(join(tmpdir(), 'shipbook-pg-'));
  chmodSync(dir, 0o755);
  const data = join(dir, 'data');
  const log = join(dir, 'server.log');
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  // Only 127.0.0.1, no Unix socket outside the directory; small and quick (no durability tuning
  // beyond what a test needs: fsync stays on, the ledger's promise is about commits).
  writeFileSync(
    join(data, 'pg_hba.conf'),
    ['local all all trust', 'host all secretive 127.0.0.1/32 scram-sha-256', 'host all all 127.0.0.1/32 trust', ''].join('\n'),
  );
  const opts = `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${dir} -c max_connections=60 -c shared_buffers=16MB`;
  const start = () => run('pg_ctl', ['-D', data, '-l', log, '-o', opts, '-w', '-t', '60', 'start']);
  start();
  const password = 'pg-secret-pass-7f3a9c';
  const psql = (query: string, db = 'postgres') =>
    run('psql', ['-h', dir, '-p', String(port), '-U', 'postgres', '-d', db, '-v', 'ON_ERROR_STOP=1', '-At', '-c', query]);
  psql('CREATE USER shipbook');
  psql(`CREATE USER secretive PASSWORD '${password}'`);
  psql('CREATE DATABASE shipbook OWNER shipbook');
  // The same rights as the user `shipbook`: the tables either creates are the other's too.
  psql('GRANT shipbook TO secretive');
  return {
    url: `postgresql://shipbook@127.0.0.1:${port}/shipbook`,
    passwordUrl: `postgresql://secretive:${password}@127.0.0.1:${port}/shipbook`,
    password,
    port,
    kill: () => void run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']),
    start: () => void start(),
    sql: (query) => psql(query, 'shipbook'),
    stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
