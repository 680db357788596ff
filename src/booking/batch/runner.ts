/**
 * The batch runner: books many documents, a bounded number of orders at once, through the booking engine
 * (src/booking/engine.ts), which decides from the ledger where each document stands and records
 * every step: processed orders are skipped (already booked), created ones accepted (not created
 * again), accepted ones waited for (by the run's one callback receiver where the callback route
 * works, else by polling; an order an earlier run accepted by polling), and a create whose answer never came is **unknown**
 * and never sent again until `shipbook journal resolve` says what became of it. It has no retry of
 * its own: the API client retries each request under its endpoint's policy, and an order that
 * still fails is continued by the next run.
 *
 * Interrupted (its signal aborted), it starts no new order and names every input in its results,
 * those it never started too. It draws nothing: every order is reported through `onResult`.
 */
import type { HintStyle } from '../../shell.js';
import type { ApiClient } from '../../api/client.js';
import type { OrderPaths } from '../../api/orders.js';
import type { BookingDocument } from '../book.js';
import { bookEntry, claimEntry, contradictedAccept, resumeFrom, stoppedAs } from '../engine.js';
import { BookingStoppedError } from '../progress.js';
import { pollForResult } from '../wait.js';
import { CLAIMS_LOCK_WAIT, LimitRefusedError, ShipbookError, exitCodeOf } from '../../errors.js';
import type { PriceCaps } from '../limits.js';
import { validateKind } from '../../input/validate.js';
import type { AcceptRequest } from '../../schema/payment.js';
import type { OrderResponse } from '../../schema/order.js';
import type { RunWaiter } from '../result/route.js';
import { isConsolidatedDocument } from '../../schema/consolidated.js';
import { IdentityCounter, inShard, type Shard } from '../../ledger/index.js';
import type { BatchInputOptions } from './inputs.js';
import { batchItems, fromList, type BatchCheck, type BatchItem } from './check.js';
import { Slots } from './slots.js';
import type { MailGroups } from './mail.js';
import type { EntryState, RunClaim } from '../../ledger/index.js';
import type { RecordSink } from '../record.js';
import { formatCents, readCents } from '../../schema/money.js';
import { onAbort } from '../../sleep.js';
import { BookedElsewhereError, ClaimsLockWaitError } from '../../ledger/index.js';
import { BatchStoppedError, capResult, emptySummary, errorOf, lastKnown, skippedResult, type BatchResult, type BatchSummary } from './results.js';

/** What the runner uses. */
interface BatchDeps {
  api: ApiClient;
  /** Builds the accept request of an order (payment flags, file or the profile's default). */
  accept: (orderId: string) => Promise<AcceptRequest>;
  paths?: OrderPaths;
  /** The ledger of the target, with the batch's journal copy. */
  ledger: RecordSink;
  /** The run's price caps (`--max-total`, `--budget`): every order is held to them before its accept leaves. */
  caps?: PriceCaps;
  /** Orders being created and accepted at once at most (`--concurrency`), ≥ 1. */
  concurrency: number;
  /** Polling the booking result: interval and overall wait, ms. */
  pollMs: number;
  timeoutMs: number;
  /** How the command in a wait's error is written: the run's hint style; default a POSIX shell, no `--profile`. */
  hints?: HintStyle;
  /**
   * The run's callback receiver (src/booking/result/run-callbacks.ts), where the callback route
   * works: every accept sends its URL and the orders this run accepts wait for their callback,
   * sending no poll while it comes. Absent: every order polls.
   */
  callbacks?: RunWaiter;
  /**
   * Stops taking new orders once aborted (the first Ctrl-C or SIGTERM, a closed stdout): orders
   * under way start no new step, requests already sent finish within their deadline, and waits end.
   */
  signal?: AbortSignal;
  now: () => Date;
  /** Every finished order, as it finishes (from several orders at once: must not throw). */
  onResult: (result: BatchResult) => void;
  /**
   * An order another live run holds in the ledger (it is booking it now): this run leaves it and,
   * once its own orders are done, waits for that run's outcome (must not throw).
   */
  onHeld?: (item: { id: string; file: string; line: number }, by: RunClaim) => void;
  /**
   * Told once, when this run's own orders are done and it has waited a second for those other runs
   * hold: how many, which runs hold them, and how long the wait that began then lasts at most (ms)
   * before they are reported failed for a rerun (must not throw).
   */
  onWaitingForOthers?: (e: { orders: number; runs: RunClaim[]; timeoutMs: number }) => void;
  /** Orders the rules send by consolidated mail: held, then combined per collection and day once the others are under way (src/booking/batch/mail.ts). */
  mail?: MailGroups;
}

