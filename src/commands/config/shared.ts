/** Helpers shared by the `config` commands: the store, the active profile, warnings. */
import { chooseProfileName, profileNames, type ProfileChoice } from '../../config/resolve.js';
import { BUILTIN_PROFILE, nameProblem, type ConfigData } from '../../config/schema.js';
import type { ConfigSnapshot, ConfigStore } from '../../config/store.js';
import type { Context } from '../../context.js';
import { ConfigError, UsageError } from '../../errors.js';
import { paint } from '../../output/style.js';

/** Prints permission warnings of the configuration file on stderr. */
export function warnOn(ctx: Context): (line: string) => void {
  return (line) => ctx.io.err(`${paint(ctx.io, 'yellow', line)}\n`);
}

/** The store of this run and its current contents. @throws ConfigError (4) when the file is unusable. */
export function openStore(ctx: Context, store: ConfigStore = ctx.configStore()): { store: ConfigStore; snapshot: ConfigSnapshot } {
  return { store, snapshot: store.load(warnOn(ctx)) };
}

/** The profile `config` acts on: `--profile`, `SHIPBOOK_PROFILE`, the default profile, else `sandbox`. */
export function activeProfile(ctx: Context, data: ConfigData): ProfileChoice {
  return chooseProfileName({ profileFlag: ctx.globals.profile, env: ctx.io.env, config: data });
}

/** The error for a profile that is not stored. */
export function unknownProfile(choice: ProfileChoice, data: ConfigData): ConfigError {
  return new ConfigError(`profile "${choice.name}" (${choice.source}) does not exist`, {
    suggestion: [`Profiles: ${profileNames(data).join(', ')}. Create it with: `, { argv: ['auth', 'login'], profile: choice.name }],
  });
}

/**
 * The stored profile a change goes to: must not be the built-in one, and must have a valid name.
 * @throws UsageError (2) for `sandbox` or an invalid name.
 */
export function writableProfile(choice: ProfileChoice, what: string): string {
  if (choice.name === BUILTIN_PROFILE) {
    throw new UsageError(`the built-in profile "${BUILTIN_PROFILE}" cannot be changed`, {
      suggestion: `Name a profile to change, e.g.: shipbook --profile staging ${what}`,
    });
  }
  const problem = nameProblem(choice.name, 'profile');
  if (problem) throw new UsageError(`profile "${choice.name}" (${choice.source}): ${problem}`);
  return choice.name;
}
