/**
 * A lock held until its holder ends: a directory (`<file>.lock`) that appears at once with its
 * owner inside (`owner.json`: pid, host, the process's start time, command, a random nonce), made by
 * renaming a private directory into place, so a lock is never seen without its owner.
 *
 * When is a lock left by someone else free to take?
 * - on this machine, when its holder no longer runs (its pid is gone, or is another process now:
 *   the start time differs). A holder that is stopped (SIGSTOP, a debugger) or slow still holds
 *   it, however long it pauses;
 * - from another machine (a shared disk), when its holder has not touched `owner.json` for
 *   {@link LockOptions.staleMs} (5 minutes by default: longer than a paused CI runner usually sleeps);
 * - a lock directory without a readable owner (left by an older shipbook) after 30 s untouched.
 *
 * The holder touches its owner file every {@link LockOptions.heartbeatMs} and checks it is still
 * its own; a lock removed or taken over behind its back is **compromised**, which the holder learns
 * through `onCompromised` and {@link HeldLock.compromised}.
 *
 * Used for the batch journal and the built-in sandbox's store. (proper-lockfile, used before,
 * decides staleness by time alone: a holder paused 2 s lost the sandbox's lock and one order was
 * accepted twice.)
 */
import {
  closeSync,
  linkSync,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
  rmdirSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

/** Who holds a lock (the content of its `owner.json`). */
interface LockOwner {
  pid: number;
  host: string;
  /** ISO time the lock was taken. */
  started_at: string;
  /** What the holder runs, for the message of whoever finds the lock held (no secrets: a command line without flags' values is enough). */
  command: string;
  /** The holder process's start time (Linux clock ticks since boot, from /proc), to tell a reused pid. */
  process_start?: string;
  /** Random, one per acquisition: tells this lock from a later one of the same process. */
  nonce: string;
}

/** How to take a lock. */
interface LockOptions {
  /** Names the holder in the owner file. */
  command: string;
  /** How long to keep trying while another live holder has it, ms (0: fail at once). */
  waitMs?: number;
  /**
   * First pause between tries, ms (randomised up to twice this); each later pause is longer, up to
   * a quarter of a second, so a wait for a holder that is paused does not spin.
   */
  retryMs?: number;
  /**
   * Called once, when the lock is found held by a live holder and this call has waited for it
   * `noticeMs` (with the holder's words: `pid 4242 on host since … (shipbook order accept)`).
   */
  onWait?: (holder: string) => void;
  /** How long a wait lasts before `onWait` is told, ms (default 0: at once). */
  noticeMs?: number;
  /** How often the holder touches its owner file, ms (default 10 s). */
  heartbeatMs?: number;
  /** A holder on another machine that has not touched its owner file for this long no longer holds it, ms (default 5 min). */
  staleMs?: number;
  /** Called once when the lock is found removed or taken by another process while held. */
  onCompromised?: (err: LockCompromisedError) => void;
}

/** Who holds a lock, in words: `pid 4242 on host since 2026-11-26T13:00:00Z (shipbook order accept)`. */
function holderWords(owner: LockOwner | undefined): string {
  return owner ? `pid ${owner.pid} on ${owner.host} since ${owner.started_at} (${owner.command})` : 'another process';
}

/** The lock is held by another live process. */
export class LockHeldError extends Error {
  constructor(
    readonly path: string,
    readonly owner: LockOwner | undefined,
  ) {
    super(`${path} is held by ${holderWords(owner)}`);
    this.name = 'LockHeldError';
  }
}

/** The lock was removed or taken by another process while this one held it. */
export class LockCompromisedError extends Error {
  constructor(
    readonly path: string,
    detail: string,
  ) {
    super(`the lock ${path} was lost while held: ${detail}`);
    this.name = 'LockCompromisedError';
  }
}

/** A lock this process holds. */
export interface HeldLock {
  readonly path: string;
  readonly owner: LockOwner;
  /** Set once the lock was found removed or taken over (see {@link LockCompromisedError}). */
  readonly compromised: LockCompromisedError | undefined;
  /**
   * Checks now whether the lock is still this process's (reads the owner file, unless it is the very
   * file found this process's at the last check, unchanged since); sets {@link compromised} if not.
   */
  verify(): boolean;
  /** Gives the lock back (only when it is still this process's). Never throws. */
  release(): void;
}

const OWNER = 'owner.json';
const ORPHAN_STALE_MS = 30_000;

/** The start time of a process, from /proc (Linux); undefined elsewhere or when it is gone. */
function processStart(pid: number | 'self'): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command (which may hold spaces, in parentheses): state is field 3, start time field 22.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

const OWN_START = processStart('self');

/** True when the process `owner` names still runs on this machine. */
function holderRuns(owner: LockOwner): boolean {
  try {
    process.kill(owner.pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (owner.process_start === undefined) return true;
  const now = processStart(owner.pid);
  // Unreadable (another OS, a hidden /proc): the pid alone decides.
  return now === undefined || now === owner.process_start;
}

function readOwner(dir: string): LockOwner | undefined {
  try {
    const o = JSON.parse(readFileSync(`${dir}/${OWNER}`, 'utf8')) as LockOwner;
    return typeof o?.pid === 'number' && typeof o.host === 'string' && typeof o.nonce === 'string' ? o : undefined;
  } catch {
    return undefined;
  }
}

/** Milliseconds since `path` was last modified, or undefined when it is gone. */
function ageOf(path: string): number | undefined {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

/** Whether a lock left by `owner` (undefined: no readable owner) is free to take. */
function isStale(path: string, owner: LockOwner | undefined, staleMs: number): boolean {
  if (owner === undefined) return (ageOf(path) ?? 0) > ORPHAN_STALE_MS;
  if (owner.host === hostname()) return !holderRuns(owner);
  return (ageOf(`${path}/${OWNER}`) ?? ageOf(path) ?? 0) > staleMs;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

/** The longest pause between two tries of a held lock, ms. */
const MAX_PAUSE_MS = 250;
const unique = () => `${process.pid}-${randomBytes(6).toString('hex')}`;

/**
 * Moves aside a lock judged stale, if it is still the one judged (a contender may have taken over
 * and locked again in between: that lock is put back).
 */
function takeOver(path: string, judged: LockOwner | undefined): void {
  const trash = `${path}.stale-${unique()}`;
  try {
    renameSync(path, trash);
  } catch {
    return; // gone already: try again
  }
  const moved = readOwner(trash);
  if (moved?.nonce === judged?.nonce) {
    rmSync(trash, { recursive: true, force: true });
    return;
  }
  try {
    renameSync(trash, path);
  } catch {
    // Someone locked meanwhile; the holder of the moved lock finds it compromised at its next check.
    rmSync(trash, { recursive: true, force: true });
  }
}

/**
 * Takes the lock `path` (a directory; its parent must exist), waiting up to `options.waitMs` for
 * a live holder, and taking over one that no longer runs.
 * @throws LockHeldError when a live holder keeps it past the wait; the file system's error (EACCES, ENOSPC …) when the lock cannot be made
 */
export async function acquireLock(path: string, options: LockOptions): Promise<HeldLock> {
  const staleMs = options.staleMs ?? 300_000;
  const deadline = Date.now() + (options.waitMs ?? 0);
  const owner: LockOwner = {
    pid: process.pid,
    host: hostname(),
    started_at: new Date().toISOString(),
    command: options.command,
    ...(OWN_START === undefined ? {} : { process_start: OWN_START }),
    nonce: randomBytes(9).toString('hex'),
  };
  const text = `${JSON.stringify(owner)}\n`;
  let pause = options.retryMs ?? 50;
  let told = false;
  const waitStart = Date.now();
  for (;;) {
    const tmp = `${path}.new-${unique()}`;
    try {
      mkdirSync(tmp);
      writeFileSync(`${tmp}/${OWNER}`, text);
      renameSync(tmp, path);
      return held(path, owner, options, staleMs);
    } catch (err) {
      rmSync(tmp, { recursive: true, force: true });
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST' && code !== 'ENOTDIR' && code !== 'EISDIR') throw err;
    }
    const other = readOwner(path);
    if (isStale(path, other, staleMs)) {
      takeOver(path, other);
      continue;
    }
    if (Date.now() >= deadline) throw new LockHeldError(path, other);
    if (!told && Date.now() - waitStart >= (options.noticeMs ?? 0)) {
      told = true;
      options.onWait?.(holderWords(other));
    }
    await sleep(Math.min(pause + Math.random() * pause, deadline - Date.now()));
    pause = Math.min(pause * 2, MAX_PAUSE_MS);
  }
}

function held(path: string, owner: LockOwner, options: LockOptions, staleMs: number): HeldLock {
  let compromised: LockCompromisedError | undefined;
  let released = false;
  const lose = (detail: string) => {
    if (compromised !== undefined) return;
    compromised = new LockCompromisedError(path, detail);
    clearInterval(timer);
    options.onCompromised?.(compromised);
  };
  const ownerFile = `${path}/${OWNER}`;
  // The owner file as last read and found this process's: kept open (so no other file can get its
  // inode number while the lock is held), with its size and times then. A check that finds the
  // same file, unchanged, at the lock's path needs no read: the owner is still this process.
  // Whoever takes the lock over puts a new owner file in place (a new inode), and a write in place
  // changes the times. Not on Windows, where an open file would stop the lock being moved aside.
  let pinned: { fd: number; ino: number; dev: number; size: number; mtimeMs: number; ctimeMs: number } | undefined;
  const unpin = () => {
    if (pinned === undefined) return;
    try {
      closeSync(pinned.fd);
    } catch {
      // already closed
    }
    pinned = undefined;
  };
  const unchanged = (): boolean => {
    if (pinned === undefined) return false;
    try {
      const st = statSync(ownerFile, { throwIfNoEntry: false });
      return (
        st !== undefined &&
        st.ino === pinned.ino &&
        st.dev === pinned.dev &&
        st.size === pinned.size &&
        st.mtimeMs === pinned.mtimeMs &&
        st.ctimeMs === pinned.ctimeMs
      );
    } catch {
      return false;
    }
  };
  const pin = () => {
    if (process.platform === 'win32') return;
    let fd: number | undefined;
    try {
      fd = openSync(ownerFile, 'r');
      const st = fstatSync(fd);
      const text = readFileSync(fd, 'utf8');
      // Pinned only when the file opened is still this process's (it may have changed since read).
      if ((JSON.parse(text) as LockOwner | undefined)?.nonce !== owner.nonce) throw new Error('not ours');
      unpin();
      pinned = { fd, ino: st.ino, dev: st.dev, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs };
    } catch {
      if (fd !== undefined) closeSync(fd);
    }
  };
  const verify = (): boolean => {
    if (released || compromised !== undefined) return compromised === undefined;
    if (unchanged()) return true;
    const now = readOwner(path);
    if (now?.nonce === owner.nonce) {
      pin();
      return true;
    }
    unpin();
    lose(now === undefined ? 'it was removed' : `pid ${now.pid} on ${now.host} took it (${now.command})`);
    return false;
  };
  const heartbeatMs = Math.min(options.heartbeatMs ?? 10_000, Math.floor(staleMs / 3));
  const timer = setInterval(() => {
    if (!verify()) return;
    try {
      const t = new Date();
      utimesSync(`${path}/${OWNER}`, t, t);
    } catch {
      // a failed touch is caught by the next check
    }
  }, heartbeatMs);
  timer.unref();
  return {
    path,
    owner,
    get compromised() {
      return compromised;
    },
    verify,
    release() {
      if (released) return;
      released = true;
      clearInterval(timer);
      unpin();
      if (compromised !== undefined || readOwner(path)?.nonce !== owner.nonce) return;
      try {
        unlinkSync(`${path}/${OWNER}`);
        rmdirSync(path);
      } catch {
        // a lock left behind is taken over by the next process: this one no longer runs
      }
    },
  };
}

/** A process on some machine, as a lock or a ledger claim names it. */
interface ProcessRef {
  pid: number;
  host: string;
  /** The process's start time (see {@link processStart}); absent where it cannot be read. */
  start?: string;
}

/** This process, as {@link ProcessRef}. */
export function thisProcess(): ProcessRef {
  return { pid: process.pid, host: hostname(), ...(OWN_START === undefined ? {} : { start: OWN_START }) };
}

/**
 * Whether the process `p` names still runs: true or false on this machine (its pid gone, or reused
 * by another process: the start time differs, is false); undefined for a process of another machine,
 * which only a lease (a time) can judge.
 */
export function processRuns(p: ProcessRef): boolean | undefined {
  if (p.host !== hostname()) return undefined;
  return holderRuns({ pid: p.pid, host: p.host, started_at: '', command: '', nonce: '', ...(p.start === undefined ? {} : { process_start: p.start }) });
}

/** Who holds a {@link ShortLock}: the content of its file. */
interface ShortLockHolder extends ProcessRef {
  command: string;
  /** Random, one per process: tells this holder's lock from a later one. */
  nonce: string;
  /** The holder's own file, which the lock is a link to (removed with a stale lock). */
  file: string;
}

/** A lock from another machine untouched this long is stale (a short lock is held for microseconds), ms. */
const SHORT_LOCK_FOREIGN_STALE_MS = 30_000;

/**
 * A lock held for microseconds around a read-decide-write of a file shared between processes (the
 * ledger's claims): `<path>`, a hard link to a file of the holder's, made once per process with its
 * owner inside, so taking it is one link() and giving it back one unlink(), and it is never seen
 * without its owner. A holder that no longer runs (pid gone, or reused: the start time differs)
 * loses it to the next taker; a holder that is paused (SIGSTOP, a debugger) keeps it, and takers
 * wait, told who they wait for after {@link ShortLock.acquire}'s `noticeMs`.
 */
export class ShortLock {
  private holder: ShortLockHolder | undefined;
  private held = false;

  constructor(
    readonly path: string,
    private readonly command: string,
  ) {}

  /** Writes this process's own file (once), which the lock links to. */
  private own(): ShortLockHolder {
    if (this.holder !== undefined) return this.holder;
    const id = unique();
    const holder: ShortLockHolder = { ...thisProcess(), command: this.command, nonce: id, file: `${this.path}.${id}` };
    writeFileSync(holder.file, `${JSON.stringify(holder)}\n`);
    this.holder = holder;
    return holder;
  }

  /**
   * Takes the lock, waiting (asynchronously, a few milliseconds at a time) while a live process
   * holds it and taking over one whose holder no longer runs.
   * @param o.onWait called once when the lock is still held after `noticeMs` (default 1 s), with its holder
   * @throws the signal's reason once `o.signal` aborts; the file system's error when the lock cannot be made
   */
  async acquire(o: { signal?: AbortSignal; onWait?: (holder: ShortLockHolder) => void; noticeMs?: number } = {}): Promise<void> {
    const me = this.own();
    const start = Date.now();
    let told = false;
    for (;;) {
      try {
        linkSync(me.file, this.path);
        this.held = true;
        return;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const other = readShortHolder(this.path);
      if (other === undefined) continue; // given back between the link and the read
      const runs = processRuns(other);
      if (runs === false || (runs === undefined && (ageOf(this.path) ?? 0) > SHORT_LOCK_FOREIGN_STALE_MS)) {
        takeOverShort(this.path, other);
        continue;
      }
      if (o.signal?.aborted) throw o.signal.reason;
      if (!told && Date.now() - start >= (o.noticeMs ?? 1_000)) {
        told = true;
        o.onWait?.(other);
      }
      await sleep(1 + Math.random() * 3);
    }
  }

  /** Who holds the lock now, as its file says (undefined when it is free or unreadable). Never throws. */
  holderNow(): ShortLockHolder | undefined {
    return readShortHolder(this.path);
  }

  /** Gives the lock back. Never throws. */
  release(): void {
    if (!this.held) return;
    this.held = false;
    try {
      unlinkSync(this.path);
    } catch {
      // taken over (this process was judged gone): nothing of ours to give back
    }
  }

  /** Removes this process's own file (after the last release). Never throws. */
  close(): void {
    this.release();
    if (this.holder === undefined) return;
    try {
      unlinkSync(this.holder.file);
    } catch {
      // already gone
    }
    this.holder = undefined;
  }
}

function readShortHolder(path: string): ShortLockHolder | undefined {
  try {
    const h = JSON.parse(readFileSync(path, 'utf8')) as ShortLockHolder;
    return typeof h?.pid === 'number' && typeof h.host === 'string' && typeof h.nonce === 'string' ? h : undefined;
  } catch {
    return undefined;
  }
}

/** Moves aside a short lock judged stale, if it is still the one judged (else puts it back), and removes its holder's file. */
function takeOverShort(path: string, judged: ShortLockHolder): void {
  const trash = `${path}.stale-${unique()}`;
  try {
    renameSync(path, trash);
  } catch {
    return;
  }
  const moved = readShortHolder(trash);
  if (moved?.nonce === judged.nonce) {
    rmSync(trash, { force: true });
    if (judged.file.startsWith(`${path}.`)) rmSync(judged.file, { force: true });
    return;
  }
  try {
    // Another process took it in between: it is put back, unless yet another took it meanwhile.
    linkSync(trash, path);
  } catch {
    // someone holds it now
  }
  rmSync(trash, { force: true });
}
