import { describe, expect, it } from 'vitest';
import { Pacer, type PaceEvent, type PaceTicket } from '../../src/api/pacer.js';
import { parseRetryAfter } from '../../src/api/http.js';
import { parseRate } from '../../src/input/flags.js';
import { ratePerSecond } from '../../src/config/schema.js';

/** A clock that moves only when told, and timers that fire when it passes them. */
function fakeTime(start = 1_000_000) {
  let now = start;
  let timers: Array<{ at: number; fn: () => void; live: boolean }> = [];
  return {
    now: () => now,
    timer: (fn: () => void, ms: number) => {
      const t = { at: now + ms, fn, live: true };
      timers.push(t);
      return () => {
        t.live = false;
      };
    },
    /** Moves the clock by `ms`, firing the timers due on the way, then lets promises settle. */
    async advance(ms: number) {
      const end = now + ms;
      for (;;) {
        const due = timers.filter((t) => t.live && t.at <= end).sort((a, b) => a.at - b.at)[0];
        if (due === undefined) break;
        now = Math.max(now, due.at);
        due.live = false;
        timers = timers.filter((t) => t.live);
        due.fn();
        await flush();
      }
      now = end;
      await flush();
    },
  };
}

const flush = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

/** Starts `n` acquisitions and records which have been admitted. */
function request(pacer: Pacer, n: number, signal?: AbortSignal) {
  const admitted: PaceTicket[] = [];
  const settled: Array<Promise<void>> = [];
  for (let i = 0; i < n; i++) {
    settled.push(
      pacer.acquire(signal).then(
        (t) => void admitted.push(t),
        () => {},
      ),
    );
  }
  return { admitted, settled };
}

describe('the pacer', () => {
  it('pauses every request until a Retry-After given in seconds, not only the refused one', async () => {
    const time = fakeTime();
    const pacer = new Pacer({ ceiling: 4, now: time.now, timer: time.timer });
    const events: PaceEvent[] = [];
    pacer.subscribe((e) => events.push(e));
    const first = await pacer.acquire();
    first.done({ kind: 'limited', status: 429, retryAfterMs: parseRetryAfter('2', time.now()) });
    expect(events).toEqual([{ kind: 'paused', status: 429, until: time.now() + 2000, waitMs: 2000 }]);
    const later = request(pacer, 3);
    await time.advance(1999);
    expect(later.admitted).toHaveLength(0);
    await time.advance(1);
    expect(later.admitted.length).toBeGreaterThan(0);
    expect(events.at(-1)).toEqual({ kind: 'resumed' });
  });

  it('pauses until a Retry-After given as an HTTP date', async () => {
    const time = fakeTime(Date.parse('2026-01-01T00:00:00Z'));
    const pacer = new Pacer({ ceiling: 2, now: time.now, timer: time.timer });
    const retryAfterMs = parseRetryAfter('Thu, 01 Jan 2026 00:00:03 GMT', time.now());
    expect(retryAfterMs).toBe(3000);
    (await pacer.acquire()).done({ kind: 'limited', status: 503, retryAfterMs });
    const later = request(pacer, 1);
    await time.advance(2999);
    expect(later.admitted).toHaveLength(0);
    await time.advance(1);
    expect(later.admitted).toHaveLength(1);
  });

  it('halves the requests in flight on a 429 (once per round), never below 1, and grows by one per window of good answers', async () => {
    const time = fakeTime();
    const pacer = new Pacer({ ceiling: 8, now: time.now, timer: time.timer });
    expect(pacer.limit).toBe(8);
    const round = await Promise.all(Array.from({ length: 8 }, () => pacer.acquire()));
    // Eight requests of one round refused: one cut, not eight.
    for (const t of round) t.done({ kind: 'limited', status: 429, retryAfterMs: 0 });
    expect(pacer.limit).toBe(4);
    for (const expected of [2, 1, 1]) {
      (await pacer.acquire()).done({ kind: 'limited', status: 429, retryAfterMs: 0 });
      expect(pacer.limit).toBe(expected);
    }
    // One good answer at a limit of 1 is a window: 2; two more: 3.
    await time.advance(10_000);
    (await pacer.acquire()).done({ kind: 'ok' });
    expect(pacer.limit).toBe(2);
    for (let i = 0; i < 2; i++) (await pacer.acquire()).done({ kind: 'ok' });
    expect(pacer.limit).toBe(3);
  });

  it('keeps no more requests in flight than the limit: the next leaves when one is answered', async () => {
    const time = fakeTime();
    const pacer = new Pacer({ ceiling: 2, now: time.now, timer: time.timer });
    const r = request(pacer, 3);
    await flush();
    expect(r.admitted).toHaveLength(2);
    r.admitted[0]!.done({ kind: 'ok' });
    await flush();
    expect(r.admitted).toHaveLength(3);
  });

  it('spaces requests to --rate from the first one', async () => {
    const time = fakeTime();
    const pacer = new Pacer({ ceiling: 16, ratePerSecond: 4, now: time.now, timer: time.timer });
    const r = request(pacer, 8);
    await flush();
    expect(r.admitted).toHaveLength(1);
    await time.advance(1000);
    expect(r.admitted).toHaveLength(5); // one every 250 ms
    await time.advance(750);
    expect(r.admitted).toHaveLength(8);
    expect(pacer.rate).toBe(4);
  });

  it('learns the pace the service accepted from a 429: less than what it took in the last second', async () => {
    const time = fakeTime();
    const pacer = new Pacer({ ceiling: 4, now: time.now, timer: time.timer });
    expect(pacer.rate).toBeUndefined();
    for (let i = 0; i < 30; i++) {
      (await pacer.acquire()).done({ kind: 'ok' });
      await time.advance(10);
    }
    (await pacer.acquire()).done({ kind: 'limited', status: 429, retryAfterMs: 1000 });
    expect(pacer.rate).toBe(28.5);
    // Quiet time lets it grow back slowly towards the pace that was refused: no new 429 for half a minute …
    await time.advance(20_000);
    expect(pacer.rate).toBeGreaterThan(28.5);
    expect(pacer.rate).toBeLessThan(29.5);
    await time.advance(20_000);
    expect(pacer.rate).toBeLessThan(30.1);
    // … and faster once past it without a refusal: a limit that was raised is followed within minutes.
    await time.advance(60_000);
    expect(pacer.rate).toBeGreaterThan(50);
  });

  it('counts the requests in flight at the 429 that the service accepted, though they answer after it', async () => {
    const time = fakeTime();
    const pacer = new Pacer({ ceiling: 64, now: time.now, timer: time.timer });
    const held = [];
    for (let i = 0; i < 30; i++) {
      held.push(await pacer.acquire());
      await time.advance(20);
    }
    // A limiter in front of the service refuses the 31st at once, while the 30 before it are still on their way.
    (await pacer.acquire()).done({ kind: 'limited', status: 429, retryAfterMs: 1000 });
    for (const t of held) t.done({ kind: 'ok' });
    expect(pacer.rate).toBe(28.5);
  });

  it('gives up a wait when the signal aborts, and the request never leaves', async () => {
    const time = fakeTime();
    const pacer = new Pacer({ ceiling: 1, now: time.now, timer: time.timer });
    const held = await pacer.acquire();
    const controller = new AbortController();
    const waiting = pacer.acquire(controller.signal);
    controller.abort('SIGINT');
    await expect(waiting).rejects.toBe('SIGINT');
    held.done({ kind: 'ok' });
    expect(pacer.limit).toBe(1);
    // The place is free for the next request.
    const next = request(pacer, 1);
    await flush();
    expect(next.admitted).toHaveLength(1);
  });
});

