/**
 * Reading an HTTP body with a size limit, shared by the two servers shipbook runs (the callback
 * receiver, src/booking/receiver.ts, and the sandbox, src/sandbox/server.ts) and by the API client
 * reading answers (src/api/http.ts).
 */
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';

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
  return readLimited(req, limit, 8 * limit, Number(req.headers['content-length']));
}

/**
 * Reads a stream (an HTTP body) as UTF-8 text of at most `limit` bytes, with listeners rather
 * than an async iterator (the iterator cost the client more per answer than undici's
 * parsing). Past `limit`, the rest is read and discarded up to `drainLimit` bytes (`drained:
 * true`); past that, or when `declared` (the content-length, NaN when unknown) already exceeds it,
 * reading stops at once (`drained: false`): the caller destroys the stream or closes the connection.
 * @throws the stream's error; `ERR_STREAM_PREMATURE_CLOSE` when it closes before its end
 */
export function readLimited(stream: Readable, limit: number, drainLimit: number, declared = Number.NaN): Promise<LimitedBody> {
  return new Promise((resolve, reject) => {
    if (Number.isFinite(declared) && declared > drainLimit) {
      resolve({ tooLarge: true, drained: false });
      return;
    }
    const chunks: Buffer[] = [];
    let total = 0;
    let done = false;
    stream.on('data', (chunk: Buffer) => {
      if (done) return;
      total += chunk.length;
      if (total <= limit) chunks.push(chunk);
      else if (total > drainLimit) {
        done = true;
        resolve({ tooLarge: true, drained: false });
      }
    });
    stream.on('end', () => {
      if (done) return;
      done = true;
      resolve(
        total > limit
          ? { tooLarge: true, drained: true }
          : { text: chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8') },
      );
    });
    stream.on('error', (err) => {
      if (done) return;
      done = true;
      reject(err);
    });
    // Closed without an end or an error (destroyed by someone else): as an async iterator would say.
    stream.on('close', () => {
      if (done) return;
      done = true;
      reject(Object.assign(new Error('the body closed before it ended'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    });
  });
}
