/**
 * The pace of every request of a run, decided in one place (the API client sends each request
 * through it): how many may be in flight, how fast they may leave, and a pause that the service
 * asks for. One pacer is shared by a client and every client made from it (`withOptions`).
 *
 * - **Pause**: an answer 429 or 503 with `Retry-After` (seconds or an HTTP date, read by
 *   `http.ts`) holds every request that has not left yet until then, not only the one refused
 *   (a 429 without the header pauses {@link DEFAULT_PAUSE_MS}).
 * - **Requests in flight** adapt as TCP's window does (AIMD): they start at the ceiling (the
 *   client's `connections`, the size of its pool: for a batch, one per order slot), halve on a 429 (once per round: answers to requests that left before the
 *   cut do not cut again), and grows by one after a window of good answers (as many as the
 *   current limit). It never goes below 1 nor above the ceiling.
 * - **Rate**: `--rate <n/s>` (or the profile's `rate`) spaces requests that many per second from
 *   the start. A 429 also teaches the pacer the service's pace: the requests it accepted that left
 *   in the second before the refused one (the limit, as near as the client can see it; counted on
 *   as their answers come), less a twentieth. The learned rate
 *   then grows with quiet time in two speeds: slowly while it is below the pace that was refused
 *   (each 429 costs every request a pause, so probing the known limit is kept rare), and faster
 *   once it is past that pace without a refusal (the service's limit was raised: follow it).
 *
 * It draws nothing: who wants to show a pause (the batch's progress line) subscribes to its
 * {@link PaceEvent}s. The clock and the timers are injectable for tests.
 */
import { onAbort } from '../sleep.js';

/** What the pacer tells its subscribers. Times in ms since the epoch, durations in ms. */
export type PaceEvent =
  /** The service asked to wait (HTTP `status`): no request leaves until `until`. */
  | { kind: 'paused'; status: number; until: number; waitMs: number }
  /** The pause is over: requests leave again. */
  | { kind: 'resumed' };

/** How an answer went, as the pacer counts it. */
type PaceOutcome =
  /** A 429 or 503 answer, with its `Retry-After` in ms when given. */
  | { kind: 'limited'; status: number; retryAfterMs?: number }
  /** Any other answer, or a failure that was no answer (it neither slows nor speeds the pace). */
  | { kind: 'ok' }
  | { kind: 'other' };

/** A request admitted by the pacer: tell it how its answer went, exactly once. */
export interface PaceTicket {
  done(outcome: PaceOutcome): void;
}

/** Settings of a {@link Pacer}. */
interface PacerOptions {
  /** Most requests in flight (the AIMD ceiling), ≥ 1. Default {@link DEFAULT_CEILING}. */
  ceiling?: number;
  /** Requests per second at most, from the start (`--rate`); default: no cap until the service asks. */
  ratePerSecond?: number;
  /** Milliseconds since the epoch; default `Date.now`. */
  now?: () => number;
  /** Calls `fn` after `ms` (default `setTimeout`); returns a function that cancels it. */
  timer?: (fn: () => void, ms: number) => () => void;
}

/** Ceiling of requests in flight when none is given (a single command sends one at a time anyway). */
const DEFAULT_CEILING = 16;
/** Pause after a 429 that gives no `Retry-After`, ms. */
const DEFAULT_PAUSE_MS = 1_000;
/** Longest pause honoured, ms: a `Retry-After` far in the future is cut to this. */
const MAX_PAUSE_MS = 60_000;
/** Share of the last second's accepted answers that the learned rate keeps after a 429. */
const BACKOFF_SHARE = 0.95;
/**
 * The learned rate grows by a share of itself after each step of quiet time (no 429): below the
 * pace last refused, by {@link NEAR_GROWTH} each {@link NEAR_EVERY_MS} (about 40 s from 0.95 of it
 * back to it); past it, by {@link FAR_GROWTH} each {@link FAR_EVERY_MS} (doubling in about a minute).
 */
const NEAR_GROWTH = 0.01;
const NEAR_EVERY_MS = 8_000;
const FAR_GROWTH = 0.05;
const FAR_EVERY_MS = 4_000;

/** A real timer; kept referenced: requests waiting for their turn keep the process alive. */
const realTimer = (fn: () => void, ms: number) => {
  const t = setTimeout(fn, ms);
  return () => clearTimeout(t);
};

interface Waiter {
  resolve: (ticket: PaceTicket) => void;
  reject: (reason: unknown) => void;
  /** Removes the waiter's abort callback. */
  unlisten: () => void;
}

