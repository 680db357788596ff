// The order the benchmark books over and over: the README's Quick start order
// (fixtures/orders/domestic-syd-mel.yaml) as the create-order body's inner object `{order: …}`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

/** A fresh copy of the sample order document (`{order: {shipments: [...]}}`). */
export function sampleOrder() {
  const doc = parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'orders', 'domestic-syd-mel.yaml'), 'utf8'));
  const inner = doc.request ?? doc;
  const shipments = inner.order?.shipments ?? inner.shipments;
  return { order: { shipments: structuredClone(shipments) } };
}
