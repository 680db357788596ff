/**
 * A directory of order files costs what its orders cost: each file is read (a few at once, never
 * more than the read-ahead), parsed once by the fast path (no YAML document, line index or token
 * stream is built for a plain file), checked and dropped. Counted, not timed.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { batchItems, type BatchItem } from '../../src/booking/batch/check.js';
import { parseWork } from '../../src/input/parse.js';
import { READ_AHEAD, readAheadWork } from '../../src/input/read-ahead.js';
import { validateFiles } from '../../src/input/validate.js';

const ROOT = join(import.meta.dirname, '..', '..');
const FILES = 60;
const work = mkdtempSync(join(tmpdir(), 'shipbook-dir-'));
const dir = join(work, 'orders');
mkdirSync(dir);
const order = readFileSync(join(ROOT, 'fixtures/orders/domestic-syd-mel.yaml'), 'utf8').replace('date: next', 'date: "2030-03-05"');
// Written out of order: the batch reads them in sorted name order.
for (let i = FILES - 1; i >= 0; i--) {
  const name = `order-${String(i).padStart(3, '0')}.yaml`;
  writeFileSync(join(dir, name), order.replace('SO-10482', `SO-${i}`));
}
// One file with a problem: its message needs a line, which the full parse gives.
writeFileSync(join(dir, 'order-030b.yaml'), order.replace('SO-10482', 'SO-bad').replace('weight: 6.5', 'weight: heavy'));
const now = () => new Date('2030-03-01T00:00:00Z');

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('a directory of order files', () => {
  it('is read a few files at once, in name order, with one full parse: for the file whose problem needs a line', async () => {
    const parsed = parseWork.documents;
    readAheadWork.most = 0;
    const items: BatchItem[] = [];
    for await (const item of batchItems([dir], undefined, now)) items.push(item);
    expect(items.map((i) => i.file)).toStrictEqual(
      [...Array.from({ length: FILES }, (_, i) => `order-${String(i).padStart(3, '0')}.yaml`), 'order-030b.yaml'].sort().map((n) => join(dir, n)),
    );
    expect(items.filter((i) => i.issues !== undefined).map((i) => i.file)).toStrictEqual([join(dir, 'order-030b.yaml')]);
    expect(items.find((i) => i.issues)?.issues?.[0]).toMatchObject({ line: 35, path: 'order.shipments[0].packages[0].weight' });
    expect(parseWork.documents - parsed).toBe(1);
    expect(readAheadWork.most).toBeGreaterThan(1);
    expect(readAheadWork.most).toBeLessThanOrEqual(READ_AHEAD);
  });

  it('is validated the same way: a few files at once, one full parse', async () => {
    const parsed = parseWork.documents;
    readAheadWork.most = 0;
    const reports = await validateFiles([dir], { now });
    expect(reports).toHaveLength(FILES + 1);
    expect(reports.filter((r) => !r.valid).map((r) => r.file)).toStrictEqual([join(dir, 'order-030b.yaml')]);
    expect(parseWork.documents - parsed).toBe(1);
    expect(readAheadWork.most).toBeGreaterThan(1);
    expect(readAheadWork.most).toBeLessThanOrEqual(READ_AHEAD);
  });
});
