/**
 * What a batch says about its inputs: each one's result ({@link BatchResult}, with what to do next
 * about an order that is not booked, as data), the counts of a run ({@link BatchSummary}), the
 * results of the documents the runner leaves alone (what the ledger said, or a price cap that held
 * them), and the stage an input stands at when the batch stopped before it was done with it, from
 * the ledger's record of it ({@link lastKnown}). The runner (src/booking/batch/runner.ts) makes them; the
 * reports and src/output/ write them.
 */
import type { Resume } from '../engine.js';
import { resumeFrom } from '../engine.js';
import { CLAIMS_LOCK_WAIT, ShipbookError, exitCodeOf, type InputIssue, type LimitRefusedError } from '../../errors.js';
import type { EntryState } from '../../ledger/index.js';
import { aud, formatCents } from '../../schema/money.js';

/**
 * What to do next about an order that is not booked, as data (the words and the command lines are
 * written by src/output/ledger.ts):
 * - `rerun`: run the same command again (it continues the order, never books it twice);
 * - `fix_and_rerun`: nothing was created; fix the cause, then run it again;
 * - `resolve`: a create whose answer never came: find out, then `shipbook journal resolve`;
 * - `combine`: shipments created and not combined: combine them, then resolve;
 * - `fix_mail`: an order sent by consolidated mail whose shipments were created and whose combine
 *   the service refused: fix the mail settings, record it not created, run again;
 * - `see`: the booking ended (failed at the carrier): see the order;
 * - `raise_limit`: refused by `--max-total` (or the `max_total` of `rule`); a run with a limit of at least `total` books it;
 * - `raise_budget`: left by `--budget` (cancelled, or never created); a run with room for it books it;
 * - `link_or_again`: booked under another key (`account`) of the service: link, separate, or `--again`.
 */
export type NextStep =
  | { action: 'rerun'; order_id?: string }
  | { action: 'fix_and_rerun' }
  | { action: 'resolve'; identity: string }
  | { action: 'combine'; identity: string; shipment_ids: string[] }
  | { action: 'fix_mail'; identity: string; shipment_ids: string[] }
  | { action: 'see'; order_id: string }
  | { action: 'raise_limit'; total: string; rule?: string }
  | { action: 'raise_budget'; total?: string }
  | { action: 'link_or_again'; account: string };

/** What this run would do with a document (`--dry-run`), from the ledger's resume table. */
export type PlannedAction =
  | { action: 'book' }
  | { action: 'already_booked'; order_id: string }
  | { action: 'continue'; order_id: string; stage: 'created' | 'accepted' }
  | { action: 'unknown' }
  | { action: 'combine'; shipment_ids: string[] }
  | { action: 'ended'; order_id: string }
  | { action: 'over_limit'; order_id: string }
  | { action: 'invalid' };

