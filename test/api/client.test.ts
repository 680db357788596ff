import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PLAIN_HINTS } from '../../src/shell.js';
import { ApiClient, type PaceEvent, type PlannedRequest } from '../../src/api/client.js';
import { Pacer } from '../../src/api/pacer.js';
import { planRequest } from '../../src/api/dry-run.js';
import { ENDPOINTS } from '../../src/api/endpoints.js';
import { isTransientFailure, mayRetry } from '../../src/api/outcome.js';
import { acceptOrder, createOrder, fetchOrder } from '../../src/api/orders.js';
import { quoteServices } from '../../src/api/quote.js';
import { createShipment } from '../../src/api/shipments.js';
import { clearSecrets, redactText, registerSecret } from '../../src/api/redact.js';
import {
  AnswerLostError,
  AnswerTooLargeError,
  ApiError,
  DryRunHalt,
  NetworkError,
  ProtocolError,
  RequestInterruptedError,
  ServiceCallError,
  TimeoutError,
} from '../../src/errors.js';
import { startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { hintText } from '../../src/output/hints.js';

const KEY = 'sk_test_fault0123456789abcdef';
const order = { order: { shipments: [{ transient_id: 'A', service: { code: 'SB-DOM-ROAD' } }] } } as never;
const quote = { packages: [] } as never;
const orderAnswer = { order: { id: 'ORD-1', status: 'new', shipments: [] } };
const acceptBody = {
  order: { id: 'ORD-1', payment: { type: 'credit_card', credit_card: { number: '4111111111111111', cvv: '737', holder_name: 'P R', expire: '08/29' } } },
} as never;

let server: FaultServer;
let clients: ApiClient[] = [];
function client(options: Partial<ConstructorParameters<typeof ApiClient>[0]> = {}): ApiClient {
  const c = new ApiClient({ baseUrl: server.url, apiKey: KEY, sleep: async () => {}, ...options });
  clients.push(c);
  return c;
}

beforeAll(async () => {
  server = await startFaultServer();
});
afterEach(async () => {
  for (const c of clients) await c.close();
  clients = [];
  server.reset();
  clearSecrets();
});
afterAll(async () => {
  await server.close();
});

describe('the endpoint table and what is transient', () => {
  it('marks reads safe and creates, accept, cancel and combine mutating', () => {
    expect(ENDPOINTS.quote.safe).toBe(true);
    expect(ENDPOINTS.fetchOrder).toMatchObject({ method: 'GET', path: 'orders/{order_id}/', safe: true });
    for (const name of ['createOrder', 'acceptOrder', 'cancelOrder', 'createShipment', 'combineShipments'] as const) {
      expect(ENDPOINTS[name].safe).toBe(false);
    }
  });

  it('retries a mutating call only when its request provably never left, unless accept is declared idempotent', () => {
    const unsent = new NetworkError('x', { fate: { sent: false, endpoint: ENDPOINTS.createOrder } });
    const lost = new AnswerLostError('x', { fate: { sent: true, endpoint: ENDPOINTS.createOrder } });
    const busy = new ApiError({ status: 503, message: 'busy', method: 'POST', url: 'u' });
    expect(mayRetry(unsent, ENDPOINTS.createOrder, 'safe')).toBe(true);
    expect(mayRetry(lost, ENDPOINTS.createOrder, 'safe')).toBe(false);
    expect(mayRetry(busy, ENDPOINTS.createOrder, 'safe')).toBe(false);
    expect(mayRetry(busy, ENDPOINTS.acceptOrder, 'idempotent-accept')).toBe(true);
    expect(mayRetry(busy, ENDPOINTS.quote, 'safe')).toBe(true);
    expect(mayRetry(busy, ENDPOINTS.quote, 'never')).toBe(false);
    expect(isTransientFailure(new ApiError({ status: 409, message: 'c', method: 'PUT', url: 'u' }))).toBe(false);
  });

  it('gives every failure of a call without a usable answer one base carrying sent and the endpoint; a refusal is not one', () => {
    const fate = { sent: false, endpoint: ENDPOINTS.createOrder };
    const errors = [
      new NetworkError('x', { fate }),
      new AnswerLostError('x', { fate }),
      new TimeoutError('x', { fate }),
      new AnswerTooLargeError('x', 1, { fate }),
      new RequestInterruptedError('x', { fate }),
      new ProtocolError('x', { fate }),
    ];
    for (const err of errors) {
      expect(err).toBeInstanceOf(ServiceCallError);
      expect(err.endpoint).toEqual({ name: 'createOrder', method: 'POST', path: 'orders/', safe: false });
    }
    // An answer too large was answered, so it was sent whatever the fate says.
    expect(errors.map((e) => e.sent)).toEqual([false, false, false, true, false, false]);
    expect(new ProtocolError('x').sent).toBe(true);
    expect(new ApiError({ status: 503, message: 'busy', method: 'POST', url: 'u' })).not.toBeInstanceOf(ServiceCallError);
  });
});

describe('retries', () => {
  it('retries a safe quote after 503 and 429 (waiting Retry-After) and returns the third answer', async () => {
    server.set('POST /quote/', [
      { mode: 'status', status: 503 },
      { mode: 'status', status: 429, retryAfter: '2' },
      { mode: 'ok', result: { services: [] } },
    ]);
    const delays: number[] = [];
    // The pacer's clock moves when its timer is set, so the 2 s pause takes no real time.
    let clock = Date.now();
    const pacer = new Pacer({ now: () => clock, timer: (fn, ms) => ((clock += ms), setImmediate(fn), () => {}) });
    const api = client({ sleep: async (ms) => void delays.push(ms), random: () => 0.5, pacer });
    const paused: PaceEvent[] = [];
    api.onPace((e) => paused.push(e));
    expect(await quoteServices(api, quote)).toEqual([]);
    expect(server.requests).toHaveLength(3);
    expect(delays).toEqual([125]); // jittered backoff (0.5 × 250 ms); the Retry-After is the pacer's pause
    expect(paused.map((e) => (e.kind === 'paused' ? `paused ${e.waitMs}` : e.kind))).toEqual(['paused 2000', 'resumed']);
  });

  it('never repeats a create after a 503 or a lost answer', async () => {
    server.set('POST /orders/', { mode: 'status', status: 503 });
    await expect(createOrder(client(), order)).rejects.toBeInstanceOf(ApiError);
    expect(server.requests).toHaveLength(1);
    server.set('POST /orders/', { mode: 'close-after-request' });
    await expect(createOrder(client(), order)).rejects.toBeInstanceOf(AnswerLostError);
    expect(server.requests).toHaveLength(2);
  });

  it('retries accept with idempotent-accept and resolves a 409 by reading the order', async () => {
    server.set('PUT /orders/ORD-1/accept/', [{ mode: 'close-after-request' }, { mode: 'status', status: 409 }]);
    server.set('GET /orders/ORD-1/', { mode: 'ok', result: { order: { id: 'ORD-1', status: 'ACC', shipments: [] } } });
    const accepted = await acceptOrder(client(), 'ORD-1', acceptBody, { retry: 'idempotent-accept' });
    expect(accepted.status).toBe('ACC');
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['PUT /orders/ORD-1/accept/', 'PUT /orders/ORD-1/accept/', 'GET /orders/ORD-1/']);
  });

  it('does not retry accept by default', async () => {
    server.set('PUT /orders/ORD-1/accept/', { mode: 'close-after-request' });
    await expect(acceptOrder(client(), 'ORD-1', acceptBody)).rejects.toBeInstanceOf(AnswerLostError);
    expect(server.requests).toHaveLength(1);
  });
});

