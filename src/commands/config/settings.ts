/**
 * `shipbook config list | get <key> | set <key> <value> | unset <key>`: the settings of the active
 * profile (`--profile`, `SHIPBOOK_PROFILE`, the default profile) and `default-profile`. Keys and
 * their defaults: {@link SETTING_KEYS}. The API key is shown as `****abcd` and is never taken as
 * an argument (arguments show in the process list): `auth login --with-key` reads it from stdin.
 */
import { Command } from 'commander';
import { normaliseBaseUrl } from '../../api/base-url.js';
import { maskSecret, redactUrlPassword } from '../../api/redact.js';
import { effectiveValue, findSetting, getStored, SETTING_KEYS, withStored, type SettingKey } from '../../config/keys.js';
import { BUILTIN_PROFILE, ledgerUrlWithoutPassword, storedProfile, type ConfigData } from '../../config/schema.js';
import type { Context } from '../../context.js';
import { UsageError, cmd } from '../../errors.js';
import { paint } from '../../output/style.js';
import { printTable } from '../../output/table.js';
import { schemaProblems } from '../../schema/issues.js';
import { activeProfile, openStore, unknownProfile, warnOn, writableProfile } from './shared.js';

/** The setting named `key`. @throws UsageError (2) naming every setting when there is none. */
function settingOrThrow(key: string): SettingKey {
  const setting = findSetting(key);
  if (setting) return setting;
  throw new UsageError(`unknown setting "${key}"`, {
    suggestion: [`Settings: ${SETTING_KEYS.map((s) => s.key).join(', ')}. Sender addresses: `, cmd('config', 'sender', '--help')],
  });
}

function checkProfile(key: string, profile: unknown): void {
  const parsed = storedProfile.safeParse(profile);
  if (parsed.success) return;
  // The key is named once: a problem at the key itself is just its message.
  const problems = schemaProblems(parsed.error).map((p) => (p.path === key || p.path.endsWith(`.${key}`) ? p.message : `${p.path}: ${p.message}`));
  throw new UsageError(`cannot change ${key}: ${problems.join('; ')}`);
}

/**
 * Runs `config get <key>`: the value the active profile uses (environment, stored, default) on
 * stdout, nothing when it has none; the API key as `****abcd`.
 * @throws UsageError (2) for an unknown key; ConfigError (4) for an unknown profile or unusable file.
 */
function runConfigGet(key: string, ctx: Context): void {
  const setting = settingOrThrow(key);
  const { snapshot } = openStore(ctx);
  const choice = activeProfile(ctx, snapshot.data);
  if (setting.scope === 'profile' && choice.name !== BUILTIN_PROFILE && !snapshot.data.profiles?.[choice.name]) {
    throw unknownProfile(choice, snapshot.data);
  }
  const { value, source } = effectiveValue(setting, choice.name, snapshot.data, ctx.io.env);
  if (ctx.json) return ctx.output.data({ profile: setting.scope === 'global' ? null : choice.name, key, value: value ?? null, source });
  if (value === undefined) ctx.io.err(`${key} is not set for profile "${choice.name}" (${source})\n`);
  else ctx.io.out(`${value}\n`);
}

/**
 * Runs `config set <key> <value>` on the active profile (created when it does not exist), or
 * sets `default-profile`.
 * @throws UsageError (2) for an unknown key, the API key, an invalid value, the built-in profile;
 *   ConfigError (4) for a refused base URL or an unusable configuration file (left unchanged).
 */
