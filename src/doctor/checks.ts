/**
 * The checks of `shipbook doctor`: Node.js version, configuration file and its permissions, the
 * active profile and where each setting comes from, whether the base URL answers and the key is
 * accepted, whether a callback receiver can bind, and the built-in sandbox's state directory.
 *
 * UI-free: every check returns a {@link CheckResult} (what was found, and what to do about a
 * failure); the command renders them. Dependencies (environment, the API client, the clock of
 * the probe) are passed in, so tests can run the checks against a sandbox or a broken setup.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { ApiClient } from '../api/client.js';
import { fetchOrder } from '../api/orders.js';
import { maskSecret } from '../api/redact.js';
import type { ResolvedProfile } from '../config/profile.js';
import { resolveProfile } from '../config/resolve.js';
import { BUILTIN_PROFILE } from '../config/schema.js';
import { ConfigStore, permissionWarnings } from '../config/store.js';
import { checkLedger } from './ledger.js';
import { ApiError, ShipbookError, cmd, type ErrorKind, type Hint, type NextCommand } from '../errors.js';
import { stateDirectory } from '../dirs.js';

/** `ok`: fine; `warn`: works, but worth a look; `fail`: shipbook will not work as set up; `skip`: not checked (an earlier check failed). */
type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip';

/** The result of one check. */
export interface CheckResult {
  /** Stable id for scripts (`node`, `config-file`, `profile`, `base-url`, `api-key`, `ledger`, `callback`, `sandbox-state`). */
  id: string;
  /** Short name for the table. */
  name: string;
  status: CheckStatus;
  /** What was found (never a secret: keys are masked). */
  detail: string;
  /** What to do about a `fail` or `warn`: prose, or a {@link Hint} naming commands (src/output/hints.ts words it). */
  fix?: string | Hint;
  /** The kind of this failure, which decides the run's exit code (src/errors.ts `exitCodeOf`); only for `fail`. */
  kind?: ErrorKind;
}

/** What the checks may use. */
interface DoctorDeps {
  env: Readonly<Record<string, string | undefined>>;
  /** `--profile`, when given. */
  profileFlag?: string;
  /** The Node.js version to judge (default `process.versions.node`). */
  nodeVersion?: string;
  /** Platform (permissions are not checked on Windows). */
  platform?: NodeJS.Platform;
  /** Builds the API client of the resolved profile (starting the built-in sandbox when it has no base URL). */
  api: () => Promise<ApiClient>;
  /** Where a callback receiver would listen (`--listen`); default 127.0.0.1, any port. */
  listen?: { host: string; port: number };
  /** Probe deadline in milliseconds (default 5000). */
  timeoutMs?: number;
}

/** Lowest supported Node.js version (package.json `engines`): the oldest LTS line still maintained. */
const MIN_NODE: readonly [number, number] = [22, 0];
/** Lowest Node.js version shipbook still runs on (untested, past its end of life): a warning, not a failure. */
const MIN_RUNNABLE_NODE: readonly [number, number] = [20, 19];

/** True when `version` (`22.3.0`) is `min` or later. */
function atLeast(version: string, min: readonly [number, number]): boolean {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  return major > min[0] || (major === min[0] && minor >= min[1]);
}

/**
 * True when this process is one of shipbook's single executables (Node.js's single-executable
 * applications embed the Node.js that runs them).
 */
function isSingleExecutable(): boolean {
  try {
    const sea = process.getBuiltinModule?.('node:sea') as { isSea?: () => boolean } | undefined;
    return sea?.isSea?.() === true;
  } catch {
    return false;
  }
}

/**
 * Checks a Node.js version string (`22.3.0`) against {@link MIN_NODE}: `ok` from 22, `warn` for
 * 20.19 to 21 (past its end of life, untested), `fail` before. `embedded`: the version is the one
 * a single executable carries (said in the detail: there is no Node.js to install or upgrade).
 */
export function checkNode(version: string, embedded = false): CheckResult {
  const shown = `v${version.replace(/^v/, '')}${embedded ? ' (embedded in this executable)' : ''}`;
  if (atLeast(version, MIN_NODE)) return { id: 'node', name: 'Node.js', status: 'ok', detail: shown };
  if (atLeast(version, MIN_RUNNABLE_NODE)) {
    return {
      id: 'node',
      name: 'Node.js',
      status: 'warn',
      detail: `${shown} is past its end of life and no longer tested`,
      fix: 'Install Node.js 22 or 24 (LTS), or use a single executable, which embeds its own.',
    };
  }
  return {
    id: 'node',
    name: 'Node.js',
    status: 'fail',
    detail: `${shown} is older than ${MIN_RUNNABLE_NODE.join('.')}`,
    fix: 'Install Node.js 22 or 24 (LTS), or use a single executable, which embeds its own.',
    // What the machine runs is a setting of the set-up, not a credential: exit 2, as for a bad setting.
    kind: 'input',
  };
}

