/**
 * A sheet filter that matches nothing (`--carrier "Star Track"` when the carrier is `StarTrack`):
 * what the day does hold, so that the command says so instead of drawing an empty sheet for the
 * driver to sign, with the nearest name to suggest.
 */
import { buildSheet, type Sheet, type SheetFilter, type SheetOrder } from '../../ledger/index.js';
import { editDistance } from '../../schema/edit-distance.js';

/** What the day holds when the filter `flag` with `value` matched nothing. */
export interface NoMatch {
  flag: '--carrier' | '--collection' | '--driver';
  value: string;
  /** Shipments on the day's sheet without the filter. */
  shipments: number;
  /** The names the flag could take that day, with their shipments, most first. */
  names: Array<{ name: string; shipments: number }>;
  /** The name nearest to `value`, when there is one. */
  nearest?: string;
}

/** A name's shape for comparing: lower case, without spaces, dashes and dots. */
const squash = (s: string) => s.toLowerCase().replace(/[\s\-_.]+/g, '');

/** The name of `names` nearest to `value` (by edit distance of their squashed forms; a collection's parts are compared one by one). */
function nearestName(value: string, names: readonly string[], parts: boolean): string | undefined {
  let best: { name: string; d: number } | undefined;
  for (const name of names) {
    const pieces = parts ? name.split(',').map((p) => p.trim()) : [name];
    for (const piece of pieces) {
      const d = editDistance(squash(value), squash(piece)) / Math.max(1, piece.length);
      if (best === undefined || d < best.d) best = { name: parts ? piece : name, d };
    }
  }
  return best?.name;
}

/**
 * Undefined when `sheet` (made with `filter`) has something to hand over, when no filter by
 * carrier, collection or driver was given, or when the day has nothing to hand over anyway; else
 * what the day holds without them (`carrierOf` as for
 * src/ledger/sheet.ts `buildSheet`).
 */
export function noMatch(sheet: Sheet, orders: Iterable<SheetOrder>, filter: SheetFilter, carrierOf: (code: string | undefined) => string): NoMatch | undefined {
  if (sheet.sections.length > 0 || sheet.no_tracking_yet.length > 0) return undefined;
  const flag =
    filter.driver !== undefined ? '--driver' : filter.carrier !== undefined ? '--carrier' : filter.collection !== undefined ? '--collection' : undefined;
  if (flag === undefined) return undefined;
  const { carrier: _c, collection: _l, driver: _d, ...rest } = filter;
  const day = buildSheet(orders, rest, carrierOf);
  // A day with nothing to hand over says so as it is, whatever the filter.
  if (day.sections.length === 0 && day.no_tracking_yet.length === 0) return undefined;
  const counts = new Map<string, number>();
  for (const s of day.sections)
    for (const c of s.carriers)
      for (const l of c.lines) {
        const name = flag === '--carrier' ? c.carrier : flag === '--collection' ? s.collection : l.scanned?.driver;
        if (name !== undefined) counts.set(name, (counts.get(name) ?? 0) + 1);
      }
  const names = [...counts.entries()]
    .map(([name, shipments]) => ({ name, shipments }))
    .sort((a, b) => b.shipments - a.shipments || a.name.localeCompare(b.name));
  const value = (flag === '--driver' ? filter.driver : flag === '--carrier' ? filter.carrier : filter.collection)!;
  const nearest = nearestName(
    value,
    names.map((n) => n.name),
    flag === '--collection',
  );
  return { flag, value, shipments: day.totals.shipments, names, ...(nearest !== undefined ? { nearest } : {}) };
}
