/**
 * `shipbook auth status`: the profile of this run, its base URL, its key as `****abcd`, where each
 * came from, and whether the credentials work (a quote request; `--offline` skips it).
 */
import { existsSync } from 'node:fs';
import { Command } from 'commander';
import { maskSecret } from '../../api/redact.js';
import { checkCredentials, checkDescription, type CheckResult } from '../../config/check.js';
import { configFilePath } from '../../config/paths.js';
import type { ResolvedProfile } from '../../config/profile.js';
import type { Context } from '../../context.js';
import { ApiError, ConfigError } from '../../errors.js';
import type { IOStreams } from '../../io.js';
import { paint } from '../../output/style.js';
import type { OutputFormat } from '../../output/format.js';

/** Options of `auth status`. */
interface AuthStatusOptions {
  /** `--offline`: do not send the check request. */
  offline: boolean;
}

/** The label/value lines of a status, in order. */
function statusLines(profile: ResolvedProfile, configFile: string, configExists: boolean): Array<[string, string]> {
  const builtIn = profile.sandbox && !profile.baseUrl;
  return [
    ['profile', `${profile.name} (${profile.sources.profile ?? 'built-in'})`],
    ['base-url', profile.baseUrl ? `${profile.baseUrl} (${profile.sources.baseUrl ?? 'config'})` : 'built-in sandbox, started in-process'],
    [
      'api-key',
      profile.apiKey ? `${maskSecret(profile.apiKey)} (${profile.sources.apiKey ?? 'config'})` : builtIn ? 'none needed (built-in sandbox)' : 'not set',
    ],
    ['auth-header', `${profile.authHeader}: ${profile.authPrefix}<key>`],
    ['config-file', `${configFile}${configExists ? '' : ' (not created yet)'}`],
  ];
}

function printLines(io: IOStreams, format: OutputFormat, lines: Array<[string, string]>): void {
  const width = Math.max(...lines.map(([label]) => label.length));
  io.out(lines.map(([label, value]) => (format === 'table' ? `${paint(io, 'bold', label.padEnd(width))}  ${value}` : `${label}\t${value}`)).join('\n') + '\n');
}

/**
 * Runs `auth status`.
 * @throws ConfigError (4) when the configuration is unusable, the profile unknown, the key missing
 *   (a profile other than the built-in sandbox) or refused by the service; NetworkError (5) etc.
 *   when the check cannot be made.
 */
async function runAuthStatus(o: AuthStatusOptions, ctx: Context): Promise<void> {
  const { io } = ctx;
  const profile = await ctx.profile();
  const configFile = configFilePath(io.env);
  const lines = statusLines(profile, configFile, existsSync(configFile));
  // A config.json that is a link: the key is read from (and would be written to) somewhere else.
  const link = ctx.configStore().symlinkTarget();
  if (link !== null) lines.push(['config-link', `symbolic link to ${link}: auth login refuses to write a key through it`]);
  const builtIn = profile.sandbox && !profile.baseUrl;
  const missingKey = !profile.apiKey && !builtIn;
  const json = (check: CheckResult | null) => ({
    profile: profile.name,
    profile_source: profile.sources.profile ?? 'built-in',
    base_url: profile.baseUrl ?? null,
    base_url_source: profile.baseUrl ? (profile.sources.baseUrl ?? 'config') : 'built-in',
    api_key: profile.apiKey ? maskSecret(profile.apiKey) : null,
    api_key_source: profile.apiKey ? (profile.sources.apiKey ?? 'config') : null,
    auth_header: profile.authHeader,
    auth_prefix: profile.authPrefix,
    sandbox: profile.sandbox,
    config_file: configFile,
    config_link: link,
    check: check ? { ok: true, request: check.request, services: check.services } : null,
  });
  const notLoggedIn = () =>
    new ConfigError(`profile "${profile.name}" has no API key`, {
      suggestion: `Log in: shipbook${profile.sources.profile === 'flag --profile' ? ` --profile ${profile.name}` : ''} auth login, or set SHIPBOOK_API_KEY.`,
    });

  if (o.offline || missingKey) {
    if (ctx.json && !missingKey) return ctx.output.data(json(null));
    if (!ctx.json) printLines(io, ctx.output.format, [...lines, ['check', o.offline ? 'skipped (--offline)' : 'not made: no API key']]);
    if (missingKey) throw notLoggedIn();
    return;
  }
  const api = await ctx.api();
  io.err(`Checking the credentials with ${checkDescription(api)}…\n`);
  let check: CheckResult;
  try {
    check = await checkCredentials(api);
  } catch (err) {
    if (!ctx.json) printLines(io, ctx.output.format, [...lines, ['check', 'failed']]);
    if (err instanceof ApiError && err.kind === 'auth') {
      throw new ConfigError(`the service refused the API key of profile "${profile.name}" (${err.message})`, {
        suggestion:
          profile.sources.apiKey === 'env SHIPBOOK_API_KEY'
            ? 'The key comes from SHIPBOOK_API_KEY: check its value, or unset it to use the stored key.'
            : `Store a new key: shipbook${profile.sources.profile === 'flag --profile' ? ` --profile ${profile.name}` : ''} auth login`,
        cause: err,
      });
    }
    throw err;
  }
  if (ctx.json) return ctx.output.data(json(check));
  printLines(io, ctx.output.format, [...lines, ['check', `ok: the service answered a quote request (${check.request})`]]);
}

/** The `auth status` command. */
export function authStatusCommand(ctx: Context): Command {
  return new Command('status')
    .summary('show the profile, base URL and key in use, and whether they work')
    .description(
      'Show the profile of this run and where it was chosen, its base URL, its API\n' +
        'key as ****abcd, and check them with a quote request. Exit code 4 when the\n' +
        'key is missing or refused.',
    )
    .option('--offline', 'do not send the check request')
    .addHelpText('after', '\nExamples:\n  shipbook auth status\n  shipbook --profile staging auth status --offline\n  shipbook auth status --json\n')
    .action(async (flags: { offline?: boolean }) => {
      await runAuthStatus({ offline: flags.offline === true }, ctx);
    });
}