describe('a lost answer is not "cannot reach"', () => {
  it('says a create was sent, the order may exist, how to find out, and never "try again"', async () => {
    server.set('POST /orders/', { mode: 'close-after-request' });
    const err = await createOrder(client(), order).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AnswerLostError);
    const lost = err as AnswerLostError;
    expect(lost.sent).toBe(true);
    expect(lost.endpoint).toMatchObject({ name: 'createOrder', safe: false });
    expect(lost.exitCode).toBe(5);
    expect(lost.message).toMatch(/was sent but its answer was lost/);
    expect(lost.message).toMatch(/order may have been created/);
    expect(lost.message).not.toMatch(/cannot reach/);
    expect(hintText(lost.suggestion, PLAIN_HINTS)).toMatch(/Do not create it again/);
    expect(hintText(lost.suggestion, PLAIN_HINTS)).not.toMatch(/try again/i);
  });

  it('names the order to check for a lost accept', async () => {
    server.set('PUT /orders/ORD-1/accept/', { mode: 'close-after-request' });
    const err = (await acceptOrder(client(), 'ORD-1', acceptBody).catch((e: unknown) => e)) as AnswerLostError;
    expect(err.message).toMatch(/may have been accepted/);
    expect(hintText(err.suggestion, PLAIN_HINTS)).toBe('Find out with: shipbook order get ORD-1');
  });

  it('keeps "cannot reach" with sent: false for a refused connection', async () => {
    const dead = await startFaultServer();
    const url = dead.url;
    await dead.close();
    const err = (await createOrder(client({ baseUrl: url }), order).catch((e: unknown) => e)) as NetworkError;
    expect(err).toBeInstanceOf(NetworkError);
    expect(err).not.toBeInstanceOf(AnswerLostError);
    expect(err.sent).toBe(false);
    expect(err.message).toMatch(/cannot reach the service/);
    expect(hintText(err.suggestion, PLAIN_HINTS)).toMatch(/base URL/);
  });
});

