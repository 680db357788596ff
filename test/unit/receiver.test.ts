/** The callback receiver (node:http on 127.0.0.1) and the pure parts of waiting: flags, URLs, merging. */
import { PLAIN_HINTS } from '../../src/shell.js';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { prepareResultWaiter } from '../../src/booking/result/route.js';
import { mergeCallbackOrder } from '../../src/booking/result/verify.js';
import { builtinSandboxProfile } from '../../src/config/profile.js';
import { progressPrinter } from '../../src/output/progress.js';
import { bufferIO } from '../helpers/run.js';
import {
  isTokenPath,
  maskToken,
  newCallbackToken,
  publicCallbackUrl,
  startCallbackReceiver,
  type CallbackReceiver,
  type CallbackVerdict,
  type ReceivedCallback,
  type ReceiverProblem,
} from '../../src/booking/receiver.js';
import { parseListen, waitSettings } from '../../src/commands/common/wait-options.js';
import { UsageError } from '../../src/errors.js';
import { orderResponse } from '../../src/schema/order.js';

const processed = {
  code: 200,
  message: 'OK',
  result: { order: { id: 'ORD-AAAA1111', status: 'processed', shipments: [{ id: 'SHP-1', tracking_number: 'SBX0000000001' }] } },
};

let receiver: CallbackReceiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

/** Starts a receiver that records what it gets and answers with `verdict`. */
async function start(options: { basePath?: string; verdict?: (cb: ReceivedCallback) => CallbackVerdict } = {}) {
  const callbacks: ReceivedCallback[] = [];
  const problems: ReceiverProblem[] = [];
  receiver = await startCallbackReceiver({
    basePath: options.basePath,
    onCallback(cb) {
      callbacks.push(cb);
      return options.verdict?.(cb) ?? { accepted: true };
    },
    onProblem: (p) => problems.push(p),
  });
  return { r: receiver, callbacks, problems };
}

async function send(url: string, body: string | Buffer, method: 'POST' | 'GET' | 'PUT' = 'POST') {
  const res = await request(url, { method, body: method === 'GET' ? undefined : body, headers: { 'content-type': 'application/json' } });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, json: text ? (JSON.parse(text) as { code: number; message: string }) : undefined };
}