/** What became of one order of the batch. */
export interface BatchResult {
  /** The order's identity (hash of its content and occurrence). */
  id: string;
  file: string;
  line: number;
  /**
   * `booked` now, `already_booked` by an earlier run, `failed`, `unknown` (a create whose answer
   * never came), `accepted` (accepted and paid, its booking result not read yet: the next run or
   * `order get` reads it; never failed), `invalid` (with --skip-invalid), `valid` (dry run); after an interruption
   * `still_booking` (accepted, the booking goes on at the service), `pending` (created, not
   * accepted), `not_started` (nothing sent); `booked_by_other_run`: another run booking at the same
   * time held it and booked it (its order id), so this run sent nothing for it. `over_limit`: its
   * exact total is above `--max-total` (now or in an earlier run): cancelled before acceptance, its
   * `total` given; `over_budget`: its total would have passed the run's `--budget` (cancelled before
   * acceptance), or the budget was used up before it was created (nothing sent for it).
   */
  status:
    | 'booked'
    | 'already_booked'
    | 'booked_by_other_run'
    | 'accepted'
    | 'failed'
    | 'unknown'
    | 'invalid'
    | 'valid'
    | 'still_booking'
    | 'pending'
    | 'not_started'
    | 'over_limit'
    | 'over_budget';
  order_id?: string;
  shipment_ids?: string[];
  tracking_numbers?: string[];
  /** Total price, AUD, decimal string. */
  total?: string;
  /** With `book --documents DIR`: the files of the order's customs papers (made now, or before). */
  documents?: string[];
  /** Requests that changed something at the service for this order in this run (creates, accepts). */
  attempts: number;
  error?: { code: string; message: string; exit_code?: number };
  /** What to do next, as data, for orders that are not booked. */
  next?: NextStep;
  /** What to do next in words (written from `next` by the command, src/output/ledger.ts). */
  hint?: string;
  /** Seconds this run spent on the order, from its first request to its result (the JUnit report's `time`). */
  seconds?: number;
  /** For `booked_by_other_run`: the run that held it, on which station (host) and process. */
  booked_by?: { host: string; pid: number };
  /** Dry run: what this run would do with the document. */
  plan?: PlannedAction;
  issues?: InputIssue[];
  /** Warnings of the document (an address the checks question, a pickup date in the past …), when it had any. */
  warnings?: InputIssue[];
  /**
   * Under service-selection rules (src/booking/rules/): each shipment's choice, with its `service`,
   * the `rule`, the `reason`, the runner-up and the quote it was made from.
   */
  service_choice?: ReadonlyArray<{ service?: string; reason: string }>;
  /**
   * An order the rules sent by consolidated mail: the parent order its shipments were combined
   * into (`order_id` is the same), the identity of that combination in the ledger, how many orders
   * it combined, its total (AUD, decimal string: the children and the main shipment), and whether a
   * main shipment carried them to the hub (else free pickup).
   */
  consolidated?: { parent_order_id?: string; identity: string; orders: number; parent_total?: string; main_shipment: boolean };
}

/** How a batch ended. */
export interface BatchSummary {
  booked: number;
  already_booked: number;
  /** Booked by another run that held them while this one ran (counted in that run's total, not this one's). */
  booked_by_other_run: number;
  /** Accepted (paid), the booking result not read yet (a timeout, a service that would not show it): the next run reads it. */
  accepted: number;
  failed: number;
  unknown: number;
  invalid: number;
  /** Interrupted: accepted orders whose booking goes on at the service (the next run waits for them). */
  still_booking: number;
  /** Interrupted: orders created and pending, not accepted (the next run accepts them). */
  pending: number;
  /** Interrupted: inputs this run never started (the next run books them). */
  not_started: number;
  /** Refused by `--max-total` (cancelled before acceptance, now or by an earlier run). */
  over_limit: number;
  /** Left by `--budget`: cancelled before acceptance, or never created once it was used up. */
  over_budget: number;
  /** With `--budget`: the budget and what this run's accepts spent, AUD decimal strings. */
  budget?: { limit: string; spent: string };
  /** Sum of the totals of the orders booked or already booked, AUD cents. */
  totalCents: number;
  interrupted: boolean;
  /**
   * Set when the batch stopped because the ledger or the journal took no more records (a full
   * disk, a lost database, the journal's lock taken), or because the ledger's claims lock stayed
   * held by another run ({@link CLAIMS_LOCK_WAIT}): that error's code. Every input is still
   * reported, at the stage the ledger last knew.
   */
  stopped_by?: string;
}

/** A failure as a result's `error`: code, message and exit code. */
export const errorOf = (err: unknown) =>
  err instanceof ShipbookError
    ? { code: err.code, message: err.message, exit_code: err.exitCode }
    : { code: 'internal', message: err instanceof Error ? err.message : String(err) };

/**
 * A batch that stopped because the ledger or its journal took no more records (`cause`: the error
 * that says so, exit 10 or 11), after reporting every input: `summary` counts them.
 */
