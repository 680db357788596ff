/**
 * Server plumbing shared by shipbook's two HTTP servers, the callback receiver
 * (src/booking/receiver.ts) and the sandbox (src/sandbox/server.ts): a JSON answer with its
 * length and no caching, the answer to a request that is not HTTP, listening as a promise, a
 * close that does not wait for idle keep-alive connections, and a listening host as a URL writes it. Nothing here knows either protocol.
 */
import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';

/**
 * Answers with `body` as JSON (`content-length`, `cache-control: no-store`, extra `headers`).
 * Does nothing when an answer was already sent or the connection is gone.
 */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(text);
}

/**
 * Answers a request the server could not take (its `clientError`) and closes the connection:
 * `408 Request Timeout` when the headers or the request took longer than the server allows
 * (`err.code` `ERR_HTTP_REQUEST_TIMEOUT`), else `400 Bad Request` (not valid HTTP). `body` (JSON,
 * or a function of the status) is sent when given, with `headers` besides the usual ones.
 */
export function answerMalformed(socket: Duplex | Socket, body?: unknown, err?: unknown, headers: Record<string, string> = {}): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const timedOut = (err as { code?: string } | undefined)?.code === 'ERR_HTTP_REQUEST_TIMEOUT';
  const [status, reason] = timedOut ? [408, 'Request Timeout'] : [400, 'Bad Request'];
  const value = typeof body === 'function' ? (body as (s: number) => unknown)(status) : body;
  const text = value === undefined ? '' : JSON.stringify(value);
  const type = value === undefined ? '' : 'content-type: application/json\r\n';
  const extra = Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  socket.end(`HTTP/1.1 ${status} ${reason}\r\n${type}${extra}content-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`);
}

/**
 * Starts `server` listening on `host:port` (0 = any free port) and resolves with the port.
 * @throws the listen error (e.g. `EADDRINUSE`, `EADDRNOTAVAIL`), with its `code`
 */
export function listenOn(server: Server, port: number, host: string): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** Stops `server`: no new connections, open ones (idle keep-alive too) closed now; resolves when closed. */
export function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** The host as it goes into a URL: IPv6 in brackets; a wildcard address as the loopback. */
export function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}
