/**
 * `validate` does work in proportion to the size of the document, however many problems it holds:
 * each problem is located through an index built once per document, never by walking the document
 * again. Documents of 1k, 2k, 4k and 8k top-level keys, customs items and shipments (each one a
 * problem) are validated with the function the command calls, and the steps spent locating their
 * problems are counted (src/input/parse.ts `locateWork`, not timed: a count is the same on a busy
 * machine; `npm run bench` keeps the timings). The largest over the smallest is compared with the
 * ratio of their sizes (8). Locating by a walk per problem made it grow with the square (64).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { validateBytes } from '../../src/input/validate.js';
import { locateWork } from '../../src/input/parse.js';

const NOW = new Date('2026-11-21T12:00:00Z');
const SIZES = [1_000, 2_000, 4_000, 8_000] as const;
/** Linear growth gives 8 from the smallest to the largest (a little more for the fixed part); the square would give 64. */
const MAX_RATIO = 9;

/** The steps spent locating the problems of one validation of `bytes`, and the problems found. */
function countValidate(bytes: Buffer, kind: 'order'): { steps: number; problems: number } {
  const before = locateWork.steps;
  const report = validateBytes('big.yaml', bytes, { kind, now: () => NOW });
  return { steps: locateWork.steps - before, problems: report.issues.length };
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
    it(`${what}: locating the problems of the largest document takes at most ${MAX_RATIO}× the steps of one 8× smaller`, { timeout: 120_000 }, () => {
      const steps = SIZES.map((n) => {
        const count = Math.round(n * scale);
        const { steps, problems } = countValidate(make(count), 'order');
        expect(problems).toBeGreaterThanOrEqual(count);
        expect(steps).toBeGreaterThan(0);
        return steps;
      });
      const ratio = steps[steps.length - 1]! / steps[0]!;
      expect(ratio, `steps ${steps.join(', ')}`).toBeLessThan(MAX_RATIO);
    });
  }
});