export class BatchStoppedError extends Error {
  constructor(
    readonly summary: BatchSummary,
    override readonly cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.name = 'BatchStoppedError';
  }
}

/** What a rerun says of an order whose combine the service refused before: its shipments, and the service's message. */
function combineRefusedText(shipmentIds: readonly string[], message: string): string {
  return `an earlier run created shipments ${shipmentIds.join(', ')} for it and the service refused to combine them: ${message}`;
}

/**
 * What the ledger's answer means for a batch's report when there is nothing to book (see
 * {@link resumeFrom}): already booked, unknown, shipments to combine, ended, over the limit.
 */
export function skippedResult(base: Pick<BatchResult, 'id' | 'file' | 'line'>, resume: Exclude<Resume, { action: 'book' | 'accept' | 'wait' }>): BatchResult {
  const { state } = resume;
  const shipments = state.shipmentIds.length > 0 ? { shipment_ids: state.shipmentIds } : {};
  switch (resume.action) {
    case 'already_booked':
      return {
        ...base,
        status: 'already_booked',
        order_id: resume.orderId,
        tracking_numbers: state.trackingNumbers,
        ...(state.total ? { total: state.total } : {}),
        attempts: 0,
      };
    case 'unknown':
      return {
        ...base,
        status: 'unknown',
        attempts: 0,
        ...shipments,
        error: {
          code: 'answer_lost',
          message: `a ${state.unknownStep ?? 'create'} request was sent in an earlier run and its answer never came: the order may exist`,
        },
        next: { action: 'resolve', identity: base.id },
      };
    case 'combine':
      if (state.error?.code === 'combine_refused')
        return {
          ...base,
          status: 'failed',
          attempts: 0,
          ...shipments,
          error: { ...state.error, message: combineRefusedText(state.shipmentIds, state.error.message) },
          next: { action: 'fix_mail', identity: base.id, shipment_ids: state.shipmentIds },
        };
      return {
        ...base,
        status: 'failed',
        attempts: 0,
        ...shipments,
        error: state.error ?? { code: 'incomplete', message: `shipments ${state.shipmentIds.join(', ')} were created and not combined` },
        next: { action: 'combine', identity: base.id, shipment_ids: state.shipmentIds },
      };
    case 'ended':
      return {
        ...base,
        status: 'failed',
        attempts: 0,
        order_id: resume.orderId,
        ...shipments,
        error: state.error ?? { code: 'booking_failed', message: `order ${resume.orderId} failed` },
        next: { action: 'see', order_id: resume.orderId },
      };
    case 'over_limit':
      return {
        ...base,
        status: 'over_limit',
        total: formatCents(resume.totalCents),
        attempts: 0,
        order_id: resume.orderId,
        error: {
          code: 'limit_refused',
          message: `refused before: order ${resume.orderId} cost ${aud(resume.totalCents)}, over --max-total ${state.limit ?? '?'} (it was cancelled); this run's limit is still below it`,
          exit_code: exitCodeOf('limit_refused'),
        },
        next: { action: 'raise_limit', total: formatCents(resume.totalCents) },
      };
  }
}

/**
 * The result of an order held to a cap (src/booking/limits.ts): `over_limit` or `over_budget`, with
 * its order id and exact total when it was created, the refusal as its error, and what to do next
 * (a higher `--max-total`, or a run with room in its budget).
 */
export function capResult(base: Pick<BatchResult, 'id' | 'file' | 'line'>, refusal: LimitRefusedError, attempts: number): BatchResult {
  const total = refusal.totalCents === undefined ? undefined : formatCents(refusal.totalCents);
  return {
    ...base,
    status: refusal.limit === 'budget' ? 'over_budget' : 'over_limit',
    attempts,
    ...(refusal.orderId !== undefined ? { order_id: refusal.orderId } : {}),
    ...(total !== undefined ? { total } : {}),
    error: { code: refusal.code, message: refusal.message, exit_code: refusal.exitCode },
    next:
      refusal.limit === 'budget'
        ? { action: 'raise_budget', ...(total !== undefined ? { total } : {}) }
        : { action: 'raise_limit', total: total ?? '', ...(refusal.rule !== undefined ? { rule: refusal.rule } : {}) },
  };
}

