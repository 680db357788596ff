/**
 * Reading and writing the configuration file (`config.json`, see {@link configFilePath}).
 *
 * - Writes go through `conf` (atomic replace, file mode 0600) after the directory has been
 *   created with mode 0700. The whole document is validated ({@link configFile}) before it is
 *   written.
 * - Reads use `node:fs` directly: a command that only reads never creates a directory, and does
 *   not pay for loading `conf` (and its JSON-schema validator) at start-up.
 * - A file that is not valid JSON, fails validation or cannot be read is a {@link ConfigError}
 *   (exit 4) naming the file, and is never overwritten: every write reads and validates the
 *   current file first, and `conf` runs with `clearInvalidConfig: false` and a deserializer that
 *   refuses anything but a JSON object (conf would otherwise "repair" `null` or `[]` by writing).
 * - On POSIX systems, a file or directory that others may read or enter produces one warning on
 *   stderr per run: `warning: <file> is readable by others (mode 0644); run chmod 600 <file>`.
 */
import { chmodSync, lstatSync, readFileSync, realpathSync, statSync, type Stats } from 'node:fs';
import { dirname, join } from 'node:path';
import { ConfigError } from '../errors.js';
import { schemaProblems } from '../schema/issues.js';
import { CONFIG_FILE_NAME, configDir } from './paths.js';
import { CONFIG_VERSION, configFile, type ConfigData } from './schema.js';
import { makeDirectory } from '../dirs.js';

/** Mode of the configuration file: owner read/write only. */
const CONFIG_FILE_MODE = 0o600;
/** Mode of the configuration directory: owner only. */
const CONFIG_DIR_MODE = 0o700;

/** What a read found. */
export interface ConfigSnapshot {
  /** Absolute path of the file. */
  path: string;
  /** False when the file does not exist yet (then `data` is empty). */
  exists: boolean;
  /** The validated contents, as stored. */
  data: ConfigData;
  /** Permission warnings, one line each (already worded for stderr). */
  warnings: string[];
}

function errnoCode(err: unknown): string | undefined {
  return (err as { code?: string } | null)?.code;
}

function modeString(mode: number): string {
  return (mode & 0o777).toString(8).padStart(4, '0');
}

/** Permission warnings for a config file and its directory (POSIX only; empty on Windows). */
export function permissionWarnings(
  file: string,
  fileStats: Pick<Stats, 'mode'>,
  dirStats: Pick<Stats, 'mode'> | undefined,
  platform: NodeJS.Platform = process.platform,
): string[] {
  if (platform === 'win32') return [];
  const out: string[] = [];
  if ((fileStats.mode & 0o077) !== 0) {
    const what = (fileStats.mode & 0o044) !== 0 ? 'readable' : 'writable';
    out.push(`warning: ${file} is ${what} by others (mode ${modeString(fileStats.mode)}); run chmod 600 ${file}`);
  }
  const dir = dirname(file);
  if (dirStats && (dirStats.mode & 0o077) !== 0) {
    out.push(`warning: ${dir} is accessible by others (mode ${modeString(dirStats.mode)}); run chmod 700 ${dir}`);
  }
  return out;
}

/** A JSON deserializer that accepts only an object (used for conf, and for reads). */
export function parseConfigText(text: string): Record<string, unknown> {
  // A UTF-8 byte order mark (Notepad writes one) is not content.
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.trim() === '') return {};
  const value: unknown = JSON.parse(text);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new TypeError(`expected a JSON object at the top, not ${value === null ? 'null' : Array.isArray(value) ? 'a list' : typeof value}`);
  }
  return value as Record<string, unknown>;
}

/** Whether configuration data holds a secret (an API key in any profile). */
function holdsSecret(data: ConfigData): boolean {
  const profiles = (data as { profiles?: Record<string, Record<string, unknown> | undefined> }).profiles ?? {};
  return Object.values(profiles).some((p) => typeof p?.['api-key'] === 'string' && p['api-key'] !== '');
}

const SUGGEST_FIX = (file: string) => `Fix the file by hand or move it away (shipbook never overwrites it): ${file}`;

/** Checks parsed contents against {@link configFile}. @throws ConfigError naming the file and every problem. */
function validateConfig(file: string, value: unknown): ConfigData {
  const parsed = configFile.safeParse(value);
  if (parsed.success) return value as ConfigData;
  const problems = schemaProblems(parsed.error).map((p) => `  ${p.path || '(top)'}  ${p.message}`);
  throw new ConfigError(`${file} is not a valid shipbook configuration:\n${problems.join('\n')}`, { suggestion: SUGGEST_FIX(file) });
}

/** The error for a file that is not JSON (SyntaxError) or not a JSON object (TypeError). */
function unusableFile(file: string, err: unknown): ConfigError {
  const message =
    err instanceof SyntaxError ? `${file} is not valid JSON (${err.message})` : `${file} is not a shipbook configuration (${(err as Error).message})`;
  return new ConfigError(message, { suggestion: SUGGEST_FIX(file), cause: err });
}

const warned = new Set<string>();

/** The configuration file of one directory. */
export class ConfigStore {
  /** Absolute directory. */
  readonly dir: string;
  /** Absolute path of `config.json`. */
  readonly path: string;
  readonly #platform: NodeJS.Platform;

  constructor(dir: string, platform: NodeJS.Platform = process.platform) {
    this.dir = dir;
    this.path = join(dir, CONFIG_FILE_NAME);
    this.#platform = platform;
  }

