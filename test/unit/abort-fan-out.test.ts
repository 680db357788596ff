import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { onAbort, realSleep } from '../../src/sleep.js';
import { linkSignals } from '../../src/api/http.js';
import { Pacer } from '../../src/api/pacer.js';

describe('one abort listener per run', () => {
  it('hangs a thousand waits off one listener of the run signal, and ends them all when it aborts', async () => {
    const controller = new AbortController();
    const { signal } = controller;
    const pacer = new Pacer({ ceiling: 1 });
    const held = await pacer.acquire(signal);
    const waits = [...Array.from({ length: 800 }, () => realSleep(60_000, signal)), ...Array.from({ length: 200 }, () => pacer.acquire(signal))];
    const { signal: linked, unlink } = linkSignals([signal, new AbortController().signal]);
    expect(getEventListeners(signal, 'abort')).toHaveLength(1);
    controller.abort('SIGINT');
    const settled = await Promise.allSettled(waits);
    expect(settled.every((s) => s.status === 'rejected')).toBe(true);
    expect(linked.aborted).toBe(true);
    unlink();
    held.done({ kind: 'ok' });
  });

  it('removes a wait that is over from the fan-out, and calls nothing for it later', () => {
    const controller = new AbortController();
    const called: string[] = [];
    const off = onAbort(controller.signal, () => called.push('first'));
    onAbort(controller.signal, () => called.push('second'));
    off();
    controller.abort();
    expect(called).toEqual(['second']);
  });
});
