/**
 * Order documents written as rows of the CSV layout (src/input/csv-layout.ts): the inverse of the
 * reader, with which the CSV tests write the orders they read back.
 */
import { CSV_COLUMNS } from '../../src/input/csv-layout.js';

/** The value at `path` inside `data`, if every step exists. */
function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let v = data;
  for (const k of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[k];
  }
  return v;
}

/** A value as the text of a cell (a list joined with `|`). */
function cellText(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (Array.isArray(v)) return v.map(String).join('|');
  return String(v);
}

/**
 * The rows of an order document in the layout, as cells by column name (the inverse of the
 * reader, which the round-trip tests write orders with): each shipment's fields on its first row, one package and
 * one customs item per row, as many rows as the longer of the two lists. A collection written as
 * `"@name"` goes to the `sender` column. Shipments are told apart by their `transient_id`.
 */
export function orderToRows(orderRef: string, doc: { order: { shipments: readonly unknown[] } }): Array<Record<string, string>> {
  const out: Array<Record<string, string>> = [];
  for (const shipment of doc.order.shipments) {
    const packages = (valueAt(shipment, ['packages']) as unknown[] | undefined) ?? [];
    const items = (valueAt(shipment, ['customs_information', 'items']) as unknown[] | undefined) ?? [];
    const n = Math.max(1, packages.length, items.length);
    for (let k = 0; k < n; k++) {
      const row: Record<string, string> = {};
      for (const c of CSV_COLUMNS) {
        if (c.name === 'order_ref') row[c.name] = orderRef;
        // Tags are the rules' business: orders written here carry none.
        else if (c.level === 'order') row[c.name] = '';
        else if (c.name === 'shipment_ref') row[c.name] = cellText(valueAt(shipment, c.path));
        else if (c.level === 'shipment') {
          if (k > 0) row[c.name] = '';
          else if (c.type === 'sender') {
            const coll = valueAt(shipment, ['collection']);
            row[c.name] = typeof coll === 'string' ? coll : cellText(valueAt(coll, ['sender']));
          } else row[c.name] = cellText(valueAt(shipment, c.path));
        } else row[c.name] = cellText(valueAt(c.level === 'package' ? packages[k] : items[k], c.path));
      }
      out.push(row);
    }
  }
  return out;
}
