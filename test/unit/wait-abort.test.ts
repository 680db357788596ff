/**
 * Waits end by their signal alone: an accepted order whose booking runs on at a real sandbox on
 * 127.0.0.1 (its processing takes ten minutes), waited for by polling and by callback with a long
 * interval and timeout; the run's signal aborts, or the waiter is closed, while the wait runs. The
 * wait must end with `interrupted` (exit 130) at once: a wait that kept on would outlast the
 * test's own timeout.
 */
import { settledDocument } from '../helpers/pickup-days.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { bookDocument } from '../../src/booking/book.js';
import type { BookingEvent } from '../../src/booking/progress.js';
import { prepareResultWaiter, type ResultWaiter } from '../../src/booking/result/route.js';
import { ShipbookError } from '../../src/errors.js';
import { loadDocument } from '../../src/input/load.js';
import { validateKind } from '../../src/input/validate.js';
import { startSandbox, SANDBOX_API_KEY, type Sandbox } from '../../src/sandbox/index.js';
import type { AcceptRequest } from '../../src/schema/payment.js';

let sandbox: Sandbox;
let api: ApiClient;
beforeAll(async () => {
  sandbox = await startSandbox({ processingDelayMs: 600_000 });
  api = new ApiClient({ baseUrl: sandbox.url, apiKey: SANDBOX_API_KEY });
});
afterAll(async () => {
  await api.close();
  await sandbox.close();
});

const credit = (id: string): Promise<AcceptRequest> => Promise.resolve({ order: { id, payment: { type: 'credit' } } } as AcceptRequest);

/** Books the fixture up to its acceptance, then waits with `waiter` under `signal`; returns what the booking threw. */
async function bookAndWait(waiter: ResultWaiter, signal: AbortSignal): Promise<unknown> {
  const { value } = validateKind(settledDocument(await loadDocument('fixtures/orders/domestic-syd-mel.yaml')), 'order', { now: () => new Date() });
  return bookDocument({ kind: 'regular', order: value }, { api, accept: credit, waitForResult: (id) => waiter.wait(id, signal) }).then(
    () => new Error('the wait returned a result'),
    (err: unknown) => err,
  );
}

/** The interruption a stopped wait ends with: `interrupted`, exit 130, the order still booking. */
function expectInterrupted(err: unknown): void {
  expect(err).toBeInstanceOf(ShipbookError);
  expect((err as ShipbookError).code).toBe('interrupted');
  expect((err as ShipbookError).exitCode).toBe(130);
  expect((err as ShipbookError).message).toMatch(/^stopped waiting: .*ORD-/);
}

describe.each(['poll', 'callback'] as const)('a wait by %s', (route) => {
  it('ends with interrupted once the signal aborts, and says the wait ended', async () => {
    const events: BookingEvent[] = [];
    const stop = new AbortController();
    const waiter = await prepareResultWaiter(
      {
        api,
        onEvent(e) {
          events.push(e);
          // Aborted once the wait runs (after the first sleep began).
          if (e.type === 'waiting') setTimeout(() => stop.abort('SIGINT'), 50);
        },
      },
      { route, pollMs: 60_000, timeoutMs: 600_000, fallbackPollMs: 60_000 },
    );
    try {
      expect(waiter.route).toBe(route);
      expectInterrupted(await bookAndWait(waiter, stop.signal));
      const types = events.map((e) => e.type);
      expect(types).toContain('waiting');
      expect(types.at(-1)).toBe('wait_ended');
      // Interrupted by the run's signal, the command's error says it; no event repeats it.
      expect(types).not.toContain('interrupted');
    } finally {
      await waiter.close();
    }
  });

  it('ends with interrupted when the waiter is closed while it waits, and reports the order still booking', async () => {
    const events: BookingEvent[] = [];
    let waiter: ResultWaiter | undefined;
    waiter = await prepareResultWaiter(
      {
        api,
        onEvent(e) {
          events.push(e);
          if (e.type === 'waiting') setTimeout(() => void waiter!.close(), 50);
        },
      },
      { route, pollMs: 60_000, timeoutMs: 600_000, fallbackPollMs: 60_000 },
    );
    expectInterrupted(await bookAndWait(waiter, new AbortController().signal));
    const interrupted = events.filter((e) => e.type === 'interrupted');
    expect(interrupted).toHaveLength(1);
    expect(events.filter((e) => e.type === 'wait_ended')).toHaveLength(1);
  });
});
