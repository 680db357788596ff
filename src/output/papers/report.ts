/**
 * What `shipbook documents` (and `book --documents`) say about the customs papers: each file
 * written, the orders left out and why, the characters the fonts could not print, and the items
 * the product catalogue has no tariff code for (`documents --check`).
 */
import type { IOStreams } from '../../io.js';
import type { MissingCode } from '../../booking/papers/build.js';
import type { PaperNote } from '../../booking/papers/select.js';

/** A file of papers written. */
export interface MadeFile {
  path: string;
  order_ids: string[];
  /** Papers in it (each invoice or slip once, copies not counted). */
  papers: number;
  pages: number;
}

/** A note on an order, in words. */
export function noteText(n: PaperNote): string {
  switch (n.kind) {
    case 'domestic':
      return `order ${n.order_id} stays in Australia: it needs no customs papers; none made`;
    case 'not_recorded':
      return `order ${n.order_id} was booked by an earlier version of shipbook, which did not keep what its customs papers need; none made`;
    case 'cancelled':
      return `order ${n.order_id} was cancelled: nothing travels; no papers made`;
    case 'failed':
      return `order ${n.order_id} failed at the service: nothing travels; no papers made`;
    case 'no_tracking_yet':
      return `order ${n.order_id} is not processed yet: its papers say "tracking number not assigned yet" (make them again once it is, e.g. after shipbook order get ${n.order_id})`;
  }
}

/** Tab-separated lines (path, orders, papers, pages) of the files written, on stdout; notes on stderr. */
export function printMadeFiles(
  io: IOStreams,
  files: readonly MadeFile[],
  notes: readonly PaperNote[],
  unprintable: ReadonlyArray<{ char: string; shown_as: string }>,
): void {
  for (const f of files) io.out(`${f.path}\t${f.order_ids.join(',')}\t${f.papers} paper(s)\t${f.pages} page(s)\n`);
  for (const n of notes) io.err(`note: ${noteText(n)}\n`);
  if (unprintable.length > 0) io.err(`note: the papers' fonts cannot print ${unprintable.map((u) => `"${u.char}" (shown as "${u.shown_as}")`).join(', ')}\n`);
}

/** The items without a tariff code, one per line (order, shipment, description), or a line saying every item has one. */
export function printMissingCodes(io: IOStreams, missing: readonly MissingCode[], catalogue: string | undefined): void {
  if (catalogue === undefined) io.err('note: no product catalogue is set (shipbook config set papers.catalogue FILE): no item has a tariff code\n');
  for (const m of missing) io.out(`${m.order_id}\t${m.shipment_id}\t${m.description}\n`);
  if (missing.length === 0) io.err('Every item of these orders has a tariff (HS) code in the catalogue.\n');
  else io.err(`${missing.length} item(s) without a tariff (HS) code${catalogue !== undefined ? ` in ${catalogue}` : ''}.\n`);
}
