/**
 * Price caps the user sets, held wherever money is spent (a single `book`, a batch, `order create`):
 *
 * - `--max-total <AUD>` (profile setting `max-total`): the most one order may cost. An order's exact
 *   total is known once it exists (create order answers with it, pending); an order above the cap is
 *   cancelled before anything accepts it;
 * - `--budget <AUD>` (profile setting `budget`): the most a whole run may spend. Before an accept
 *   leaves, the order's exact total is **reserved** against the budget together with every accept of
 *   the run already sent; an order whose total would pass the budget is cancelled instead, and the
 *   orders left are reported with the budget and the amount spent. Reserving before the accept
 *   leaves is what keeps accepts running in parallel from overspending together.
 *
 * Both refusals end with exit 9 (docs/exit-codes.md). Amounts are integer AUD cents.
 */
import { LimitRefusedError, UsageError } from '../errors.js';
import { aud, formatCents, parseAmountInput } from '../schema/money.js';

/**
 * Reads a cap given on the command line or in a profile (`--max-total 50`, `budget: "250.00"`) into
 * AUD cents: a positive amount with at most two decimals.
 * @param what how the user gave it, for the message: `--max-total`, `--budget`, `setting max-total`
 * @throws UsageError (exit 2) for anything else (`abc`, `-5`, `0`): nothing is sent
 */
export function parseCap(what: string, raw: string): number {
  const parsed = parseAmountInput(raw);
  const example = what.includes('budget') ? '--budget 500 or --budget 249.95' : '--max-total 50 or --max-total 49.95';
  if ('problem' in parsed)
    throw new UsageError(`${what}: ${parsed.problem}; nothing was sent`, { suggestion: `Give an amount in AUD above 0, e.g. ${example}.` });
  if (parsed.cents <= 0)
    throw new UsageError(`${what} must be an amount above 0 AUD (got ${raw.trim()}); nothing was sent`, {
      suggestion: `Give an amount in AUD above 0, e.g. ${example}; leave it out for no limit.`,
    });
  return parsed.cents;
}

/** What one accept reserved of a run's budget: committed once the accept left, released when it provably did not spend. */
export interface BudgetReservation {
  /** The accept was sent (its answer came, or may have): the amount counts as spent. */
  commit(): void;
  /** The accept never left, or the service refused it: the amount is free again. */
  release(): void;
}

/**
 * The budget of one run (`--budget`): accepts of the run reserve their order's exact total before
 * they leave; a reservation that would pass the limit is refused. One object per run, shared by all
 * the orders it books at once (JavaScript runs one reservation at a time, so two orders never both
 * see the same room).
 */
export class RunBudget {
  /** Spent: the totals of accepts this run sent, AUD cents. */
  #spent = 0;
  /** Reserved by accepts about to leave or awaiting their answer, AUD cents. */
  #reserved = 0;

  /** @param limitCents the budget, AUD cents (above 0) */
  constructor(readonly limitCents: number) {}

  /** AUD cents spent so far: totals of the accepts this run sent. */
  get spentCents(): number {
    return this.#spent;
  }

  /** AUD cents held by accepts under way (reserved, not yet known to be spent). */
  get heldCents(): number {
    return this.#reserved;
  }

