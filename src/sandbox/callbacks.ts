/**
 * Delivery of the processing callback: interface document, "Events" (an HTTP POST of an
 * ordinary envelope to the URL given at acceptance) and docs/assumptions.md "callback retries and signing"
 * (a failed callback — non-2xx or no answer — is retried a few times with backoff; nothing is
 * signed).
 *
 * Attempt 1 is sent at once; after a failure the sender waits `backoffMs`, then `2 × backoffMs`,
 * `4 × backoffMs` … for at most `retries` retries. Each attempt has `timeoutMs` to connect and
 * answer. {@link CallbackSender.close} aborts every delivery (in flight or waiting) and waits for
 * them to stop.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from '../http/undici.js';
import type { CallbackBody, CallbackRecord } from './state.js';

/** How callbacks are delivered. */
interface CallbackSenderOptions {
  /** Retries after the first attempt. */
  retries: number;
  /** First backoff in milliseconds, doubling. */
  backoffMs: number;
  /** Timeout of one attempt (connect and answer), milliseconds. */
  timeoutMs: number;
  /** One line per attempt; never the URL (it may carry the receiver's secret path). */
  log: (line: string) => void;
}

/** Sends callbacks and keeps track of them so that the sandbox can stop them on close. */
export class CallbackSender {
  private readonly closing = new AbortController();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly agent: Agent;

  constructor(private readonly options: CallbackSenderOptions) {
    this.agent = new Agent({ connect: { timeout: options.timeoutMs }, headersTimeout: options.timeoutMs, bodyTimeout: options.timeoutMs });
  }

  /**
   * POSTs `body` as JSON to `url`, retrying as described above; updates `record` as it goes
   * (`attempts`, `lastOutcome`, `state`). The returned promise never rejects.
   */
  deliver(url: string, body: CallbackBody, record: CallbackRecord): Promise<void> {
    const run = this.run(url, JSON.stringify(body), record).catch(() => {
      record.state = this.closing.signal.aborted ? 'aborted' : 'gave_up';
    });
    this.inFlight.add(run);
    void run.finally(() => this.inFlight.delete(run));
    return run;
  }

  private async run(url: string, json: string, record: CallbackRecord): Promise<void> {
    for (let attempt = 1; attempt <= this.options.retries + 1; attempt++) {
      if (this.closing.signal.aborted) {
        record.state = 'aborted';
        return;
      }
      record.attempts = attempt;
      const outcome = await this.attempt(url, json);
      record.lastOutcome = outcome;
      const ok = typeof outcome === 'number' && outcome >= 200 && outcome < 300;
      this.options.log(`callback ${record.orderId} attempt ${attempt}: ${outcome}${ok ? '' : ' (failed)'}`);
      if (ok) {
        record.state = 'delivered';
        return;
      }
      if (attempt <= this.options.retries) {
        const wait = this.options.backoffMs * 2 ** (attempt - 1);
        try {
          await sleep(wait, undefined, { signal: this.closing.signal });
        } catch {
          record.state = 'aborted';
          return;
        }
      }
    }
    record.state = 'gave_up';
    this.options.log(`callback ${record.orderId} gave up after ${record.attempts} attempts`);
  }

  /** One POST: the HTTP status, or a short error name (`timeout`, `ECONNREFUSED`, `aborted` …). */
  private async attempt(url: string, json: string): Promise<number | string> {
    const signal = AbortSignal.any([this.closing.signal, AbortSignal.timeout(this.options.timeoutMs)]);
    try {
      const res = await request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'shipbook-sandbox' },
        body: json,
        signal,
        dispatcher: this.agent,
        reset: true,
      });
      await res.body.dump({ limit: 64 * 1024, signal }).catch(() => {});
      return res.statusCode;
    } catch (err) {
      if (this.closing.signal.aborted) return 'aborted';
      if (signal.aborted) return 'timeout';
      const e = err as { code?: unknown; name?: unknown };
      return typeof e.code === 'string' ? e.code : typeof e.name === 'string' ? e.name : 'error';
    }
  }

  /** True while a delivery is under way (an attempt in flight, or a wait before a retry). */
  get busy(): boolean {
    return this.inFlight.size > 0;
  }

  /** Aborts every delivery and waits until they have stopped; then closes the connection pool. */
  async close(): Promise<void> {
    this.closing.abort();
    await Promise.allSettled([...this.inFlight]);
    await this.agent.destroy().catch(() => {});
  }
}
