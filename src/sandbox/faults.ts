/**
 * Faults the sandbox can inject into the operations of the service it simulates, every route but
 * the `/_sandbox/` test hooks (which only `latencyMs` delays), for tests and demos of what a batch
 * survives:
 *
 * - `failRate`: that share of requests is answered 500 or 503 without being processed;
 * - `resetRate`: that share of connections is closed without an answer; half of them *after* the
 *   request was processed (the case that leaves an order the client does not know about);
 * - `latencyMs`: added before every answer;
 * - `rateLimit`: requests per second; beyond it, 429 with `Retry-After: 1`.
 *
 * With a `seed`, the fault of a request is drawn from the seed, what the request is about (its
 * operation and the content of the order or shipment it concerns, not the ids the sandbox
 * assigned) and how many such requests came before it: the same batch against a sandbox with the
 * same seed meets the same faults at every order, in whatever order its requests arrive, so a
 * test knows its outcome. Without one, faults are drawn at random.
 */
import { createHash } from 'node:crypto';

/** The faults in force (all off by default). */
export interface SandboxFaults {
  failRate?: number;
  resetRate?: number;
  latencyMs?: number;
  rateLimit?: number;
  /** Draws each fault from this seed and the request (see above) instead of at random. */
  seed?: number;
}

/** What to do with one request. */
type FaultDecision = { kind: 'none' } | { kind: 'fail'; status: 500 | 503 } | { kind: 'reset-before' } | { kind: 'reset-after' } | { kind: 'rate-limited' };

/** Decides the fault of each request; `random` is injectable so tests can steer it. */
export class FaultInjector {
  private windowStart = 0;
  private inWindow = 0;
  /** With a seed: how many requests with each key came so far. */
  private readonly attempts = new Map<string, number>();

  constructor(
    readonly faults: SandboxFaults,
    private readonly random: () => number = Math.random,
    private readonly now: () => number = Date.now,
  ) {}

  /** True when any fault is configured. */
  get active(): boolean {
    const f = this.faults;
    return (f.failRate ?? 0) > 0 || (f.resetRate ?? 0) > 0 || (f.latencyMs ?? 0) > 0 || (f.rateLimit ?? 0) > 0;
  }

  /**
   * The fault for a request to `path` (none for `/_sandbox/…`). `key` says what the request is
   * about (its operation and content, free of ids the sandbox assigned); with a seed, the draws
   * come from the seed, the key and the number of requests with that key before this one.
   */
  decide(path: string, key: string = path): FaultDecision {
    if (path.startsWith('/_sandbox/')) return { kind: 'none' };
    const f = this.faults;
    const draw = f.seed === undefined ? this.random : this.seeded(key);
    if (f.rateLimit !== undefined && f.rateLimit > 0) {
      const t = this.now();
      if (t - this.windowStart >= 1000) {
        this.windowStart = t;
        this.inWindow = 0;
      }
      if (++this.inWindow > f.rateLimit) return { kind: 'rate-limited' };
    }
    if ((f.failRate ?? 0) > 0 && draw() < f.failRate!) return { kind: 'fail', status: draw() < 0.5 ? 500 : 503 };
    if ((f.resetRate ?? 0) > 0 && draw() < f.resetRate!) return draw() < 0.5 ? { kind: 'reset-before' } : { kind: 'reset-after' };
    return { kind: 'none' };
  }

  /** The draws of the next request with `key`: numbers in [0, 1) from a hash of the seed, the key and its count. */
  private seeded(key: string): () => number {
    const n = (this.attempts.get(key) ?? 0) + 1;
    this.attempts.set(key, n);
    const digest = createHash('sha256').update(`${this.faults.seed}\0${key}\0${n}`).digest();
    let at = 0;
    return () => {
      const v = digest.readUInt32BE(at % 32) / 2 ** 32;
      at += 4;
      return v;
    };
  }
}

/**
 * Parses a rate (`0.2`, `20%`), a latency (`50ms`, `1s`) or a rate limit (`50/s`, `50`).
 * @returns undefined when the text is not of that form
 */
export function parseFaultRate(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(%)?\s*$/.exec(text);
  if (!m) return undefined;
  const v = Number(m[1]) / (m[2] ? 100 : 1);
  return v >= 0 && v <= 1 ? v : undefined;
}

/** `50/s` or `50`: requests per second. */
export function parseRateLimit(text: string): number | undefined {
  const m = /^\s*(\d+)\s*(?:\/\s*s)?\s*$/.exec(text);
  return m && Number(m[1]) > 0 ? Number(m[1]) : undefined;
}
