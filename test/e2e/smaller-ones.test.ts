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

describe('pickup dates no carrier collects on', () => {
  const withDate = (name: string, date: string) => {
    const path = join(dir, name);
    writeFileSync(path, readFileSync('fixtures/orders/domestic-syd-mel.yaml', 'utf8').replace(/date: next/, `date: "${date}"`));
    return path;
  };
  it('validate refuses a Sunday and a past date at file:line:col, naming the next collection day (exit 2); a Monday passes', async () => {
    const sunday = withDate('sunday.yaml', '2099-01-04');
    const s = await runShipbook(['validate', sunday], { env: fx.env });
    expect(s.code, s.stderr).toBe(2);
    expect(s.stdout).toContain(
      `${sunday}:21:17\torder.shipments[0].collection.pickup.date\terror\tpickup date 2099-01-04 is a Sunday: carriers do not collect on weekends; the next collection day is `,
    );
    expect(s.stdout).toContain('write it, or book with --roll-pickup-dates');
    const past = withDate('past.yaml', '2020-01-06');
    const p = await runShipbook(['validate', past], { env: fx.env });
    expect(p.code).toBe(2);
    expect(p.stdout).toMatch(
      /past\.yaml:21:17\torder\.shipments\[0\]\.collection\.pickup\.date\terror\tpickup date 2020-01-06 is in the past \(today is \w+ \d+ \w+ in NSW\)/,
    );
    const monday = withDate('monday.yaml', '2099-01-05');
    const m = await runShipbook(['validate', monday], { env: fx.env });
    expect(m.code, m.stdout).toBe(0);
    expect(m.stdout).not.toContain('warning');
  });
});

describe('sandbox status in the words of every other output', () => {
  it('counts orders and shipments by the same states (processed, cancelled …), never by a wire status such as TODO', async () => {
    const env = { SHIPBOOK_STATE_DIR: mkdtempSync(join(tmpdir(), 'shipbook-status-')) };
    const booked = await runShipbook(['book', 'fixtures/orders/domestic-syd-mel.yaml', '--poll', '50ms'], { env });
    expect(booked.code, booked.stderr).toBe(0);
    const created = await runShipbook(['order', 'create', 'fixtures/orders/insured-bne-per.yaml', '--json'], { env });
    const id = (JSON.parse(created.stdout) as { order: { id: string } }).order.id;
    expect((await runShipbook(['order', 'cancel', id], { env })).code).toBe(0);
    const r = await runShipbook(['sandbox', 'status'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('orders\t2\tprocessed 1, cancelled 1\n');
    expect(r.stdout).toContain('shipments\t2\tprocessed 1, cancelled 1\n');
    expect(r.stdout).not.toMatch(/TODO|PEN/);
    const json = JSON.parse((await runShipbook(['sandbox', 'status', '--json'], { env })).stdout) as Record<string, any>;
    expect(json.shipments.by_state).toEqual({ processed: 1, cancelled: 1 });
    expect(json.shipments.by_status).toEqual({ TODO: 1, PEN: 1 });
  });
});

describe('a failed order in JSON', () => {
  it('carries tracking_number null where the table shows —, never the wire placeholder N/A', async () => {
    const id = await pendingOrder();
    fx.sandbox.state.failNextBooking(id, 'no van (test)');
    const accepted = await runShipbook(['order', 'accept', id, '--payment', 'credit', '--wait', '--poll', '50ms'], { env: fx.env });
    expect(accepted.code).toBe(6);
    const r = await runShipbook(['order', 'get', id, '--json'], { env: fx.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('N/A');
    const order = (JSON.parse(r.stdout) as { order: { state: string; shipments: Array<{ tracking_number: unknown }> } }).order;
    expect(order.state).toBe('failed');
    expect(order.shipments.map((s) => s.tracking_number)).toEqual([null]);
    const yaml = await runShipbook(['order', 'get', id, '--output', 'yaml'], { env: fx.env });
    expect(yaml.stdout).toContain('tracking_number: null');
  });
});