  /** AUD cents still free: the limit less what is spent and reserved (0 or more). */
  get remainingCents(): number {
    return Math.max(0, this.limitCents - this.#spent - this.#reserved);
  }

  /** Reserves `cents` for one accept; undefined when spent + reserved + `cents` would pass the limit. */
  reserve(cents: number): BudgetReservation | undefined {
    if (this.#spent + this.#reserved + cents > this.limitCents) return undefined;
    this.#reserved += cents;
    let open = true;
    const close = (spent: boolean) => {
      if (!open) return;
      open = false;
      this.#reserved -= cents;
      if (spent) this.#spent += cents;
    };
    return { commit: () => close(true), release: () => close(false) };
  }
}

/** The caps of a run; each is absent when not set. */
export interface PriceCaps {
  /** `--max-total`: the most one order may cost, AUD cents. */
  maxTotalCents?: number;
  /** The service-selection rule whose `max_total` `maxTotalCents` is, when it is a rule's rather than `--max-total`. */
  maxTotalRule?: string;
  /** `--budget`: the run's budget. */
  budget?: RunBudget;
  /**
   * For an order the user names (`order accept`): refused without cancelling it, it stays pending
   * (cancelling an order someone created on purpose is theirs to decide). Else an order over a
   * cap is cancelled, as the run that created it made it for this booking only.
   */
  keepPending?: boolean;
}

/** How an order over a cap was dealt with: cancelled (the default), its cancel failed, or kept pending. */
interface Dealt {
  cancelError?: Error;
  kept?: boolean;
}

/** The refusal of an order over a cap, worded once the order is dealt with. */
type CapRefusal = (how?: Dealt) => LimitRefusedError;

/** What became of the order, in the words of a refusal, with its hint and stage. */
function dealtWords(
  orderId: string,
  how: Dealt,
  /** The flag that would let it through, as pasted after `shipbook order accept <id>`. */
  raise: string,
): { words: string; stage: 'cancelled' | 'order_created'; kept?: boolean; suggestion?: string; cause?: Error } {
  if (how.kept)
    return {
      words: 'not accepted; it stays pending (nothing was paid)',
      stage: 'order_created',
      kept: true,
      suggestion: `Accept it with "shipbook order accept ${orderId} ${raise}", or cancel it with "shipbook order cancel ${orderId}".`,
    };
  if (how.cancelError !== undefined)
    return {
      words: `not accepted, and cancelling it failed: ${how.cancelError.message}`,
      stage: 'order_created',
      suggestion: `The order is still pending (nothing was paid): cancel it with "shipbook order cancel ${orderId}".`,
      cause: how.cancelError,
    };
  return { words: 'not accepted, the pending order was cancelled', stage: 'cancelled' };
}

/**
 * The refusal of an order whose exact total is above `--max-total` (exit 9), worded by how the order
 * was dealt with (cancelled by default).
 */
export function overMaxTotal(orderId: string, totalCents: number, limitCents: number, how: Dealt = {}, rule?: string): LimitRefusedError {
  const d = dealtWords(orderId, how, `--max-total ${formatCents(totalCents)}`);
  const cap =
    rule !== undefined ? `the max_total ${aud(limitCents, { grouped: true })} of rule "${rule}"` : `--max-total ${aud(limitCents, { grouped: true })}`;
  return new LimitRefusedError(orderId, totalCents, limitCents, `order ${orderId} costs ${aud(totalCents, { grouped: true })}, above ${cap}: ${d.words}`, {
    stage: d.stage,
    ...(rule !== undefined ? { rule } : {}),
    ...(d.kept ? { kept: true } : {}),
    ...(d.suggestion !== undefined ? { suggestion: d.suggestion } : {}),
    ...(d.cause !== undefined ? { cause: d.cause } : {}),
  });
}

/**
 * The refusal of an order whose exact total would pass the run's `--budget` (exit 9), with the
 * budget and the amount this run spent; `orderId` undefined when the budget was used up before the
 * order was created (nothing was sent for it).
 */
export function overBudget(orderId: string | undefined, totalCents: number | undefined, budget: RunBudget, how: Dealt = {}): LimitRefusedError {
  const held = budget.heldCents > 0 ? ` and ${aud(budget.heldCents, { grouped: true })} held by accepts under way` : '';
  const spent = `${aud(budget.spentCents, { grouped: true })} spent${held}`;
  const limit = `--budget ${aud(budget.limitCents, { grouped: true })}`;
  const options = { limit: 'budget' as const, spentCents: budget.spentCents };
  if (orderId === undefined || totalCents === undefined)
    return new LimitRefusedError(orderId, undefined, budget.limitCents, `not created: ${limit} is used up (${spent} in this run); nothing was sent for it`, {
      ...options,
      stage: 'not_created',
    });
  const d = dealtWords(orderId, how, `--budget ${formatCents(totalCents)}`);
  return new LimitRefusedError(
    orderId,
    totalCents,
    budget.limitCents,
    `order ${orderId} costs ${aud(totalCents, { grouped: true })}, which would pass ${limit} (${spent} in this run): ${d.words}`,
    {
      ...options,
      stage: d.stage,
      ...(d.kept ? { kept: true } : {}),
      ...(d.suggestion !== undefined ? { suggestion: d.suggestion } : {}),
      ...(d.cause !== undefined ? { cause: d.cause } : {}),
    },
  );
}

/**
 * Judges an order's exact total against the caps, before its accept leaves: the refusal to throw
 * (once the order is cancelled, or kept pending) when it is above `--max-total` or would pass the
 * budget, else what it reserved of the budget (to commit once the accept left, or release).
 */
export function judgeCaps(orderId: string, totalCents: number, caps: PriceCaps): { refusal: CapRefusal } | { reservation?: BudgetReservation } {
  const limit = caps.maxTotalCents;
  if (limit !== undefined && totalCents > limit) return { refusal: (how) => overMaxTotal(orderId, totalCents, limit, how, caps.maxTotalRule) };
  const budget = caps.budget;
  if (budget === undefined) return {};
  const reservation = budget.reserve(totalCents);
  return reservation === undefined ? { refusal: (how) => overBudget(orderId, totalCents, budget, how) } : { reservation };
}