/** The one pacer of a run (see the module documentation). */
export class Pacer {
  #ceiling: number;
  #limit: number;
  /** Good answers since the limit last changed (AIMD's window). */
  #good = 0;
  #inFlight = 0;
  /** Incremented at each cut: a 429 to a request admitted before the cut does not cut again. */
  #round = 0;
  readonly #userRate: number | undefined;
  #learnedRate: number | undefined;
  /** The service's pace when it last refused (answers accepted in the second before the 429). */
  #refusedRate = 0;
  #lastGrowth = 0;
  /** When the next request may leave under the rate (ms since the epoch). */
  #nextStart = 0;
  /** Until when every request waits (a `Retry-After`), ms since the epoch. */
  #pausedUntil = 0;
  /** When the requests answered with success in the last two seconds left (admission times, ms). */
  #recentGood: number[] = [];
  /**
   * What the last 429 teaches, still being counted: the requests that left in the second before
   * the refused one (`from`, `to`] and were accepted. Requests in flight together answer in any
   * order, so some of them answer after the 429; each raises the count (and the learned rate).
   */
  #learning: { from: number; to: number; count: number; round: number } | undefined;
  readonly #queue: Waiter[] = [];
  #wake: (() => void) | undefined;
  readonly #now: () => number;
  readonly #timer: NonNullable<PacerOptions['timer']>;
  readonly #listeners = new Set<(e: PaceEvent) => void>();

  constructor(options: PacerOptions = {}) {
    this.#ceiling = Math.max(1, Math.floor(options.ceiling ?? DEFAULT_CEILING));
    this.#limit = this.#ceiling;
    this.#userRate = options.ratePerSecond !== undefined && options.ratePerSecond > 0 ? options.ratePerSecond : undefined;
    this.#now = options.now ?? Date.now;
    this.#timer = options.timer ?? realTimer;
  }

  /** Sets the most requests in flight (a client's `connections`, its pool's size); the current limit follows it down. */
  setCeiling(ceiling: number): void {
    const before = this.#ceiling;
    this.#ceiling = Math.max(1, Math.floor(ceiling));
    this.#limit = this.#limit === before ? this.#ceiling : Math.min(this.#limit, this.#ceiling);
    this.#pump();
  }

  /** Requests in flight at most now (AIMD's current window). */
  get limit(): number {
    return this.#limit;
  }

  /** Requests per second at most now: the user's cap or the pace learned from the service; undefined: none. */
  get rate(): number | undefined {
    const learned = this.#learnedRateNow();
    if (learned === undefined) return this.#userRate;
    return this.#userRate === undefined ? learned : Math.min(this.#userRate, learned);
  }

  /** Until when requests wait for the service (ms since the epoch); 0 or a past time: no pause. */
  get pausedUntil(): number {
    return this.#pausedUntil;
  }

