/**
 * `validate` takes time in proportion to the size of the document, however many problems it holds:
 * each problem is located through an index built once per document, never by walking the document
 * again. Documents of 5k, 10k, 20k and 40k top-level keys, customs items and shipments (each one a
 * problem) are validated with the function the command calls; the time of the largest over the
 * smallest is compared with the ratio of their sizes (8), with room for a noisy machine. Locating
 * by a walk per problem made it grow with the square (a ratio of about 60 for keys).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { validateBytes } from '../../src/input/validate.js';

const NOW = new Date('2026-11-21T12:00:00Z');
const SIZES = [5_000, 10_000, 20_000, 40_000] as const;
/** Linear growth gives 8 from the smallest to the largest; the square would give 64. */
const MAX_RATIO = 24;

/** Milliseconds of the fastest of `runs` validations of `bytes` (the least disturbed by the machine), and the problems found. */
function timeValidate(bytes: Buffer, kind: 'order', runs = 2): { ms: number; problems: number } {
  let best = Number.POSITIVE_INFINITY;
  let problems = 0;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const report = validateBytes('big.yaml', bytes, { kind, now: () => NOW });
    best = Math.min(best, performance.now() - started);
    problems = report.issues.length;
  }
  return { ms: best, problems };
}

const order = () => parse(readFileSync('fixtures/orders/domestic-syd-mel.yaml', 'utf8')) as { order: { shipments: any[] } };

/** `n` top-level keys the order schema does not know: n + 1 problems (and the missing order). */
function manyKeys(n: number): Buffer {
  let text = '';
  for (let i = 0; i < n; i++) text += `key_${i}: value ${i}\n`;
  return Buffer.from(text);
}

/** An order whose one shipment has `n` customs items, each with a quantity of 0 (one problem each). */
function manyItems(n: number): Buffer {
  const doc = order();
  const item = { description: 'Mug', quantity: 0, value: 0.01, currency: 'AUD', madein: 'AU' };
  doc.order.shipments[0].customs_information.items = Array.from({ length: n }, () => item);
  return Buffer.from(JSON.stringify(doc, null, 1));
}

/** An order of `n` shipments, each with a description over 35 characters (one problem each). */
function manyShipments(n: number): Buffer {
  const doc = order();
  const s = { ...doc.order.shipments[0], description: 'x'.repeat(36) };
  doc.order.shipments = Array.from({ length: n }, () => s);
  return Buffer.from(JSON.stringify(doc, null, 1));
}

describe('validate time grows linearly with the problems of a document', () => {
  for (const [what, make, scale] of [
    ['top-level keys', manyKeys, 1],
    // Items and shipments are larger (about 100 bytes and 1 KB of JSON): smaller counts keep the
    // test short and the largest under the input cap; the ratio of sizes is still 8.
    ['customs items', manyItems, 0.25],
    ['shipments', manyShipments, 0.05],
  ] as const) {
    it(`${what}: the largest document takes at most ${MAX_RATIO}× the time of one 8× smaller`, { timeout: 120_000 }, () => {
      const times = SIZES.map((n) => {
        const count = Math.round(n * scale);
        const { ms, problems } = timeValidate(make(count), 'order');
        expect(problems).toBeGreaterThanOrEqual(count);
        return ms;
      });
      const ratio = times[times.length - 1]! / times[0]!;
      expect(ratio, `times ${times.map((t) => t.toFixed(0)).join(', ')} ms`).toBeLessThan(MAX_RATIO);
    });
  }
});
