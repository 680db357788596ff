import { randomInt } from 'node:crypto';
import type { SandboxFaults } from './faults.js';
/** Options of the sandbox (see `startSandbox` in `index.ts`) and their defaults. */

/** How the sandbox is started. Every member is optional; defaults in {@link resolveOptions}. */
export interface SandboxOptions {
  /** Interface to listen on. Default `127.0.0.1`. */
  host?: string;
  /** TCP port. Default 0: a random free port. */
  port?: number;
  /**
   * When set, operations requiring authorisation demand exactly `<authPrefix><apiKey>`. When unset,
   * any non-empty token is accepted, but a missing header on create/accept still gets 401.
   */
  apiKey?: string;
  /** Name of the credentials header (docs/assumptions.md "authorization scheme"). Default `authorization`. */
  authHeader?: string;
  /** Prefix of the credentials header value, before the key. Default `Bearer `. */
  authPrefix?: string;
  /** Milliseconds between accept and the asynchronous booking completing. Default 1500. */
  processingDelayMs?: number;
  /** Sandbox account option "free pickup" (combine without `main_shipment`). Default false. */
  freePickup?: boolean;
  /** Retries of a failed callback after the first attempt. Default 4. */
  callbackRetries?: number;
  /** First backoff before a callback retry in milliseconds, doubling each time. Default 500. */
  callbackBackoffMs?: number;
  /** Timeout of one callback attempt (connect and answer) in milliseconds. Default 5000. */
  callbackTimeoutMs?: number;
  /** The clock (card expiry, timestamps). Default `() => new Date()`. */
  now?: () => Date;
  /**
   * One line per request handled, e.g. `POST /orders/ 200 (12 ms)`, and one per callback attempt.
   * Never carries credentials, card numbers or callback URLs.
   */
  log?: (line: string) => void;
  /**
   * A directory to keep orders and shipments in, so they outlive the process (the built-in sandbox,
   * `shipbook sandbox --state <dir>`). Default: in memory. See `store/disk.ts`.
   */
  stateDir?: string;
  /**
   * Told once per transaction that finds the on-disk state's lock held by another live process (a
   * process paused or slow) and waits for it: the holder in words (pid, host, since, command) and
   * how long it waits at most, ms. Default: a line to `log`.
   */
  onStateWait?: (holder: string, waitMs: number) => void;
  /** Faults injected into the service's operations, every route but `/_sandbox/` (see `faults.ts`); none by default. */
  faults?: SandboxFaults;
  /**
   * Seed of the id generator: the same seed gives the same sequence of ids. Default: random, so
   * two runs of the built-in sandbox never show the same order id; tests pass a seed.
   */
  seed?: number;
  /**
   * Announce the sandbox in every answer (header `shipbook-sandbox: 1`), so the client marks its
   * output as sandbox output whatever the profile says. `shipbook sandbox` and the built-in sandbox
   * turn it on; default false, so a sandbox started in-process as a stand-in for the real service
   * (the test suite's) answers as the service does.
   */
  announce?: boolean;
  /**
   * How long an idle keep-alive connection stays open, ms (Node's default: 5000). A client paused
   * for longer (SIGSTOP, a laptop asleep) may send its next request on a connection closed
   * meanwhile and lose its answer; tests that pause clients for longer give more.
   */
  keepAliveMs?: number;
}

/** Options with every default filled in. */
export interface ResolvedSandboxOptions {
  host: string;
  port: number;
  apiKey: string | undefined;
  authHeader: string;
  authPrefix: string;
  processingDelayMs: number;
  freePickup: boolean;
  callbackRetries: number;
  callbackBackoffMs: number;
  callbackTimeoutMs: number;
  now: () => Date;
  log: (line: string) => void;
  /** True when a `log` was given: each request is then timed and logged (without one, nothing per request is spent on it). */
  logRequests: boolean;
  seed: number;
  stateDir: string | undefined;
  onStateWait: (holder: string, waitMs: number) => void;
  faults: SandboxFaults;
  announce: boolean;
  keepAliveMs: number;
}

/** Fills in defaults; the header name is lower-cased (Node's header keys are). */
export function resolveOptions(options: SandboxOptions = {}): ResolvedSandboxOptions {
  const nonNegative = (v: number | undefined, fallback: number) => (v !== undefined && Number.isFinite(v) && v >= 0 ? v : fallback);
  return {
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    apiKey: options.apiKey === '' ? undefined : options.apiKey,
    authHeader: (options.authHeader ?? 'authorization').toLowerCase(),
    authPrefix: options.authPrefix ?? 'Bearer ',
    processingDelayMs: nonNegative(options.processingDelayMs, 1500),
    freePickup: options.freePickup ?? false,
    callbackRetries: Math.floor(nonNegative(options.callbackRetries, 4)),
    callbackBackoffMs: nonNegative(options.callbackBackoffMs, 500),
    callbackTimeoutMs: nonNegative(options.callbackTimeoutMs, 5000),
    now: options.now ?? (() => new Date()),
    log: options.log ?? (() => {}),
    logRequests: options.log !== undefined,
    seed: options.seed ?? randomInt(1, 2 ** 31),
    stateDir: options.stateDir,
    onStateWait:
      options.onStateWait ??
      ((holder, waitMs) => options.log?.(`state ${options.stateDir ?? ''} is held by ${holder}: waiting for it (up to ${Math.round(waitMs / 1000)} s)`)),
    faults: options.faults ?? {},
    announce: options.announce ?? false,
    keepAliveMs: nonNegative(options.keepAliveMs, 5_000),
  };
}
