/**
 * Which ledger a key books into: the ledger follows the service (its normalised base URL,
 * src/config/target.ts `serviceIdentity`) and the **account** behind the key, never the key's text.
 *
 * An account is named by the fingerprint of the first key seen for it. The keys of each service and
 * the account each belongs to are kept in `<state dir>/ledger-accounts.json`, beside the `ledger/`
 * directory, which holds ledgers only (fingerprints only, never a key):
 *
 * - the first key of a service founds its account;
 * - a new key of a service that has an account with records is put to the service: fetch-order-data
 *   of orders that account's ledger holds, asked with the new key ({@link AccountProbe}). An order
 *   the service shows to the new key is that account's, so the key is the same account: it is
 *   linked and carries on the same ledger. Otherwise it is not linked, and the guard of
 *   {@link bookedElsewhere} keeps any document of the other account's ledger from being sent;
 * - `shipbook ledger link` links a key by hand, `shipbook ledger separate` declares it an account
 *   of its own (a test key and a live key on one URL), never linked by a probe afterwards.
 *
 * Ledgers written before this (one file per key, or per spelling of the URL) are merged into their
 * account's ledger on first use: the documents the old file knows further along are copied line
 * by line (times and who-did-what kept), and the old file is kept beside as `<file>.merged`.
 */
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, renameSync, writeFileSync, appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { serviceIdentity, splitTargetId } from '../config/target.js';
import { ShortLock } from '../lock.js';
import { ledgerPath } from './paths.js';
import { rank } from './rank.js';
import { readJournal } from './file/read.js';
import { parseRecord, type JournalRecord } from './records.js';
import type { BookedElsewhere } from './store.js';

/** How a key came to its account. */
type LinkHow = 'first' | 'probe' | 'link' | 'separate' | 'merged';

/** One key of a service, by its fingerprint. */
interface KeyEntry {
  /** The account's name: the fingerprint of its first key. */
  account: string;
  how: LinkHow;
  /** When it was decided, ISO 8601. */
  at: string;
}

/** `ledger-accounts.json`: the keys of each service ({@link serviceIdentity}) by fingerprint. */
interface Accounts {
  version: 1;
  services: Record<string, { keys: Record<string, KeyEntry> }>;
}

/** The file of {@link Accounts} in `stateDir`. */
function accountsPath(stateDir: string): string {
  return join(stateDir, 'ledger-accounts.json');
}

/** Reads `ledger-accounts.json`; an empty registry when there is none (or it cannot be read as one). */
function readAccounts(stateDir: string): Accounts {
  try {
    const parsed = JSON.parse(readFileSync(accountsPath(stateDir), 'utf8')) as Accounts;
    if (parsed && typeof parsed.services === 'object') return parsed;
  } catch {
    // none yet
  }
  return { version: 1, services: {} };
}

