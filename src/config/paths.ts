/**
 * Where shipbook keeps its configuration: one JSON file, `config.json`, in a directory chosen by
 * `SHIPBOOK_CONFIG_DIR`, else `$XDG_CONFIG_HOME/shipbook`, else `~/.config/shipbook` (the XDG base
 * directory rules, also used on macOS so the path is the same everywhere a shell runs); on
 * Windows `%APPDATA%\shipbook`.
 */
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

/** Name of the configuration file inside {@link configDir}. */
export const CONFIG_FILE_NAME = 'config.json';

/**
 * The configuration directory for an environment (absolute). Relative values of
 * `SHIPBOOK_CONFIG_DIR` are resolved against the current directory; a relative
 * `XDG_CONFIG_HOME` is ignored, as the XDG specification asks.
 */
export function configDir(env: Readonly<Record<string, string | undefined>>, platform: NodeJS.Platform = process.platform): string {
  const explicit = env.SHIPBOOK_CONFIG_DIR?.trim();
  if (explicit) return resolve(explicit);
  if (platform === 'win32') {
    const appData = env.APPDATA?.trim();
    return join(appData || join(env.USERPROFILE?.trim() || homedir(), 'AppData', 'Roaming'), 'shipbook');
  }
  const xdg = env.XDG_CONFIG_HOME?.trim();
  if (xdg && isAbsolute(xdg)) return join(xdg, 'shipbook');
  return join(env.HOME?.trim() || homedir(), '.config', 'shipbook');
}

/** The configuration file for an environment: `<configDir>/config.json`. */
export function configFilePath(env: Readonly<Record<string, string | undefined>>, platform: NodeJS.Platform = process.platform): string {
  return join(configDir(env, platform), CONFIG_FILE_NAME);
}
