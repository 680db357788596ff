/**
 * The ledger of one target on a PostgreSQL server, shared by every machine that books on the
 * target (packing stations, a supervisor's PC, CI runners): the same records as the file ledger
 * (src/ledger/file/ledger.ts), the same promise (each record committed before the request it covers
 * leaves) and the same claim protocol (src/ledger/claims.ts), with liveness across machines judged
 * by a lease.
 *
 * - Records are rows of `shipbook_records` (src/ledger/pg/schema.ts), in commit order (`seq`):
 *   every transaction that writes records takes the target's advisory lock first, so rows become
 *   visible in the order of their `seq`, and a run reads what others wrote by reading on from the
 *   last `seq` it saw.
 * - Group commit: the records appended in one turn of the event loop (intents, answers, claims) go
 *   in one transaction, one statement; records appended while it is under way go in the next.
 * - Claims asked for in one turn are decided in one transaction: the target's lock, one read of
 *   what others wrote and which runs live, the decisions, one insert, commit.
 * - Each run has a row in `shipbook_runs` with a lease (`lease_until`, the server's clock), renewed
 *   every third of the lease while it lives; a claim counts while its run's lease runs. A run that
 *   cannot renew its lease holds nothing once its lease may have run out: it sends nothing more.
 * - When the database is lost (a statement fails), the ledger takes no more records: every waiter
 *   is told (a {@link LedgerLostError}, exit 10), no new request leaves, and the run ends saying
 *   what was not recorded. What was committed is never sent again; a create committed as sent
 *   whose answer was not recorded shows as unknown, to every station.
 */
import type { OnExit } from '../../exit-work.js';
import { createHash, randomBytes } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import type { Pool, PoolClient, QueryResult } from 'pg';
import { actorStamp, type Actor } from '../actor.js';
import type { ClaimAnswer } from '../claims.js';
import { describeRecord } from '../errors.js';
import { applyRecord } from '../fold.js';
import { rank, recordsOf } from '../rank.js';
import { prepareRecord, type EntryState, type JournalRecord, type RunClaim } from '../records.js';
import type { CopyJournal, LedgerStore, RecordFilter } from '../store.js';
import { processRuns, thisProcess } from '../../lock.js';
import { LedgerLostError, LedgerUnreachableError, openPool, shownUrl } from './connect.js';
import { migrate, schemaVersion } from './schema.js';
import { pagedRecords } from './query.js';

/** How long a run's lease lasts, ms, unless `SHIPBOOK_TEST_LEDGER_LEASE_MS` says (tests of a station that dies). */
const DEFAULT_LEASE_MS = 30_000;

/** The lease of this process's runs, ms. */
function leaseMs(): number {
  const fromEnv = Number(process.env.SHIPBOOK_TEST_LEDGER_LEASE_MS);
  return Number.isFinite(fromEnv) && fromEnv >= 200 ? fromEnv : DEFAULT_LEASE_MS;
}

/** The advisory lock key of a target: 63 bits of its hash, as a decimal string. */
export function targetLockKey(target: string): string {
  return (BigInt(`0x${createHash('sha256').update(`shipbook-ledger:${target}`, 'utf8').digest('hex').slice(0, 16)}`) >> 1n).toString();
}

/** A row of `shipbook_records` as read (a bigint comes as its decimal text). */
interface RecordRow {
  seq: string;
  writer: string | null;
  record: JournalRecord;
}

/** Records of what an answer said (kept in the journal copy once the database is lost). */
const ANSWERS: ReadonlySet<string> = new Set(['created', 'shipment_created', 'accepted', 'processed']);

/** The error of a run whose lease ran out: what it would write is refused. */
function leaseLapsed(): Error {
  return Object.assign(
    new Error('this run’s lease ran out (the process was paused or cut off longer than the lease): another station may hold its claims now'),
    { code: 'lease_lapsed' },
  );
}

/** What opening a shared ledger needs. */
interface PgLedgerOptions {
  /** The connection URL (`postgresql://…`). */
  url: string;
  /** The target's identity (src/config/target.ts `targetId`). */
  target: string;
  /** The command line, for the run's row and its claims. */
  command: string;
  /** Who makes the changes: stamped on every record this run writes (as the file ledger does). */
  actor?: Actor;
  /** Registers the copy's exit work (write what is pending, give its lock back) with the run, as the file ledger's `onExit`. */
  onExit?: OnExit;
}