describe('limits', () => {
  it('stops a trickling answer at the total deadline and says what a create may have done', async () => {
    // One byte every 200 ms: undici's per-chunk timeout never fires; only the total deadline stops it.
    server.set('POST /orders/', { mode: 'trickle', intervalMs: 200 });
    const err = (await createOrder(client({ timeoutMs: 400 }), order).catch((e: unknown) => e)) as TimeoutError;
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err.sent).toBe(true);
    expect(err.message).toMatch(/did not answer within 400 ms.*order may have been created/);
    expect(hintText(err.suggestion, PLAIN_HINTS)).not.toMatch(/try again/i);
  });

  it('reports a stalled quote as a timeout, with no retry once its deadline is spent', async () => {
    server.set('POST /quote/', { mode: 'stall' });
    const err = (await quoteServices(client({ timeoutMs: 200, maxAttempts: 2 }), quote).catch((e: unknown) => e)) as TimeoutError;
    expect(err).toBeInstanceOf(TimeoutError);
    expect(server.requests).toHaveLength(1);
  });

  it('stops reading an answer beyond the cap', async () => {
    server.set('POST /quote/', { mode: 'flood', bytes: 4 * 1024 * 1024 });
    const err = (await quoteServices(client({ maxAnswerBytes: 1024 * 1024 }), quote).catch((e: unknown) => e)) as AnswerTooLargeError;
    expect(err).toBeInstanceOf(AnswerTooLargeError);
    expect(err.exitCode).toBe(5);
    expect(err.message).toMatch(/the service's answer is too large: more than 1 MiB/);
  });

  it('treats a quote answer without services as a protocol error, not "no service offered"', async () => {
    server.set('POST /quote/', { mode: 'malformed', text: JSON.stringify({ message: 'OK', code: 200, result: {} }) });
    const err = await quoteServices(client(), quote).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProtocolError);
    expect((err as ProtocolError).message).toMatch(/services/);
    server.set('POST /quote/', { mode: 'malformed', text: JSON.stringify({ message: 'OK', code: 200, result: { services: 'none' } }) });
    await expect(quoteServices(client(), quote)).rejects.toBeInstanceOf(ProtocolError);
  });

  it('treats a 200 without result.order or result.shipment as a protocol error', async () => {
    server.set('*', { mode: 'malformed', text: JSON.stringify({ message: 'OK', code: 200, result: {} }) });
    await expect(createOrder(client(), order)).rejects.toBeInstanceOf(ProtocolError);
    await expect(fetchOrder(client(), 'ORD-1')).rejects.toBeInstanceOf(ProtocolError);
    await expect(createShipment(client(), {} as never)).rejects.toBeInstanceOf(ProtocolError);
  });
});

