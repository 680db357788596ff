/** Batch files for tests: many copies of one order, told apart by their shipment's `transient_id`. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ROOT } from './cli.js';

/** Where {@link batchFixture} writes and how it tags the orders; every field is optional. */
interface BatchFixtureOptions {
  /** The directory to write into (default: a new one under the system's temporary directory). */
  dir?: string;
  /** The tag of order `i`'s `transient_id`, `<prefix>-<i>` (default `B`). */
  prefix?: string;
  /** The file's name in `dir` (default `orders.ndjson`). */
  name?: string;
}

/**
 * The pickup date of the batch files: a fixed collection day years ahead, not the fixture's `next`.
 * A sandbox with seeded faults draws them from each request's content, so a test that knows its
 * outcome needs the same content on every day it runs.
 */
const BATCH_PICKUP_DATE = '2031-12-02';

/**
 * Writes an NDJSON file of `n` copies of fixtures/orders/domestic-syd-mel.yaml (Sydney to
 * Melbourne) picked up on {@link BATCH_PICKUP_DATE}, the first shipment of copy `i` (from 0) tagged
 * with `transient_id` `<prefix>-<i>`, and returns its directory, its path and its lines (one JSON
 * order each).
 */
export function batchFixture(n: number, options: BatchFixtureOptions = {}): { dir: string; file: string; lines: string[] } {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'shipbook-batch-'));
  const prefix = options.prefix ?? 'B';
  const doc = parse(readFileSync(join(ROOT, 'fixtures/orders/domestic-syd-mel.yaml'), 'utf8')) as { order: { shipments: Array<Record<string, any>> } };
  doc.order.shipments[0]!.collection.pickup.date = BATCH_PICKUP_DATE;
  const lines = Array.from({ length: n }, (_, i) => {
    const o = structuredClone(doc);
    o.order.shipments[0]!.transient_id = `${prefix}-${i}`;
    return JSON.stringify(o);
  });
  const file = join(dir, options.name ?? 'orders.ndjson');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return { dir, file, lines };
}