describe('callback receiver', () => {
  it('binds to 127.0.0.1 on a random port under an unguessable token path', async () => {
    const { r } = await start();
    expect(r.host).toBe('127.0.0.1');
    expect(r.port).toBeGreaterThan(0);
    expect(r.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(r.localUrl).toBe(`http://127.0.0.1:${r.port}/${r.token}`);
    expect(newCallbackToken()).not.toBe(newCallbackToken());
  });

  it('answers a valid callback 200 {"code":200,"message":"OK"}, and a repeated one (a retry) the same', async () => {
    const { r, callbacks } = await start();
    for (let i = 0; i < 2; i++) {
      const res = await send(r.localUrl, JSON.stringify(processed));
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ code: 200, message: 'OK' });
    }
    expect(callbacks.map((c) => c.orderId)).toEqual(['ORD-AAAA1111', 'ORD-AAAA1111']);
    expect(callbacks[0]!.body.result?.order?.shipments[0]!.tracking_number).toBe('SBX0000000001');
  });

  it('answers a forged POST with the wrong token 404 and never hands it over', async () => {
    const { r, callbacks, problems } = await start();
    const forged = `http://127.0.0.1:${r.port}/${newCallbackToken()}`;
    const res = await send(forged, JSON.stringify(processed));
    expect(res.status).toBe(404);
    expect((await send(`http://127.0.0.1:${r.port}/`, JSON.stringify(processed))).status).toBe(404);
    expect((await send(`${r.localUrl}/extra`, JSON.stringify(processed))).status).toBe(404);
    expect(callbacks).toEqual([]);
    expect(problems.every((p) => p.status === 404 && !p.onTokenPath)).toBe(true);
    expect(problems.map((p) => p.reason).join(' ')).not.toContain(r.token);
  });

  it('answers other methods on the token path 405 with Allow: POST', async () => {
    const { r, callbacks } = await start();
    const get = await send(r.localUrl, '', 'GET');
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe('POST');
    expect((await send(r.localUrl, JSON.stringify(processed), 'PUT')).status).toBe(405);
    expect(callbacks).toEqual([]);
  });

  it('enforces its header timeout when it says (a slow sender is answered 408 and closed), not 30 s later', async () => {
    const { connect } = await import('node:net');
    const r = await startCallbackReceiver({ onCallback: () => ({ accepted: true }), headersTimeoutMs: 300, requestTimeoutMs: 600 });
    receiver = r;
    const socket = connect(r.port, '127.0.0.1');
    let answer = '';
    socket.setEncoding('utf8').on('data', (d: string) => (answer += d));
    socket.write(`POST ${r.path} HTTP/1.1\r\nHost: 127.0.0.1\r\n`); // the headers never end
    await new Promise<void>((resolve) => socket.on('close', () => resolve()));
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  }, 5_000);

  it('refuses a body over 1 MiB with 413 and keeps serving', async () => {
    const { r, callbacks, problems } = await start();
    const big = Buffer.alloc(2 * 1024 * 1024, 0x20);
    const res = await send(r.localUrl, big);
    expect(res.status).toBe(413);
    expect(problems.at(-1)).toMatchObject({ status: 413, onTokenPath: true });
    expect((await send(r.localUrl, JSON.stringify(processed))).status).toBe(200);
    expect(callbacks).toHaveLength(1);
  });

  it('answers malformed JSON 400, reports it, and keeps serving', async () => {
    const { r, callbacks, problems } = await start();
    const res = await send(r.localUrl, '{"code": 200, "message": ');
    expect(res.status).toBe(400);
    expect(res.json?.message).toBe('malformed JSON');
    expect(problems[0]).toMatchObject({ status: 400, onTokenPath: true });
    expect(problems[0]!.reason).toMatch(/^malformed JSON/);
    expect((await send(r.localUrl, JSON.stringify(processed))).status).toBe(200);
    expect(callbacks).toHaveLength(1);
  });

  it('answers 400 to JSON that is not the callback envelope, or a success without result.order', async () => {
    const { r, callbacks, problems } = await start();
    expect((await send(r.localUrl, JSON.stringify({ hello: 'world' }))).status).toBe(400);
    expect((await send(r.localUrl, JSON.stringify([1, 2]))).status).toBe(400);
    expect((await send(r.localUrl, JSON.stringify({ code: 200, message: 'OK', result: {} }))).status).toBe(400);
    await r.close();
    expect(problems.map((p) => p.status)).toEqual([400, 400, 400]);
    expect(problems[0]!.reason).toContain('not a callback envelope');
    expect(callbacks).toEqual([]);
  });

  it('summarises a flood of refusals on its token path: one line per status and one summary per interval, not 250 lines', async () => {
    const { r, problems } = await start();
    for (let i = 0; i < 200; i++) expect((await send(r.localUrl, '{not json')).status).toBe(400);
    for (let i = 0; i < 50; i++) expect((await send(r.localUrl, '{}', 'GET')).status).toBe(405);
    await r.close();
    // The first three of each status in full, the rest in one summary (at the latest on close).
    expect(problems.map((p) => p.status)).toEqual([400, 400, 400, 405, 405, 405, 0]);
    expect(problems[6]!.summary).toBe('244 more requests refused on the callback path in the last 10 s: 400 ×197, 405 ×47');
  });

  it('hands over a callback that echoes a payment with the card number and CVV masked, in its body, raw form and text', async () => {
    const { r, callbacks } = await start();
    const echoed = {
      ...processed,
      message: 'paid with 5555 5555 5555 4444',
      result: { order: { ...processed.result.order, payment: { credit_card: { number: '5555555555554444', cvv: '737' } } } },
    };
    expect((await send(r.localUrl, JSON.stringify(echoed))).status).toBe(200);
    const cb = callbacks[0]!;
    for (const form of [JSON.stringify(cb.body), JSON.stringify(cb.raw), cb.text]) {
      expect(form).not.toMatch(/5555 ?5555 ?5555 ?4444|737/);
      expect(form).toContain('****4444');
    }
    // The tracking number is left as it came.
    expect(cb.body.result?.order?.shipments[0]!.tracking_number).toBe('SBX0000000001');
  });

  it('hands over an error callback without an order (the token path is the proof)', async () => {
    const { r, callbacks } = await start();
    expect((await send(r.localUrl, JSON.stringify({ code: 500, message: 'carrier down', result: {} }))).status).toBe(200);
    expect(callbacks[0]!.orderId).toBeUndefined();
    expect(callbacks[0]!.body.message).toBe('carrier down');
  });

  it('answers what the owner decides, e.g. 409 for a callback about another order', async () => {
    const { r, problems } = await start({
      verdict: (cb) => (cb.orderId === 'ORD-AAAA1111' ? { accepted: true } : { accepted: false, status: 409, message: `not ${cb.orderId}` }),
    });
    const other = structuredClone(processed);
    other.result.order.id = 'ORD-BBBB2222';
    const res = await send(r.localUrl, JSON.stringify(other));
    expect(res.status).toBe(409);
    expect(res.json).toEqual({ code: 409, message: 'not ORD-BBBB2222' });
    expect(problems[0]).toMatchObject({ status: 409 });
    expect((await send(r.localUrl, JSON.stringify(processed))).status).toBe(200);
  });

  it('listens under a base path, and also on /<token> for proxies that strip the prefix', async () => {
    const { r } = await start({ basePath: '/sb/' });
    expect(r.path).toBe(`/sb/${r.token}`);
    expect((await send(`http://127.0.0.1:${r.port}/sb/${r.token}`, JSON.stringify(processed))).status).toBe(200);
    expect((await send(`http://127.0.0.1:${r.port}/${r.token}`, JSON.stringify(processed))).status).toBe(200);
    expect((await send(`http://127.0.0.1:${r.port}/other/${r.token}`, JSON.stringify(processed))).status).toBe(404);
    expect(isTokenPath(`/sb/${r.token}/`, '/sb', r.token)).toBe(true);
    expect(isTokenPath(`/sb/${r.token.slice(0, -1)}`, '/sb', r.token)).toBe(false);
  });
});

