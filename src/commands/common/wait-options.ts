/**
 * The flags that say how to wait for the booking result (`book`, and `order accept --wait`):
 * by callback (the default: a receiver on this machine), or by polling with `--poll <interval>`.
 * See `src/booking/result/route.ts` for the routes.
 */
import { Option, type Command } from 'commander';
import { DEFAULT_POLL_MS, type ListenAddress, type WaitSettings, DEFAULT_WAIT_TIMEOUT_MS } from '../../booking/index.js';
import { UsageError } from '../../errors.js';
import { checkHttpUrl, parseDuration, portNumber } from '../../input/flags.js';
import type { IOStreams } from '../../io.js';
import { addOlderSpelling } from './older-spelling.js';

/** Raw wait flags as commander parses them. */
export interface WaitFlags {
  /** `--poll <interval>`: wait by polling fetch-order-data. */
  poll?: string;
  /** `--wait-timeout <duration>`, default 10m. */
  waitTimeout?: string;
  /** `--timeout <duration>`: the older spelling of `--wait-timeout`. */
  timeout?: string;
  /** `--public-url <url>`: the public URL that reaches the receiver (tunnel, ingress). */
  publicUrl?: string;
  /** `--callback-url <url>`: the older spelling of `--public-url`. */
  callbackUrl?: string;
  /** `--listen <host:port>`: where the receiver binds. */
  listen?: string;
}

/**
 * Adds `--poll`, `--public-url`, `--listen` and `--wait-timeout`, and their older spellings
 * `--callback-url` and `--timeout` (hidden from the help; a warning on `io`'s stderr when used).
 */
export function addWaitOptions(cmd: Command, io: Pick<IOStreams, 'err' | 'color'>): Command {
  cmd
    .option('--poll <interval>', 'wait by polling fetch-order-data every <interval> (e.g. 5s) instead of by callback')
    .option(
      '--public-url <url>',
      "public URL through which the service reaches shipbook's own receiver on this machine (tunnel, ingress); shipbook appends a secret /<token>",
    )
    .option('--listen <host:port>', 'where the callback receiver listens (default 127.0.0.1 and a random port; port 8787 with --public-url)')
    .option(
      '--wait-timeout <duration>',
      'how long to wait for the result, e.g. 30s or 10m (default: 10m); not --request-timeout, the deadline of each request',
    );
  addOlderSpelling(cmd, io, new Option('--callback-url <url>', 'the same as --public-url'), '--public-url');
  return addOlderSpelling(cmd, io, new Option('--timeout <duration>', 'the same as --wait-timeout'), '--wait-timeout');
}

/** True when any wait flag was given (for commands where waiting is optional). */
export function hasWaitFlags(flags: WaitFlags): boolean {
  return (
    flags.poll !== undefined ||
    flags.timeout !== undefined ||
    flags.waitTimeout !== undefined ||
    flags.publicUrl !== undefined ||
    flags.callbackUrl !== undefined ||
    flags.listen !== undefined
  );
}

/**
 * Parses `--listen`: `host:port`, `[ipv6]:port`, `:port` or `port` (host 127.0.0.1); port 0 = any free port.
 * @throws UsageError (exit 2) naming the flag.
 */
export function parseListen(value: string): ListenAddress {
  const v = value.trim();
  const m = /^(?:\[([0-9A-Fa-f:.]+)\]|([^:\s[\]]*)):(\d+)$/.exec(v) ?? /^()()(\d+)$/.exec(v);
  const port = m ? portNumber(m[3]!) : undefined;
  if (!m || port === undefined) {
    throw new UsageError(`--listen "${value}" is not host:port`, { suggestion: 'For example --listen 127.0.0.1:8787, --listen 0.0.0.0:8787 or --listen 8787' });
  }
  const host = m[1] || m[2] || '127.0.0.1';
  return { host, port };
}

/**
 * Checks `--public-url` (or its older spelling, named by `flag`): an absolute http(s) URL without user name or password.
 * @throws UsageError (exit 2).
 */
function parsePublicUrl(flag: string, value: string): string {
  const checked = checkHttpUrl(value);
  if ('url' in checked) return checked.url.toString();
  if (checked.problem === 'not_a_url') {
    throw new UsageError(`${flag} "${value}" is not a URL`, { suggestion: 'For example --public-url https://hooks.example.com/shipbook' });
  }
  if (checked.problem === 'not_http') throw new UsageError(`${flag} must be an http(s) URL (got ${checked.protocol}//)`);
  throw new UsageError(`${flag} must not contain a user name or password`);
}

/**
 * Turns the flags into settings: `--poll` selects polling; otherwise the callback route.
 * @throws UsageError (exit 2) for a malformed value, `--poll` together with `--public-url`/`--listen`, or a
 *   wildcard `--listen` (0.0.0.0, ::) without `--public-url` (no URL to give the service).
 */
export function waitSettings(flags: WaitFlags): WaitSettings {
  if (flags.waitTimeout !== undefined && flags.timeout !== undefined) throw new UsageError('give --wait-timeout once (--timeout is its older spelling)');
  const [flag, given] = flags.waitTimeout !== undefined ? ['--wait-timeout', flags.waitTimeout] : ['--timeout', flags.timeout];
  const timeoutMs = given === undefined ? DEFAULT_WAIT_TIMEOUT_MS : parseDuration(flag, given);
  if (flags.publicUrl !== undefined && flags.callbackUrl !== undefined) throw new UsageError('give --public-url once (--callback-url is its older spelling)');
  const [urlFlag, publicUrl] = flags.publicUrl !== undefined ? ['--public-url', flags.publicUrl] : ['--callback-url', flags.callbackUrl];
  if (flags.poll !== undefined) {
    const clash = publicUrl !== undefined ? urlFlag : flags.listen !== undefined ? '--listen' : undefined;
    if (clash) {
      throw new UsageError(`--poll and ${clash} choose different ways of waiting: --poll asks fetch-order-data, ${clash} is for the callback receiver`, {
        suggestion: 'Give one of them.',
      });
    }
    return { route: 'poll', pollMs: parseDuration('--poll', flags.poll), timeoutMs };
  }
  const settings: WaitSettings = { route: 'callback', pollMs: DEFAULT_POLL_MS, timeoutMs };
  if (publicUrl !== undefined) settings.callbackUrl = parsePublicUrl(urlFlag, publicUrl);
  if (flags.listen !== undefined) settings.listen = parseListen(flags.listen);
  const host = settings.listen?.host;
  if (settings.callbackUrl === undefined && (host === '0.0.0.0' || host === '::')) {
    throw new UsageError(`--listen ${flags.listen} binds every interface, so shipbook cannot tell the service which URL to call`, {
      suggestion: 'Give the public URL with --public-url https://…, or listen on one address.',
    });
  }
  return settings;
}

/** A batch's poll interval when `--poll` is not given (polling where the callback route does not work; the fallback poll). */
const BATCH_POLL_MS = 1_000;

/**
 * The wait settings of a batch: as {@link waitSettings}, by callback unless `--poll` is given,
 * with a poll interval of 1 s where `--poll` is not given (for where the callback route does not
 * work, and the fallback poll of an order whose callback does not come).
 * @throws UsageError (exit 2) as {@link waitSettings}
 */
export function batchWait(flags: WaitFlags): WaitSettings {
  const settings = waitSettings(flags);
  return settings.route === 'poll' ? settings : { ...settings, pollMs: BATCH_POLL_MS };
}