/**
 * The runner's own view of its dependencies: `signal` is the run's stopping (its signal, or a
 * ledger that takes no more records); `halt` stops the batch with such an error, `halted` gives it.
 */
interface RunDeps extends BatchDeps {
  halt: (err: unknown) => void;
  halted: () => unknown;
}

/**
 * The most one order may cost, as the resume table and the engine take it: `--max-total`, or the
 * `max_total` of the rules that chose the order's service where that is lower (AUD cents). An
 * order over it stays `over_limit`.
 */
function capOptions(deps: BatchDeps, doc?: BookingDocument): { maxTotalCents?: number; maxTotalRule?: string } {
  const run = deps.caps?.maxTotalCents;
  const rule = doc?.kind === 'regular' ? doc.choice?.maxTotal : undefined;
  if (rule !== undefined && (run === undefined || rule.cents < run)) return { maxTotalCents: rule.cents, maxTotalRule: rule.rule };
  return run !== undefined ? { maxTotalCents: run } : {};
}

/**
 * The slot of one order (see {@link Slots}): held when the order starts, given back while it waits
 * for its booking result, taken again before its next attempt.
 */
interface OrderSlot {
  hold(): Promise<void>;
  free(): void;
}

/** An {@link OrderSlot} of `slots`, held already (the runner took it before starting the order). */
function heldSlot(slots: Slots): OrderSlot {
  let held = true;
  return {
    async hold() {
      if (held) return;
      await slots.acquire();
      held = true;
    },
    free() {
      if (!held) return;
      held = false;
      slots.release();
    },
  };
}

/** An order another live run holds: left for the end of this run. */
interface HeldItem {
  item: BatchItem & { doc: BookingDocument };
  by: RunClaim;
}

/**
 * Books one order from where the ledger says it stands, in its request slot `slot`, once this run
 * holds its claim; returns `held` when another live run holds it. Its wait for the booking result
 * ends when `waits` aborts (the run's signal, or a service that cannot store anything: its reason
 * is then the order's error, the order accepted).
 */
