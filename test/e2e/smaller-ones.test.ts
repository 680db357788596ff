/**
 * Smaller side doors: an id typed in lower case, a cancelled order cancelled again, a pickup date
 * on a Sunday or in the past, the sandbox's status words, and a failed order's tracking number in JSON.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runShipbook } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const fx = useSandbox({ processingDelayMs: 20 });
const dir = mkdtempSync(join(tmpdir(), 'shipbook-smaller-'));

async function pendingOrder(): Promise<string> {
  const r = await runShipbook(['order', 'create', 'fixtures/orders/domestic-syd-mel.yaml', '--json'], { env: fx.env });
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { order: { id: string } }).order.id;
}

describe('ids in lower case', () => {
  it('are not changed (ids are opaque), and a 404 for one says ids are case-sensitive and names the upper-case id', async () => {
    const id = await pendingOrder();
    const lower = await runShipbook(['order', 'get', id.toLowerCase()], { env: fx.env });
    expect(lower.code).toBe(3);
    expect(lower.stderr).toContain(`hint: Ids are case-sensitive: did you mean ${id}?`);
    expect((await runShipbook(['order', 'get', id], { env: fx.env })).code).toBe(0);
    const unknown = await runShipbook(['order', 'get', 'ORD-ZZZZZZZZ'], { env: fx.env });
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).not.toContain('case-sensitive');
    expect(readFileSync('docs/assumptions.md', 'utf8')).toContain('Ids are case-sensitive: did you mean ORD-…?');
  });
});