describe('callback URLs', () => {
  it('appends the token to the public URL path, keeping the query', () => {
    const r = { localUrl: 'http://127.0.0.1:8787/tok_abcdefghijklmnop', token: 'tok_abcdefghijklmnop' };
    expect(publicCallbackUrl(r)).toBe(r.localUrl);
    expect(publicCallbackUrl(r, 'https://hooks.example.com/sb')).toBe('https://hooks.example.com/sb/tok_abcdefghijklmnop');
    expect(publicCallbackUrl(r, 'https://hooks.example.com/sb/?x=1')).toBe('https://hooks.example.com/sb/tok_abcdefghijklmnop?x=1');
    expect(publicCallbackUrl(r, 'https://abc.ngrok.app')).toBe('https://abc.ngrok.app/tok_abcdefghijklmnop');
    expect(maskToken('https://abc.ngrok.app/tok_abcdefghijklmnop', r.token)).toBe('https://abc.ngrok.app/tok_…');
  });
});

describe('wait flags', () => {
  it('parses --listen as host:port, [v6]:port, :port or port', () => {
    expect(parseListen('0.0.0.0:8787')).toEqual({ host: '0.0.0.0', port: 8787 });
    expect(parseListen('[::1]:9000')).toEqual({ host: '::1', port: 9000 });
    expect(parseListen(':0')).toEqual({ host: '127.0.0.1', port: 0 });
    expect(parseListen('8787')).toEqual({ host: '127.0.0.1', port: 8787 });
    expect(parseListen('localhost:8787')).toEqual({ host: 'localhost', port: 8787 });
    expect(() => parseListen('localhost')).toThrow(/--listen "localhost" is not host:port/);
    expect(() => parseListen('1.2.3.4:70000')).toThrow(UsageError);
  });

  it('waits by callback unless --poll is given, with a 10-minute default timeout', () => {
    expect(waitSettings({})).toMatchObject({ route: 'callback', timeoutMs: 600_000 });
    expect(waitSettings({ poll: '5s', timeout: '1m' })).toMatchObject({ route: 'poll', pollMs: 5000, timeoutMs: 60_000 });
    expect(waitSettings({ callbackUrl: 'https://hooks.example.com/sb', listen: '0.0.0.0:8787' })).toMatchObject({
      route: 'callback',
      callbackUrl: 'https://hooks.example.com/sb',
      listen: { host: '0.0.0.0', port: 8787 },
    });
  });

  it('refuses --poll with --public-url or --listen, a wildcard --listen alone, and a bad --public-url', () => {
    expect(() => waitSettings({ poll: '1s', listen: '8787' })).toThrow(/--poll and --listen/);
    expect(() => waitSettings({ poll: '1s', publicUrl: 'https://x.example/' })).toThrow(/--poll and --public-url/);
    expect(() => waitSettings({ listen: '0.0.0.0:8787' })).toThrow(/binds every interface/);
    expect(() => waitSettings({ publicUrl: 'ftp://x.example/' })).toThrow(/http\(s\) URL/);
    expect(() => waitSettings({ publicUrl: 'not a url' })).toThrow(/is not a URL/);
    expect(() => waitSettings({ timeout: 'soon' })).toThrow(/--timeout "soon" is not a duration/);
  });
});

