/**
 * Where shipbook keeps its configuration: one JSON file, `config.json`, in a directory chosen by
 * `SHIPBOOK_CONFIG_DIR`, else `$XDG_CONFIG_HOME/shipbook`, else `~/.config/shipbook` (the XDG base
 * directory rules, also used on macOS so the path is the same everywhere a shell runs); on
 * Windows `%APPDATA%\shipbook`.
 */
import { join } from 'node:path';
import { configDirectory } from '../dirs.js';

/** Name of the configuration file inside {@link configDir}. */
export const CONFIG_FILE_NAME = 'config.json';

/**
 * The configuration directory for an environment (absolute), by the rule the state directory
 * follows too (src/dirs.ts): an empty variable is not set, a relative `SHIPBOOK_CONFIG_DIR` is
 * resolved against the current directory, a relative `XDG_CONFIG_HOME` is ignored.
 */
export function configDir(env: Readonly<Record<string, string | undefined>>, platform: NodeJS.Platform = process.platform): string {
  return configDirectory(env, platform);
}

/** The configuration file for an environment: `<configDir>/config.json`. */
export function configFilePath(env: Readonly<Record<string, string | undefined>>, platform: NodeJS.Platform = process.platform): string {
  return join(configDir(env, platform), CONFIG_FILE_NAME);
}