async function bookItem(
  item: BatchItem & { doc: BookingDocument },
  deps: RunDeps,
  slot: OrderSlot,
  waits: AbortSignal | undefined,
): Promise<BatchResult | HeldItem> {
  const base = { id: item.id, file: item.file, line: item.line };
  let claimed;
  try {
    claimed = await claimEntry(deps.ledger, item.id, {
      ...(deps.signal ? { signal: deps.signal } : {}),
      ...capOptions(deps, item.doc),
    });
  } catch (err) {
    if (deps.signal?.aborted) return lastKnown(base, deps.ledger.get(item.id), deps.halted(), 0, capOptions(deps, item.doc));
    // The claims lock stayed held by another run (paused or hung) for the whole wait: no order can
    // be claimed, so the batch stops, every input reported where it stands, for a rerun.
    if (err instanceof ClaimsLockWaitError)
      throw new ShipbookError(CLAIMS_LOCK_WAIT, `${err.message}; the batch started no order after that`, 'incomplete', {
        ...(err.suggestion ? { suggestion: err.suggestion } : {}),
        cause: err,
      });
    // Booked under another key of the service: nothing sent for it, the others go on.
    if (err instanceof BookedElsewhereError) {
      const error = { code: err.code, message: err.message, exit_code: err.exitCode };
      return { ...base, status: 'failed', attempts: 0, error, next: { action: 'link_or_again', account: err.booked.account } };
    }
    throw err;
  }
  if (claimed.kind === 'held') return { item, by: claimed.by };
  const resume = claimed.resume;
  let attempts = 0;
  // Waiting holds no slot, so the next order can start; its polls go at the pace of the API client's pacer.
  // An order this run accepted waits for its callback; one an earlier run accepted sent its
  // callback to that run's receiver, so it polls.
  const { callbacks } = deps;
  const waitForResult = (orderId: string, resumed: boolean, accepted: OrderResponse | undefined) => {
    slot.free();
    const waiting =
      callbacks !== undefined && !resumed
        ? callbacks.wait(orderId, accepted, waits)
        : pollForResult(deps.api, orderId, {
            intervalMs: deps.pollMs,
            timeoutMs: deps.timeoutMs,
            paths: deps.paths,
            signal: waits,
            ...(deps.hints !== undefined ? { hints: deps.hints } : {}),
          });
    return waiting.catch((err: unknown) => {
      // Ended because the service cannot store anything (not an interruption): that is the reason.
      throw waits?.aborted === true && deps.signal?.aborted !== true && waits.reason instanceof ShipbookError ? waits.reason : err;
    });
  };
  const accept =
    callbacks === undefined
      ? deps.accept
      : async (orderId: string): Promise<AcceptRequest> => {
          const body = await deps.accept(orderId);
          callbacks.expect(orderId);
          return { ...body, callback: callbacks.callbackUrl };
        };
  try {
    const outcome = await bookEntry({ ...base, doc: item.doc }, resume, {
      api: deps.api,
      accept,
      ...(deps.paths ? { paths: deps.paths } : {}),
      ledger: deps.ledger,
      // The run's caps, with this order's own `max_total` from the rules where lower.
      ...(deps.caps || capOptions(deps, item.doc).maxTotalCents !== undefined ? { caps: { ...deps.caps, ...capOptions(deps, item.doc) } } : {}),
      waitForResult: (orderId, resumed, _signal, accepted) => waitForResult(orderId, resumed, accepted),
      ...(deps.signal ? { stop: { stopping: deps.signal } } : {}),
      onRequest: () => attempts++,
    });
    if (outcome.status === 'skipped') return skippedResult(base, outcome.resume);
    const order = outcome.order;
    const state = deps.ledger.get(item.id);
    return {
      ...base,
      status: 'booked',
      order_id: order.id,
      shipment_ids: order.shipments.map((s) => s.id),
      tracking_numbers: state?.trackingNumbers ?? [],
      ...(state?.total ? { total: state.total } : {}),
      attempts,
    };
  } catch (err) {
    const detail = err instanceof BookingStoppedError ? err.cause : err;
    // The journal or the ledger cannot be written (a full disk, a lost database) or the journal's
    // lock was taken: no order can be booked safely any more, so the whole batch stops with that
    // error (its own exit code); this order, like every other, is reported at its last known stage.
    if (detail instanceof ShipbookError && JOURNAL_FAULTS.has(detail.code)) deps.halt(detail);
    // Held to a cap: cancelled before acceptance (or never created), reported with its price and the limit.
    if (detail instanceof LimitRefusedError) return capResult(base, detail, attempts);
    const now = deps.ledger.get(item.id);
    if (deps.halted() !== undefined) return lastKnown(base, now, deps.halted(), attempts, capOptions(deps, item.doc));
    const ids = { ...(now?.orderId ? { order_id: now.orderId } : {}), ...(now && now.shipmentIds.length > 0 ? { shipment_ids: now.shipmentIds } : {}) };
    const as = stoppedAs(now, err, deps.signal);
    // An accept answered with a contradiction: neither accepted nor failed. The order is named, to be looked at.
    if (contradictedAccept(detail))
      return { ...base, status: 'unknown', attempts, ...ids, error: errorOf(detail), next: { action: 'rerun', order_id: now?.orderId } };
    if (as === 'still_booking') {
      return {
        ...base,
        status: 'still_booking',
        attempts,
        ...ids,
        error: {
          code: 'interrupted',
          message: `interrupted while waiting for the booking result: order ${now?.orderId} is accepted and its booking goes on at the service`,
          exit_code: exitCodeOf('interrupted'),
        },
        next: { action: 'rerun' },
      };
    }
    if (as === 'accepted') {
      // Accepted and paid: never failed. Its result is read by the next run (or `order get`).
      return { ...base, status: 'accepted', attempts, ...ids, error: errorOf(detail), next: { action: 'rerun', order_id: now?.orderId } };
    }
    if (as === 'pending')
      return {
        ...base,
        status: 'pending',
        attempts,
        ...ids,
        error: {
          code: 'interrupted',
          message: `interrupted: order ${now?.orderId} is created and pending, not accepted`,
          exit_code: exitCodeOf('interrupted'),
        },
        next: { action: 'rerun' },
      };
    if (as === 'not_started') return { ...base, status: 'not_started', attempts, next: { action: 'rerun' } };
    if (as === 'unknown') return { ...base, status: 'unknown', attempts, ...ids, error: errorOf(detail), next: { action: 'resolve', identity: item.id } };
    const created = now?.orderId !== undefined || (now?.shipmentIds.length ?? 0) > 0;
    return {
      ...base,
      status: 'failed',
      attempts,
      ...ids,
      error: errorOf(detail),
      next: created ? { action: 'rerun', order_id: now?.orderId } : { action: 'fix_and_rerun' },
    };
  }
}