async function runConfigSet(key: string, value: string, ctx: Context): Promise<void> {
  const setting = settingOrThrow(key);
  if (setting.secret) {
    throw new UsageError('the API key is not taken as an argument: command lines are visible to other users (ps)', {
      suggestion: 'Pipe it in: echo "$KEY" | shipbook auth login --with-key   (or set SHIPBOOK_API_KEY and store nothing)',
    });
  }
  // A password in the ledger's URL is a secret on the command line, as the API key would be.
  const withoutPassword = key === 'ledger' ? ledgerUrlWithoutPassword(value.trim()) : undefined;
  if (withoutPassword !== undefined) {
    redactUrlPassword(value.trim());
    throw new UsageError(
      "the ledger URL holds a password, and a password is not taken as an argument: command lines are visible to other users (ps) and kept in the shell's history",
      {
        suggestion: [
          'Store the URL without it: ',
          cmd('config', 'set', 'ledger', withoutPassword),
          ' and give the password as PGPASSWORD or in ~/.pgpass (docs/shared-ledger.md)',
        ],
      },
    );
  }
  const opened = openStore(ctx);
  const { data } = opened.snapshot;
  if (setting.scope === 'global') {
    if (value !== BUILTIN_PROFILE && !data.profiles?.[value]) {
      throw new UsageError(`no profile named "${value}"`, {
        suggestion: [
          `Profiles: ${[...Object.keys(data.profiles ?? {}).sort(), BUILTIN_PROFILE].join(', ')}. Create one with: `,
          { argv: ['auth', 'login'], profile: value },
        ],
      });
    }
    await opened.store.update((d) => void (d['default-profile'] = value), warnOn(ctx));
    ctx.io.err(`${paint(ctx.io, 'green', '✔')} default-profile is now "${value}"\n`);
    return;
  }
  const name = writableProfile(activeProfile(ctx, data), `config set ${key} …`);
  const normalised = key === 'base-url' ? normaliseBaseUrl(value.trim()) : value;
  const existed = data.profiles?.[name] !== undefined;
  const next = withStored(data.profiles?.[name], key, normalised);
  checkProfile(key, next);
  await opened.store.update((d) => {
    d.profiles ??= {};
    d.profiles[name] = next;
  }, warnOn(ctx));
  ctx.io.err(
    `${paint(ctx.io, 'green', '✔')} ${existed ? '' : `created profile "${name}"; `}${key} of profile "${name}" is now ${JSON.stringify(setting.show?.(normalised) ?? normalised)}\n`,
  );
}

/**
 * Runs `config unset <key>`: removes a stored setting of the active profile (its default applies
 * again), or `default-profile`.
 * @throws UsageError (2) for an unknown key or the built-in profile; ConfigError (4) for an unknown profile.
 */
async function runConfigUnset(key: string, ctx: Context): Promise<void> {
  const setting = settingOrThrow(key);
  const opened = openStore(ctx);
  const { data } = opened.snapshot;
  if (setting.scope === 'global') {
    if (data['default-profile'] === undefined) {
      ctx.io.err('default-profile is not set: nothing to do\n');
      return;
    }
    await opened.store.update((d) => void delete d['default-profile'], warnOn(ctx));
    ctx.io.err(`${paint(ctx.io, 'green', '✔')} default-profile removed; the built-in "${BUILTIN_PROFILE}" profile is the default again\n`);
    return;
  }
  const choice = activeProfile(ctx, data);
  const name = writableProfile(choice, `config unset ${key}`);
  const current = data.profiles?.[name];
  if (!current) throw unknownProfile(choice, data);
  if (getStored(current, key) === undefined) {
    ctx.io.err(`${key} is not stored for profile "${name}": nothing to do\n`);
    return;
  }
  const next = withStored(current, key, undefined);
  checkProfile(key, next);
  await opened.store.update((d) => void (d.profiles![name] = next), warnOn(ctx));
  const fallback = setting.fallback !== undefined ? `; the default ${JSON.stringify(setting.fallback)} applies` : '';
  ctx.io.err(`${paint(ctx.io, 'green', '✔')} ${key} removed from profile "${name}"${fallback}\n`);
}

/** Rows of `config list --all`: `(global)`/profile, key, stored value (keys masked). */
function allStoredRows(data: ConfigData): string[][] {
  const rows: string[][] = [];
  if (data['default-profile'] !== undefined) rows.push(['(global)', 'default-profile', data['default-profile']]);
  for (const name of Object.keys(data.profiles ?? {}).sort()) {
    const profile = data.profiles![name]!;
    for (const setting of SETTING_KEYS) {
      if (setting.scope !== 'profile') continue;
      const value = getStored(profile, setting.key);
      if (value !== undefined) rows.push([name, setting.key, setting.secret ? maskSecret(value) : (setting.show?.(value) ?? value)]);
    }
    const senders = Object.keys(profile.senders ?? {});
    if (senders.length > 0) rows.push([name, 'senders', senders.sort().join(', ')]);
  }
  return rows;
}

/**
 * Runs `config list`: every setting of the active profile with its value and source (environment,
 * config, default, built-in), and its saved senders; with `all`, every stored setting of every profile.
 * @throws ConfigError (4) for an unknown profile or an unusable configuration file.
 */
