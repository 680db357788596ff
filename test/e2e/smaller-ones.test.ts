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

describe('cancelling a cancelled order', () => {
  it('is done: exit 0 with a note, the order printed, already_cancelled in JSON; an accepted order is still refused (exit 3)', async () => {
    const id = await pendingOrder();
    expect((await runShipbook(['order', 'cancel', id], { env: fx.env })).code).toBe(0);
    const again = await runShipbook(['order', 'cancel', id], { env: fx.env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe(`order\t${id}\tcancelled\n`);
    expect(again.stderr).toContain(`note: order ${id} was already cancelled; nothing changed`);
    const json = await runShipbook(['order', 'cancel', id, '--json'], { env: fx.env });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ order: { id, state: 'cancelled' }, already_cancelled: true });
    const accepted = await pendingOrder();
    expect((await runShipbook(['order', 'accept', accepted, '--payment', 'credit'], { env: fx.env })).code).toBe(0);
    const refused = await runShipbook(['order', 'cancel', accepted], { env: fx.env });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain(`order ${accepted} cannot be cancelled`);
  });
});