  /**
   * Where config.json points when it is a symbolic link (the resolved target, or the link text when
   * the target does not exist), or null when it is a plain file or absent.
   */
  symlinkTarget(): string | null {
    try {
      if (!lstatSync(this.path).isSymbolicLink()) return null;
    } catch {
      return null;
    }
    try {
      return realpathSync(this.path);
    } catch {
      return '(a missing target)';
    }
  }

  /** The store for an environment (`SHIPBOOK_CONFIG_DIR`, XDG, home). */
  static fromEnv(env: Readonly<Record<string, string | undefined>>): ConfigStore {
    return new ConfigStore(configDir(env));
  }

  /**
   * Reads and validates the file. A missing file is an empty configuration.
   * @throws ConfigError (exit 4) when the file cannot be read, is not JSON, or is not valid.
   */
  read(): ConfigSnapshot {
    let stats: Stats;
    try {
      stats = statSync(this.path);
    } catch (err) {
      if (errnoCode(err) === 'ENOENT' || errnoCode(err) === 'ENOTDIR') return { path: this.path, exists: false, data: {}, warnings: [] };
      throw this.#readError(err);
    }
    if (!stats.isFile()) {
      throw new ConfigError(`${this.path} is not a regular file`, { suggestion: SUGGEST_FIX(this.path) });
    }
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (err) {
      throw this.#readError(err);
    }
    let value: unknown;
    try {
      value = parseConfigText(text);
    } catch (err) {
      throw unusableFile(this.path, err);
    }
    const data = validateConfig(this.path, value);
    let dirStats: Stats | undefined;
    try {
      dirStats = statSync(this.dir);
    } catch {
      dirStats = undefined;
    }
    return { path: this.path, exists: true, data, warnings: permissionWarnings(this.path, stats, dirStats, this.#platform) };
  }

  /**
   * Reads the file, prints its permission warnings once per process through `warn`, and returns
   * the snapshot. @throws ConfigError as {@link read}.
   */
  load(warn: (line: string) => void): ConfigSnapshot {
    const snapshot = this.read();
    for (const line of snapshot.warnings) {
      if (warned.has(line)) continue;
      warned.add(line);
      warn(line);
    }
    return snapshot;
  }

  /**
   * Changes the configuration: reads and validates the current file (so a corrupt file is
   * reported and left as it is), applies `change` to a copy, validates the result and writes it
   * with `conf`: mode 0600, in a directory created with mode 0700. Returns the data written.
   * @throws ConfigError (exit 4) when the current file is unusable or the file cannot be written.
   */
  async update(change: (data: ConfigData) => void, warn: (line: string) => void = () => {}): Promise<ConfigData> {
    const current = this.load(warn);
    const changed = structuredClone(current.data);
    change(changed);
    // The version first, then the default profile, then the profiles: easy to read by hand.
    const next: ConfigData = { version: CONFIG_VERSION };
    if (changed['default-profile'] !== undefined) next['default-profile'] = changed['default-profile'];
    if (changed.profiles !== undefined) next.profiles = changed.profiles;
    if (changed.sandbox !== undefined) next.sandbox = changed.sandbox;
    validateConfig(this.path, next);
    const link = this.symlinkTarget();
    if (link !== null && holdsSecret(next)) {
      throw new ConfigError(`${this.path} is a symbolic link to ${link}: shipbook does not write an API key through a link`, {
        suggestion: `The key would land in ${link} (a dotfiles repository, for example). Replace the link with a file of its own (rm ${this.path}; cp ${link} ${this.path}), or set SHIPBOOK_CONFIG_DIR to another directory.`,
      });
    }
    try {
      makeDirectory(this.dir, CONFIG_DIR_MODE);
      const { default: Conf } = await import('conf');
      const conf = new Conf<Record<string, unknown>>({
        cwd: this.dir,
        configName: CONFIG_FILE_NAME.replace(/\.json$/, ''),
        fileExtension: 'json',
        configFileMode: CONFIG_FILE_MODE,
        clearInvalidConfig: false,
        accessPropertiesByDotNotation: false,
        deserialize: parseConfigText,
        serialize: (value) => `${JSON.stringify(value, null, 2)}\n`,
      });
      conf.store = next as Record<string, unknown>;
      if (this.#platform !== 'win32') chmodSync(this.path, CONFIG_FILE_MODE);
    } catch (err) {
      if (err instanceof ConfigError) throw err;
      const code = errnoCode(err);
      if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
        throw new ConfigError(`cannot write ${this.path} (${code === 'EROFS' ? 'read-only file system' : 'permission denied'})`, {
          suggestion: `Check the owner and mode of ${this.dir}, or set SHIPBOOK_CONFIG_DIR to a directory you own.`,
          cause: err,
        });
      }
      if (err instanceof SyntaxError || err instanceof TypeError) {
        // The file changed between our read and conf's: still never overwritten.
        throw unusableFile(this.path, err);
      }
      throw new ConfigError(`cannot write ${this.path} (${code ?? (err as Error).message})`, { cause: err });
    }
    return next;
  }

  #readError(err: unknown): ConfigError {
    const code = errnoCode(err);
    const why = code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'EISDIR' ? 'it is a directory' : (code ?? String(err));
    return new ConfigError(`cannot read ${this.path} (${why})`, {
      suggestion: `Check the owner and mode of the file (ls -l ${this.path}); shipbook never overwrites a file it cannot read.`,
      cause: err,
    });
  }
}