describe('mergeCallbackOrder', () => {
  const fromCallback = orderResponse.parse(processed.result.order);

  it('lays the callback status and tracking numbers over the fetched order', () => {
    const fetched = orderResponse.parse({
      id: 'ORD-AAAA1111',
      status: 'ACC',
      price: { currency: 'AUD', amount: '10.00', insurance: '0.00', gst: '1.00', total: '11.00' },
      shipments: [{ id: 'SHP-1', status: 'NEW', tracking_number: 'N/A', delivery: { city: 'Melbourne', country: 'AU' } }],
    });
    const merged = mergeCallbackOrder(fetched, fromCallback);
    expect(merged.status).toBe('processed');
    expect(merged.price?.total.toString()).toBe('11.00');
    expect(merged.shipments).toHaveLength(1);
    expect(merged.shipments[0]).toMatchObject({ id: 'SHP-1', tracking_number: 'SBX0000000001', status: 'NEW' });
    expect(merged.shipments[0]!.delivery?.city).toBe('Melbourne');
  });

  it('uses the callback order alone when fetch-order-data is unavailable; shipments take the order status', () => {
    const merged = mergeCallbackOrder(undefined, fromCallback);
    expect(merged).toMatchObject({ id: 'ORD-AAAA1111', status: 'processed' });
    expect(merged.shipments).toEqual([expect.objectContaining({ id: 'SHP-1', tracking_number: 'SBX0000000001', status: 'processed' })]);
  });
});

describe('choice of route (prepareResultWaiter)', () => {
  /** A context whose stderr is a string, for a service at `baseUrl`. */
  function setup(baseUrl: string) {
    const io = bufferIO();
    const progress = progressPrinter(io, PLAIN_HINTS);
    const api = new ApiClient({ baseUrl });
    const ctx = { api, paths: builtinSandboxProfile().paths, onEvent: progress.onEvent };
    return { ctx, api, profile: builtinSandboxProfile(), stderr: () => io.stderrText() };
  }

  it('waits by callback on a receiver for a service on this machine', async () => {
    const { ctx } = setup('http://127.0.0.1:9/');
    const waiter = await prepareResultWaiter(ctx, waitSettings({}));
    try {
      expect(waiter.route).toBe('callback');
      expect(waiter.callbackUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]{32}$/);
    } finally {
      await waiter.close();
    }
  });

  it('polls, and says why, when a remote service could not reach a loopback receiver', async () => {
    const { ctx, stderr } = setup('https://api.example.com/v1/');
    const waiter = await prepareResultWaiter(ctx, waitSettings({}));
    expect(waiter.route).toBe('poll');
    expect(waiter.callbackUrl).toBeUndefined();
    expect(stderr()).toContain('cannot reach a receiver on this machine');
    const tunnel = await prepareResultWaiter(ctx, waitSettings({ callbackUrl: 'https://hooks.example.com/sb', listen: '127.0.0.1:0' }));
    try {
      expect(tunnel.route).toBe('callback');
      expect(tunnel.callbackUrl).toMatch(/^https:\/\/hooks\.example\.com\/sb\/[A-Za-z0-9_-]{32}$/);
    } finally {
      await tunnel.close();
    }
  });

  it("polls when the accept request carries the user's own callback URL", async () => {
    const { ctx, stderr } = setup('http://127.0.0.1:9/');
    const waiter = await prepareResultWaiter(ctx, waitSettings({}), { ownCallback: true });
    expect(waiter.route).toBe('poll');
    expect(stderr()).toContain('goes to your callback URL');
  });
});