/** A claim asked for, waiting for its round. */
interface ClaimRequest {
  id: string;
  wants: (state: EntryState | undefined) => boolean;
  resolve: (answer: ClaimAnswer) => void;
  reject: (err: unknown) => void;
}

/**
 * The SQL of one group commit: the target's lock, then the records in order ($3: a JSON array of
 * records, $4 this run's nonce), written only while this run's lease runs (a run whose lease ran
 * out writes nothing: another station may have taken its documents over).
 */
const INSERT_SQL = `
  WITH l AS (SELECT pg_advisory_xact_lock($1::bigint))
  INSERT INTO shipbook_records (target, t, id, event, record, writer)
  SELECT $2, (e.r->>'t')::timestamptz, e.r->>'id', e.r->>'event', e.r, $4
  FROM l, jsonb_array_elements($3::jsonb) WITH ORDINALITY AS e(r, n)
  WHERE EXISTS (SELECT 1 FROM shipbook_runs WHERE nonce = $4 AND lease_until > now())
  ORDER BY e.n`;

/** What others wrote since `seq` $2, and the nonces of the runs whose lease runs. */
const READ_SQL = `
  SELECT seq, writer, record, NULL::text AS live FROM shipbook_records WHERE target = $1 AND seq > $2::bigint
  UNION ALL
  SELECT NULL::bigint, NULL, NULL, nonce FROM shipbook_runs WHERE target = $1 AND lease_until > now()
  ORDER BY 1 NULLS LAST`;

/**
 * The ledger of one target on a PostgreSQL server, opened for a run (see the module comment). Its
 * methods are those of the file ledger, with the same meaning.
 */
export class PgLedger implements LedgerStore {
  /** This run, as its claims name it. */
  readonly run: RunClaim;
  /** Where the records are kept, as it may be shown (the URL, its password masked). */
  readonly location: string;
  /** What reading set aside, for people (nothing, on a database). */
  readonly notes: string[] = [];
  /** Called when the claims lock is held by a paused process (the file ledger's; a database's lock waits are short). */
  onLockWait: ((holder: { pid: number; host: string; command: string }) => void) | undefined;
  /** Not applied: the target's advisory lock is held within one transaction of at most two round trips, and a wait for it is not timed. */
  lockWaitMs: number | undefined;

  private readonly states = new Map<string, EntryState>();
  /** The last `seq` read. */
  private lastSeq = '0';
  /** Records appended and not yet in a transaction. */
  private pending: JournalRecord[] = [];
  /** Callers of {@link durable} waiting for the transaction that takes what was pending when they called. */
  private waiters: Array<{ resolve: () => void; reject: (err: unknown) => void }> = [];
  private claims: ClaimRequest[] = [];
  private scheduled = false;
  private flushing = false;
  /** Set once the database is lost: nothing more is recorded, nothing more is sent. */
  private failure: LedgerLostError | undefined;
  /** The runs whose lease ran at the last read. */
  private live = new Set<string>();
  /** Until when (this machine's clock, ms) this run's lease surely runs. */
  private leaseSureUntil = 0;
  private leaseTimer: NodeJS.Timeout | undefined;
  private refreshing = false;
  private readonly lockKey: string;
  private readonly lease = leaseMs();
  /** Round trips to the server and transactions committed by this run (for the benchmark's figures). */
  private readonly stats = { roundTrips: 0, transactions: 0 };

  /** Stamps each record with who made it (src/ledger/actor.ts `actorStamp`). */
  private readonly stamp: (given: Omit<JournalRecord, 't'>) => Omit<JournalRecord, 't'>;

  private constructor(
    private readonly pool: Pool,
    private readonly url: string,
    readonly copy: CopyJournal | undefined,
    readonly target: string,
    command: string,
    actor?: Actor,
  ) {
    this.stamp = actorStamp(actor);
    this.run = { ...thisProcess(), at: new Date().toISOString(), nonce: randomBytes(8).toString('hex'), command };
    this.location = shownUrl(url);
    this.lockKey = targetLockKey(target);
  }

