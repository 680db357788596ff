/**
 * Consolidated mail in a batch: the orders that rules sent by consolidated mail are held while the
 * batch books the others, then the orders of one collection address and day are combined into one
 * parent order (interface document: shipment create × N, combine, accept), with the profile's main
 * shipment, or none under free pickup.
 *
 * Each combination is a consolidated document of its own, booked by the engine like a consolidated
 * file (every create, the combine and the accept recorded before they leave), under an identity
 * derived from its orders' identities. Each order keeps its own place in the ledger too:
 * - it is claimed first; one the ledger knows (booked, unknown, under way in another run) is left
 *   out of the combination and reported as the ledger says, so a rerun whose combination differs
 *   never sends an order twice;
 * - before the combination's first request, each order records the intent of its shipment create:
 *   a run stopped from there leaves it unknown (never created again by itself);
 * - afterwards each order records what became of it: booked (the parent order, its own shipments
 *   and tracking numbers), created (continued by the next run as any pending order), nothing
 *   created (booked again by the next run), or its shipments created and their combine refused by
 *   the service (failed: reported so again by the next run, which sends nothing for it).
 */
import type { ApiClient } from '../../api/client.js';
import { fetchOrder, type OrderPaths } from '../../api/orders.js';
import { IdentityCounter, type EntryState, type RunClaim } from '../../ledger/index.js';
import { formatCents } from '../../schema/money.js';
import type { ShipmentRequest } from '../../schema/shipment.js';
import type { BookingDocument } from '../book.js';
import type { BatchItem } from './check.js';
import { errorOf, skippedResult, type BatchResult } from './results.js';
import { claimEntry } from '../engine.js';
import { recordMailMember, type RecordSink } from '../record.js';

/** An order held for consolidated mail: its document is the consolidated form of the order. */
type MailItem = BatchItem & { doc: Extract<BookingDocument, { kind: 'consolidated' }> & { mail: { key: string } } };

/** Books one document as the batch does (claim, engine, result), or says another live run holds it. */
type BookOne = (item: BatchItem & { doc: BookingDocument }) => Promise<BatchResult | { by: RunClaim }>;

/** What the combinations use of the batch. */
interface MailDeps {
  ledger: RecordSink;
  api: ApiClient;
  paths?: OrderPaths;
  signal?: AbortSignal;
}

/** The orders of a batch that go by consolidated mail, by collection address and day. */
export class MailGroups {
  private readonly groups = new Map<string, MailItem[]>();

  /** @param main the profile's main shipment, checked; undefined under free pickup */
  constructor(private readonly main: ShipmentRequest | undefined) {}

  /** Holds `item` for its combination when rules sent it by consolidated mail; false for any other document. */
  hold(item: BatchItem): boolean {
    const doc = item.doc;
    if (doc?.kind !== 'consolidated' || doc.mail === undefined) return false;
    const list = this.groups.get(doc.mail.key) ?? [];
    list.push(item as MailItem);
    this.groups.set(doc.mail.key, list);
    return true;
  }

  /** Books every combination (at once, each through `bookOne`) and reports every order held. */
  async book(bookOne: BookOne, report: (r: BatchResult) => void, deps: MailDeps): Promise<void> {
    const groups = [...this.groups.values()];
    this.groups.clear();
    await Promise.all(groups.map((members) => this.bookGroup(members, bookOne, report, deps)));
  }

