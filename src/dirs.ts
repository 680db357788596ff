/**
 * Where shipbook keeps its state, and creating a directory and its missing parents. Node.js's `mkdirSync(dir, {recursive: true})`
 * loops for ever on a file system that answers ENOENT for a directory it cannot hold (under
 * /proc, for example: `SHIPBOOK_STATE_DIR=/proc/x` hung shipbook at 100 % CPU, deaf to Ctrl-C).
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * Error codes of a file system that refuses a path: no permission, a file where a directory
 * belongs, read-only, full, failing (EIO), a directory that cannot be created at all (ENOENT, as
 * under /proc).
 */
export const FILE_SYSTEM_REFUSALS: ReadonlySet<string> = new Set([
  'ENOENT',
  'EACCES',
  'EPERM',
  'ENOTDIR',
  'EEXIST',
  'EISDIR',
  'EROFS',
  'ENOSPC',
  'EDQUOT',
  'EIO',
  'ELOOP',
  'ENAMETOOLONG',
]);

/**
 * Creates `dir` and each missing parent, outermost first, with `mode` (e.g. 0o700); an existing
 * directory is fine.
 * @throws the first failure, with its code (ENOENT, EACCES, ENOTDIR, EROFS …) and path; EEXIST
 *   when `dir` is a file
 */
export function makeDirectory(dir: string, mode?: number): void {
  const missing: string[] = [];
  for (let d = dir; !existsSync(d) && dirname(d) !== d; d = dirname(d)) missing.unshift(d);
  for (const d of missing) {
    try {
      mkdirSync(d, mode === undefined ? {} : { mode });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  // Something other than a directory in its place fails as mkdir does: EEXIST.
  if (!statSync(dir).isDirectory()) {
    throw Object.assign(new Error(`EEXIST: file already exists, mkdir '${dir}'`), { code: 'EEXIST', errno: -17, syscall: 'mkdir', path: dir });
  }
}

/**
 * Shipbook's state directory (docs/configuration.md, `SHIPBOOK_STATE_DIR`), where the built-in
 * sandbox keeps its state and the ledger its files: `$SHIPBOOK_STATE_DIR`, else
 * `$XDG_STATE_HOME/shipbook`, else `~/.local/state/shipbook`; on Windows `%LOCALAPPDATA%\\shipbook`
 * (machine-local, not roamed), else the profile's `AppData\\Local\\shipbook`. The one rule that
 * the sandbox, the commands and `doctor` all read.
 */
export function stateDirectory(env: Readonly<Record<string, string | undefined>>, platform: NodeJS.Platform = process.platform): string {
  if (env.SHIPBOOK_STATE_DIR) return env.SHIPBOOK_STATE_DIR;
  if (platform === 'win32') return join(env.LOCALAPPDATA || join(env.USERPROFILE || env.HOME || homedir(), 'AppData', 'Local'), 'shipbook');
  if (env.XDG_STATE_HOME) return join(env.XDG_STATE_HOME, 'shipbook');
  return join(env.HOME || homedir(), '.local', 'state', 'shipbook');
}