describe('one deadline for the whole call, retries included', () => {
  /** Runs `fn` and returns what it threw and the milliseconds it took. */
  async function timed(fn: () => Promise<unknown>): Promise<{ err: unknown; ms: number }> {
    const started = Date.now();
    const err = await fn().catch((e: unknown) => e);
    return { err, ms: Date.now() - started };
  }

  it('stops a trickling quote at the deadline, not after three deadlines, and says the attempts and the time they took', async () => {
    // Every attempt would trickle for ~20 s: only the call's deadline ends it; no retry fits after it.
    server.set('POST /quote/', { mode: 'trickle', intervalMs: 400 });
    const { err, ms } = await timed(() => quoteServices(client({ timeoutMs: 1500, maxAttempts: 3, sleep: undefined }), quote));
    expect(err).toBeInstanceOf(TimeoutError);
    expect(server.requests).toHaveLength(1);
    expect(ms).toBeGreaterThanOrEqual(1450);
    expect(ms).toBeLessThan(1500 * 2); // three attempts of 1.5 s each took 4.5 s and more
    expect((err as TimeoutError).message).toMatch(/did not answer within 1500 ms \(POST \S+quote\/; 1 attempt in 1\.\d s\)/);
  });

  it('spends the budget of a stalled quote across its attempts and backoff, and counts them', async () => {
    // The first two attempts fail at once with 503, the third stalls: it gets only what is left.
    server.set('POST /quote/', [{ mode: 'status', status: 503 }, { mode: 'status', status: 503 }, { mode: 'stall' }]);
    const { err, ms } = await timed(() =>
      quoteServices(client({ timeoutMs: 1200, maxAttempts: 3, retryBaseMs: 200, random: () => 1, sleep: undefined }), quote),
    );
    expect(err).toBeInstanceOf(TimeoutError);
    expect(server.requests).toHaveLength(3);
    expect(ms).toBeGreaterThanOrEqual(1150);
    expect(ms).toBeLessThan(1200 * 2); // the stalled attempt alone used to get a whole 1.2 s
    expect((err as TimeoutError).message).toMatch(/within 1200 ms \(POST \S+; 3 attempts in 1\.\d s\)/);
  });

  it('takes no retry whose wait would end past the deadline, and says how many attempts were made', async () => {
    server.set('POST /quote/', [
      { mode: 'status', status: 503 },
      { mode: 'status', status: 429, retryAfter: '5' },
      { mode: 'ok', result: { services: [] } },
    ]);
    const slept: number[] = [];
    const { err } = await timed(() => quoteServices(client({ timeoutMs: 2000, sleep: async (ms) => void slept.push(ms), random: () => 0 }), quote));
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(429);
    expect(server.requests).toHaveLength(2); // a 5 s Retry-After does not fit in what is left of 2 s
    expect(slept).toEqual([0]);
    expect((err as ApiError).message).toMatch(/\(2 attempts in \d+\.\d s\)$/);
  });

  it('gives a per-call deadline (what is left of a wait) to the whole call too', async () => {
    server.set('GET /orders/ORD-1/', { mode: 'stall' });
    const { err, ms } = await timed(() => fetchOrder(client({ timeoutMs: 60_000, sleep: undefined }), 'ORD-1', undefined, { timeoutMs: 600 }));
    expect(err).toBeInstanceOf(TimeoutError);
    expect(server.requests).toHaveLength(1);
    expect(ms).toBeLessThan(600 * 2);
  });
});