function message(err: unknown): string {
  return err instanceof Error ? err.message.split('\n')[0]! : String(err);
}

/** Reads the configuration file: exists, valid, permissions. Returns the result and the contents (when readable). */
export function checkConfigFile(deps: Pick<DoctorDeps, 'env' | 'platform'>): { result: CheckResult; store: ConfigStore; ok: boolean } {
  const store = ConfigStore.fromEnv(deps.env);
  const name = 'configuration file';
  try {
    const snap = store.read();
    if (!snap.exists)
      return { store, ok: true, result: { id: 'config-file', name, status: 'ok', detail: `${store.path} (not created yet: built-in defaults)` } };
    let warnings: string[] = [];
    try {
      warnings = permissionWarnings(store.path, statSync(store.path), statSync(store.dir), deps.platform);
    } catch {
      // stat raced with a removal: nothing to say about permissions
    }
    if (warnings.length > 0) {
      return {
        store,
        ok: true,
        result: {
          id: 'config-file',
          name,
          status: 'fail',
          detail: `${store.path}: ${warnings.map((w) => w.replace(/^warning: /, '').replace(/; run .*$/, '')).join('; ')}`,
          fix:
            warnings
              .map((w) => /run (.*)$/.exec(w)?.[1])
              .filter(Boolean)
              .join(' && ') + ' (the file holds API keys)',
          kind: 'auth',
        },
      };
    }
    return { store, ok: true, result: { id: 'config-file', name, status: 'ok', detail: `${store.path} (mode 0600)` } };
  } catch (err) {
    return {
      store,
      ok: false,
      result: {
        id: 'config-file',
        name,
        status: 'fail',
        detail: message(err),
        fix: err instanceof ShipbookError && err.suggestion ? err.suggestion : `Fix or move away ${store.path}`,
        kind: 'auth',
      },
    };
  }
}

/** Resolves the profile and says where each setting comes from. */
function checkProfile(deps: Pick<DoctorDeps, 'env' | 'profileFlag'>, store: ConfigStore): { result: CheckResult; profile?: ResolvedProfile } {
  const name = 'profile';
  try {
    const data = store.read().data;
    const profile = resolveProfile({ profileFlag: deps.profileFlag, env: deps.env, config: data });
    const parts = [
      `${profile.name} (${profile.sources.profile ?? 'built-in'})`,
      `base URL ${profile.baseUrl ?? 'built-in sandbox'} (${profile.sources.baseUrl ?? 'default'})`,
      `key ${profile.apiKey ? maskSecret(profile.apiKey) : !profile.baseUrl ? 'sandbox key' : 'none'} (${profile.sources.apiKey ?? 'default'})`,
      `payment ${profile.defaultPayment.type}`,
    ];
    return { profile, result: { id: 'profile', name, status: 'ok', detail: parts.join('; ') } };
  } catch (err) {
    return {
      result: {
        id: 'profile',
        name,
        status: 'fail',
        detail: message(err),
        fix: err instanceof ShipbookError && err.suggestion ? err.suggestion : ['Check --profile, SHIPBOOK_PROFILE and "', cmd('config', 'list'), '".'],
        kind: err instanceof ShipbookError ? err.kind : 'auth',
      },
    };
  }
}

/**
 * The key check of a profile with a base URL and no key: failed, as create order, accept order,
 * create shipment and combine shipments would be refused before sending (exit 4).
 */
function missingKey(profile: ResolvedProfile): Partial<CheckResult> {
  return {
    status: 'fail',
    detail: 'no API key: create order, accept order, create shipment and combine shipments require authorization (quotes work without)',
    fix: ['Log in: ', loginCommand(profile), ', or set SHIPBOOK_API_KEY.'],
    kind: 'auth',
  };
}

/**
 * What to do about a refused key, following where the key came from: a key from
 * SHIPBOOK_API_KEY is fixed there (logging in saves a key the variable would still override); a
 * saved key by logging in again to the profile, named only when it is not the built-in one.
 */
