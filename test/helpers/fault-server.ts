/**
 * A small fault-injecting HTTP server for tests of the API client: a booking service that
 * misbehaves in one chosen way per route. A real node:http server on 127.0.0.1; each request is
 * recorded (method, path, body) so tests can count what reached it.
 *
 * Modes:
 * - `ok`: a well-formed envelope with `result` (the given one).
 * - `stall`: reads the request, then never answers.
 * - `trickle`: answers 200 with headers at once, then one byte every `intervalMs`.
 * - `flood`: answers 200 with a body of `bytes` (default 64 MiB) of JSON-ish filler, streamed.
 * - `close-after-request`: reads the whole request, then destroys the socket without a byte.
 * - `echo-error`: answers 400 with an error envelope whose message echoes the request body.
 * - `malformed`: answers 200 with the given raw text (e.g. an envelope without `result.services`).
 * - `status`: answers the given HTTP status with an error envelope (and `Retry-After` if given).
 * - `echo`: answers `status` (default 200) with the envelope and the given `result`, plus the
 *   request repeated: its `authorization` header and body in `result.echo`, in each object member
 *   of `result` (`result.order.echo`) and in the message;
 *   a string `{{request}}` anywhere in `result` (a service name …) becomes the request body as text;
 *   with `php`, every `/` of the answer escaped as `\/` (PHP's json_encode); with `raw`, the
 *   answer is not an envelope but text: `prefix` then the request; with `earlier`, the body of
 *   the last accept (`PUT …/accept/`) the server received, in any run, is echoed too (as
 *   `echo.earlier`, in the message, and for a string `{{earlier}}` in `result`): a service that
 *   repeats a payment in its later order answers, read by a run that never saw the card.
 */
import { afterAll, afterEach, beforeAll } from 'vitest';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the server answers one route. */
export type FaultMode =
  | { mode: 'ok'; result: unknown; status?: number; delayMs?: number }
  | { mode: 'stall' }
  | { mode: 'trickle'; intervalMs: number }
  | { mode: 'flood'; bytes?: number }
  | { mode: 'close-after-request' }
  | { mode: 'echo-error' }
  | { mode: 'malformed'; text: string }
  | { mode: 'status'; status: number; retryAfter?: string; message?: string }
  | { mode: 'echo'; result?: Record<string, unknown>; status?: number; php?: boolean; raw?: boolean; prefix?: string; earlier?: boolean };

