/**
 * `shipbook auth login`: asks for (or reads) a base URL and an API key, checks them with a quote
 * request, and stores them in a profile of the configuration file (mode 0600). The key is read
 * from a hidden prompt or, with `--with-key`, from standard input: never from an argument, since
 * arguments show in the process list.
 *
 * Which profile: `--profile`, else `SHIPBOOK_PROFILE`, else the default profile, else `default`
 * (never the built-in `sandbox`). The first login sets `default-profile` when none is set.
 */
import type { Readable } from 'node:stream';
import { Command } from 'commander';
import { ApiClient } from '../../api/client.js';
import { normaliseBaseUrl } from '../../api/base-url.js';
import { maskSecret } from '../../api/redact.js';
import { checkCredentials, checkDescription } from '../../config/check.js';
import { withStored } from '../../config/keys.js';
import { chooseProfileName } from '../../config/resolve.js';
import { BUILTIN_PROFILE, DEFAULT_LOGIN_PROFILE, HEADER_NAME_PATTERN, baseUrlProblem, nameProblem, type ConfigData } from '../../config/schema.js';
import type { Context } from '../../context.js';
import { ApiError, ConfigError, ShipbookError, UsageError, cmd } from '../../errors.js';
import { paint } from '../../output/style.js';
import { printLoggedIn } from '../../output/login.js';
import { readAll } from '../../stream.js';

/** Options of `auth login`. */
export interface AuthLoginOptions {
  /** `--with-key`: read the API key from standard input (trimmed). */
  withKey: boolean;
  /** `--base-url <url>`. */
  baseUrl?: string;
  /** `--auth-header <name>`: header that carries the key (default `Authorization`). */
  authHeader?: string;
  /** `--auth-prefix <text>`: text before the key (default `Bearer `). */
  authPrefix?: string;
  /** `--no-verify` sets this to false: store without the check request. */
  verify: boolean;
}

/** Largest API key read from standard input, in bytes. */
const MAX_KEY_BYTES = 16 * 1024;

/** Reads all of standard input as text (at most 16 KiB). @throws UsageError when it is longer. */
async function readSecretFromStdin(stdin: Readable): Promise<string> {
  const bytes = await readAll(stdin, { bytes: MAX_KEY_BYTES, tooLarge: () => new UsageError('--with-key: standard input is too long to be an API key') });
  return bytes.toString('utf8').trim();
}

/** Why an API key is not usable, or undefined (never quotes the key). */
function apiKeyProblem(key: string): string | undefined {
  if (key === '') return 'the API key is empty';
  if (/\s/.test(key)) return 'the API key must not contain spaces or line breaks';
  if (/[\x00-\x1f\x7f]/.test(key)) return 'the API key must not contain control characters';
  return undefined;
}

/**
 * The profile `auth login` writes: the chosen one (flag, `SHIPBOOK_PROFILE`, default profile),
 * or `default` when nothing chose one. @throws UsageError for `sandbox` or an invalid name.
 */
function loginProfileName(profileFlag: string | undefined, env: Readonly<Record<string, string | undefined>>, config: ConfigData): string {
  const choice = chooseProfileName({ profileFlag, env, config });
  const name = choice.source === 'built-in' ? DEFAULT_LOGIN_PROFILE : choice.name;
  if (name === BUILTIN_PROFILE) {
    throw new UsageError(`the built-in profile "${BUILTIN_PROFILE}" needs no login and cannot be changed`, {
      suggestion: 'Log in to a named profile, e.g.: shipbook --profile staging auth login',
    });
  }
  const problem = nameProblem(name, 'profile');
  if (problem) throw new UsageError(`cannot log in to profile "${name}" (${choice.source}): ${problem}`);
  return name;
}

/** Why nothing can be asked: `--no-input` turned prompting off, or there is no terminal (a pipe, CI). */
function noPromptReason(ctx: Context): string {
  return ctx.globals.input === false ? 'prompting is turned off by --no-input' : 'there is no terminal to ask';
}

