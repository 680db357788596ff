/**
 * Reading a whole stream (standard input, a file stream) into memory, for the commands and the
 * input readers that need all of it at once.
 */
import type { Readable } from 'node:stream';

/**
 * Everything `stream` holds, as bytes (string chunks as UTF-8). With `limit`, reading stops as soon
 * as more than `limit.bytes` have arrived: what `limit.tooLarge()` returns is thrown.
 * @throws the stream's error; `limit.tooLarge()`'s error past the limit
 */
export async function readAll(stream: Readable, limit?: { bytes: number; tooLarge: () => Error }): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    size += buf.length;
    if (limit !== undefined && size > limit.bytes) throw limit.tooLarge();
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}