  /**
   * Connects to the ledger at `o.url` (creating or migrating shipbook's tables), reads every record
   * of `o.target` and starts this run's lease. The run's journal copy, when it keeps one, is opened
   * by the caller and handed over with {@link keepCopy}.
   * @throws LedgerUnreachableError (exit 10) when the database cannot be reached or used; ConfigError
   *   (exit 4) for a schema newer than this shipbook's
   */
  static async open(o: PgLedgerOptions): Promise<PgLedger> {
    let lost: ((err: unknown) => void) | undefined;
    const pool = await openPool(o.url, (err) => lost?.(err));
    let ledger: PgLedger;
    try {
      const client = await pool.connect();
      try {
        await migrate(client, `${thisProcess().host}: ${o.command}`);
      } finally {
        client.release();
      }
      ledger = new PgLedger(pool, o.url, undefined, o.target, o.command, o.actor);
      lost = (err) => ledger.lose(err, 'the records appended since the last commit');
      await ledger.read(pool);
      await ledger.startLease();
    } catch (err) {
      await pool.end().catch(() => undefined);
      if (err instanceof Error && (err.name === 'ConfigError' || err instanceof LedgerUnreachableError)) throw err;
      throw new LedgerUnreachableError(o.url, err);
    }
    return ledger;
  }

  /**
   * Keeps `copy` (the run's own journal file, opened and naming this target) up to date from now
   * on, and takes into the ledger what it knows that the ledger does not.
   * @throws LedgerLostError (exit 10) when those records cannot be committed
   */
  async keepCopy(copy: CopyJournal): Promise<void> {
    (this as { copy: CopyJournal | undefined }).copy = copy;
    for (const s of copy.states.values()) if (rank(s) > rank(this.states.get(s.id))) for (const r of recordsOf(s)) this.appendOwn(r);
    await this.durable();
  }

  /**
   * Where each document stands, read without writing anything (a dry run, `journal show`). Creates
   * no table: a database shipbook never used has no documents.
   * @throws LedgerUnreachableError (exit 10)
   */
  static async peek(o: Omit<PgLedgerOptions, 'command'>): Promise<(id: string) => EntryState | undefined> {
    const pool = await openPool(o.url, () => undefined, 1);
    const ledger = new PgLedger(pool, o.url, undefined, o.target, 'peek');
    try {
      if ((await schemaVersion(pool)) > 0) await ledger.read(pool);
    } catch (err) {
      throw err instanceof LedgerUnreachableError ? err : new LedgerUnreachableError(o.url, err);
    } finally {
      await pool.end().catch(() => undefined);
    }
    return (id) => ledger.states.get(id);
  }

  /** Reads what others wrote since the last read, and which runs live. */
  private async read(db: Pick<PoolClient, 'query'>): Promise<void> {
    this.stats.roundTrips++;
    const r = await db.query<RecordRow & { live: string | null }>(READ_SQL, [this.target, this.lastSeq]);
    this.apply(r.rows);
  }

  /** Folds what others wrote (rows of {@link READ_SQL}) into the states, and takes which runs live. */
  private apply(rows: ReadonlyArray<RecordRow & { live: string | null }>): void {
    const live = new Set<string>();
    for (const row of rows) {
      if (row.live !== null) {
        live.add(row.live);
        continue;
      }
      this.lastSeq = row.seq;
      if (row.writer === this.run.nonce) continue;
      const rec = row.record;
      if (rec.event === 'target') continue;
      this.states.set(rec.id, applyRecord(this.states.get(rec.id), rec));
    }
    this.live = live;
  }

  /** Inserts this run's row with its lease, and renews it every third of the lease. */
  private async startLease(): Promise<void> {
    const asked = Date.now();
    await this.pool.query(
      `INSERT INTO shipbook_runs (nonce, target, host, pid, command, lease_until) VALUES ($1, $2, $3, $4, $5, now() + $6 * interval '1 millisecond')`,
      [this.run.nonce, this.target, this.run.host, this.run.pid, this.run.command, this.lease],
    );
    this.leaseSureUntil = asked + this.lease;
    this.live.add(this.run.nonce);
    this.leaseTimer = setInterval(() => void this.renewLease(), Math.max(100, Math.floor(this.lease / 3)));
    this.leaseTimer.unref();
  }