/** A request the server received. */
interface ReceivedRequest {
  method: string;
  path: string;
  /** The query parameters, by name (the last of a repeated one). */
  query: Record<string, string>;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A running fault server. */
export interface FaultServer {
  /** Base URL ending with `/`, e.g. `http://127.0.0.1:40123/`. */
  url: string;
  /** Every request received, in order (recorded once its body was read). */
  requests: ReceivedRequest[];
  /**
   * Sets how `METHOD path` is answered (e.g. `'POST /orders/'`); `'*'` for any route not set.
   * A list is used one entry per request, the last one repeating.
   */
  set(route: string, mode: FaultMode | FaultMode[]): void;
  /** Forgets every route set and every request received. */
  reset(): void;
  /** Resolves when `n` requests have been received. */
  received(n: number): Promise<void>;
  close(): Promise<void>;
}

function envelope(code: number, message: string, result: unknown): string {
  return JSON.stringify({ message, code, result });
}

/** Starts a fault server on a random loopback port. Every route answers `ok` with `{}` until set. */
export async function startFaultServer(): Promise<FaultServer> {
  const routes = new Map<string, FaultMode[]>();
  const requests: ReceivedRequest[] = [];
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  const timers = new Set<NodeJS.Timeout>();
  // The body of the last accept received (for `echo` with `earlier`); kept across `reset`.
  let lastAccept = '';
  const pick = (key: string): FaultMode => {
    const list = routes.get(key) ?? routes.get('*') ?? [{ mode: 'ok', result: {} }];
    return list.length > 1 ? list.shift()! : list[0]!;
  };

  const handle = (req: IncomingMessage, res: ServerResponse, body: string) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const path = url.pathname;
    requests.push({ method: req.method ?? '', path, query: Object.fromEntries(url.searchParams), headers: req.headers, body });
    if (path.endsWith('/accept/') && body !== '') lastAccept = body;
    for (const w of waiters.splice(0)) {
      if (requests.length >= w.n) w.resolve();
      else waiters.push(w);
    }
    const fault = pick(`${req.method} ${path}`);
    switch (fault.mode) {
      case 'ok': {
        const answer = () => {
          if (!res.destroyed) res.writeHead(fault.status ?? 200, { 'content-type': 'application/json' }).end(envelope(fault.status ?? 200, 'OK', fault.result));
        };
        if (fault.delayMs === undefined) return answer();
        const timer = setTimeout(() => {
          timers.delete(timer);
          answer();
        }, fault.delayMs);
        timers.add(timer);
        return;
      }
      case 'stall':
        return;
      case 'trickle': {
        res.writeHead(200, { 'content-type': 'application/json' });
        const text = envelope(200, 'OK', { services: [] });
        let i = 0;
        const timer = setInterval(() => {
          if (i >= text.length || res.destroyed) {
            clearInterval(timer);
            timers.delete(timer);
            res.end();
            return;
          }
          res.write(text[i++]);
        }, fault.intervalMs);
        timers.add(timer);
        return;
      }
      case 'flood': {
        const total = fault.bytes ?? 64 * 1024 * 1024;
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        let sent = 0;
        const pump = () => {
          while (sent < total && !res.destroyed) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        res.on('error', () => {});
        pump();
        return;
      }
      case 'close-after-request':
        req.socket.destroy();
        return;
      case 'echo-error':
        res
          .writeHead(400, { 'content-type': 'application/json' })
          .end(envelope(400, `invalid request: ${body}`, { errors: [{ field: 'request', message: `got ${body}` }] }));
        return;
      case 'malformed':
        res.writeHead(200, { 'content-type': 'application/json' }).end(fault.text);
        return;
      case 'echo': {
        const status = fault.status ?? 200;
        let request: unknown = body;
        try {
          request = JSON.parse(body);
        } catch {
          // not JSON: echoed as text
        }
        const earlier = fault.earlier === true ? lastAccept : '';
        let earlierValue: unknown = earlier;
        try {
          earlierValue = JSON.parse(earlier);
        } catch {
          // none yet, or not JSON: echoed as text
        }
        const echo = { authorization: req.headers.authorization, request, ...(fault.earlier === true ? { earlier: earlierValue } : {}) };
        const inText = (v: unknown): unknown =>
          v === '{{request}}'
            ? body
            : v === '{{earlier}}'
              ? earlier
              : Array.isArray(v)
                ? v.map(inText)
                : v !== null && typeof v === 'object'
                  ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, inText(x)]))
                  : v;
        const result = inText(fault.result ?? {}) as Record<string, unknown>;
        let text = fault.raw
          ? `${fault.prefix ?? ''}${req.headers.authorization} ${body}`
          : envelope(status, `${fault.prefix ?? 'OK'} ${req.headers.authorization} ${body}${earlier === '' ? '' : ` after ${earlier}`}`, {
              // Also inside each member of the result (the order …), where a client that passes unknown fields through would print it.
              ...Object.fromEntries(Object.entries(result).map(([k, v]) => [k, v !== null && typeof v === 'object' && !Array.isArray(v) ? { ...v, echo } : v])),
              echo,
            });
        if (fault.php) text = text.replace(/\//g, '\\/');
        res.writeHead(status, { 'content-type': fault.raw ? 'text/plain' : 'application/json' }).end(text);
        return;
      }
      case 'status':
        res
          .writeHead(fault.status, { 'content-type': 'application/json', ...(fault.retryAfter ? { 'retry-after': fault.retryAfter } : {}) })
          .end(envelope(fault.status, fault.message ?? `fault ${fault.status}`, {}));
        return;
    }
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    set(route, mode) {
      routes.set(route, Array.isArray(mode) ? [...mode] : [mode]);
    },
    reset() {
      routes.clear();
      requests.length = 0;
    },
    received(n) {
      if (requests.length >= n) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ n, resolve }));
    },
    async close() {
      for (const t of timers) clearInterval(t);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The preamble of a test file against a misbehaving service: starts a fault server before the
 * file's tests, forgets its routes and requests after each test and closes it after the last.
 * Returns `server`, which stands for the running fault server (use it inside tests and hooks only),
 * and `env(extra)`, the environment pointing shipbook at it with the API key `key` plus `extra`.
 */
export function hostileServiceEnv(key: string): { server: FaultServer; env: (extra?: Record<string, string>) => Record<string, string> } {
  let running: FaultServer | undefined;
  const live = (): FaultServer => {
    if (running === undefined) throw new Error('the fault server runs only inside the tests of the file that asked for it');
    return running;
  };
  beforeAll(async () => {
    running = await startFaultServer();
  });
  afterEach(() => running?.reset());
  afterAll(async () => {
    await running?.close();
  });
  const server: FaultServer = {
    get url() {
      return live().url;
    },
    get requests() {
      return live().requests;
    },
    set: (route, mode) => live().set(route, mode),
    reset: () => live().reset(),
    received: (n) => live().received(n),
    close: () => live().close(),
  };
  return { server, env: (extra = {}) => ({ SHIPBOOK_BASE_URL: live().url, SHIPBOOK_API_KEY: key, ...extra }) };
}
