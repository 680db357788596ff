/**
 * The run's budget (src/booking/limits.ts): accepts reserve their order's exact total before they
 * leave, so accepts running at the same time can never spend more than the budget together.
 */
import { describe, expect, it } from 'vitest';
import { overBudget, parseCap, RunBudget } from '../../src/booking/limits.js';

describe('the budget of a run', () => {
  it('refuses a reservation that would pass it while others are still in flight', () => {
    const budget = new RunBudget(10_000);
    const a = budget.reserve(4_730);
    const b = budget.reserve(4_730);
    expect(a).toBeDefined();
    expect(b).toBeDefined();
    // Neither is spent yet, but both are held: a third order of 8.37 AUD finds no room.
    expect(budget.reserve(837)).toBeUndefined();
    expect(budget.remainingCents).toBe(540);
    a!.commit();
    b!.release();
    expect(budget.spentCents).toBe(4_730);
    expect(budget.remainingCents).toBe(5_270);
    // Closing twice changes nothing.
    a!.commit();
    b!.commit();
    expect(budget.spentCents).toBe(4_730);
  });

  it('reports an order left with the budget and the amount spent', () => {
    const budget = new RunBudget(10_000);
    budget.reserve(9_460)!.commit();
    const err = overBudget('ORD-3', 4_730, budget);
    expect(err.code).toBe('budget_refused');
    expect(err.exitCode).toBe(9);
    expect(err.message).toBe(
      'order ORD-3 costs 47.30 AUD, which would pass --budget 100.00 AUD (94.60 AUD spent in this run): not accepted, the pending order was cancelled',
    );
    expect(overBudget(undefined, undefined, budget).stage).toBe('not_created');
  });

  it('takes only amounts above 0 for --budget', () => {
    expect(parseCap('--budget', '250')).toBe(25_000);
    for (const bad of ['abc', '-5', '0', '0.00', '1.234']) expect(() => parseCap('--budget', bad), bad).toThrow(/--budget/);
  });
});