function refusedKeyFix(profile: ResolvedProfile): string | Hint {
  const from = profile.sources.apiKey;
  if (from !== undefined && from.startsWith('env ')) {
    const variable = from.slice('env '.length);
    return `The key comes from ${variable}: set ${variable} to a key this service accepts, or unset it to use the profile's saved key.`;
  }
  return ['Set SHIPBOOK_API_KEY to a key this service accepts, or log in again: ', loginCommand(profile)];
}

/** `shipbook auth login` for `profile`, naming it unless it is the built-in one. */
function loginCommand(profile: ResolvedProfile): NextCommand {
  return profile.name === BUILTIN_PROFILE ? cmd('auth', 'login') : { argv: ['auth', 'login'], profile: profile.name };
}

/** Id used to probe the service: fetch-order-data of an order that cannot exist (a read; changes nothing). */
const PROBE_ORDER_ID = 'SHIPBOOK-DOCTOR-PROBE';

/**
 * Asks the service for an order that does not exist (fetch-order-data, a safe read): any answer
 * means the base URL answers; 401/403 means the key is refused; a 404 or another error envelope
 * means the key was accepted.
 */
export async function checkService(profile: ResolvedProfile, deps: Pick<DoctorDeps, 'api' | 'timeoutMs'>): Promise<CheckResult[]> {
  const base: CheckResult = { id: 'base-url', name: 'service answers', status: 'ok', detail: '' };
  const key: CheckResult = { id: 'api-key', name: 'key accepted', status: 'ok', detail: '' };
  const where = profile.baseUrl ?? 'the built-in sandbox';
  let api: ApiClient;
  try {
    api = await deps.api();
  } catch (err) {
    return [
      {
        ...base,
        status: 'fail',
        detail: message(err),
        fix: err instanceof ShipbookError && err.suggestion ? err.suggestion : ['Check the base URL: ', cmd('config', 'get', 'base-url')],
        kind: err instanceof ShipbookError ? err.kind : 'network',
      },
      { ...key, status: 'skip', detail: 'not checked: no client' },
    ];
  }
  const timeoutMs = deps.timeoutMs ?? 5000;
  let timer: NodeJS.Timeout | undefined;
  const started = Date.now();
  try {
    await Promise.race([
      fetchOrder(api, PROBE_ORDER_ID, profile.paths),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
        timer.unref();
      }),
    ]);
    base.detail = `${where} answered in ${Date.now() - started} ms`;
    key.detail = 'accepted';
    if (profile.baseUrl && !profile.apiKey) Object.assign(key, missingKey(profile));
  } catch (err) {
    if (err instanceof ApiError) {
      // The probe asks for an order that does not exist: a 404 (or a refused key, said under
      // api-key) is the service answering as it should, not a fault of the base URL.
      const expected = err.status === 404 || err.kind === 'auth';
      base.detail = expected ? `${where} answered in ${Date.now() - started} ms` : `${where} answered HTTP ${err.status} in ${Date.now() - started} ms`;
      if (err.kind === 'auth') {
        Object.assign(key, {
          status: 'fail',
          detail: `refused (HTTP ${err.status}${err.message ? `: ${err.message}` : ''})`,
          fix: refusedKeyFix(profile),
          kind: 'auth',
        });
      } else if (profile.baseUrl && !profile.apiKey) {
        Object.assign(key, missingKey(profile));
      } else {
        key.detail = `accepted (probe answered ${err.status}, as expected for an unknown order)`;
      }
    } else {
      Object.assign(base, {
        status: 'fail',
        detail: `${where}: ${message(err)}`,
        fix: !profile.baseUrl
          ? 'Run again with --debug and report it: the built-in sandbox did not answer.'
          : [`Check the base URL (${profile.sources.baseUrl ?? 'config'}) and your network: `, cmd('config', 'get', 'base-url')],
        kind: 'network',
      });
      Object.assign(key, { status: 'skip', detail: 'not checked: the service did not answer' });
    }
  } finally {
    if (timer) clearTimeout(timer);
  }
  return [base, key];
}