/**
 * The base URL (the flag, else a prompt, else the one stored) and the API key (standard input with
 * `--with-key`, else a hidden prompt) of a login.
 * @throws UsageError (2) when either is missing and cannot be asked, or the key is not a key
 */
async function loginCredentials(
  o: AuthLoginOptions,
  existing: { 'base-url'?: string | undefined } | undefined,
  ctx: Context,
): Promise<{ baseUrl: string; apiKey: string }> {
  const { io } = ctx;
  const ask = () => ctx.prompter();
  const interactive = io.canPrompt && !o.withKey;
  // Base URL: the flag, else a prompt, else the one already stored.
  let rawBaseUrl = o.baseUrl;
  if (rawBaseUrl === undefined && interactive) {
    rawBaseUrl = await ask().input({
      message: 'Base URL of the booking service',
      default: existing?.['base-url'],
      validate: (v) => (v.trim() === '' ? 'a base URL is required, e.g. https://api.example.com/' : (baseUrlProblem(v.trim()) ?? true)),
    });
  }
  rawBaseUrl ??= existing?.['base-url'];
  if (rawBaseUrl === undefined || rawBaseUrl.trim() === '') {
    throw new UsageError(`--base-url is required (${noPromptReason(ctx)})`, {
      suggestion: 'echo "$API_KEY" | shipbook auth login --with-key --base-url https://api.example.com/',
    });
  }
  const baseUrl = normaliseBaseUrl(rawBaseUrl.trim());

  // API key: standard input with --with-key, else a hidden prompt.
  let apiKey: string;
  if (o.withKey) {
    apiKey = await readSecretFromStdin(io.stdin);
  } else if (io.canPrompt) {
    apiKey = (await ask().password({ message: 'API key', validate: (v) => apiKeyProblem(v.trim()) ?? true })).trim();
  } else {
    throw new UsageError(`cannot ask for the API key (${noPromptReason(ctx)}): pipe it in with --with-key`, {
      suggestion: `echo "$API_KEY" | shipbook auth login --with-key --base-url ${baseUrl}   (or set SHIPBOOK_API_KEY and store nothing)`,
    });
  }
  const keyProblem = apiKeyProblem(apiKey);
  if (keyProblem) throw new UsageError(o.withKey ? `--with-key: ${keyProblem} (read from standard input)` : keyProblem);

  return { baseUrl, apiKey };
}

/**
 * Checks the credentials with a quote request, saying on stderr what was checked and what the
 * service answered; nothing is stored when the check fails.
 * @throws ConfigError (4) for a refused key; what the check throws otherwise (3, 5)
 */
async function verifyLogin(c: { baseUrl: string; apiKey: string; authHeader: string; authPrefix: string }, ctx: Context): Promise<void> {
  const { io } = ctx;
  const { baseUrl, apiKey, authHeader, authPrefix } = c;
  let services: number | undefined;
  const client = new ApiClient({ baseUrl, apiKey, authHeader, authPrefix, debug: ctx.debug ? (line) => ctx.debugLog(line) : undefined });
  io.err(`Checking the credentials with ${checkDescription(client)}…\n`);
  try {
    services = (await checkCredentials(client)).services;
  } catch (err) {
    io.err(`The credentials were not stored.\n`);
    if (err instanceof ApiError && err.kind === 'auth') {
      throw new ConfigError(`the service refused the API key (${err.message})`, {
        suggestion: ['Check the key and the base URL, then run "', cmd('auth', 'login'), '" again.'],
        cause: err,
      });
    }
    if (err instanceof ShipbookError) io.err('(To store them without checking, run again with --no-verify.)\n');
    throw err;
  } finally {
    await client.close();
  }
  io.err(`${paint(io, 'green', '✔')} the service answered the quote request (${services} service${services === 1 ? '' : 's'} offered)\n`);
  io.err(
    paint(
      io,
      'dim',
      '  Get quote takes authorization as optional: a service that does not check keys on quotes\n  accepts a wrong key here, and refuses it only when you create an order.\n',
    ),
  );
}