  /** Claims the orders of one collection and day, combines those this run books, and reports each. */
  private async bookGroup(members: MailItem[], bookOne: BookOne, report: (r: BatchResult) => void, deps: MailDeps): Promise<void> {
    const { ledger } = deps;
    const ready: MailItem[] = [];
    for (const m of [...members].sort((a, b) => a.id.localeCompare(b.id))) {
      const base = { id: m.id, file: m.file, line: m.line };
      if (deps.signal?.aborted) {
        report({ ...base, status: 'not_started', attempts: 0, next: { action: 'rerun' } });
        continue;
      }
      let claimed;
      try {
        claimed = await claimEntry(ledger, m.id, deps.signal ? { signal: deps.signal } : {});
      } catch (err) {
        report({ ...base, status: 'failed', attempts: 0, error: errorOf(err), next: { action: 'rerun' } });
        continue;
      }
      if (claimed.kind === 'held') {
        const by = claimed.by;
        const message = `being booked by another run (pid ${by.pid} on ${by.host}: ${by.command})`;
        report({ ...base, status: 'failed', attempts: 0, error: { code: 'claimed_by_other_run', message }, next: { action: 'rerun' } });
      } else if (claimed.kind === 'settled') {
        const resume = claimed.resume;
        if (resume.action === 'book' || resume.action === 'accept' || resume.action === 'wait')
          report({ ...base, status: 'not_started', attempts: 0, next: { action: 'rerun' } });
        else report(skippedResult(base, resume));
      } else if (claimed.resume.action !== 'book') {
        // Its parent exists already (an earlier run combined it): continued as any created order.
        ledger.release(m.id);
        const r = await bookOne(m);
        report('by' in r ? { ...base, status: 'failed', attempts: 0, error: { code: 'claimed_by_other_run', message: 'being booked by another run' } } : r);
      } else ready.push(m);
    }
    if (ready.length === 0) return;
    try {
      await this.combine(ready, bookOne, report, deps);
    } finally {
      for (const m of ready) ledger.release(m.id);
    }
  }