describe('interrupts', () => {
  it('aborts a create in flight at once and says it was sent and its outcome unknown', async () => {
    server.set('POST /orders/', { mode: 'stall' });
    const controller = new AbortController();
    const api = client({ signal: controller.signal });
    const pending = createOrder(api, order).catch((e: unknown) => e);
    await server.received(1);
    controller.abort(); // without the signal the stall would hold the call for the 30 s response timeout
    const err = (await pending) as RequestInterruptedError;
    expect(err).toBeInstanceOf(RequestInterruptedError);
    expect(err.exitCode).toBe(130);
    expect(err.sent).toBe(true);
    expect(err.endpoint?.name).toBe('createOrder');
    expect(err.message).toMatch(/outcome is unknown, the order may have been created/);
    expect(hintText(err.suggestion, PLAIN_HINTS)).toMatch(/Do not create it again/);
  });

  it('takes a per-call signal too, and reports an abort before sending as not sent', async () => {
    const controller = new AbortController();
    controller.abort();
    const err = (await fetchOrder(client(), 'ORD-1', undefined, { signal: controller.signal }).catch((e: unknown) => e)) as RequestInterruptedError;
    expect(err).toBeInstanceOf(RequestInterruptedError);
    expect(err.sent).toBe(false);
    expect(server.requests).toHaveLength(0);
  });
});

describe('dry run', () => {
  it('reports the redacted request through the sink and sends nothing', async () => {
    const seen: PlannedRequest[] = [];
    const api = client({ dryRun: (p) => seen.push(p) });
    const err = await acceptOrder(api, 'ORD-1', acceptBody).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DryRunHalt);
    expect(server.requests).toHaveLength(0);
    expect(seen).toHaveLength(1);
    const text = JSON.stringify(seen[0]);
    expect(seen[0]).toMatchObject({ endpoint: 'acceptOrder', safe: false, method: 'PUT', url: `${server.url}orders/ORD-1/accept/` });
    expect(seen[0]!.headers.authorization).toBe('Bearer ****cdef');
    expect(text).not.toContain(KEY);
    expect(text).not.toContain('4111111111111111');
    // The CVV nowhere but, by chance, in the test server's random port: the URL is checked above.
    expect(JSON.stringify({ ...seen[0], url: undefined })).not.toContain('737');
  });

  it('plans a later step without a client, with a placeholder id', () => {
    const planned = planRequest(
      { baseUrl: 'https://api.example.com/v1', apiKey: KEY },
      { endpoint: 'acceptOrder', params: { order_id: '<order id>' }, body: acceptBody },
    );
    expect(planned.url).toBe('https://api.example.com/v1/orders/<order id>/accept/');
    expect(JSON.stringify(planned)).not.toContain('737');
  });
});

