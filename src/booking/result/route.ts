/**
 * How a command learns the booking result after acceptance (interface document, "What the
 * service does", step 4, and "Events"): by a callback POSTed to a URL given at acceptance
 * (the default route, ./callback.ts), or by polling fetch-order-data (`--poll <interval>`,
 * ./poll.ts). A {@link ResultWaiter} is prepared BEFORE acceptance (so its callback URL, if any,
 * can be sent as `request.callback`) and then waits for one order.
 *
 * Callback route: a receiver (src/booking/receiver.ts `startCallbackReceiver`) listens on this machine
 * (127.0.0.1, a random port, unless `--listen`) at an unguessable path; the URL sent is the
 * receiver's own, or the public `--public-url` with `/<token>` appended (tunnel, ingress).
 *
 * A batch waits the same way, with ONE receiver for the whole run ({@link prepareRunWaiter},
 * ./run-callbacks.ts), chosen by the same rules.
 *
 * Polling is chosen instead of a receiver when `--poll` is given, when the user sends their own
 * callback URL (`--callback`, or `callback` in the payment file), or when the service is not on
 * this machine and no public `--public-url` or non-loopback `--listen` is given (it could not
 * reach a receiver on 127.0.0.1).
 */
import { isLoopbackHost } from '../../api/base-url.js';
import { UsageError } from '../../errors.js';
import { callbackWaiter, type ListenAddress } from './callback.js';
import { pollingWaiter } from './poll.js';
import { runCallbackWaiter, type RunWaiter } from './run-callbacks.js';
import { withDefaults, type Deps, type ResultWaiter, type WaiterDeps } from './state.js';

export type { ListenAddress } from './callback.js';
export type { ResultWaiter } from './state.js';
export type { RunWaiter } from './run-callbacks.js';

/** How to wait, from the command's flags. Durations in milliseconds. */
export interface WaitSettings {
  /** `callback` (default): a receiver on this machine; `poll`: fetch-order-data every `pollMs` (`--poll`). */
  route: 'callback' | 'poll';
  /** Poll interval when polling (from `--poll`, else {@link DEFAULT_POLL_MS}). */
  pollMs: number;
  /** Give up after this long (exit 7, the order stays accepted). */
  timeoutMs: number;
  /** `--public-url`: the public URL through which the service reaches the receiver; `/<token>` is appended. */
  callbackUrl?: string;
  /** `--listen`: where the receiver binds. Default 127.0.0.1 and a random port (8787 with `--public-url`). */
  listen?: ListenAddress;
  /** Fallback poll interval while waiting by callback. Default 30 s (`FALLBACK_POLL_MS` of ./callback.ts). */
  fallbackPollMs?: number;
}

/** Poll interval when polling was not asked for with `--poll` but is the only route. */
export const DEFAULT_POLL_MS = 2_000;
/** Port the receiver listens on with `--public-url` and no `--listen` (what a tunnel forwards to). */
const TUNNEL_DEFAULT_PORT = 8787;

/** What else shapes the choice of route. */
interface PrepareOptions {
  /** The accept request already carries the user's own callback URL (`--callback` or the payment file). */
  ownCallback?: boolean;
}

/** True for addresses that mean "every interface". */
function isWildcard(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '';
}

/**
 * Prepares the waiter the settings ask for (see the module documentation for the choice of route).
 * @throws UsageError (exit 2) for `--public-url`/`--listen` together with the user's own callback,
 *   a wildcard `--listen` without `--public-url`, or an address the receiver cannot bind
 */
export async function prepareResultWaiter(waiterDeps: WaiterDeps, settings: WaitSettings, options: PrepareOptions = {}): Promise<ResultWaiter> {
  const deps = withDefaults(waiterDeps);
  const route = chooseRoute(deps, settings, options, DEFAULT_POLL_MS);
  if (route.kind === 'poll') return pollingWaiter(deps, route.pollMs, settings.timeoutMs);
  return callbackWaiter(deps, settings, route.listen);
}

/**
 * How long a batch waits for an order's callback before it reads the order with a poll: ten poll
 * intervals (10 s at the batch's default of 1 s), then as often again, and once at the deadline.
 */
const RUN_FALLBACK_INTERVALS = 10;

/**
 * Prepares how a batch waits: ONE receiver for every order of the run (./run-callbacks.ts) where
 * the callback route works, chosen as for a single order (see the module documentation);
 * undefined where it does not (`--poll`, the user's own callback URL, a service that cannot reach
 * this machine): the batch polls every `settings.pollMs`. An order's callback that has not come
 * {@link RUN_FALLBACK_INTERVALS} poll intervals after its wait began is read with a poll.
 * @throws UsageError (exit 2) as {@link prepareResultWaiter}
 */
export async function prepareRunWaiter(waiterDeps: WaiterDeps, settings: WaitSettings, options: PrepareOptions = {}): Promise<RunWaiter | undefined> {
  const deps = withDefaults(waiterDeps);
  const route = chooseRoute(deps, settings, options, settings.pollMs);
  if (route.kind === 'poll') return undefined;
  return runCallbackWaiter(deps, { ...settings, fallbackPollMs: settings.fallbackPollMs ?? RUN_FALLBACK_INTERVALS * settings.pollMs }, route.listen);
}

/**
 * The route the settings ask for, where it works (see the module documentation), telling why when
 * it falls back to polling (every `pollMs`, or `--poll`'s interval).
 * @throws UsageError (exit 2) as {@link prepareResultWaiter}
 */
function chooseRoute(
  deps: Deps,
  settings: WaitSettings,
  options: PrepareOptions,
  pollMs: number,
): { kind: 'poll'; pollMs: number } | { kind: 'callback'; listen: ListenAddress } {
  const { api } = deps;
  if (settings.route === 'poll') return { kind: 'poll', pollMs: settings.pollMs };
  const tunnel = settings.callbackUrl !== undefined || settings.listen !== undefined;
  if (options.ownCallback) {
    if (tunnel) {
      throw new UsageError(
        "--public-url and --listen are for shipbook's own receiver; they cannot go with your own callback URL (--callback, or callback in the payment file)",
        {
          suggestion: 'Drop --callback to let shipbook receive the result, or drop --public-url/--listen to wait by polling.',
        },
      );
    }
    deps.onEvent({ type: 'wait_notice', notice: { kind: 'own_callback', pollMs } });
    return { kind: 'poll', pollMs: settings.pollMs };
  }
  const listen = settings.listen ?? { host: '127.0.0.1', port: settings.callbackUrl !== undefined ? TUNNEL_DEFAULT_PORT : 0 };
  if (settings.callbackUrl === undefined && isWildcard(listen.host)) {
    throw new UsageError(`--listen ${listen.host}:${listen.port} binds every interface, so shipbook cannot tell the service which URL to call`, {
      suggestion: 'Give the public URL with --public-url https://…, or listen on one address.',
    });
  }
  const serviceHost = new URL(api.baseUrl).hostname;
  if (settings.callbackUrl === undefined && isLoopbackHost(listen.host) && !isLoopbackHost(serviceHost)) {
    deps.onEvent({ type: 'wait_notice', notice: { kind: 'loopback_unreachable', serviceOrigin: new URL(api.baseUrl).origin, pollMs } });
    return { kind: 'poll', pollMs };
  }
  if (!isLoopbackHost(listen.host)) deps.onEvent({ type: 'wait_notice', notice: { kind: 'receiver_on_network', host: listen.host } });
  return { kind: 'callback', listen };
}
