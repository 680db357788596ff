/**
 * Where shipbook keeps things on Windows, with the platform injected: the configuration under
 * %APPDATA% (it roams with the user), the built-in sandbox's state and the ledger under
 * %LOCALAPPDATA% (machine-local), each with the profile's AppData folders when the variable is
 * missing.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configDir, configFilePath } from '../../src/config/paths.js';
import { ledgerPath } from '../../src/ledger/paths.js';
import { stateDirectory } from '../../src/dirs.js';

const user = 'C:\\Users\\Priya Raman';
const windows = { APPDATA: `${user}\\AppData\\Roaming`, LOCALAPPDATA: `${user}\\AppData\\Local`, USERPROFILE: user };

describe('directories on Windows', () => {
  it("keeps the configuration under %APPDATA%, else the profile's AppData\\Roaming; XDG is not read there", () => {
    expect(configDir({ ...windows, XDG_CONFIG_HOME: '/ignored' }, 'win32')).toBe(join(windows.APPDATA, 'shipbook'));
    expect(configFilePath(windows, 'win32')).toBe(join(windows.APPDATA, 'shipbook', 'config.json'));
    expect(configDir({ USERPROFILE: user }, 'win32')).toBe(join(user, 'AppData', 'Roaming', 'shipbook'));
  });

  it("keeps the sandbox state and the ledger under %LOCALAPPDATA%, else the profile's AppData\\Local", () => {
    expect(stateDirectory({ ...windows, XDG_STATE_HOME: '/ignored' }, 'win32')).toBe(join(windows.LOCALAPPDATA, 'shipbook'));
    expect(stateDirectory({ USERPROFILE: user }, 'win32')).toBe(join(user, 'AppData', 'Local', 'shipbook'));
    expect(ledgerPath(stateDirectory(windows, 'win32'), 'https://api.example.com/')).toMatch(
      /^C:\\Users\\Priya Raman\\AppData\\Local[\\/]shipbook[\\/]ledger[\\/][0-9a-f]+\.ndjson$/,
    );
    // SHIPBOOK_STATE_DIR wins everywhere.
    expect(stateDirectory({ ...windows, SHIPBOOK_STATE_DIR: 'D:\\shipbook-state' }, 'win32')).toBe('D:\\shipbook-state');
  });
});
