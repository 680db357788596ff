/**
 * End-to-end: the end of the day. Orders are booked on a sandbox on 127.0.0.1 three ways (a single
 * `book`, a CSV batch, and by hand with `order create` and `order accept`), one is cancelled; the
 * ledger then answers `history` (every change, with who and when) and `handover` makes the day's
 * sheet as JSON, CSV and PDF, checked with real tools: poppler's `pdftotext` for the text (every
 * tracking number, the totals) and zbar's `zbarimg` for the barcodes (pages rendered by `pdftoppm`).
 */
import { loadCollectionCalendar } from '../../src/booking/pickup/calendar.js';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import type { HistoryRow, Sheet } from '../../src/ledger/index.js';
import { runShipbook } from '../helpers/run.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { CODE128_ONLY } from '../helpers/barcodes.js';

const KEY = 'sk_test_handover_0123456789';
/**
 * The pickup date of the fixtures booked here (`--pickup-date`): the second collection day from now
 * in Sydney, never today on this machine, so that today's sheet holds only the drop-off.
 */
const DAY = (await loadCollectionCalendar()).collectionDays(new Date(), ['NSW'], {}, 2)[1]!;

/** True when `tool` runs on this machine. */
function has(tool: string): boolean {
  try {
    execFileSync(tool, ['-v'], { stdio: 'ignore' });
    return true;
  } catch (err) {
    // pdftotext -v exits 0, zbarimg -v too; a missing program is ENOENT.
    return (err as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}
const POPPLER = has('pdftotext') && has('pdftoppm');
const ZBAR = has('zbarimg');

describe('handover and history over a day booked three ways', () => {
  let sandbox: Sandbox;
  const state = mkdtempSync(join(tmpdir(), 'shipbook-handover-state-'));
  const dir = mkdtempSync(join(tmpdir(), 'shipbook-handover-'));
  const env = () => ({ SHIPBOOK_BASE_URL: sandbox.url, SHIPBOOK_API_KEY: KEY, SHIPBOOK_STATE_DIR: state });
  const ids: { single?: string; byHand?: string; cancelled?: string } = {};
  let sheet: Sheet;
  /** The tracking numbers the sandbox gave the shipments picked up on {@link DAY}. */
  let expected: string[];

  beforeAll(async () => {
    sandbox = await startSandbox({ processingDelayMs: 30, apiKey: KEY } as Parameters<typeof startSandbox>[0]);

    const single = await runShipbook(['book', 'fixtures/orders/domestic-syd-mel.yaml', '--pickup-date', DAY, '--poll', '50ms', '--json'], { env: env() });
    expect(single.code, single.stderr).toBe(0);
    ids.single = (JSON.parse(single.stdout) as { order: { id: string } }).order.id;

    const batch = await runShipbook(['book', 'fixtures/csv/orders.csv', '--pickup-date', DAY, '--poll', '50ms', '--journal', join(dir, 'journal.ndjson')], {
      env: env(),
    });
    expect(batch.code, batch.stderr).toBe(0);

    // By hand: a document of its own, in inches and pounds, created and accepted in two commands.
    const doc = parse(readFileSync(join(ROOT, 'fixtures/orders/domestic-syd-mel.yaml'), 'utf8')) as Record<string, any>;
    doc.order.shipments[0].description = 'Hand-typed order';
    doc.order.shipments[0].packages = [{ length: 20, width: 10, height: 10, weight: 10, unit: 'in' }];
    const hand = join(dir, 'hand.yaml');
    writeFileSync(hand, stringify(doc));
    const created = await runShipbook(['order', 'create', hand, '--pickup-date', DAY, '--json'], { env: env() });
    expect(created.code, created.stderr).toBe(0);
    ids.byHand = (JSON.parse(created.stdout) as { order: { id: string } }).order.id;
    const accepted = await runShipbook(['order', 'accept', ids.byHand, '--payment', 'credit'], { env: env() });
    expect(accepted.code, accepted.stderr).toBe(0);

    // One more, cancelled: left out of the sheet and counted.
    doc.order.shipments[0].description = 'Cancelled order';
    const other = join(dir, 'cancelled.yaml');
    writeFileSync(other, stringify(doc));
    const second = await runShipbook(['order', 'create', other, '--pickup-date', DAY, '--json'], { env: env() });
    expect(second.code, second.stderr).toBe(0);
    ids.cancelled = (JSON.parse(second.stdout) as { order: { id: string } }).order.id;
    const cancel = await runShipbook(['order', 'cancel', ids.cancelled], { env: env() });
    expect(cancel.code, cancel.stderr).toBe(0);
  }, 120_000);

  afterAll(async () => {
    await sandbox.close();
  });

  it('--offline lists the order accepted by hand as "no tracking number yet" and says it may be missing', async () => {
    for (let i = 0; i < 100 && sandbox.state.getOrder(ids.byHand!).status !== 'processed'; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    const r = await runCli(['handover', '--date', DAY, '--json', '--offline'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    const early = (JSON.parse(r.stdout) as { handover: Sheet }).handover;
    expect(early.no_tracking_yet.map((p) => p.order_id)).toEqual([ids.byHand]);
    expect(early.may_be_missing).toBe(1);
    // 10 lb in kilograms, to the gram.
    expect(early.no_tracking_yet[0]!.weight_kg).toBe(4.536);
    expect(early.cancelled).toBe(1);
    const table = await runCli(['handover', '--date', DAY, '--offline', '--output', 'table'], { env: env() });
    expect(table.stdout).toContain('Note: 1 accepted order(s) of the day whose booking result was not read may be missing from this sheet');
  });

  it('makes the sheet as JSON, CSV and PDF, reading and recording the result of the order accepted by hand first', async () => {
    const pdf = join(dir, 'sheet.pdf');
    const csv = join(dir, 'sheet.csv');
    const made = await runCli(['handover', '--date', DAY, '--pdf', pdf, '--csv', csv], { env: env() });
    expect(made.code, made.stderr).toBe(0);
    expect(made.stderr).toContain(`Read the booking result of 1 accepted order(s) of ${DAY}: 1 processed.`);
    expect(made.stderr).toContain(`Wrote the hand-over sheet of ${DAY} to ${pdf} (PDF, A4)`);
    const json = await runCli(['handover', '--date', DAY, '--json'], { env: env() });
    expect(json.code, json.stderr).toBe(0);
    sheet = (JSON.parse(json.stdout) as { handover: Sheet }).handover;

    expected = sandbox.state
      .allOrders()
      .filter((o) => o.id !== ids.cancelled)
      .flatMap((o) => sandbox.state.shipmentsOf(o))
      .filter((s) => s.request.collection?.pickup?.date === DAY && s.trackingNumber !== undefined)
      .map((s) => s.trackingNumber!)
      .sort();
    const listed = sheet.sections.flatMap((s) => s.carriers.flatMap((c) => c.lines.map((l) => l.tracking))).sort();
    expect(listed).toEqual(expected);
    // The single book and the order accepted by hand (the CSV's first order is the same document as the single book's: booked once).
    expect(expected.length).toBe(2);
    expect(sheet.no_tracking_yet).toEqual([]);
    expect(sheet.cancelled).toBe(1);
    expect(sheet.totals.shipments).toBe(expected.length);
    const orders = sheet.sections.flatMap((s) => s.carriers.flatMap((c) => c.lines.map((l) => l.order_id)));
    expect(orders).toContain(ids.single);
    expect(orders).toContain(ids.byHand);
    expect(orders).not.toContain(ids.cancelled);
    // Grouped by collection address and pickup date, then carrier (the service names it: StarTrack for SB-DOM-ROAD).
    expect(sheet.sections.map((s) => s.pickup_date)).toEqual(sheet.sections.map(() => DAY));
    expect(sheet.sections[0]!.collection).toContain('Alexandria');
    expect(sheet.sections[0]!.carriers.map((c) => c.carrier)).toContain('StarTrack');

    // The CSV's drop-off order (no pickup date) is on the sheet of the day it was booked.
    const today = await runCli(['handover', '--json'], { env: env() });
    expect(today.code, today.stderr).toBe(0);
    const todays = (JSON.parse(today.stdout) as { handover: Sheet }).handover;
    const dropoff = sandbox.state.allOrders().find((o) => sandbox.state.shipmentsOf(o).some((s) => s.request.collection_type === 'dropoff'))!;
    expect(todays.sections.flatMap((s) => s.carriers.flatMap((c) => c.lines.map((l) => l.order_id)))).toEqual([dropoff.id]);
    expect(todays.sections[0]!.carriers[0]!.carrier).toBe('DHL Express');

    // CSV: a header and one row per shipment.
    const rows = readFileSync(csv, 'utf8').trim().split('\n');
    expect(rows[0]).toBe(
      'section,collection,pickup_date,carrier,tracking_number,order_id,shipment_id,city,country,packages,weight_kg,service,scanned_at,scanned_by,station,driver,dock',
    );
    expect(rows[1]).toMatch(/,not_scanned$/);
    expect(rows.length - 1).toBe(expected.length);
    for (const t of expected) expect(rows.some((row) => row.includes(`,${t},`))).toBe(true);
  });

  it.skipIf(!POPPLER)('the PDF lists every tracking number and the totals (pdftotext)', () => {
    const text = execFileSync('pdftotext', ['-layout', join(dir, 'sheet.pdf'), '-'], { encoding: 'utf8' });
    for (const t of expected) expect(text).toContain(t);
    const kg = String(Math.round(sheet.totals.weight_kg * 1000) / 1000);
    expect(text).toContain(`Day total: ${sheet.totals.shipments} shipment(s), ${sheet.totals.packages} package(s), ${kg} kg`);
    for (const s of sheet.sections) expect(text).toContain(`Section total: ${s.totals.shipments} shipment(s)`);
    expect(text).toContain("Driver's name:");
    expect(text).toContain('This is not a carrier manifest.');
  });

  it.skipIf(!POPPLER || !ZBAR)('every barcode of the PDF decodes to its tracking number (pdftoppm, zbarimg)', () => {
    const pages = join(dir, 'pages');
    execFileSync('pdftoppm', ['-r', '300', '-png', join(dir, 'sheet.pdf'), pages]);
    const images = readdirSync(dir)
      .filter((f) => f.startsWith('pages') && f.endsWith('.png'))
      .map((f) => join(dir, f));
    const out = execFileSync('zbarimg', [...CODE128_ONLY, ...images], { encoding: 'utf8' });
    const decoded = out.trim().split('\n').sort();
    expect(decoded).toEqual(expected);
  });

  it('history lists every change of the day, with who and when', async () => {
    const r = await runCli(['history', '--json'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    const rows = (JSON.parse(r.stdout) as { history: HistoryRow[] }).history;
    const user = userInfo().username;
    for (const row of rows) {
      expect(row.user).toBe(user);
      expect(row.host).toBeTruthy();
      expect(Number.isNaN(Date.parse(row.time))).toBe(false);
    }
    const of = (op: string, order: string | undefined) =>
      rows.filter((row) => row.operation === op && row.order_id === order).map((row) => `${row.step} ${row.status}`);
    expect(of('book', ids.single)).toEqual(['create_order done', 'accept done', 'result processed']);
    expect(of('order create', ids.byHand)).toEqual(['create_order done']);
    expect(of('order accept', ids.byHand)).toEqual(['accept done']);
    expect(rows.find((row) => row.operation === 'order accept')!.payment).toBe('credit');
    // The sheet read the result of the order accepted by hand, and recorded it.
    expect(of('handover', ids.byHand)).toEqual(['result processed']);
    expect(of('order cancel', ids.cancelled)).toEqual(['cancel done']);
    // The batch: every order of the CSV created, accepted and processed.
    expect(rows.filter((row) => row.operation === 'book' && row.step === 'result').length).toBe(2);
    expect(rows.some((row) => row.status === 'unknown')).toBe(false);
    // Prices are recorded with the creates.
    expect(rows.find((row) => row.operation === 'order create')!.total).toMatch(/^\d+\.\d{2}$/);

    // Filters: an order, an operation, a status, a time range.
    const one = await runCli(['history', '--order', ids.cancelled!, '--json'], { env: env() });
    expect((JSON.parse(one.stdout) as { history: HistoryRow[] }).history.map((row) => row.operation)).toEqual(['order create', 'order cancel']);
    const accepts = await runCli(['history', '--operation', 'accept', '--status', 'done'], { env: env() });
    expect(accepts.code, accepts.stderr).toBe(0);
    expect(accepts.stdout.trim().split('\n').length).toBe(rows.filter((row) => row.step === 'accept').length);
    const none = await runCli(['history', '--until', '2000-01-01', '--json'], { env: env() });
    expect((JSON.parse(none.stdout) as { history: HistoryRow[] }).history).toEqual([]);
    const recent = await runCli(['history', '--since', '1d', '--json'], { env: env() });
    expect((JSON.parse(recent.stdout) as { history: HistoryRow[] }).history.length).toBe(rows.length);
  });

  it('a filter that matches nothing says what the day holds, suggests the nearest name and exits 2', async () => {
    const r = await runCli(['handover', '--date', DAY, '--carrier', 'Star Track', '--pdf', join(dir, 'none.pdf')], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `no shipment matches --carrier "Star Track" (${sheet.totals.shipments} shipments on ${DAY}: StarTrack ${sheet.totals.shipments})`,
    );
    expect(r.stderr).toContain('Did you mean --carrier "StarTrack"?');
    expect(() => readFileSync(join(dir, 'none.pdf'))).toThrow();
    const c = await runCli(['handover', '--date', DAY, '--collection', 'Koala'], { env: env() });
    expect(c.code).toBe(2);
    expect(c.stderr).toContain('no shipment matches --collection "Koala"');
    // The suggestion works when pasted.
    const ok = await runCli(['handover', '--date', DAY, '--carrier', 'StarTrack', '--json'], { env: env() });
    expect(ok.code, ok.stderr).toBe(0);
  });

  it('a day with nothing booked gives a sheet that says so, exit 0', async () => {
    const r = await runCli(['handover', '--date', '2001-01-01', '--output', 'table'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Nothing was booked for this day');
    const pdf = join(dir, 'empty.pdf');
    const p = await runCli(['handover', '--date', '2001-01-01', '--pdf', pdf], { env: env() });
    expect(p.code, p.stderr).toBe(0);
    expect(readFileSync(pdf).subarray(0, 5).toString()).toBe('%PDF-');
  });
});
