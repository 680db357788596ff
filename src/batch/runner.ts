/**
 * The batch runner (issue 11): books many documents at a bounded concurrency through the one
 * booking entry point ({@link bookDocument}), recording every step in the {@link Journal} before
 * and after each request that changes something, so a killed run can be run again: processed
 * orders are skipped (already booked), created ones accepted (not created again), accepted ones
 * waited for by polling, and a create whose answer never came is **unknown** and never sent again
 * until `shipbook journal resolve` says what became of it.
 *
 * Retries: reads and accept are retried by the API layer (safe calls; accept with
 * `idempotent-accept`, a 409 resolved by reading the order); a create is sent again only when the
 * service answered that it did not take it (HTTP 429, 500, 502, 503, 504: an answer came, so
 * nothing is unknown) or the request provably never left (the API layer's own rule).
 *
 * It draws nothing: every finished order is reported through `onResult`.
 */
import type { ApiClient } from '../api/client.js';
import type { OrderPaths } from '../api/orders.js';
import { bookDocument, type BookingDocument } from '../booking/book.js';
import { BookingStoppedError } from '../booking/progress.js';
import { pollForResult } from '../booking/wait.js';
import { ApiError, EXIT, ShipbookError, type InputIssue } from '../errors.js';
import { isTransientFailure } from '../api/endpoints.js';
import { validateKind } from '../input/validate.js';
import type { OrderResponse } from '../schema/order.js';
import type { AcceptRequest } from '../schema/payment.js';
import { isConsolidatedDocument } from '../schema/consolidated.js';
import { IdentityCounter, inShard, type Shard } from './identity.js';
import { batchDocuments, type BatchInputOptions } from './inputs.js';
import type { Journal } from './journal.js';
import { Slots } from './slots.js';
import { stepRecorder } from './steps.js';

/** What became of one order of the batch. */
export interface BatchResult {
  /** The order's identity (hash of its content and occurrence). */
  id: string;
  file: string;
  line: number;
  /** `booked` now, `already_booked` by an earlier run, `failed`, `unknown` (a create whose answer never came), `invalid` (with --skip-invalid), `valid` (dry run). */
  status: 'booked' | 'already_booked' | 'failed' | 'unknown' | 'invalid' | 'valid';
  order_id?: string;
  shipment_ids?: string[];
  tracking_numbers?: string[];
  /** Total price, AUD, decimal string. */
  total?: string;
  /** Requests that changed something at the service for this order in this run (creates, accepts). */
  attempts: number;
  error?: { code: string; message: string; exit_code?: number };
  /** What to do next, for failed and unknown orders. */
  hint?: string;
  issues?: InputIssue[];
}

/** Every input checked before the first request. */
export interface BatchCheck {
  /** Documents in this shard that are valid. */
  valid: number;
  /** Documents that are not (every problem, with file:line:col and field path). */
  invalid: Array<{ file: string; line: number; issues: InputIssue[] }>;
  /**
   * The checked documents themselves, for {@link runBatch} to book without reading and validating
   * them again; kept only for batches of up to {@link KEEP_CHECKED} documents (larger ones are
   * read twice, as a stream, so memory does not grow with the batch).
   */
  items?: readonly BatchItem[];
}

/** The most documents whose checked form is kept between the check and the booking pass. */
export const KEEP_CHECKED = 5_000;

/** A document ready to book, in input order. */
export interface BatchItem {
  id: string;
  file: string;
  line: number;
  doc?: BookingDocument;
  issues?: InputIssue[];
}

/** The documents of the inputs with their identities, this shard's only, validated. Streams: nothing is held. */
async function* batchItems(inputs: readonly string[], shard: Shard | undefined, now: () => Date, reading?: BatchInputOptions): AsyncGenerator<BatchItem> {
  const ids = new IdentityCounter();
  let unreadable = 0;
  for await (const input of batchDocuments(inputs, reading)) {
    if ('issues' in input) {
      // A document that cannot be read has no content to hash: it is named by its place.
      yield { id: `unreadable-${++unreadable}`, file: input.file, line: input.line, issues: input.issues };
      continue;
    }
    const id = ids.next(input.doc.data);
    if (!inShard(id, shard)) continue;
    try {
      const doc: BookingDocument = isConsolidatedDocument(input.doc.data)
        ? { kind: 'consolidated', booking: validateKind(input.doc, 'consolidated', { now }).value, file: input.file }
        : { kind: 'regular', order: validateKind(input.doc, 'order', { now }).value, file: input.file };
      yield { id, file: input.file, line: input.line, doc };
    } catch (err) {
      if (err instanceof ShipbookError && 'issues' in err) yield { id, file: input.file, line: input.line, issues: (err as { issues: InputIssue[] }).issues };
      else throw err;
    }
  }
}

