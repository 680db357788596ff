/**
 * `shipbook auth logout`: removes the stored API key of the profile (`--profile`,
 * `SHIPBOOK_PROFILE` or the default profile); its other settings stay.
 */
import { Command } from 'commander';
import { maskSecret } from '../../api/redact.js';
import { withStored } from '../../config/keys.js';
import { chooseProfileName, profileNames } from '../../config/resolve.js';
import { BUILTIN_PROFILE } from '../../config/schema.js';
import { ConfigStore } from '../../config/store.js';
import type { Context } from '../../context.js';
import { ConfigError } from '../../errors.js';
import { paint } from '../../output/style.js';

/**
 * Runs `auth logout`.
 * @throws ConfigError (4) when the profile does not exist or the configuration is unusable.
 */
async function runAuthLogout(ctx: Context, store: ConfigStore = ConfigStore.fromEnv(ctx.io.env)): Promise<void> {
  const { io } = ctx;
  const warn = (line: string) => io.err(`${paint(io, 'yellow', line)}\n`);
  const snapshot = store.load(warn);
  const { name, source } = chooseProfileName({ profileFlag: ctx.globals.profile, env: io.env, config: snapshot.data });
  const report = (removed: boolean) => {
    if (ctx.json) ctx.output.data({ profile: name, removed });
  };
  if (name === BUILTIN_PROFILE) {
    io.err(`The built-in profile "${BUILTIN_PROFILE}" has no stored key: nothing to do.\n`);
    return report(false);
  }
  const stored = snapshot.data.profiles?.[name];
  if (!stored) {
    throw new ConfigError(`profile "${name}" (${source}) does not exist`, { suggestion: `Profiles: ${profileNames(snapshot.data).join(', ')}.` });
  }
  const key = stored['api-key'];
  if (key === undefined) {
    io.err(`No API key is stored for profile "${name}": nothing to do.\n`);
  } else {
    await store.update((data) => {
      data.profiles![name] = withStored(data.profiles![name], 'api-key', undefined);
    }, warn);
    io.err(`${paint(io, 'green', '✔')} Removed the API key ${maskSecret(key)} of profile "${name}" from ${store.path}; its other settings are kept.\n`);
  }
  if (io.env.SHIPBOOK_API_KEY?.trim()) io.err(`${paint(io, 'yellow', 'note:')} SHIPBOOK_API_KEY is still set in this environment and supplies a key.\n`);
  report(key !== undefined);
}

/** The `auth logout` command. */
export function authLogoutCommand(ctx: Context): Command {
  return new Command('logout')
    .summary('remove the stored API key of the profile')
    .description('Remove the stored API key of the profile (--profile, SHIPBOOK_PROFILE or the default); its other settings stay.')
    .addHelpText('after', '\nExamples:\n  shipbook auth logout\n  shipbook --profile staging auth logout\n')
    .action(async () => {
      await runAuthLogout(ctx);
    });
}
