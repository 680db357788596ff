/**
 * What both ways of waiting for a booking result share (src/booking/result/route.ts chooses one):
 * the waiter's dependencies, the {@link ResultWaiter} contract, and the running wait with its
 * events. A wait ends by its result, its error, or its signal: once the run's AbortSignal aborts
 * (Ctrl-C, SIGTERM), every sleep and poll of the wait rejects and the wait throws `interrupted`.
 */
import { PLAIN_HINTS, type HintStyle } from '../../shell.js';
import type { OrderPaths } from '../../api/orders.js';
import type { ApiClient } from '../../api/client.js';
import { linkSignals } from '../../api/http.js';
import { EXIT, ShipbookError } from '../../errors.js';
import { stillRunningNote } from '../../next-steps.js';
import type { OrderResponse } from '../../schema/order.js';
import type { BookingEventHandler } from '../progress.js';
import { realSleep, type Sleep } from '../../sleep.js';

/**
 * What a waiter uses, and nothing more: the client, the fetch-order-data paths, a clock, a sleep,
 * and where its progress goes (`waiting`, `polled`, `wait_ended`, `callback_ignored`,
 * `wait_notice`, `interrupted` events; src/output/progress.ts draws them as a spinner and lines).
 */
export interface WaiterDeps {
  api: ApiClient;
  /** The profile's fetch-order-data paths (`ResolvedProfile.paths`). */
  paths?: OrderPaths;
  onEvent: BookingEventHandler;
  /** Milliseconds since the epoch; default `Date.now`. */
  now?: () => number;
  /** Waits `ms` milliseconds (rejects when `signal` aborts); default a real timer. */
  sleep?: Sleep;
  /** A `--debug` line (redacted by the caller's writer); default: dropped. */
  debugLog?: (line: string) => void;
  /** How the command in a wait's error is written: the run's hint style; default a POSIX shell, no `--profile`. */
  hints?: HintStyle;
}

/** The deps with their defaults filled in. */
export interface Deps extends Required<Omit<WaiterDeps, 'paths'>> {
  paths?: OrderPaths;
}

/** {@link WaiterDeps} with the defaults of the clock, the sleep and the debug log filled in. */
export function withDefaults(deps: WaiterDeps): Deps {
  return { now: Date.now, sleep: realSleep, debugLog: () => {}, hints: PLAIN_HINTS, ...deps };
}

/** A prepared way of waiting for one accepted order's result. */
export interface ResultWaiter {
  /** How it waits. */
  route: 'callback' | 'poll';
  /** The URL to send as `request.callback` in the accept request, when waiting by callback. */
  callbackUrl?: string;
  /**
   * Waits for the order to be processed and returns it, with every tracking number.
   * @throws BookingFailedError (6) for an order that ended failed/cancelled (an error callback the service confirms)
   * @throws BookingErrorReportedError (12) for an error callback while the service shows the order in another state
   * @throws WaitTimeoutError (7) when the timeout passes first
   * @throws ApiError / NetworkError when polling is the route and the service refuses or cannot be reached
   * @throws ShipbookError `interrupted` (exit 130) once `signal` aborts (Ctrl-C, SIGTERM), or the
   *   waiter is closed: the order is accepted and its booking goes on at the service
   */
  wait(orderId: string, signal?: AbortSignal): Promise<OrderResponse>;
  /**
   * Releases what the waiter holds (a receiver, timers). Safe to call twice. A wait still running
   * is ended (it throws `interrupted`) and reported with an `interrupted` event: the order is
   * accepted and still booking.
   */
  close(): Promise<void>;
}

/** The wait was interrupted (Ctrl-C, SIGTERM): the order is accepted and its booking goes on (exit 130). */
export function waitInterrupted(orderId: string, hints: HintStyle): ShipbookError {
  return new ShipbookError('interrupted', `stopped waiting: ${stillRunningNote(orderId, hints)}`, 'interrupted');
}

/**
 * The running wait of a waiter and its events. Each wait runs under one signal: the caller's,
 * linked with the waiter's own, which {@link close} aborts.
 */
export class WaitState {
  waitingFor: string | undefined;
  readonly #closing = new AbortController();

  constructor(private readonly deps: Deps) {}

  /**
   * Starts the wait for `orderId` and reports it (`waiting`); returns the signal the wait runs
   * under (aborted by `signal` or by {@link close}) and the function that ends the wait.
   */
  begin(
    orderId: string,
    event: { route: 'callback' | 'poll'; timeoutMs: number; pollMs?: number },
    signal: AbortSignal | undefined,
  ): { signal: AbortSignal; end: () => void } {
    const linked = linkSignals(signal === undefined ? [this.#closing.signal] : [signal, this.#closing.signal]);
    this.waitingFor = orderId;
    this.deps.onEvent({ type: 'waiting', orderId, ...event });
    return {
      signal: linked.signal,
      end: () => {
        linked.unlink();
        this.end();
      },
    };
  }

  /** Reports the end of the running wait (`wait_ended`), once. */
  end(): void {
    const orderId = this.waitingFor;
    this.waitingFor = undefined;
    if (orderId !== undefined) this.deps.onEvent({ type: 'wait_ended', orderId });
  }

  /** Ends a running wait (it throws `interrupted`) and reports `interrupted` for it. */
  close(): void {
    const interrupted = this.waitingFor;
    this.end();
    if (interrupted !== undefined) this.deps.onEvent({ type: 'interrupted', orderId: interrupted });
    this.#closing.abort('closed');
  }
}
