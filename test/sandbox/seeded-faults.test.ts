/**
 * Faults drawn from a seed (`shipbook sandbox --seed`): the same request meets the same fault
 * whatever came before it or in between (a batch against such a sandbox: test/e2e/seeded-faults.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { FaultInjector } from '../../src/sandbox/faults.js';

const decisions = (injector: FaultInjector, keys: string[]) => keys.map((k) => `${k}:${injector.decide('/orders/', k).kind}`);

describe('seeded faults', () => {
  it('give each request with the same key and count the same fault, in any interleaving', () => {
    const faults = { failRate: 0.3, resetRate: 0.3, seed: 7 };
    const keys = Array.from({ length: 40 }, (_, i) => `POST /orders/ order-${i % 10}`);
    const first = decisions(new FaultInjector(faults), keys);
    const shuffled = [...keys.keys()].sort((a, b) => ((a * 7919) % 40) - ((b * 7919) % 40));
    const second = new FaultInjector(faults);
    const again = new Map<number, string>();
    // The n-th request of each key meets the same fault, whatever other keys came in between.
    const countOf = new Map<string, number>();
    const nth = keys.map((k) => {
      const n = (countOf.get(k) ?? 0) + 1;
      countOf.set(k, n);
      return n;
    });
    const byKeyAndCount = new Map(keys.map((k, i) => [`${k}#${nth[i]}`, first[i]]));
    const seen = new Map<string, number>();
    for (const i of shuffled) {
      const k = keys[i]!;
      const n = (seen.get(k) ?? 0) + 1;
      seen.set(k, n);
      again.set(i, `${k}:${second.decide('/orders/', k).kind}`);
      expect(again.get(i)).toBe(byKeyAndCount.get(`${k}#${n}`));
    }
    expect(new Set(first.map((d) => d.split(':').at(-1)))).toEqual(new Set(['none', 'fail', 'reset-before', 'reset-after']));
    // Another seed, other faults.
    expect(decisions(new FaultInjector({ ...faults, seed: 8 }), keys)).not.toEqual(first);
  });
});