/** Writes `ledger-accounts.json` whole (a temporary file renamed over it: a reader never sees half). */
function writeAccounts(stateDir: string, accounts: Accounts): void {
  const path = accountsPath(stateDir);
  mkdirSync(stateDir, { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(accounts, null, 2)}\n`);
  renameSync(tmp, path);
}

/** Records the account of a key (read, change, write: the registry changes rarely, by hand or once per new key). */
function setKey(stateDir: string, service: string, key: string, account: string, how: LinkHow): void {
  const accounts = readAccounts(stateDir);
  const keys = (accounts.services[service] ??= { keys: {} }).keys;
  keys[key] = { account, how, at: new Date().toISOString() };
  writeAccounts(stateDir, accounts);
}

/** A file ledger of a service in the state directory. */
interface ServiceLedger {
  path: string;
  /** Its target as its first record names it. */
  target: string;
  /** The key fingerprint (or account) in that target. */
  key: string;
}

/** The target named by the first record of a ledger file (read from its first 4 KiB only). */
function firstTarget(path: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const buf = Buffer.alloc(4096);
    const n = readSync(fd, buf, 0, buf.length, 0);
    const first = buf.toString('utf8', 0, n).split('\n')[0] ?? '';
    const r = JSON.parse(first) as Partial<JournalRecord>;
    return r.event === 'target' && typeof r.target === 'string' ? r.target : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Every file ledger of `service` in `stateDir` (whatever spelling of its URL it was written with). */
function ledgersOf(stateDir: string, service: string): ServiceLedger[] {
  const dir = join(stateDir, 'ledger');
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out: ServiceLedger[] = [];
  for (const name of names) {
    if (!name.endsWith('.ndjson')) continue;
    const path = join(dir, name);
    const target = firstTarget(path);
    const parts = target === undefined ? undefined : splitTargetId(target);
    if (parts === undefined || serviceIdentity(parts.service) !== service) continue;
    out.push({ path, target: target!, key: parts.account });
  }
  return out;
}

/** The account a key fingerprint belongs to, per the registry (the key itself when unknown). */
function accountOfKey(accounts: Accounts, service: string, key: string): string {
  return accounts.services[service]?.keys[key]?.account ?? key;
}

/** True when `account` (or a key of it) was declared an account of its own. */
function declaredSeparate(accounts: Accounts, service: string, account: string): boolean {
  const keys = accounts.services[service]?.keys ?? {};
  return Object.values(keys).some((k) => k.account === account && k.how === 'separate');
}

/**
 * Copies into the ledger file `intoPath` (of target `intoTarget`) the lines of every document that
 * `fromPath` knows further along, as they stand (their times and who wrote them kept), then keeps
 * `fromPath` beside as `<fromPath>.merged`. Under the ledger's claims lock, so runs deciding claims
 * meanwhile read the merged records. Returns how many documents were copied.
 * @throws the file system's error when a file cannot be read or written
 */
async function mergeLedgerFile(fromPath: string, intoPath: string, intoTarget: string): Promise<number> {
  mkdirSync(join(intoPath, '..'), { recursive: true });
  const lock = new ShortLock(`${intoPath}.claims.lock`, 'shipbook: merging ledgers');
  await lock.acquire();
  try {
    if (!existsSync(fromPath)) return 0;
    const into = existsSync(intoPath) ? readJournal(intoPath) : new Map();
    const from = readJournal(fromPath);
    const wanted = new Set([...from.values()].filter((s) => rank(s) > rank(into.get(s.id))).map((s) => s.id));
    const lines: string[] = [];
    if (!existsSync(intoPath) || firstTarget(intoPath) === undefined)
      lines.push(JSON.stringify({ t: new Date().toISOString(), id: '#target', event: 'target', target: intoTarget }));
    for (const line of readFileSync(fromPath, 'utf8').split('\n').slice(0, -1)) {
      const r = parseRecord(line);
      if (r !== undefined && r.event !== 'target' && wanted.has(r.id)) lines.push(line);
    }
    if (lines.length > 0) appendFileSync(intoPath, `${lines.join('\n')}\n`);
    renameSync(fromPath, `${fromPath}.merged`);
    return wanted.size;
  } finally {
    lock.release();
    lock.close();
  }
}

/**
 * Asks the service, with the run's key, whether it shows any of `orderIds` (fetch-order-data):
 * `same` when it shows one (the key sees that account's orders), `other` when it answers that it
 * knows none of them, undefined when it could not tell (no answer, an error other than 404).
 */
type AccountProbe = (orderIds: string[]) => Promise<'same' | 'other' | undefined>;

/** What resolving a key's account did, for the run to say. */
interface ResolvedAccount {
  /** The account (the fingerprint of its first key): the ledger is `<service>#key:<account>`. */
  account: string;
  /** Set when this run linked the key to an existing account by asking the service. */
  linked?: { by: 'probe'; orderId: string };
  /** Ledger files merged into the account's ledger now (earlier spellings or keys). */
  merged: string[];
}

/** The order ids of a ledger file, latest first, up to `max`. */
function latestOrders(path: string, max: number): string[] {
  const ids: string[] = [];
  for (const s of readJournal(path).values()) if (s.orderId !== undefined) ids.push(s.orderId);
  return ids.reverse().slice(0, max);
}

/**
 * The account of the key with fingerprint `key` on `service` (see the module comment), merging
 * older ledgers of the same account on the way. `probe` is asked only for a key the registry does
 * not know, when another account of the service holds orders.
 * @throws the file system's error when the registry or a ledger cannot be written
 */
export async function resolveAccount(o: { stateDir: string; service: string; key: string; probe?: AccountProbe }): Promise<ResolvedAccount> {
  let accounts = readAccounts(o.stateDir);
  const ledgers = ledgersOf(o.stateDir, o.service);
  const known = accounts.services[o.service]?.keys[o.key];
  let account = known?.account;
  let linked: ResolvedAccount['linked'];
  if (account === undefined) {
    // Other accounts of this service with orders, not declared apart: is this key one of them?
    const others = ledgers
      .map((l) => ({ ...l, account: accountOfKey(accounts, o.service, l.key) }))
      .filter((l) => l.account !== o.key && !declaredSeparate(accounts, o.service, l.account));
    for (const other of others) {
      const orders = latestOrders(other.path, 3);
      if (orders.length === 0 || o.probe === undefined) continue;
      const answer = await o.probe(orders);
      if (answer === 'same') {
        account = other.account;
        linked = { by: 'probe', orderId: orders[0]! };
        setKey(o.stateDir, o.service, o.key, account, 'probe');
        break;
      }
    }
    if (account === undefined && others.every((l) => latestOrders(l.path, 1).length === 0)) {
      // The first key of the service (or the others never booked): it founds its account.
      account = o.key;
      setKey(o.stateDir, o.service, o.key, account, 'first');
    }
  }
  account ??= o.key;
  accounts = readAccounts(o.stateDir);
  // Earlier ledgers of this account under another spelling of the URL, or under a key of it.
  const target = `${o.service}#key:${account}`;
  const into = ledgerPath(o.stateDir, target);
  const merged: string[] = [];
  for (const l of ledgers) {
    if (l.path === into || accountOfKey(accounts, o.service, l.key) !== account) continue;
    if (l.target === target) continue;
    await mergeLedgerFile(l.path, into, target);
    merged.push(l.path);
  }
  return { account, ...(linked ? { linked } : {}), merged };
}

/**
 * Links the key `key` of `service` to the account of the key (or account) `to`: the same account,
 * one ledger. What the key's own ledger held is merged into the account's.
 * @throws the file system's error
 */
export async function linkKey(stateDir: string, service: string, key: string, to: string): Promise<{ account: string; merged: string[] }> {
  const accounts = readAccounts(stateDir);
  const account = accountOfKey(accounts, service, to);
  setKey(stateDir, service, key, account, 'link');
  const r = await resolveAccount({ stateDir, service, key });
  return { account: r.account, merged: r.merged };
}

/**
 * Declares the key `key` of `service` an account of its own (a test key beside a live key): its
 * ledger is its own, no probe links it, and the guard no longer stops a document booked by the
 * other accounts of the service. Remembered in the registry.
 */
export function separateKey(stateDir: string, service: string, key: string): void {
  setKey(stateDir, service, key, key, 'separate');
}

/** The orders created in one file ledger, by document: the first order of each. */
function createdIn(path: string, account: string): Map<string, BookedElsewhere> {
  const out = new Map<string, BookedElsewhere>();
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return out;
  }
  for (const line of text.split('\n')) {
    if (!line.includes('"created"')) continue;
    const r = parseRecord(line);
    if (r?.event === 'created' && r.order_id !== undefined && !out.has(r.id)) out.set(r.id, { orderId: r.order_id, at: r.t, where: path, account });
  }
  return out;
}