/** Validates every input of this shard (the first pass: nothing is sent). */
export async function checkBatch(inputs: readonly string[], options: { shard?: Shard; now: () => Date; keep?: boolean; input?: BatchInputOptions }): Promise<BatchCheck> {
  const check: BatchCheck = { valid: 0, invalid: [] };
  let kept: BatchItem[] | undefined = options.keep ? [] : undefined;
  for await (const item of batchItems(inputs, options.shard, options.now, options.input)) {
    if (item.issues) check.invalid.push({ file: item.file, line: item.line, issues: item.issues.filter((i) => i.severity === 'error') });
    else check.valid++;
    if (kept !== undefined) {
      kept.push(item);
      if (kept.length > KEEP_CHECKED) kept = undefined;
    }
  }
  return kept === undefined ? check : { ...check, items: kept };
}

/** The items of a list, as the async stream {@link runBatch} reads. */
async function* fromList(items: readonly BatchItem[]): AsyncGenerator<BatchItem> {
  yield* items;
}

/** What the runner uses. */
export interface BatchDeps {
  api: ApiClient;
  /** Builds the accept request of an order (payment flags, file or the profile's default). */
  accept: (orderId: string) => Promise<AcceptRequest>;
  paths?: OrderPaths;
  journal: Journal;
  concurrency: number;
  /** Polling the booking result: interval and overall wait, ms. */
  pollMs: number;
  timeoutMs: number;
  /** Stops taking new orders once aborted (Ctrl-C); orders under way finish their current step. */
  signal?: AbortSignal;
  now: () => Date;
  /** Every finished order, as it finishes (from several orders at once: must not throw). */
  onResult: (result: BatchResult) => void;
  /** Waits between create attempts (tests replace it). */
  sleep?: (ms: number) => Promise<void>;
}

/** How a batch ended. */
export interface BatchSummary {
  booked: number;
  already_booked: number;
  failed: number;
  unknown: number;
  invalid: number;
  /** Sum of the totals of the orders booked or already booked, AUD cents. */
  totalCents: number;
  interrupted: boolean;
}

const RETRYABLE_CREATE = new Set([429, 500, 502, 503, 504]);
const CREATE_ATTEMPTS = 6;

const errorOf = (err: unknown) =>
  err instanceof ShipbookError ? { code: err.code, message: err.message, exit_code: err.exitCode } : { code: 'internal', message: err instanceof Error ? err.message : String(err) };

/**
 * The request slot of one order (see {@link Slots}): held when the order starts, given back while
 * it waits for its booking result or backs off, taken again before its next attempt; `run` sends
 * one request of a waiting order (a poll) in a slot of its own.
 */
interface OrderSlot {
  hold(): Promise<void>;
  free(): void;
  run<T>(request: () => Promise<T>): Promise<T>;
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
    run: (request) => slots.run(request),
  };
}

