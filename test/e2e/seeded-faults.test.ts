/**
 * A batch against a sandbox whose faults are drawn from a seed (`shipbook sandbox --seed`) has one
 * outcome per order, however its requests interleave: the test knows it exactly.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startSandbox } from '../../src/sandbox/index.js';
import { batchFixture } from '../helpers/batch.js';
import { runShipbook } from '../helpers/run.js';

describe('seeded faults under a batch', () => {
  it('a batch against a seeded faulty sandbox ends the same at every order, one request at a time or eight', async () => {
    const { dir, file } = batchFixture(24, { dir: mkdtempSync(join(tmpdir(), 'shipbook-seeded-')), prefix: 'SEED' });
    const outcome = async (concurrency: number) => {
      const sandbox = await startSandbox({ processingDelayMs: 20, faults: { failRate: 0.15, resetRate: 0.1, seed: 11 } });
      try {
        const report = join(dir, `report-${concurrency}.json`);
        const r = await runShipbook(
          ['book', file, '--concurrency', String(concurrency), '--poll', '50ms', '--report', report, '--journal', join(dir, `j-${concurrency}.ndjson`)],
          {
            env: { SHIPBOOK_BASE_URL: sandbox.url, SHIPBOOK_API_KEY: 'sk_test_seeded' },
            timeoutMs: 120_000,
          },
        );
        const rep = JSON.parse(readFileSync(report, 'utf8')) as { orders: Array<{ line: number; status: string }> };
        return { code: r.code, statuses: rep.orders.sort((a, b) => a.line - b.line).map((o) => `${o.line}:${o.status}`) };
      } finally {
        await sandbox.close();
      }
    };
    const one = await outcome(1);
    const eight = await outcome(8);
    // Seed 11 leaves exactly two orders unknown, lines 2 and 16 (their creates were processed and
    // the answers lost, every time they were asked): the batch knows it ends with exit 8 and which
    // orders they are.
    expect(one).toEqual({ code: 8, statuses: Array.from({ length: 24 }, (_, i) => `${i + 1}:${i + 1 === 2 || i + 1 === 16 ? 'unknown' : 'booked'}`) });
    expect(eight).toEqual(one);
  }, 180_000);
});
