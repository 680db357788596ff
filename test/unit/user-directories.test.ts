/**
 * The state and configuration directories follow one rule (src/dirs.ts): an empty variable is not
 * set, shipbook's own relative variable is resolved against the current directory, a relative XDG
 * variable is ignored.
 */
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configDir } from '../../src/config/paths.js';
import { stateDirectory } from '../../src/dirs.js';

const HOME = '/home/ada';

describe.each([
  { name: 'state', dir: stateDirectory, own: 'SHIPBOOK_STATE_DIR', xdg: 'XDG_STATE_HOME', fallback: join(HOME, '.local', 'state', 'shipbook') },
  { name: 'configuration', dir: configDir, own: 'SHIPBOOK_CONFIG_DIR', xdg: 'XDG_CONFIG_HOME', fallback: join(HOME, '.config', 'shipbook') },
])('the $name directory', ({ dir, own, xdg, fallback }) => {
  it('resolves its own relative variable against the current directory', () => {
    expect(dir({ HOME, [own]: 'here/state' }, 'linux')).toBe(resolve('here/state'));
  });

  it('takes an empty or blank variable as not set', () => {
    expect(dir({ HOME, [own]: '', [xdg]: '  ' }, 'linux')).toBe(fallback);
  });

  it('ignores a relative XDG variable and follows an absolute one', () => {
    expect(dir({ HOME, [xdg]: 'relative' }, 'linux')).toBe(fallback);
    expect(dir({ HOME, [xdg]: '/xdg' }, 'linux')).toBe(join('/xdg', 'shipbook'));
  });
});