  private async renewLease(): Promise<void> {
    if (this.failure !== undefined) return;
    const asked = Date.now();
    this.stats.roundTrips++;
    try {
      // Renewed only while it still runs: a lease that ran out (a process paused longer than it) is
      // never revived, since another station may have taken its claims over meanwhile.
      const r = await this.pool.query(`UPDATE shipbook_runs SET lease_until = now() + $2 * interval '1 millisecond' WHERE nonce = $1 AND lease_until > now()`, [
        this.run.nonce,
        this.lease,
      ]);
      if (r.rowCount === 0) {
        this.lose(leaseLapsed(), 'nothing more: this run sends no new request');
        return;
      }
      this.leaseSureUntil = asked + this.lease;
    } catch (err) {
      this.lose(err, 'the renewal of this run’s lease (its claims lapse when the lease runs out)');
    }
  }

  /** Marks the ledger lost (the first failure is kept); tells every waiter. */
  private lose(err: unknown, notRecorded: string): LedgerLostError {
    if (this.failure === undefined) {
      // Creates in flight now: their answers cannot reach the shared ledger, so they are unknown there.
      const inFlight = [...this.states.values()]
        .filter((st) => st.stage === 'unknown' && st.claim?.nonce === this.run.nonce)
        .map((st) => (st.file !== undefined ? `${st.file}${st.line !== undefined ? `:${st.line}` : ''}` : st.id));
      this.failure =
        err instanceof LedgerLostError ? err : new LedgerLostError(this.url, err, notRecorded, { inFlight, ...(this.copy ? { copy: this.copy.path } : {}) });
      if (this.leaseTimer !== undefined) clearInterval(this.leaseTimer);
    }
    const failure = this.failure;
    const waiters = this.waiters;
    const claims = this.claims;
    this.waiters = [];
    this.claims = [];
    for (const w of waiters) w.reject(failure);
    for (const c of claims) c.reject(failure);
    return failure;
  }