describe('secrets by value', () => {
  it('masks a CVV and card number the service echoes in its error message', async () => {
    registerSecret('4111111111111111');
    registerSecret('737');
    server.set('PUT /orders/ORD-1/accept/', { mode: 'echo-error' });
    const err = (await acceptOrder(client(), 'ORD-1', acceptBody).catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    const shown = JSON.stringify({ m: err.message, f: err.fieldErrors });
    expect(server.requests[0]!.body).toContain('"cvv":"737"');
    expect(shown).toContain('"cvv');
    expect(shown).not.toContain('737');
    expect(shown).not.toContain('4111111111111111');
  });

  it('masks registered short secrets only where they stand alone', () => {
    registerSecret('737');
    expect(redactText('cvv 737, price 17370')).toBe('cvv ****, price 17370');
  });
});

describe('small parts', () => {
  it('reads Retry-After as seconds or an HTTP date', async () => {
    const { parseRetryAfter } = await import('../../src/api/http.js');
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(parseRetryAfter('soon')).toBeUndefined();
  });

  it('quotes an order id for the shell in "find out" hints', async () => {
    const { howToFindOut } = await import('../../src/api/outcome.js');
    expect(hintText(howToFindOut(ENDPOINTS.acceptOrder, 'orders/ORD%201%3B/accept/'), PLAIN_HINTS)).toBe("Find out with: shipbook order get 'ORD 1;'");
  });

  it('derives a client with other options and leaves the original unchanged', async () => {
    const seen: PlannedRequest[] = [];
    const base = client();
    const dry = base.withOptions({ dryRun: (p) => seen.push(p) });
    clients.push(dry);
    expect(base.dryRun).toBe(false);
    expect(dry.dryRun).toBe(true);
    server.set('GET /orders/ORD-1/', { mode: 'ok', result: orderAnswer });
    await expect(fetchOrder(dry, 'ORD-1')).rejects.toBeInstanceOf(DryRunHalt);
    expect((await fetchOrder(base, 'ORD-1')).id).toBe('ORD-1');
    expect(server.requests).toHaveLength(1);
  });
});

describe('the connection pool (`connections`, one per order slot in a batch, so a request admitted by the pacer never waits for a socket)', () => {
  /** A server that answers fetch-order-data after 40 ms and counts the TCP connections it accepts. */
  async function slowServer(): Promise<{ url: string; connections: () => number; close: () => Promise<void> }> {
    const { createServer } = await import('node:http');
    let connections = 0;
    const srv = createServer((_req, res) => {
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: 'OK', code: 200, result: orderAnswer }));
      }, 40);
    });
    srv.on('connection', () => connections++);
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const { port } = srv.address() as { port: number };
    return {
      url: `http://127.0.0.1:${port}/`,
      connections: () => connections,
      close: () =>
        new Promise<void>((r) => {
          srv.closeAllConnections();
          srv.close(() => r());
        }),
    };
  }

  it('opens at most `connections` sockets, queueing the rest; without it, one per request in flight', async () => {
    const slow = await slowServer();
    try {
      const bounded = new ApiClient({ baseUrl: slow.url, apiKey: KEY, connections: 2 });
      await Promise.all(Array.from({ length: 6 }, () => fetchOrder(bounded, 'ORD-1')));
      await bounded.close();
      expect(slow.connections()).toBe(2);

      const before = slow.connections();
      const unbounded = new ApiClient({ baseUrl: slow.url, apiKey: KEY });
      await Promise.all(Array.from({ length: 6 }, () => fetchOrder(unbounded, 'ORD-1')));
      await unbounded.close();
      expect(slow.connections() - before).toBe(6);
    } finally {
      await slow.close();
    }
  });
});

describe('one pace for every request', () => {
  it('holds every request of the run, not only the refused one, while a 429 Retry-After lasts, and shares it with derived clients', async () => {
    server.set('POST /quote/', [
      { mode: 'status', status: 429, retryAfter: '3' },
      { mode: 'ok', result: { services: [] } },
    ]);
    server.set('GET /orders/ORD-1/', { mode: 'ok', result: orderAnswer });
    let clock = Date.now();
    const pacer = new Pacer({ now: () => clock, timer: (fn, ms) => ((clock += ms), setImmediate(fn), () => {}) });
    const api = client({ pacer });
    const other = api.withOptions({ connections: 4 });
    clients.push(other);
    const events: string[] = [];
    api.onPace((e) => events.push(e.kind === 'paused' ? `paused ${e.status} ${e.waitMs}` : e.kind));
    const quoted = quoteServices(api, quote);
    await server.received(1);
    // The 429 has paused the run: a read through the derived client waits for the same pause.
    await new Promise((r) => setTimeout(r, 50));
    const read = fetchOrder(other, 'ORD-1');
    await Promise.all([quoted, read]);
    expect(events).toEqual(['paused 429 3000', 'resumed']);
    const order = server.requests.map((r) => `${r.method} ${r.path}`);
    // After the pause the quote's retry and the read both left; nothing left during it.
    expect(order[0]).toBe('POST /quote/');
    expect(order.slice(1).sort()).toEqual(['GET /orders/ORD-1/', 'POST /quote/']);
  });

  it('does not count 429 answers against the attempts of a call: a create refused with 429 is sent again until accepted', async () => {
    server.set('POST /orders/', [
      { mode: 'status', status: 429, retryAfter: '0' },
      { mode: 'status', status: 429, retryAfter: '0' },
      { mode: 'status', status: 429, retryAfter: '0' },
      { mode: 'ok', result: { order: { id: 'ORD-9', status: 'PEN', shipments: [{ id: 'SHP-9', status: 'PEN', transient_id: 'A' }] } } },
    ]);
    const created = await createOrder(client(), order, { retry: 'answered-create' });
    expect(created.id).toBe('ORD-9');
    expect(server.requests).toHaveLength(4);
  });
});