describe('--rate and the rate setting', () => {
  it('reads requests per second or per minute, and refuses anything else', () => {
    expect(parseRate('--rate', '30/s')).toBe(30);
    expect(parseRate('--rate', '2')).toBe(2);
    expect(parseRate('--rate', '600/m')).toBe(10);
    expect(() => parseRate('--rate', 'fast')).toThrow('--rate "fast" is not a pace');
    expect(() => parseRate('--rate', '0')).toThrow('is not a pace');
    expect(ratePerSecond('0.5/s')).toBe(0.5);
    expect(ratePerSecond('x')).toBeUndefined();
  });
});

describe('the pace when timers fire late', () => {
  it('keeps the rate when each wake-up comes late by less than an interval, and spends no quiet time as a burst', async () => {
    let now = 1_000_000;
    const due: Array<{ at: number; fn: () => void }> = [];
    // Every timer fires 60 ms after it was due (a busy event loop).
    const timer = (fn: () => void, ms: number) => (due.push({ at: now + ms + 60, fn }), () => {});
    const pacer = new Pacer({ ceiling: 64, ratePerSecond: 10, now: () => now, timer });
    const r = request(pacer, 40);
    await flush();
    while (now < 1_000_000 + 3_000) {
      now += 1;
      for (const t of due.splice(0).filter((x) => (x.at <= now ? true : (due.push(x), false)))) t.fn();
      await Promise.resolve();
    }
    await flush();
    // Three seconds at 10/s: 31 at most, and not the 19 that 160 ms per request would give.
    expect(r.admitted.length).toBeGreaterThanOrEqual(29);
    expect(r.admitted.length).toBeLessThanOrEqual(31);
  });
});