  /** Books the combination of `ready` (claimed by this run, nothing sent for them before) and records and reports each order. */
  private async combine(ready: MailItem[], bookOne: BookOne, report: (r: BatchResult) => void, deps: MailDeps): Promise<void> {
    const { ledger } = deps;
    const counter = new IdentityCounter();
    const members = { consolidated_mail: ready.map((m) => m.id) };
    let group = counter.next(members);
    // An earlier combination of these same orders that none of them stands on any more (each recorded
    // as not made, e.g. by `journal resolve --not-created` after its combine was refused): the next occurrence.
    while ((ledger.get(group)?.stage ?? 'new') !== 'new') group = counter.next(members);
    const records = ready.flatMap((m) => m.doc.choice?.records ?? []);
    const doc: BookingDocument = {
      kind: 'consolidated',
      booking: { shipments: ready.flatMap((m) => m.doc.booking.shipments), ...(this.main !== undefined ? { main_shipment: this.main } : {}) },
      file: ready[0]!.file,
      ...(records.length > 0 ? { choice: { records } } : {}),
    };
    const at = (m: MailItem) => ({ id: m.id, file: m.file, line: m.line });
    for (const m of ready) recordMailMember(ledger, at(m), { kind: 'sent', group });
    await ledger.durable();
    const r = await bookOne({ id: group, file: ready[0]!.file, line: ready[0]!.line, doc });
    const state = ledger.get(group);
    const childIds = state?.shipmentIds ?? [];
    const orderId = state?.orderId;
    const shared = {
      identity: group,
      orders: ready.length,
      main_shipment: this.main !== undefined,
      ...(orderId !== undefined ? { parent_order_id: orderId } : {}),
      ...(state?.total !== undefined ? { parent_total: state.total } : {}),
    };
    const processed = state?.stage === 'processed' && orderId !== undefined;
    const totals = processed ? await childTotals(deps, orderId) : new Map<string, number>();
    const refused = 'by' in r ? undefined : combineRefused(state, ready, r.error);
    let offset = 0;
    for (const m of ready) {
      const base = at(m);
      const own = childIds.slice(offset, offset + m.doc.booking.shipments.length);
      offset += m.doc.booking.shipments.length;
      if ('by' in r) {
        recordMailMember(ledger, base, { kind: 'not_created', error: { code: 'claimed_by_other_run', message: 'another run holds the combination' } });
        report({
          ...base,
          status: 'failed',
          attempts: 0,
          error: { code: 'claimed_by_other_run', message: 'another run holds the combination' },
          next: { action: 'rerun' },
        });
        continue;
      }
      if (processed) {
        const tracking = own.map((id) => r.tracking_numbers?.[r.shipment_ids?.indexOf(id) ?? -1] ?? state.trackingNumbers?.[childIds.indexOf(id)] ?? 'N/A');
        const cents = own.map((id) => totals.get(id));
        const total = cents.length > 0 && cents.every((c) => c !== undefined) ? formatCents(cents.reduce((a, c) => a + c!, 0)) : undefined;
        recordMailMember(ledger, base, {
          kind: 'processed',
          orderId,
          shipmentIds: own,
          tracking,
          ...(total !== undefined ? { total } : {}),
          serviceChoice: m.doc.choice?.records,
        });
        report({
          ...base,
          status: r.status === 'already_booked' ? 'already_booked' : 'booked',
          order_id: orderId,
          shipment_ids: own,
          tracking_numbers: tracking,
          ...(total !== undefined ? { total } : {}),
          attempts: r.attempts,
          ...(r.seconds !== undefined ? { seconds: r.seconds } : {}),
          consolidated: shared,
        });
        continue;
      }
      const { id: _group, file: _file, line: _line, total: _total, ...rest } = r;
      if (state === undefined || state.stage === 'new') {
        // Nothing was created for the combination: the order may be booked again.
        recordMailMember(ledger, base, { kind: 'not_created', error: r.error ?? { code: 'not_started', message: 'nothing was sent' } });
        report({ ...rest, ...base, consolidated: shared });
      } else if (orderId !== undefined) {
        // The parent exists: the next run continues the order as any created order.
        recordMailMember(ledger, base, { kind: 'created', orderId, shipmentIds: own, serviceChoice: m.doc.choice?.records });
        report({ ...rest, ...base, order_id: orderId, shipment_ids: own, next: { action: 'rerun', order_id: orderId }, consolidated: shared });
      } else if (refused !== undefined) {
        // Its shipments were created and the service refused the combine: recorded so, a rerun reports it failed and sends nothing.
        recordMailMember(ledger, base, { kind: 'combine_refused', shipmentIds: own, error: refused });
        report({ ...rest, ...base, shipment_ids: own, next: { action: 'fix_mail', identity: m.id, shipment_ids: own }, consolidated: shared });
      } else {
        // Shipments created (or a create unanswered) and no parent: the order stays unknown, never sent again by itself.
        report({ ...rest, ...base, status: r.status === 'unknown' ? 'unknown' : 'failed', next: { action: 'resolve', identity: m.id }, consolidated: shared });
      }
    }
    await ledger.written();
  }
}

/**
 * The refusal of a combination's combine, as each of its orders records it (code
 * `combine_refused`, the service's message, its exit code): every shipment of the combination was
 * created, no parent exists, and the booking ended on an error the service answered (exit 3); else
 * undefined (a create refused or unanswered, a combine unanswered: each is said as before).
 */
function combineRefused(state: EntryState | undefined, ready: readonly MailItem[], error: BatchResult['error']): NonNullable<EntryState['error']> | undefined {
  const shipments = ready.reduce((n, m) => n + m.doc.booking.shipments.length, 0);
  if (state?.stage !== 'failed' || state.orderId !== undefined || state.shipmentIds.length !== shipments) return undefined;
  const cause = state.error ?? error;
  if (cause === undefined || cause.exit_code !== 3) return undefined;
  return { code: 'combine_refused', message: cause.message, exit_code: 3 };
}

/** Each child shipment's total of a processed parent order (a safe read), by shipment id; none when it cannot be read. */
async function childTotals(deps: MailDeps, orderId: string): Promise<Map<string, number>> {
  try {
    const order = await fetchOrder(deps.api, orderId, deps.paths, deps.signal ? { signal: deps.signal } : {});
    return new Map(order.shipments.flatMap((s) => (s.service?.price?.total !== undefined ? [[s.id, s.service.price.total.cents] as const] : [])));
  } catch {
    return new Map();
  }
}