/** Books one order from where the journal says it stands, in its request slot `slot`. */
async function bookItem(item: BatchItem & { doc: BookingDocument }, deps: BatchDeps, slot: OrderSlot): Promise<BatchResult> {
  const { journal } = deps;
  const base = { id: item.id, file: item.file, line: item.line };
  const state = journal.states.get(item.id);
  let attempts = 0;
  if (state?.stage === 'processed') {
    return { ...base, status: 'already_booked', order_id: state.orderId, tracking_numbers: state.trackingNumbers, total: state.total, attempts };
  }
  if (state?.stage === 'unknown') {
    return {
      ...base,
      status: 'unknown',
      attempts,
      ...(state.shipmentIds.length > 0 ? { shipment_ids: state.shipmentIds } : {}),
      error: { code: 'answer_lost', message: `a ${state.unknownStep ?? 'create'} request was sent in an earlier run and its answer never came: the order may exist` },
      hint: `Find out with "shipbook order get <id>" or the service's list of orders, then "shipbook journal resolve ${item.id} --order <id>" or "--not-created"`,
    };
  }
  if (state?.stage === 'failed' && state.orderId === undefined) {
    return {
      ...base,
      status: 'failed',
      attempts,
      shipment_ids: state.shipmentIds,
      error: state.error ?? { code: 'incomplete', message: `shipments ${state.shipmentIds.join(', ')} were created and not combined` },
      hint: `Combine them with "shipbook shipment combine ${state.shipmentIds.join(' ')} --main ${item.file}", then "shipbook journal resolve ${item.id} --order <parent id>"`,
    };
  }

  const record = { id: item.id, file: item.file, line: item.line };
  // Waiting holds no slot: each poll takes one for its request only, so the next order can start.
  const poll = (orderId: string) => {
    slot.free();
    return pollForResult(deps.api, orderId, { intervalMs: deps.pollMs, timeoutMs: deps.timeoutMs, paths: deps.paths, signal: deps.signal, gate: slot.run });
  };
  const steps = stepRecorder(journal, record);
  const finished = (order: OrderResponse): BatchResult => {
    const { tracking, total } = steps.processed(order);
    return { ...base, status: 'booked', order_id: order.id, shipment_ids: order.shipments.map((s) => s.id), tracking_numbers: tracking, ...(total ? { total } : {}), attempts };
  };

  try {
    for (let attempt = 1; ; attempt++) {
      await slot.hold();
      // Each attempt starts from where the journal says the order stands.
      const at = journal.states.get(item.id);
      const doc: BookingDocument = (at?.stage === 'created' || at?.stage === 'failed') && at.orderId !== undefined ? { kind: 'pending', orderId: at.orderId } : item.doc;
      try {
        if (at?.stage === 'accepted' && at.orderId !== undefined) return finished(await poll(at.orderId));
        const { order } = await bookDocument(doc, {
          api: deps.api,
          accept: deps.accept,
          acceptRetry: 'idempotent-accept',
          waitForResult: (orderId) => poll(orderId),
          signal: deps.signal,
          async beforeRequest(step, progress) {
            attempts++;
            await steps.beforeRequest(step, progress);
          },
          onEvent: (e) => steps.onEvent(e),
        });
        return finished(order);
      } catch (err) {
        // A create the service answered with "not now" (429, 5xx): nothing was created; try again.
        const refused = !(err instanceof BookingStoppedError) && err instanceof ApiError && RETRYABLE_CREATE.has(err.status);
        // An order that exists and whose accept or wait met a passing fault (5xx, 429, a lost
        // answer, a timeout): accepting again is safe (a 409 is read as accepted) and so is polling.
        const cause = err instanceof BookingStoppedError ? err.cause : err;
        const passing = isTransientFailure(cause) && journal.states.get(item.id)?.orderId !== undefined;
        const wait = () => {
          // Backing off holds no slot either.
          slot.free();
          return (deps.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms))))(Math.min(2000, 100 * 2 ** attempt) * Math.random());
        };
        if (refused && doc.kind !== 'pending' && attempt < CREATE_ATTEMPTS && !deps.signal?.aborted) {
          journal.append({ ...record, event: 'failed', created: false, error: errorOf(err) });
          await wait();
          continue;
        }
        if (passing && attempt < CREATE_ATTEMPTS && !deps.signal?.aborted) {
          await wait();
          continue;
        }
        throw err;
      }
    }
  } catch (err) {
    const now = journal.states.get(item.id);
    const detail = err instanceof BookingStoppedError ? err.cause : err;
    const sent = (detail as { sent?: unknown }).sent === true && !(detail instanceof ApiError);
    if (now?.stage === 'accepted' && now.orderId !== undefined && deps.signal?.aborted) {
      // Stopped while waiting (Ctrl-C, SIGTERM): the order is accepted and its booking goes on at
      // the service. The journal keeps it accepted, so the next run only waits for its result.
      return {
        ...base,
        status: 'failed',
        attempts,
        order_id: now.orderId,
        ...(now.shipmentIds.length > 0 ? { shipment_ids: now.shipmentIds } : {}),
        error: { code: 'interrupted', message: `interrupted while waiting for the booking result: order ${now.orderId} is accepted and its booking goes on at the service`, exit_code: EXIT.INTERRUPTED },
        hint: `Run the same command again to wait for its result (it is not accepted again), or see it with "shipbook order get ${now.orderId}"`,
      };
    }
    if (now?.stage === 'unknown' && sent) {
      return {
        ...base,
        status: 'unknown',
        attempts,
        ...(now.shipmentIds.length > 0 ? { shipment_ids: now.shipmentIds } : {}),
        error: errorOf(detail),
        hint: `Do not book it again yet: find out with the service's list of orders (on the sandbox, GET /_sandbox/orders/), then "shipbook journal resolve ${item.id} --order <id>" or "--not-created"`,
      };
    }
    const created = now?.orderId !== undefined || (now?.shipmentIds.length ?? 0) > 0;
    journal.append({ ...record, event: 'failed', created, error: errorOf(detail) });
    return {
      ...base,
      status: 'failed',
      attempts,
      ...(now?.orderId ? { order_id: now.orderId } : {}),
      ...(now && now.shipmentIds.length > 0 ? { shipment_ids: now.shipmentIds } : {}),
      error: errorOf(detail),
      hint: created
        ? `Run the same command again to continue it (it is not created twice), or see it with "shipbook order get ${now?.orderId ?? '<id>'}"`
        : 'Nothing was created: fix the cause and run the same command again',
    };
  }
}