/**
 * The orders other runs held while this one ran, once this run's own are done: reads the ledger
 * again every poll interval (up to the run's wait timeout) until each is settled. Booked by the other
 * run: `booked_by_other_run` with its order id. Let go unbooked, or its run gone: claimed and booked
 * (or continued) here. Still held at the timeout: `failed` (`claimed_by_other_run`), for a rerun.
 * Interrupted: `not_started`.
 */
async function settleHeld(held: HeldItem[], deps: RunDeps, slots: Slots, report: (r: BatchResult) => void): Promise<void> {
  const began = Date.now();
  const deadline = began + deps.timeoutMs;
  let waiting = held;
  const interval = Math.max(20, Math.min(deps.pollMs, 500));
  let told = false;
  for (;;) {
    deps.ledger.refresh();
    const still: HeldItem[] = [];
    // The runs that hold the orders still waited for, as the ledger says now.
    const holders = new Map<string, RunClaim>();
    const retries: Array<Promise<void>> = [];
    for (const h of waiting) {
      const base = { id: h.item.id, file: h.item.file, line: h.item.line };
      const state = deps.ledger.get(h.item.id);
      if (state?.stage === 'processed' && state.orderId !== undefined && (state.claim === undefined || state.claim.nonce !== deps.ledger.run.nonce)) {
        report({
          ...base,
          status: 'booked_by_other_run',
          booked_by: { host: h.by.host, pid: h.by.pid },
          order_id: state.orderId,
          ...(state.shipmentIds.length > 0 ? { shipment_ids: state.shipmentIds } : {}),
          tracking_numbers: state.trackingNumbers ?? [],
          ...(state.total ? { total: state.total } : {}),
          attempts: 0,
        });
        continue;
      }
      if (deps.signal?.aborted) {
        report({ ...base, status: 'not_started', attempts: 0, ...(state?.orderId ? { order_id: state.orderId } : {}), next: { action: 'rerun' } });
        continue;
      }
      const claim = state?.claim;
      if (claim !== undefined && claim.nonce !== deps.ledger.run.nonce && deps.ledger.lives(claim)) {
        if (Date.now() >= deadline)
          report({
            ...base,
            status: 'failed',
            attempts: 0,
            ...(state?.orderId ? { order_id: state.orderId } : {}),
            error: {
              code: 'claimed_by_other_run',
              message: `still being booked by another run (pid ${claim.pid} on ${claim.host}: ${claim.command}) when this run stopped waiting`,
            },
            next: { action: 'rerun' },
          });
        else {
          still.push(h);
          holders.set(claim.nonce, claim);
        }
        continue;
      }
      // Let go unbooked, or its run is gone: this run claims it and books or continues it.
      retries.push(
        (async () => {
          await slots.acquire();
          const slot = heldSlot(slots);
          try {
            const r = await bookItem(h.item, deps, slot, deps.signal);
            if ('by' in r) still.push(r);
            else report(r);
          } finally {
            slot.free();
          }
        })(),
      );
    }
    await Promise.all(retries);
    if (still.length === 0) return;
    waiting = still;
    // Said once, past a second: a run that finishes its orders a moment later is not worth a line.
    if (!told && holders.size > 0 && Date.now() - began >= 1_000) {
      told = true;
      deps.onWaitingForOthers?.({ orders: still.length, runs: [...holders.values()], timeoutMs: deps.timeoutMs });
    }
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}

/** Errors of the journal itself, which end the whole batch rather than one order. */
const JOURNAL_FAULTS = new Set(['journal_write_failed', 'journal_lock_lost']);

/**
 * The most orders under way at once (sending a request or waiting for their booking result), so
 * that a service slow to book cannot make a batch of 100,000 orders hold them all in memory.
 */
function maxUnderWay(concurrency: number): number {
  return Math.max(1_000, 16 * concurrency);
}

/**
 * Books every valid document of the inputs (this shard's), reporting each as it finishes (the
 * documents of `options.checked` when the check pass kept them; else read again, sharing the strings
 * of the check's `options.places`). At most `deps.concurrency`
 * orders are being created and accepted at once ({@link Slots}); orders waiting for their booking
 * result hold no slot, up to {@link maxUnderWay} orders under way. Requests in flight are the
 * API client's to bound (its pool and pacer). Invalid documents (with `skipInvalid`) are reported as
 * `invalid` and left out.
 * @throws what an order's booking could not report as its result (the journal refusing a write),
 *   once every order under way has finished
 */
export async function runBatch(
  inputs: readonly string[],
  options: { shard?: Shard; skipInvalid: boolean; checked?: readonly BatchItem[]; places?: BatchCheck['entries']; input?: BatchInputOptions },
  deps: BatchDeps,
): Promise<BatchSummary> {
  const summary = emptySummary();
  // Stops the batch when the ledger takes no more records (a full disk, a lost database): no new
  // order starts, orders under way start no new step, and every input is reported where it stands.
  const halting = new AbortController();
  let fault: { err: unknown } | undefined;
  const run: RunDeps = {
    ...deps,
    signal: deps.signal === undefined ? halting.signal : AbortSignal.any([deps.signal, halting.signal]),
    halt(err) {
      if (fault !== undefined) return;
      fault = { err };
      halting.abort(err);
    },
    halted: () => fault?.err,
  };
  // Ends the waits for booking results: the run's signal, or a service that cannot store anything.
  const waits = new AbortController();
  const signal = run.signal!;
  if (signal.aborted) waits.abort(signal.reason);
  const unlisten = signal.aborted ? undefined : onAbort(signal, () => waits.abort(signal.reason));
  const items =
    options.checked !== undefined ? fromList(options.checked) : batchItems(inputs, options.shard, deps.now, options.input, undefined, options.places);
  // Each input is reported once: by its booking, or when the run stopped before it. Only the orders
  // another run held can come up twice (left for the end, then settled), so only theirs are kept.
  const heldIds = new Set<string>();
  const reported = new Set<string>();
  const report = (r: BatchResult) => {
    if (r.status === 'valid') return;
    if (heldIds.has(r.id)) {
      if (reported.has(r.id)) return;
      reported.add(r.id);
    }
    summary[r.status]++;
    if ((r.status === 'booked' || r.status === 'already_booked') && r.total) summary.totalCents += readCents(r.total) ?? 0;
    // A service that cannot store anything (HTTP 507) fails every order alike: start no more, and
    // wait no longer for the results of orders accepted (it cannot store them either): they are
    // reported accepted, and the next run reads their results.
    if (r.error?.code === 'insufficient_storage' && !full) {
      full = true;
      waits.abort(new ShipbookError('insufficient_storage', `stopped waiting for the booking result: ${r.error.message}`, 'api'));
    }
    deps.onResult(r);
  };
  let full = false;
  const held: HeldItem[] = [];
  const slots = new Slots(deps.concurrency);
  const limit = maxUnderWay(deps.concurrency);
  const underWay = new Set<Promise<void>>();
  let oneFinished: (() => void) | undefined;
  for (;;) {
    while (underWay.size >= limit) await new Promise<void>((resolve) => (oneFinished = resolve));
    await slots.acquire();
    const next = await items.next();
    if (next === undefined || next.done) {
      slots.release();
      break;
    }
    const item = next.value;
    if (item.issues || !item.doc) {
      slots.release();
      report({ id: item.id, file: item.file, line: item.line, status: 'invalid', attempts: 0, issues: item.issues });
      continue;
    }
    if (deps.mail?.hold(item)) {
      slots.release();
      continue;
    }
    if (fault !== undefined) {
      // Stopped by the ledger: every input is still named in the report, at its last known stage.
      slots.release();
      report(lastKnown({ id: item.id, file: item.file, line: item.line }, deps.ledger.get(item.id), fault.err, 0, capOptions(deps, item.doc)));
      continue;
    }
    if (signal.aborted || full) {
      // Stopped (interrupted, or a service that cannot store anything): every input is still
      // named in the report, those never started as such.
      slots.release();
      const state = deps.ledger.get(item.id);
      const resume = resumeFrom(state, capOptions(deps, item.doc));
      const base = {
        id: item.id,
        file: item.file,
        line: item.line,
        attempts: 0,
        ...(state?.orderId ? { order_id: state.orderId } : {}),
        next: { action: 'rerun' } as const,
      };
      if (resume.action === 'wait') report({ ...base, status: 'still_booking' });
      else if (resume.action === 'book' || resume.action === 'accept') report({ ...base, status: resume.action === 'accept' ? 'pending' : 'not_started' });
      else report(skippedResult({ id: item.id, file: item.file, line: item.line }, resume));
      continue;
    }
    const slot = heldSlot(slots);
    const started = deps.now().getTime();
    // Told once: a result whose reporting threw is not reported again as the batch stops.
    let told = false;
    const booking: Promise<void> = bookItem(item as BatchItem & { doc: BookingDocument }, run, slot, waits.signal)
      .then((r) => {
        if ('by' in r) {
          heldIds.add(r.item.id);
          held.push(r);
          deps.onHeld?.(r.item, r.by);
        } else {
          told = true;
          report({ ...r, seconds: Math.max(0, deps.now().getTime() - started) / 1000, ...(item.warnings ? { warnings: item.warnings } : {}) });
        }
      })
      .catch((err: unknown) => {
        // What an order's booking could not report as its result stops the batch; the order is
        // still reported, where the ledger last knew it.
        run.halt(err);
        if (!told && !heldIds.has(item.id))
          report(lastKnown({ id: item.id, file: item.file, line: item.line }, deps.ledger.get(item.id), err, 0, capOptions(deps, item.doc)));
      })
      .finally(() => {
        slot.free();
        underWay.delete(booking);
        oneFinished?.();
        oneFinished = undefined;
      });
    underWay.add(booking);
  }
  await Promise.all(underWay);
  await deps.mail?.book(
    async (group) => {
      await slots.acquire();
      const slot = heldSlot(slots);
      return bookItem(group, run, slot, waits.signal).finally(() => slot.free());
    },
    report,
    run,
  );
  if (held.length > 0) {
    try {
      await settleHeld(held, run, slots, report);
    } catch (err) {
      run.halt(err);
    }
    // Those still held when the batch stopped are named too.
    for (const h of held)
      if (!reported.has(h.item.id))
        report(lastKnown({ id: h.item.id, file: h.item.file, line: h.item.line }, deps.ledger.get(h.item.id), fault?.err, 0, capOptions(deps, h.item.doc)));
  }
  unlisten?.();
  // Stopped before the inputs ran out, or after: either way orders were cut short.
  summary.interrupted = signal.aborted;
  const budget = deps.caps?.budget;
  if (budget !== undefined) summary.budget = { limit: formatCents(budget.limitCents), spent: formatCents(budget.spentCents) };
  if (fault !== undefined) {
    summary.stopped_by = fault.err instanceof ShipbookError ? fault.err.code : 'internal';
    throw new BatchStoppedError(summary, fault.err);
  }
  return summary;
}
