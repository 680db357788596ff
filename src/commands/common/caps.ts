/**
 * The price caps of a run (src/booking/limits.ts) from its flags and its profile: `--max-total` and
 * `--budget` win over the profile's `max-total` and `budget` settings. Read before anything is sent.
 */
import type { Context } from '../../context.js';
import { parseCap, RunBudget, type PriceCaps } from '../../booking/index.js';

/** The flags that set caps. */
export interface CapFlags {
  /** `--max-total <AUD>`: the most one order may cost. */
  maxTotal?: string;
  /** `--budget <AUD>`: the most the run may spend. */
  budget?: string;
}

/**
 * The caps of this run: each from its flag, else the profile's setting, else none. A fresh
 * {@link RunBudget} each call (one per run).
 * @throws UsageError (exit 2) for a flag that is not an amount above 0 (`abc`, `-5`, `0`): nothing is sent
 */
export async function runCaps(flags: CapFlags, ctx: Context): Promise<PriceCaps> {
  const fromFlags = capsOfFlags(flags);
  const profile = await ctx.profile();
  const setting = (key: string) => `setting ${key} of profile ${profile.name}`;
  const maxTotalCents = fromFlags.maxTotalCents ?? (profile.caps?.maxTotal !== undefined ? parseCap(setting('max-total'), profile.caps.maxTotal) : undefined);
  const budgetCents = fromFlags.budgetCents ?? (profile.caps?.budget !== undefined ? parseCap(setting('budget'), profile.caps.budget) : undefined);
  return {
    ...(maxTotalCents !== undefined ? { maxTotalCents } : {}),
    ...(budgetCents !== undefined ? { budget: new RunBudget(budgetCents) } : {}),
  };
}

/**
 * Checks the cap flags alone (no profile read): the first thing a command that takes them does.
 * @throws UsageError (exit 2) as {@link runCaps}
 */
export function capsOfFlags(flags: CapFlags): { maxTotalCents?: number; budgetCents?: number } {
  return {
    ...(flags.maxTotal !== undefined ? { maxTotalCents: parseCap('--max-total', flags.maxTotal) } : {}),
    ...(flags.budget !== undefined ? { budgetCents: parseCap('--budget', flags.budget) } : {}),
  };
}
