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
 */

/** The faults in force (all off by default). */
export interface SandboxFaults {
  failRate?: number;
  resetRate?: number;
  latencyMs?: number;
  rateLimit?: number;
}

/** What to do with one request. */
type FaultDecision = { kind: 'none' } | { kind: 'fail'; status: 500 | 503 } | { kind: 'reset-before' } | { kind: 'reset-after' } | { kind: 'rate-limited' };

/** Decides the fault of each request; `random` is injectable so tests can steer it. */
export class FaultInjector {
  private windowStart = 0;
  private inWindow = 0;

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

  /** The fault for a request to `path` (none for `/_sandbox/…`). */
  decide(path: string): FaultDecision {
    if (path.startsWith('/_sandbox/')) return { kind: 'none' };
    const f = this.faults;
    if (f.rateLimit !== undefined && f.rateLimit > 0) {
      const t = this.now();
      if (t - this.windowStart >= 1000) {
        this.windowStart = t;
        this.inWindow = 0;
      }
      if (++this.inWindow > f.rateLimit) return { kind: 'rate-limited' };
    }
    if ((f.failRate ?? 0) > 0 && this.random() < f.failRate!) return { kind: 'fail', status: this.random() < 0.5 ? 500 : 503 };
    if ((f.resetRate ?? 0) > 0 && this.random() < f.resetRate!) return this.random() < 0.5 ? { kind: 'reset-before' } : { kind: 'reset-after' };
    return { kind: 'none' };
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
