// The order the benchmark books over and over: the README's Quick start order
// (fixtures/orders/domestic-syd-mel.yaml) as the create-order body's inner object `{order: …}`;
// and the same orders written as each input a batch reads (NDJSON, CSV, a directory of YAML files).
import { createWriteStream, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';

/**
 * The pickup day of the benchmark's orders: the fixture says `next`, which shipbook settles but a
 * bare client sends as it is (and the service refuses). The first Tuesday, Wednesday or Thursday
 * at least two weeks from today that no Australian calendar closes (not 20 December to 5 January,
 * 26 January or 25 April), so every client sends the same date.
 */
export function benchPickupDay(today = new Date()) {
  const day = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + 14));
  for (;;) {
    const [m, d, w] = [day.getUTCMonth() + 1, day.getUTCDate(), day.getUTCDay()];
    const closed = (m === 12 && d >= 20) || (m === 1 && (d <= 5 || d === 26)) || (m === 4 && d === 25);
    if (w >= 2 && w <= 4 && !closed) return day.toISOString().slice(0, 10);
    day.setUTCDate(day.getUTCDate() + 1);
  }
}

/** A fresh copy of the sample order document (`{order: {shipments: [...]}}`), its pickup on {@link benchPickupDay}. */
export function sampleOrder() {
  const doc = parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'orders', 'domestic-syd-mel.yaml'), 'utf8'));
  const inner = doc.request ?? doc;
  const shipments = structuredClone(inner.order?.shipments ?? inner.shipments);
  for (const s of shipments) if (s.collection?.pickup) s.collection.pickup.date = benchPickupDay();
  return { order: { shipments } };
}

/** Order `n` of a generated batch: the sample order with its own transient id `BENCH-<n>`. */
export function benchOrder(n) {
  const order = sampleOrder();
  order.order.shipments[0].transient_id = `BENCH-${n}`;
  return order;
}

/** The columns of shipbook's CSV layout (docs/batch.md), as fixtures/csv/orders.csv has them. */
const CSV_COLUMNS = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'csv', 'orders.csv'), 'utf8')
  .split('\n')[0]
  .split(',');

/** A CSV field, quoted when it must be. */
const csvField = (v) => {
  const s = v === undefined || v === null ? '' : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
};

/** The CSV rows of a one-shipment order: one row per package (or customs item, whichever are more), the shipment's fields on the first. */
function csvRows(order) {
  const s = order.order.shipments[0];
  const address = (prefix, a) => ({
    [`${prefix}_first_name`]: a.first_name,
    [`${prefix}_last_name`]: a.last_name,
    [`${prefix}_company`]: a.company,
    [`${prefix}_email`]: a.email,
    [`${prefix}_phone`]: a.phone,
    [`${prefix}_country`]: a.country,
    [`${prefix}_postcode`]: a.postcode,
    [`${prefix}_city`]: a.city,
    [`${prefix}_address_line_1`]: a.address_lines?.[0],
    [`${prefix}_address_line_2`]: a.address_lines?.[1],
  });
  const first = {
    service_code: s.service.code,
    collection_type: s.collection_type,
    ...(s.collection ? address('collection', s.collection) : {}),
    pickup_date: s.collection?.pickup?.date,
    pickup_time_earliest: s.collection?.pickup?.time_earliest,
    pickup_time_latest: s.collection?.pickup?.time_latest,
    ...address('delivery', s.delivery),
    description: s.description,
    customs_reason: s.customs_information.reason,
    customs_tax_status: s.customs_information.tax_status,
    customs_lithium: s.customs_information.lithium,
  };
  const count = Math.max(s.packages.length, s.customs_information.items.length);
  const rows = [];
  for (let i = 0; i < count; i++) {
    const p = s.packages[i] ?? {};
    const item = s.customs_information.items[i] ?? {};
    const row = {
      order_ref: s.transient_id,
      shipment_ref: s.transient_id,
      ...(i === 0 ? first : {}),
      package_length: p.length,
      package_width: p.width,
      package_height: p.height,
      package_weight: p.weight,
      package_unit: p.unit,
      item_description: item.description,
      item_quantity: item.quantity,
      item_value: typeof item.value === 'number' ? item.value.toFixed(2) : item.value,
      item_currency: item.currency,
      item_madein: item.madein,
    };
    rows.push(CSV_COLUMNS.map((c) => csvField(row[c])).join(','));
  }
  return rows;
}

/**
 * Writes orders 0 … count-1 ({@link benchOrder}) in `dir` as `orders.ndjson` (one order a line),
 * `orders.csv` (shipbook's CSV layout) and `orders-yaml/` (one YAML file per order,
 * `order-000000.yaml` …): the same orders, the same way every time.
 * @returns {{ndjson: string, csv: string, yamlDir: string}} their paths
 */
export async function writeOrderInputs(dir, count) {
  mkdirSync(dir, { recursive: true });
  const paths = { ndjson: join(dir, 'orders.ndjson'), csv: join(dir, 'orders.csv'), yamlDir: join(dir, 'orders-yaml') };
  mkdirSync(paths.yamlDir, { recursive: true });
  const ndjson = createWriteStream(paths.ndjson);
  const csv = createWriteStream(paths.csv);
  csv.write(`${CSV_COLUMNS.join(',')}\n`);
  for (let n = 0; n < count; n++) {
    const order = benchOrder(n);
    writeFileSync(join(paths.yamlDir, `order-${String(n).padStart(6, '0')}.yaml`), stringify(order));
    const a = ndjson.write(`${JSON.stringify(order)}\n`);
    const b = csv.write(`${csvRows(order).join('\n')}\n`);
    if (!a) await once(ndjson, 'drain');
    if (!b) await once(csv, 'drain');
  }
  ndjson.end();
  csv.end();
  await Promise.all([once(ndjson, 'finish'), once(csv, 'finish')]);
  return paths;
}