/**
 * The documents booked in the other file ledgers of this machine for the service of `target`,
 * under another account that neither side declared separate: what {@link LedgerStore.elsewhere}
 * consults before a create leaves.
 */
export function bookedElsewhere(stateDir: string, target: string): Map<string, BookedElsewhere> {
  const parts = splitTargetId(target);
  const out = new Map<string, BookedElsewhere>();
  if (parts === undefined) return out;
  const accounts = readAccounts(stateDir);
  if (declaredSeparate(accounts, parts.service, parts.account)) return out;
  for (const l of ledgersOf(stateDir, parts.service)) {
    const account = accountOfKey(accounts, parts.service, l.key);
    if (account === parts.account || declaredSeparate(accounts, parts.service, account)) continue;
    for (const [id, b] of createdIn(l.path, account)) if (!out.has(id)) out.set(id, b);
  }
  return out;
}

/** The accounts declared separate on `service` (for the shared ledger's guard, which reads other stations' targets). */
export function separateAccounts(stateDir: string, service: string): Set<string> {
  const keys = readAccounts(stateDir).services[service]?.keys ?? {};
  return new Set(
    Object.values(keys)
      .filter((k) => k.how === 'separate')
      .map((k) => k.account),
  );
}

/** The account of the key with fingerprint `key` on `service` as the registry knows it (the key itself when unknown); reads only. */
export function knownAccount(stateDir: string, service: string, key: string): string {
  return accountOfKey(readAccounts(stateDir), service, key);
}