/**
 * The most orders under way at once (sending a request or waiting for their booking result), so
 * that a service slow to book cannot make a batch of 100,000 orders hold them all in memory.
 */
export function maxUnderWay(concurrency: number): number {
  return Math.max(1_000, 16 * concurrency);
}

/**
 * Books every valid document of the inputs (this shard's), reporting each as it finishes (the
 * documents of `options.checked` when the check pass kept them). At most `deps.concurrency`
 * requests are in flight ({@link Slots}); orders waiting for their booking result hold none, up
 * to {@link maxUnderWay} orders under way. Invalid documents (with `skipInvalid`) are reported as
 * `invalid` and left out.
 * @throws what an order's booking could not report as its result (the journal refusing a write),
 *   once every order under way has finished
 */
export async function runBatch(
  inputs: readonly string[],
  options: { shard?: Shard; skipInvalid: boolean; checked?: readonly BatchItem[]; input?: BatchInputOptions },
  deps: BatchDeps,
): Promise<BatchSummary> {
  const summary: BatchSummary = { booked: 0, already_booked: 0, failed: 0, unknown: 0, invalid: 0, totalCents: 0, interrupted: false };
  const items = options.checked !== undefined ? fromList(options.checked) : batchItems(inputs, options.shard, deps.now, options.input);
  const report = (r: BatchResult) => {
    if (r.status === 'valid') return;
    summary[r.status]++;
    if ((r.status === 'booked' || r.status === 'already_booked') && r.total) summary.totalCents += Math.round(Number(r.total) * 100);
    // A service that cannot store anything (HTTP 507) fails every order alike: start no more.
    if (r.error?.code === 'insufficient_storage') full = true;
    deps.onResult(r);
  };
  let full = false;
  const slots = new Slots(deps.concurrency);
  const limit = maxUnderWay(deps.concurrency);
  const underWay = new Set<Promise<void>>();
  let oneFinished: (() => void) | undefined;
  let failure: { err: unknown } | undefined;
  for (;;) {
    while (underWay.size >= limit) await new Promise<void>((resolve) => (oneFinished = resolve));
    await slots.acquire();
    const next = deps.signal?.aborted || failure !== undefined || full ? undefined : await items.next();
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
    const slot = heldSlot(slots);
    const booking: Promise<void> = bookItem(item as BatchItem & { doc: BookingDocument }, deps, slot)
      .then(report)
      .catch((err: unknown) => {
        failure ??= { err };
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
  // Stopped before the inputs ran out, or after: either way orders were cut short.
  summary.interrupted = deps.signal?.aborted === true;
  if (failure !== undefined) throw failure.err;
  return summary;
}