  claim(id: string, wants: (state: EntryState | undefined) => boolean, signal?: AbortSignal): Promise<ClaimAnswer> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<ClaimAnswer>((resolve, reject) => {
      this.claims.push({ id, wants, resolve, reject });
      this.schedule();
    });
  }

  /** One claim's answer on a freshly read ledger, under the target's lock (appends the `claimed` record when granted). */
  private decide(id: string, wants: (state: EntryState | undefined) => boolean): ClaimAnswer {
    const state = this.states.get(id);
    const holder = state?.claim;
    if (holder !== undefined && holder.nonce !== this.run.nonce && this.lives(holder)) return { kind: 'held', state: state!, by: holder };
    if (!wants(state)) return { kind: 'settled', state };
    if (holder?.nonce === this.run.nonce) return { kind: 'claimed', state };
    return { kind: 'claimed', state: this.appendOwn({ id, event: 'claimed', run: this.run }) };
  }

  /**
   * Whether the run holding `claim` still lives: this run while its lease surely runs; a run of
   * this machine whose process is gone, no; another while its lease ran at the last read.
   */
  lives(claim: RunClaim): boolean {
    if (claim.nonce === this.run.nonce) return Date.now() < this.leaseSureUntil;
    if (processRuns(claim) === false) return false;
    return this.live.has(claim.nonce);
  }

  holds(id: string): boolean {
    return this.failure === undefined && this.states.get(id)?.claim?.nonce === this.run.nonce && Date.now() < this.leaseSureUntil;
  }

  release(id: string): void {
    if (this.states.get(id)?.claim?.nonce === this.run.nonce) this.append({ id, event: 'released', run: this.run });
  }

  /** Starts reading what others wrote (the answer is there at a later call: a run waiting on another's claim reads again and again). */
  refresh(): void {
    if (this.refreshing || this.failure !== undefined) return;
    this.refreshing = true;
    this.read(this.pool)
      .catch((err: unknown) => void this.lose(err, 'nothing (a read failed)'))
      .finally(() => (this.refreshing = false));
  }

  /**
   * Appends a record (to the copy too, when the run keeps one) and returns the document's state;
   * the record joins the next group commit.
   * @throws LedgerLostError (exit 10) once the database was lost
   */
  append(given: Omit<JournalRecord, 't'>): EntryState {
    const record = this.stamp(given);
    if (this.failure !== undefined) {
      // What an answer said is kept where it can be: the run's journal copy, which the next run
      // from the same directory takes into the shared ledger.
      if (this.copy !== undefined && ANSWERS.has(record.event)) {
        try {
          this.copy.append(record);
        } catch {
          // the copy's own failure: the document stays unknown
        }
      }
      throw this.failure;
    }
    return this.appendOwn(record);
  }

  /** {@link append} without the check (claims, decided inside a transaction). */
  private appendOwn(record: Omit<JournalRecord, 't'>): EntryState {
    const prepared = prepareRecord(record);
    this.copy?.appendPrepared(prepared, record);
    const full = JSON.parse(prepared.line) as JournalRecord;
    this.pending.push(full);
    const state = applyRecord(this.states.get(full.id), full);
    this.states.set(full.id, state);
    this.schedule();
    return state;
  }

  /** Starts a transaction at the end of this turn (one per turn: a group commit), unless one is under way. */
  private schedule(): void {
    if (this.scheduled || this.flushing) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.cycle();
    });
  }

  /** Commits what is pending and decides the claims asked for, one transaction after another, until nothing is left. */
  private async cycle(): Promise<void> {
    if (this.flushing) return;
    this.flushing = true;
    try {
      while (this.failure === undefined && (this.pending.length > 0 || this.claims.length > 0 || this.waiters.length > 0)) {
        const claims = this.claims;
        const waiters = this.waiters;
        this.claims = [];
        this.waiters = [];
        let first: JournalRecord | undefined = this.pending[0];
        // The run's journal copy is written while the database commits (not after it), for the
        // callers of durable(), and flushed in the background; a copy that cannot be written
        // fails them with its own error.
        const copyFlush =
          waiters.length > 0 && this.copy !== undefined
            ? this.copyWritten().then(
                () => undefined,
                (err: unknown) => err,
              )
            : undefined;
        try {
          let answers: ClaimAnswer[] = [];
          if (claims.length > 0) {
            const client = await this.pool.connect();
            let broken: unknown;
            try {
              // Two round trips, the lock held between them only: the lock and the read in one, the
              // claims (with whatever else is pending) and the commit in the other.
              const lit = (v: string) => client.escapeLiteral(v);
              const read = READ_SQL.replaceAll('$1', () => lit(this.target)).replace('$2', () => lit(this.lastSeq));
              const results = (await client.query(`BEGIN; SELECT pg_advisory_xact_lock(${this.lockKey}); ${read}`)) as unknown as Array<
                QueryResult<RecordRow & { live: string | null }>
              >;
              this.apply(results[2]!.rows);
              answers = claims.map((c) => this.decide(c.id, c.wants));
              first ??= this.pending[0];
              const records = this.pending;
              this.pending = [];
              const insert =
                records.length === 0
                  ? ''
                  : `${INSERT_SQL.replace('pg_advisory_xact_lock($1::bigint)', '1')
                      .replace('$2', () => lit(this.target))
                      .replace('$3', () => lit(JSON.stringify(records)))
                      .replaceAll('$4', () => lit(this.run.nonce))}; `;
              const done = (await client.query(`${insert}COMMIT`)) as unknown as QueryResult | QueryResult[];
              if (records.length > 0 && (Array.isArray(done) ? done[0]!.rowCount : done.rowCount) !== records.length) throw leaseLapsed();
              this.stats.roundTrips += 2;
              this.stats.transactions++;
            } catch (err) {
              broken = err;
              await client.query('ROLLBACK').catch(() => undefined);
              throw err;
            } finally {
              client.release(broken instanceof Error ? broken : undefined);
            }
          } else if (this.pending.length > 0) {
            await this.insert(this.pool, true);
            this.stats.transactions++;
          }
          if (Date.now() >= this.leaseSureUntil) throw leaseLapsed();
          claims.forEach((c, i) => c.resolve(answers[i]!));
          const copyFailure = await copyFlush;
          for (const w of waiters)
            if (copyFailure === undefined) w.resolve();
            else w.reject(copyFailure);
        } catch (err) {
          await copyFlush;
          const failure = this.lose(
            err,
            first === undefined ? 'the claims asked for (nothing was sent for them)' : `${describeRecord(first)}, nor anything after it`,
          );
          for (const w of waiters) w.reject(failure);
          for (const c of claims) c.reject(failure);
        }
      }
    } finally {
      this.flushing = false;
    }
    if (this.failure !== undefined) this.lose(this.failure, '');
  }

  /** Inserts every pending record in one statement (with the target's lock when `lock`: a statement of its own). */
  private async insert(db: Pick<PoolClient, 'query'>, lock: boolean): Promise<void> {
    if (this.pending.length === 0) return;
    const records = this.pending;
    this.pending = [];
    this.stats.roundTrips++;
    const sql = lock ? INSERT_SQL : INSERT_SQL.replace('WITH l AS (SELECT pg_advisory_xact_lock($1::bigint))', 'WITH l AS (SELECT $1::bigint)');
    const r = await db.query(sql, [this.lockKey, this.target, JSON.stringify(records), this.run.nonce]);
    if (r.rowCount !== records.length) throw leaseLapsed();
  }

  /**
   * Resolves once every record appended so far is committed (and, with a copy, on its disk).
   * @throws LedgerLostError (exit 10) when the database was lost before
   */
  durable(): Promise<void> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (this.pending.length === 0 && !this.flushing && this.claims.length === 0) return this.copyWritten();
    return new Promise<void>((resolve, reject) => {
      this.waiters.push({ resolve, reject });
      this.schedule();
    });
  }

  /**
   * Resolves once the run's journal copy holds every record appended so far (written, its flush due
   * within a second: src/ledger/file/journal.ts `flushSoon`), at once without a copy.
   */
  private copyWritten(): Promise<void> {
    if (this.copy === undefined) return Promise.resolve();
    this.copy.flushSoon();
    return this.copy.written();
  }

  /** As {@link durable}: a commit is the only kind of write a database has. */
  written(): Promise<void> {
    return this.durable();
  }

  /** Where the document `id` stands (the copy brought up to date when it knows less, as the file ledger does). */
  get(id: string): EntryState | undefined {
    const s = this.states.get(id);
    if (s !== undefined && this.copy !== undefined && rank(this.copy.states.get(id)) < rank(s)) for (const r of recordsOf(s)) this.copy.append(r);
    return s;
  }

  /** Every document of the ledger, in first-seen order. */
  entries(): EntryState[] {
    return [...this.states.values()];
  }

  /**
   * The records of this target that match `filter`, oldest first (in commit order), read from the
   * database as it is now, by pages (src/ledger/pg/query.ts) (the indexes by document and by time
   * serve the filters).
   * @throws RangeError for a `day` that is not a date `YYYY-MM-DD`; LedgerLostError (exit 10) when
   *   the database cannot be read
   */
  records(filter: RecordFilter = {}): AsyncIterable<JournalRecord> {
    return pagedRecords(this.pool, this.target, filter, (err) => this.lose(err, 'nothing (a query failed)'));
  }

  /** Lets go of every claim this run holds, commits, ends this run's lease, closes the connections and the copy. */
  async close(): Promise<void> {
    if (this.leaseTimer !== undefined) clearInterval(this.leaseTimer);
    if (this.failure === undefined) {
      try {
        for (const s of this.states.values()) if (s.claim?.nonce === this.run.nonce) this.release(s.id);
        await this.durable();
        await this.pool.query('DELETE FROM shipbook_runs WHERE nonce = $1', [this.run.nonce]);
      } catch {
        // a database lost now: the claims lapse with the lease
      }
    }
    await Promise.allSettled([this.pool.end(), this.copy?.close()]);
    // For the benchmark (bench/run.mjs): what this run cost the database.
    const statsFile = process.env.SHIPBOOK_TEST_LEDGER_STATS;
    if (statsFile) appendFileSync(statsFile, `${JSON.stringify(this.stats)}\n`);
  }
}