  /** Subscribes to the pacer's events; returns the function that unsubscribes. */
  subscribe(listener: (e: PaceEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Waits until a request may leave (the pause over, a place in flight, its turn under the rate),
   * first come first served, and returns its ticket.
   * @throws the signal's reason when `signal` aborts while waiting (the request never left)
   */
  acquire(signal?: AbortSignal): Promise<PaceTicket> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.#queue.length === 0 && this.#delay() === 0 && this.#inFlight < this.#limit) return Promise.resolve(this.#admit());
    return new Promise<PaceTicket>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, unlisten: () => {} };
      if (signal !== undefined) {
        waiter.unlisten = onAbort(signal, () => {
          const i = this.#queue.indexOf(waiter);
          if (i >= 0) this.#queue.splice(i, 1);
          reject(signal.reason);
          this.#pump();
        });
      }
      this.#queue.push(waiter);
      this.#pump();
    });
  }

  /** Time before the next request may leave, ms (the pause and the rate); 0: now. */
  #delay(): number {
    const now = this.#now();
    return Math.max(0, this.#pausedUntil - now, this.#nextStart - now);
  }

  #admit(): PaceTicket {
    this.#inFlight++;
    const rate = this.rate;
    const now = this.#now();
    if (rate !== undefined) {
      const interval = 1000 / rate;
      // On schedule: a timer that fires late (a busy event loop) does not slow the pace, as long
      // as it is late by less than one interval; after a quiet time the schedule starts anew, so
      // a quiet time is never spent as a burst.
      this.#nextStart = (this.#nextStart >= now - interval ? this.#nextStart : now) + interval;
    }
    const round = this.#round;
    const admittedAt = now;
    let settled = false;
    return {
      done: (outcome) => {
        if (settled) return;
        settled = true;
        this.#inFlight--;
        this.#settle(outcome, round, admittedAt);
        this.#pump();
      },
    };
  }

  #settle(outcome: PaceOutcome, round: number, admittedAt: number): void {
    const now = this.#now();
    if (outcome.kind === 'ok') {
      this.#recentGood.push(admittedAt);
      while (this.#recentGood[0]! <= now - 2000) this.#recentGood.shift();
      const l = this.#learning;
      if (l !== undefined && l.round === this.#round && admittedAt > l.from && admittedAt <= l.to) {
        l.count++;
        if (l.count * BACKOFF_SHARE > (this.#learnedRate ?? 0)) {
          this.#learnedRate = l.count * BACKOFF_SHARE;
          this.#refusedRate = l.count;
        }
      }
      if (++this.#good >= this.#limit) {
        this.#good = 0;
        this.#limit = Math.min(this.#ceiling, this.#limit + 1);
      }
      return;
    }
    if (outcome.kind !== 'limited') return;
    const pauseMs = Math.min(MAX_PAUSE_MS, outcome.retryAfterMs ?? (outcome.status === 429 ? DEFAULT_PAUSE_MS : 0));
    if (outcome.status === 429 && round === this.#round) {
      this.#round++;
      this.#good = 0;
      this.#limit = Math.max(1, Math.floor(this.#limit / 2));
      // The requests that left in the second before the refused one and were accepted (so far).
      const from = admittedAt - 1000;
      const accepted = this.#recentGood.filter((t) => t > from && t <= admittedAt).length;
      // What the service took in the last second, less a tenth, never below half the pace before;
      // with nothing taken in that second there is nothing to learn (the pause and the window act).
      const before = this.#learnedRateNow();
      if (accepted > 0) {
        this.#learnedRate = Math.max(1, accepted * BACKOFF_SHARE, (before ?? 0) / 2);
        this.#refusedRate = accepted;
      } else if (before !== undefined) this.#learnedRate = Math.max(1, before / 2);
      this.#learning = { from, to: admittedAt, count: accepted, round: this.#round };
      this.#lastGrowth = now + pauseMs;
    }
    if (pauseMs > 0 && now + pauseMs > this.#pausedUntil) {
      this.#pausedUntil = now + pauseMs;
      // Requests leave again evenly after the pause, not in one burst.
      this.#nextStart = Math.max(this.#nextStart, this.#pausedUntil);
      this.#emit({ kind: 'paused', status: outcome.status, until: this.#pausedUntil, waitMs: pauseMs });
    }
  }

  /** The learned rate, grown by the quiet time since it was last set or grown. */
  #learnedRateNow(): number | undefined {
    if (this.#learnedRate === undefined) return undefined;
    const now = this.#now();
    for (;;) {
      const near = this.#learnedRate < this.#refusedRate;
      const every = near ? NEAR_EVERY_MS : FAR_EVERY_MS;
      if (now - this.#lastGrowth < every) break;
      this.#learnedRate *= 1 + (near ? NEAR_GROWTH : FAR_GROWTH);
      this.#lastGrowth += every;
    }
    // Past the pace of the configured ceiling there is nothing left to learn.
    if (this.#learnedRate > 10_000) this.#learnedRate = undefined;
    return this.#learnedRate;
  }

  #emit(e: PaceEvent): void {
    for (const l of this.#listeners) l(e);
  }

  /** Admits the waiters that may leave now, and sets one timer for the next one. */
  #pump(): void {
    while (this.#queue.length > 0 && this.#inFlight < this.#limit) {
      const delay = this.#delay();
      if (delay > 0) {
        this.#schedule(delay);
        return;
      }
      if (this.#pausedUntil !== 0) {
        this.#pausedUntil = 0;
        this.#emit({ kind: 'resumed' });
      }
      const waiter = this.#queue.shift()!;
      waiter.unlisten();
      waiter.resolve(this.#admit());
    }
    if (this.#queue.length === 0 && this.#pausedUntil !== 0 && this.#pausedUntil <= this.#now()) {
      this.#pausedUntil = 0;
      this.#emit({ kind: 'resumed' });
    }
  }

  #schedule(delay: number): void {
    if (this.#wake !== undefined) return;
    const cancel = this.#timer(() => {
      this.#wake = undefined;
      this.#pump();
    }, delay);
    this.#wake = cancel;
  }
}
