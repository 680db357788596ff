/** Reading HTTP bodies with a size limit (src/http/body.ts), as the client reads answers and the servers read requests. */
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readLimited } from '../../src/http/body.js';

describe('readLimited', () => {
  it('reads the chunks of a body as UTF-8 text, a character split between chunks included', async () => {
    const euro = Buffer.from('€');
    const stream = Readable.from([Buffer.from('{"a":"'), euro.subarray(0, 1), euro.subarray(1), Buffer.from('"}')]);
    expect(await readLimited(stream, 100, 100)).toEqual({ text: '{"a":"€"}' });
  });

  it('stops at once past the limit when nothing is to be drained, and when the declared length says so', async () => {
    expect(await readLimited(Readable.from([Buffer.alloc(60), Buffer.alloc(60)]), 100, 100)).toEqual({ tooLarge: true, drained: false });
    const untouched = new PassThrough();
    expect(await readLimited(untouched, 100, 100, 101)).toEqual({ tooLarge: true, drained: false });
  });

  it('drains a body over the limit up to the drain limit', async () => {
    expect(await readLimited(Readable.from([Buffer.alloc(60), Buffer.alloc(60)]), 100, 800)).toEqual({ tooLarge: true, drained: true });
  });

  it('fails with the stream error, and says when the stream closed before its end', async () => {
    const broken = new PassThrough();
    const reading = readLimited(broken, 100, 100);
    broken.write('{"a":');
    broken.destroy(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
    await expect(reading).rejects.toMatchObject({ code: 'ECONNRESET' });

    const cut = new PassThrough();
    const cutReading = readLimited(cut, 100, 100);
    cut.write('{"a":');
    cut.destroy();
    await expect(cutReading).rejects.toMatchObject({ code: 'ERR_STREAM_PREMATURE_CLOSE' });
  });
});