function runConfigList(o: { all: boolean }, ctx: Context): void {
  const { io } = ctx;
  const { snapshot } = openStore(ctx);
  const { data } = snapshot;
  if (o.all) {
    const rows = allStoredRows(data);
    if (ctx.json) {
      const profiles: Record<string, Record<string, string>> = {};
      for (const [profile, key, value] of rows) if (profile !== '(global)') (profiles[profile!] ??= {})[key!] = value!;
      return ctx.output.data({ config_file: snapshot.path, default_profile: data['default-profile'] ?? null, profiles });
    }
    if (rows.length === 0) io.err(`Nothing is stored yet (${snapshot.path}).\n`);
    else printTable(io, ctx.output.format, [{ header: 'PROFILE' }, { header: 'KEY' }, { header: 'VALUE' }], rows);
    return;
  }
  const choice = activeProfile(ctx, data);
  if (choice.name !== BUILTIN_PROFILE && !data.profiles?.[choice.name]) throw unknownProfile(choice, data);
  const settings = SETTING_KEYS.map((s) => ({ key: s.key, ...effectiveValue(s, choice.name, data, io.env) }));
  const senders = Object.keys(data.profiles?.[choice.name]?.senders ?? {}).sort();
  if (ctx.json) {
    return ctx.output.data({
      profile: choice.name,
      profile_source: choice.source,
      config_file: snapshot.path,
      settings: settings.map((s) => ({ key: s.key, value: s.value ?? null, source: s.source })),
      senders,
    });
  }
  if (io.stderrIsTTY || ctx.output.format === 'table') io.err(`profile ${choice.name} (${choice.source}); file ${snapshot.path}\n`);
  const rows = settings.map((s) => [s.key, s.value ?? '', s.source]);
  if (senders.length > 0) rows.push(['senders', senders.join(', '), 'config']);
  printTable(io, ctx.output.format, [{ header: 'KEY' }, { header: 'VALUE' }, { header: 'SOURCE' }], rows);
}

/** `config list`. */
export function configListCommand(ctx: Context): Command {
  return new Command('list')
    .summary('show the settings of the profile, with where each comes from')
    .option('--all', 'every stored setting of every profile')
    .addHelpText('after', '\nExamples:\n  shipbook config list\n  shipbook --profile staging config list --json\n  shipbook config list --all\n')
    .action((flags: { all?: boolean }) => runConfigList({ all: flags.all === true }, ctx));
}

/** `config get <key>`. */
export function configGetCommand(ctx: Context): Command {
  return new Command('get')
    .summary('print the value of one setting (the API key as ****abcd)')
    .argument('<key>', `one of ${SETTING_KEYS.map((s) => s.key).join(', ')}`)
    .addHelpText('after', '\nExamples:\n  shipbook config get base-url\n  shipbook --profile staging config get api-key\n')
    .action((key: string) => runConfigGet(key, ctx));
}

/** `config set <key> <value>`. */
export function configSetCommand(ctx: Context): Command {
  return new Command('set')
    .summary('change one setting of the profile (creating the profile), or default-profile')
    .argument(
      '<key>',
      `one of ${SETTING_KEYS.filter((s) => !s.secret)
        .map((s) => s.key)
        .join(', ')}`,
    )
    .argument('<value>', 'the new value')
    .addHelpText(
      'after',
      '\nThe API key is never taken as an argument: use "shipbook auth login" (--with-key reads it from stdin).\n' +
        '\nExamples:\n  shipbook --profile staging config set base-url https://staging.example.com/\n  shipbook config set payment.stored-card card_visa_4242\n  shipbook config set default-profile staging\n',
    )
    .action(async (key: string, value: string) => runConfigSet(key, value, ctx));
}

/** `config unset <key>`. */
export function configUnsetCommand(ctx: Context): Command {
  return new Command('unset')
    .summary('remove one stored setting of the profile (its default applies again)')
    .argument('<key>', `one of ${SETTING_KEYS.map((s) => s.key).join(', ')}`)
    .addHelpText('after', '\nExamples:\n  shipbook config unset paths.fetch-order\n  shipbook config unset default-profile\n')
    .action(async (key: string) => runConfigUnset(key, ctx));
}
