/**
 * Where the built-in sandbox keeps its state (docs/configuration.md, `SHIPBOOK_STATE_DIR`):
 * `$SHIPBOOK_STATE_DIR`, else `$XDG_STATE_HOME/shipbook`, else `~/.local/state/shipbook`
 * (`%LOCALAPPDATA%\shipbook` on Windows).
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The state directory for these environment variables. */
export function sandboxStateDir(env: Readonly<Record<string, string | undefined>>, platform: NodeJS.Platform = process.platform): string {
  if (env.SHIPBOOK_STATE_DIR) return env.SHIPBOOK_STATE_DIR;
  // Windows: %LOCALAPPDATA% (machine-local, not roamed), else the profile's AppData\Local.
  if (platform === 'win32') return join(env.LOCALAPPDATA || join(env.USERPROFILE || env.HOME || homedir(), 'AppData', 'Local'), 'shipbook');
  if (env.XDG_STATE_HOME) return join(env.XDG_STATE_HOME, 'shipbook');
  return join(env.HOME || homedir(), '.local', 'state', 'shipbook');
}
