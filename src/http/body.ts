/**
 * Reading an incoming HTTP request body with a size limit, shared by the two servers shipbook
 * runs: the callback receiver (src/booking/receiver.ts) and the sandbox (src/sandbox/server.ts).
 */
import type { IncomingMessage } from 'node:http';

/** What {@link readLimitedBody} found: the body as UTF-8 text, or that it was too large. */
export type LimitedBody = { text: string } | { tooLarge: true; drained: boolean };

/**
 * Reads the body of `req` up to `limit` bytes. A larger body is drained (read and discarded) up to
 * 8 × `limit` so that a 413 answer can still reach the client on the same connection; beyond
 * that, or when `content-length` already says so, reading stops (`drained: false`: the caller
 * should close the connection).
 * @throws the request stream's error (a reset connection)
 */
export function readLimitedBody(req: IncomingMessage, limit: number): Promise<LimitedBody> {
  const drainLimit = 8 * limit;
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > drainLimit) {
      resolve({ tooLarge: true, drained: false });
      return;
    }
    const chunks: Buffer[] = [];
    let total = 0;
    let done = false;
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      total += chunk.length;
      if (total <= limit) chunks.push(chunk);
      else if (total > drainLimit) {
        done = true;
        resolve({ tooLarge: true, drained: false });
      }
    });
    req.on('end', () => {
      if (done) return;
      done = true;
      resolve(total > limit ? { tooLarge: true, drained: true } : { text: Buffer.concat(chunks).toString('utf8') });
    });
    req.on('error', (err) => {
      if (done) return;
      done = true;
      reject(err);
    });
  });
}
