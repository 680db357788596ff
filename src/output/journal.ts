/**
 * The words of `journal show`: every document of a ledger or journal file as a table (identity,
 * input, stage, order, what is known and the next command), or a note when it holds none; and
 * each document's row, worded from where it stands.
 */
import type { Resume } from '../booking/index.js';
import { cmd } from '../errors.js';
import type { IOStreams } from '../io.js';
import type { EntryState } from '../ledger/index.js';
import type { HintStyle } from '../shell.js';
import { hintText } from './hints.js';
import { resolveCommand } from './ledger.js';
import type { OutputFormat } from './format.js';
import { renderTable } from './table.js';

/** One document of `journal show`, as its machine document lists it. */
interface JournalRow {
  id: string;
  file?: string | null;
  line: number | null;
  stage: string;
  order_id?: string | null;
  known: string;
  command?: string | null;
}

/** Prints the documents of `where` as a table on stdout, or says on stderr that it has none. */
export function printJournal(io: IOStreams, format: OutputFormat, where: string, orders: readonly JournalRow[]): void {
  if (orders.length === 0) {
    io.err(`${where} has no documents.\n`);
    return;
  }
  io.out(
    renderTable(
      io,
      format,
      [
        { header: 'identity', atomic: true },
        { header: 'input', dropPriority: 1 },
        { header: 'stage', atomic: true },
        { header: 'order', atomic: true },
        { header: 'known / next' },
      ],
      orders.map((r) => [
        r.id,
        r.line === null ? (r.file ?? '') : `${r.file ?? ''}:${r.line}`,
        r.stage,
        r.order_id ?? '',
        [r.known, r.command ?? ''].filter(Boolean).join(' — '),
      ]),
    ),
  );
}

/** What is known and unknown about a document, and the exact next step, in words and as a command. */
function truth(s: EntryState, r: Resume, journal: string | undefined, hints: HintStyle): { known: string; next: string | null; command: string | null } {
  const file = s.file === undefined ? '<file>' : s.file;
  switch (r.action) {
    case 'book':
      return s.resolvedAs === 'not_created'
        ? { known: 'resolved: not created', next: 'the next book of its input creates it', command: hintText([cmd('book', file)], hints) }
        : {
            known: s.error ? `nothing was created: ${s.error.message}` : 'nothing was created',
            next: 'the next book of its input books it',
            command: hintText([cmd('book', file)], hints),
          };
    case 'already_booked':
      return { known: `booked: order ${r.orderId}, processed`, next: null, command: null };
    case 'accept':
      return {
        known: `order ${r.orderId} exists, not accepted${s.error ? ` (last error: ${s.error.message})` : ''}`,
        next: 'the next book of its input accepts it (never creates another)',
        command: hintText([cmd('order', 'get', r.orderId)], hints),
      };
    case 'wait':
      return {
        known: `order ${r.orderId} is accepted; its result was not seen`,
        next: 'the next book of its input reads its result (never books it again)',
        command: hintText([cmd('order', 'get', r.orderId)], hints),
      };
    case 'unknown':
      return {
        known: `a ${s.unknownStep ?? 'create'} request was sent and its answer never came: the order may exist${s.transientIds?.length ? ` (transient ids ${s.transientIds.join(', ')})` : ''}`,
        next: `find out in the service's list of orders (on a shipbook sandbox: ${hintText([cmd('order', 'list', '--from-service', ...(s.transientIds?.length ? ['--reference', s.transientIds[0]!] : []))], hints)}), then record the answer`,
        command: `${resolveCommand(hints, s.id, journal, ['--order'])} ORD-…`,
      };
    case 'combine':
      // Created, then refused by the service (its combine, a later create): answered, nothing to combine by this record.
      if (s.error !== undefined)
        return {
          known: `shipments ${s.shipmentIds.join(', ')} exist, not combined: the service refused: ${s.error.message}`,
          next: 'fix the cause, record that no order was made, and book its input again (its shipments are created anew)',
          command: resolveCommand(hints, s.id, journal, ['--not-created']),
        };
      return {
        known: `shipments ${s.shipmentIds.join(', ')} exist, not combined`,
        next: 'combine them, then record the parent order',
        command: hintText([cmd('shipment', 'combine', ...s.shipmentIds, '--main', file)], hints),
      };
    case 'ended':
      return {
        known: `order ${r.orderId}: its booking ended${s.error ? `: ${s.error.message}` : ''}`,
        next: 'book the file again with --again to make a second order',
        command: hintText([cmd('order', 'get', r.orderId)], hints),
      };
    case 'over_limit':
      return {
        known: `order ${r.orderId} was refused by --max-total ${s.limit ?? '?'} and cancelled`,
        next: `book it with a limit of at least ${s.total ?? 'its total'}`,
        command: hintText([cmd('book', file, '--max-total', s.total ?? '<aud>')], hints),
      };
  }
}

/**
 * One document of `journal show` and `journal resolve` as their machine document lists it: where
 * it stands (`r`, the engine's resume table for its state), what is known, and the exact next step
 * in words and as a command (`journal`: the journal file the resolve commands keep up to date).
 */
export const journalRow = (s: EntryState, r: Resume, journal: string | undefined, hints: HintStyle) => ({
  id: s.id,
  file: s.file ?? null,
  line: s.line ?? null,
  stage: s.stage,
  order_id: s.orderId ?? null,
  shipment_ids: s.shipmentIds,
  tracking_numbers: s.stage === 'processed' ? (s.trackingNumbers ?? []) : [],
  total: s.total ?? null,
  // The error of the last attempt only while it is where the document stands.
  error: s.stage === 'failed' || (s.stage === 'new' && s.error) ? (s.error ?? null) : null,
  ...(s.resolvedAs !== undefined ? { resolved_as: s.resolvedAs } : {}),
  ...truth(s, r, journal, hints),
});
