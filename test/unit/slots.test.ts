/** The request slots of a batch (src/booking/batch/slots.ts): a bound, first come first served, and release on failure. */
import { describe, expect, it } from 'vitest';
import { Slots } from '../../src/booking/batch/slots.js';

const tick = () => new Promise((r) => setImmediate(r));

describe('Slots', () => {
  it('lets at most `size` hold a slot, and serves the waiters in the order they came', async () => {
    const slots = new Slots(2);
    const order: number[] = [];
    await slots.acquire();
    await slots.acquire();
    expect(slots.held).toBe(2);
    const waiters = [1, 2, 3].map((n) => slots.acquire().then(() => order.push(n)));
    await tick();
    expect(order).toEqual([]);
    slots.release();
    await tick();
    expect(order).toEqual([1]);
    slots.release();
    slots.release();
    await Promise.all(waiters);
    expect(order).toEqual([1, 2, 3]);
    expect(slots.held).toBe(2);
  });

  it('run() never has more than `size` tasks at once and gives the slot back when a task fails', async () => {
    const slots = new Slots(3);
    let now = 0;
    let most = 0;
    const task = async (n: number) => {
      now++;
      most = Math.max(most, now);
      await new Promise((r) => setTimeout(r, 1 + (n % 4)));
      now--;
      if (n % 5 === 0) throw new Error(`task ${n}`);
      return n;
    };
    const results = await Promise.allSettled(Array.from({ length: 40 }, (_, n) => slots.run(() => task(n))));
    expect(most).toBe(3);
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(8);
    expect(slots.held).toBe(0);
  });

  it('a newcomer does not overtake a waiter when a slot comes free', async () => {
    const slots = new Slots(1);
    await slots.acquire();
    const got: string[] = [];
    const first = slots.acquire().then(() => got.push('waiter'));
    slots.release();
    const second = slots.acquire().then(() => got.push('newcomer'));
    await first;
    slots.release();
    await second;
    expect(got).toEqual(['waiter', 'newcomer']);
  });
});