/** Tries to bind a TCP listener where the callback receiver would listen, then closes it at once. */
export async function checkCallbackBind(listen: { host: string; port: number } = { host: '127.0.0.1', port: 0 }): Promise<CheckResult> {
  const name = 'callback receiver';
  const label = `${listen.host.includes(':') ? `[${listen.host}]` : listen.host}:${listen.port === 0 ? 'any port' : listen.port}`;
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (err: NodeJS.ErrnoException) => {
      const inUse = err.code === 'EADDRINUSE';
      resolve({
        id: 'callback',
        name,
        status: 'fail',
        detail: `cannot listen on ${label}: ${inUse ? 'the port is in use' : err.code === 'EACCES' ? 'permission denied' : err.code === 'EADDRNOTAVAIL' ? 'no such address on this machine' : err.message}`,
        fix: inUse
          ? 'Choose another port with --listen <host:port>, or stop what uses it.'
          : 'Choose an address of this machine with --listen <host:port>, or wait by polling: --poll 5s.',
        kind: 'input',
      });
    });
    server.listen(listen.port, listen.host, () => {
      const addr = server.address();
      const bound = typeof addr === 'object' && addr ? `${addr.family === 'IPv6' ? `[${addr.address}]` : addr.address}:${addr.port}` : label;
      server.close(() =>
        resolve({ id: 'callback', name, status: 'ok', detail: `can listen on ${listen.port === 0 ? `${listen.host}, any port (tried ${bound})` : bound}` }),
      );
    });
  });
}

/** Checks the built-in sandbox's state directory: absent (fine), or a directory shipbook can read and write, private to the user. */
export function checkSandboxState(env: Readonly<Record<string, string | undefined>>, platform: NodeJS.Platform = process.platform): CheckResult {
  const dir = stateDirectory(env, platform);
  const name = 'sandbox state';
  let st;
  try {
    st = statSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { id: 'sandbox-state', name, status: 'ok', detail: `${dir} (not created yet)` };
    return {
      id: 'sandbox-state',
      name,
      status: 'fail',
      detail: `${dir}: ${message(err)}`,
      fix: `Check the directory, or choose another with SHIPBOOK_STATE_DIR`,
      kind: 'auth',
    };
  }
  if (!st.isDirectory()) {
    return {
      id: 'sandbox-state',
      name,
      status: 'fail',
      detail: `${dir} is not a directory`,
      fix: `Move it away, or choose another with SHIPBOOK_STATE_DIR`,
      kind: 'auth',
    };
  }
  try {
    accessSync(dir, constants.R_OK | constants.W_OK | constants.X_OK);
  } catch {
    return {
      id: 'sandbox-state',
      name,
      status: 'fail',
      detail: `${dir} is not writable by you`,
      fix: `chmod u+rwx ${dir}, or choose another with SHIPBOOK_STATE_DIR`,
      kind: 'auth',
    };
  }
  if (platform !== 'win32' && (st.mode & 0o077) !== 0) {
    return {
      id: 'sandbox-state',
      name,
      status: 'warn',
      detail: `${dir} is accessible by others (mode ${(st.mode & 0o777).toString(8).padStart(4, '0')})`,
      fix: `chmod 700 ${dir}`,
    };
  }
  return { id: 'sandbox-state', name, status: 'ok', detail: `${dir}` };
}

/** Runs every check in order; later checks are skipped when what they need failed. */
export async function runChecks(deps: DoctorDeps): Promise<CheckResult[]> {
  const results: CheckResult[] = [checkNode(deps.nodeVersion ?? process.versions.node, deps.nodeVersion === undefined && isSingleExecutable())];
  const config = checkConfigFile(deps);
  results.push(config.result);
  const { result, profile } = config.ok
    ? checkProfile(deps, config.store)
    : { result: { id: 'profile', name: 'profile', status: 'skip' as const, detail: 'not checked: the configuration file is unusable' }, profile: undefined };
  results.push(result);
  if (profile) {
    results.push(...(await checkService(profile, deps)));
    results.push(await checkLedger(profile));
  } else {
    results.push(
      { id: 'base-url', name: 'service answers', status: 'skip', detail: 'not checked: no profile' },
      { id: 'api-key', name: 'key accepted', status: 'skip', detail: 'not checked: no profile' },
    );
  }
  results.push(await checkCallbackBind(deps.listen));
  results.push(checkSandboxState(deps.env, deps.platform));
  return results;
}

/** The outcome of a doctor run: `ok` when no check failed, else the kind of the first failure (`input` when it has none). */
export function doctorOutcome(results: CheckResult[]): ErrorKind {
  const failed = results.find((r) => r.status === 'fail');
  return failed ? (failed.kind ?? 'input') : 'ok';
}
