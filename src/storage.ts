/**
 * A disk that cannot take writes (full, over quota, failing, read-only), said as such wherever it
 * shows up: exit 10 (`storage`), a message naming the path, and a hint that fits the refusal (free
 * space for a full disk, not "not read-only"). Used by the commands and main for a refusal that
 * reaches them from the file system or the built-in sandbox's store.
 */
import { ShipbookError } from './errors.js';
import { shellWord, type Hint } from './errors.js';

/** File system error codes of a disk that cannot take writes. */
const STORAGE_CODES: ReadonlySet<string> = new Set(['ENOSPC', 'EDQUOT', 'EIO', 'EROFS', 'EFBIG']);

/** The storage code (ENOSPC …) of `err` or of an error in its `cause` chain; undefined when none. */
export function storageCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== undefined && STORAGE_CODES.has(code)) return code;
  }
  return undefined;
}

/** The path the refusal was about, from the error or its causes (`path`, or a store's `dir`). */
function storagePath(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const { path, dir } = e as { path?: unknown; dir?: unknown };
    if (typeof dir === 'string') return dir;
    if (typeof path === 'string') return path;
  }
  return undefined;
}

/**
 * What to do about a disk that refused a write with `code`, for the disk holding `path`: free
 * space for a full disk or an exhausted quota, the disk itself for I/O errors, another place for
 * a read-only one; then run the same command again (`again` says what it does then).
 */
export function storageHint(code: string, path: string | undefined, again = 'run the same command again'): Hint {
  const where = path === undefined ? 'that disk' : `the disk of ${path}`;
  const df: Hint = path === undefined ? [] : [' (see "df -h ', shellWord(path), '")'];
  switch (code) {
    case 'ENOSPC':
    case 'EFBIG':
      return [`Free space on ${where}`, ...df, `, then ${again}.`];
    case 'EDQUOT':
      return [`Your disk quota on ${where} is used up: free space within it`, ...df, `, then ${again}.`];
    case 'EROFS':
      return [`${where[0]!.toUpperCase()}${where.slice(1)} is mounted read-only: remount it writable or use a directory on another disk, then ${again}.`];
    default:
      return [`${where[0]!.toUpperCase()}${where.slice(1)} reports input/output errors: check it (or use a directory on another disk), then ${again}.`];
  }
}

/**
 * `err` as the storage error people see (exit 10, hint from {@link storageHint}) when it is a
 * disk's refusal that no one worded; undefined otherwise (a ShipbookError is already worded).
 */
export function asStorageError(err: unknown): ShipbookError | undefined {
  if (err instanceof ShipbookError) return undefined;
  const code = storageCode(err);
  if (code === undefined) return undefined;
  const message = err instanceof Error ? err.message : String(err);
  return new ShipbookError('storage', message, 'storage', { suggestion: storageHint(code, storagePath(err)), cause: err });
}
