/**
 * Where shipbook keeps its state, and creating a directory and its missing parents. Node.js's `mkdirSync(dir, {recursive: true})`
 * loops for ever on a file system that answers ENOENT for a directory it cannot hold (under
 * /proc, for example: `SHIPBOOK_STATE_DIR=/proc/x` hung shipbook at 100 % CPU, deaf to Ctrl-C).
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, posix, resolve, win32 } from 'node:path';

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

/** Where a user directory is looked for, in order (see {@link userDirectory}). */
interface DirectoryRule {
  /** Shipbook's own variable (`SHIPBOOK_STATE_DIR`): a relative value is resolved against the current directory. */
  own: string;
  /** The XDG variable (`XDG_STATE_HOME`) and the directory under home it defaults to (`.local/state`). */
  xdg: { variable: string; home: string };
  /** On Windows: the variable (`LOCALAPPDATA`) and the directory under the profile it defaults to (`AppData/Local`). */
  windows: { variable: string; profile: string };
}

/**
 * The one rule of shipbook's user directories (state and configuration), absolute: its own
 * variable, else on Windows the application-data variable, else the XDG variable, else the
 * default under home; each followed by `shipbook`. A variable that is empty or only spaces is not
 * set; a relative own variable is resolved against the current directory; a relative XDG variable
 * is ignored, as the XDG specification asks.
 */
function userDirectory(env: Readonly<Record<string, string | undefined>>, platform: NodeJS.Platform, rule: DirectoryRule): string {
  const value = (name: string) => env[name]?.trim() || undefined;
  const own = value(rule.own);
  // Absolute as the platform's paths are (`D:\\state` on Windows); else from the current directory.
  if (own !== undefined) return (platform === 'win32' ? win32 : posix).isAbsolute(own) ? own : resolve(own);
  const home = value('HOME') ?? homedir();
  if (platform === 'win32') return join(value(rule.windows.variable) ?? join(value('USERPROFILE') ?? home, ...rule.windows.profile.split('/')), 'shipbook');
  const xdg = value(rule.xdg.variable);
  if (xdg !== undefined && isAbsolute(xdg)) return join(xdg, 'shipbook');
  return join(home, ...rule.xdg.home.split('/'), 'shipbook');
}

/**
 * Shipbook's configuration directory (docs/configuration.md, `SHIPBOOK_CONFIG_DIR`): one JSON file,
 * `config.json`, in `$SHIPBOOK_CONFIG_DIR`, else `$XDG_CONFIG_HOME/shipbook`, else
 * `~/.config/shipbook`; on Windows `%APPDATA%\\shipbook` (roamed with the profile). The rule of
 * {@link userDirectory}.
 */
export function configDirectory(env: Readonly<Record<string, string | undefined>>, platform: NodeJS.Platform = process.platform): string {
  return userDirectory(env, platform, {
    own: 'SHIPBOOK_CONFIG_DIR',
    xdg: { variable: 'XDG_CONFIG_HOME', home: '.config' },
    windows: { variable: 'APPDATA', profile: 'AppData/Roaming' },
  });
}

/**
 * Shipbook's state directory (docs/configuration.md, `SHIPBOOK_STATE_DIR`), where the built-in
 * sandbox keeps its state and the ledger its files: `$SHIPBOOK_STATE_DIR`, else
 * `$XDG_STATE_HOME/shipbook`, else `~/.local/state/shipbook`; on Windows `%LOCALAPPDATA%\\shipbook`
 * (machine-local, not roamed), else the profile's `AppData\\Local\\shipbook`. The rule of
 * {@link userDirectory}, as the configuration directory's; the one the sandbox, the commands and
 * `doctor` all read.
 */
export function stateDirectory(env: Readonly<Record<string, string | undefined>>, platform: NodeJS.Platform = process.platform): string {
  return userDirectory(env, platform, {
    own: 'SHIPBOOK_STATE_DIR',
    xdg: { variable: 'XDG_STATE_HOME', home: '.local/state' },
    windows: { variable: 'LOCALAPPDATA', profile: 'AppData/Local' },
  });
}