/**
 * Runs `auth login`. Nothing is stored unless the check passes (or `--no-verify`).
 * @throws UsageError (2) when the base URL or key is missing and there is no terminal to ask;
 *   ConfigError (4) for a refused base URL, a refused key (401/403 on the check) or an unusable
 *   configuration file; NetworkError/TimeoutError/ProtocolError (5) or ApiError (3) when the check
 *   cannot be made.
 */
export async function runAuthLogin(o: AuthLoginOptions, ctx: Context): Promise<void> {
  const { io } = ctx;
  const warn = (line: string) => io.err(`${paint(io, 'yellow', line)}\n`);
  const store = ctx.configStore();
  const snapshot = store.load(warn);
  const name = loginProfileName(ctx.globals.profile, io.env, snapshot.data);
  const existing = snapshot.data.profiles?.[name];
  const { baseUrl, apiKey } = await loginCredentials(o, existing, ctx);
  const authHeader = o.authHeader ?? existing?.['auth-header'] ?? 'Authorization';
  if (!HEADER_NAME_PATTERN.test(authHeader)) throw new UsageError(`--auth-header must be an HTTP header name, e.g. Authorization (got "${authHeader}")`);
  const authPrefix = o.authPrefix ?? existing?.['auth-prefix'] ?? 'Bearer ';
  if (/[\r\n]/.test(authPrefix)) throw new UsageError('--auth-prefix must not contain line breaks');

  if (o.verify) await verifyLogin({ baseUrl, apiKey, authHeader, authPrefix }, ctx);

  let becameDefault = false;
  await store.update((data) => {
    data.profiles ??= {};
    let profile = withStored(data.profiles[name], 'base-url', baseUrl);
    profile = withStored(profile, 'api-key', apiKey);
    if (o.authHeader !== undefined) profile = withStored(profile, 'auth-header', o.authHeader);
    if (o.authPrefix !== undefined) profile = withStored(profile, 'auth-prefix', o.authPrefix);
    data.profiles[name] = profile;
    if (data['default-profile'] === undefined) {
      data['default-profile'] = name;
      becameDefault = true;
    }
  }, warn);

  printLoggedIn(io, { name, baseUrl, apiKey, verified: o.verify, becameDefault, path: store.path, defaultProfile: snapshot.data['default-profile'] });
  if (ctx.json) {
    ctx.output.data({
      profile: name,
      base_url: baseUrl,
      api_key: maskSecret(apiKey),
      verified: o.verify,
      default_profile: becameDefault ? name : (snapshot.data['default-profile'] ?? null),
      config_file: store.path,
    });
  }
}

/** The `auth login` command. */
export function authLoginCommand(ctx: Context): Command {
  return new Command('login')
    .summary('store a base URL and API key in a profile, after checking them')
    .description(
      'Ask for the base URL and the API key (hidden), check them with a quote\n' +
        'request, and store them in the profile: --profile, SHIPBOOK_PROFILE, the\n' +
        'default profile, else "default". Without a terminal, give --base-url and\n' +
        'pipe the key in with --with-key. The first login sets the default profile.\n' +
        'Nothing is stored when the service refuses the key (exit code 4).',
    )
    .option('--with-key', 'read the API key from standard input (for scripts)')
    .option('--base-url <url>', 'base URL of the service (https://; http:// only on loopback)')
    .option('--auth-header <name>', 'header that carries the key (default Authorization)')
    .option('--auth-prefix <text>', 'text before the key in that header (default "Bearer ")')
    .option('--no-verify', 'store the credentials without the check request')
    .addHelpText(
      'after',
      '\nExamples:\n  shipbook auth login\n  echo "$KEY" | shipbook auth login --with-key --base-url https://api.example.com/\n  shipbook --profile staging auth login --base-url https://staging.example.com/\n',
    )
    .action(async (flags: { withKey?: boolean; baseUrl?: string; authHeader?: string; authPrefix?: string; verify: boolean }) => {
      await runAuthLogin({ ...flags, withKey: flags.withKey === true }, ctx);
    });
}
