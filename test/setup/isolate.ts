/**
 * Runs before every test file, in its own process (vitest's `setupFiles`): the file gets a home,
 * config, state, cache and data directory of its own under the system's temporary directory, and
 * none of the developer's shipbook settings. Every run a test starts inherits them, in process,
 * spawned (test/helpers/cli.ts `runCli`) or in a pseudo-terminal (the tmux server a file starts
 * inherits this environment), so `npm test` never reads or writes the developer's real
 * ~/.config/shipbook or ~/.local/state/shipbook, whichever runner a test uses.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const home = mkdtempSync(join(tmpdir(), 'shipbook-test-home-'));
process.on('exit', () => rmSync(home, { recursive: true, force: true }));
const dirs = {
  HOME: home,
  XDG_CONFIG_HOME: join(home, '.config'),
  XDG_STATE_HOME: join(home, '.local', 'state'),
  XDG_CACHE_HOME: join(home, '.cache'),
  XDG_DATA_HOME: join(home, '.local', 'share'),
};
// Windows reads the home and application data directories from these instead.
if (process.platform === 'win32')
  Object.assign(dirs, { USERPROFILE: home, APPDATA: join(home, 'AppData', 'Roaming'), LOCALAPPDATA: join(home, 'AppData', 'Local') });
for (const [name, dir] of Object.entries(dirs)) {
  mkdirSync(dir, { recursive: true });
  process.env[name] = dir;
}
// What a developer's shell may set for real use: never what a test runs with.
for (const name of ['SHIPBOOK_STATE_DIR', 'SHIPBOOK_CONFIG_DIR', 'SHIPBOOK_API_KEY', 'SHIPBOOK_BASE_URL', 'SHIPBOOK_PROFILE', 'SHIPBOOK_TIMEOUT']) {
  delete process.env[name];
}