/**
 * An input at the stage the ledger last knew (`state`), for a batch that stopped before it was
 * done with it: `why` is the error that stopped the batch (a ledger that takes no more records),
 * or undefined for an interruption (Ctrl-C, SIGTERM, a closed stdout, or the process ending at once).
 * Accepted: `still_booking`; created: `pending`; nothing sent: `not_started`; a create sent whose
 * answer is unknown (never came, or not recorded): `unknown`, to settle with `journal resolve`;
 * otherwise what the ledger says (booked, failed …; `over_limit` for an order an earlier run's
 * `--max-total` refused whose total is still above this run's `maxTotalCents`).
 */
export function lastKnown(
  base: Pick<BatchResult, 'id' | 'file' | 'line'>,
  state: EntryState | undefined,
  why: unknown,
  attempts = 0,
  options: { maxTotalCents?: number } = {},
): BatchResult {
  const resume = resumeFrom(state, options);
  const stopped =
    why === undefined
      ? { code: 'interrupted', words: 'interrupted', exit_code: exitCodeOf('interrupted') }
      : {
          code: why instanceof ShipbookError ? why.code : 'stopped',
          words:
            why instanceof ShipbookError && why.code === CLAIMS_LOCK_WAIT
              ? "the batch stopped (the ledger's claims lock stayed held by another run)"
              : 'the batch stopped (the ledger took no more records)',
          exit_code: why instanceof ShipbookError ? why.exitCode : exitCodeOf('internal'),
        };
  const order = state?.orderId !== undefined ? { order_id: state.orderId } : {};
  const shipments = state !== undefined && state.shipmentIds.length > 0 ? { shipment_ids: state.shipmentIds } : {};
  const error = (message: string) => ({ code: stopped.code, message: `${stopped.words}: ${message}`, exit_code: stopped.exit_code });
  switch (resume.action) {
    case 'wait':
      return {
        ...base,
        status: 'still_booking',
        attempts,
        ...order,
        ...shipments,
        error: error(`order ${resume.orderId} is accepted and its booking goes on at the service`),
        next: { action: 'rerun' },
      };
    case 'accept':
      return {
        ...base,
        status: 'pending',
        attempts,
        ...order,
        ...shipments,
        error: error(`order ${resume.orderId} is created and pending, not accepted`),
        next: { action: 'rerun' },
      };
    case 'book':
      return {
        ...base,
        status: 'not_started',
        attempts,
        ...(why === undefined ? {} : { error: error('not started: nothing was sent for it') }),
        next: { action: 'rerun' },
      };
    case 'unknown':
      return {
        ...base,
        status: 'unknown',
        attempts,
        ...order,
        ...shipments,
        error: {
          code: 'answer_unknown',
          message: `sent, answer unknown: its ${(state?.unknownStep ?? 'create').replace('_', ' ')} request was sent and its answer never came or was not recorded, so the order may exist`,
        },
        next: { action: 'resolve', identity: base.id },
      };
    default:
      return { ...skippedResult(base, resume), attempts };
  }
}

/** A summary of no order at all: every count 0, not interrupted (the start of every count). */
export function emptySummary(): BatchSummary {
  return {
    booked: 0,
    already_booked: 0,
    booked_by_other_run: 0,
    accepted: 0,
    failed: 0,
    unknown: 0,
    invalid: 0,
    still_booking: 0,
    pending: 0,
    not_started: 0,
    over_limit: 0,
    over_budget: 0,
    totalCents: 0,
    interrupted: false,
  };
}
