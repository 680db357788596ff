/**
 * End-to-end: the dock, on the built-in sandbox and on `shipbook sandbox`. Twenty orders of one pickup day are booked three
 * ways (a batch, single `book`s, and orders accepted without waiting, whose results only the dock
 * reads), one more is cancelled and one is picked up another day. Their parcels are scanned from
 * standard input, one left out, with the cancelled one, an unknown code, a repeat and the other
 * day's added. The scan lines, the summary, the exit code, the ledger's records (`history`) and
 * the hand-over sheet (JSON, and the PDF read with `pdftotext`, its barcodes with `zbarimg`) must
 * all tell the same story.
 */
import { loadCollectionCalendar } from '../../src/booking/pickup/calendar.js';
import { execFileSync, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sheet } from '../../src/ledger/reports/sheet.js';
import type { HistoryRow } from '../../src/ledger/reports/history.js';
import { runShipbook } from '../helpers/run.js';
import { ROOT, runCli, type CliResult } from '../helpers/cli.js';
import { CODE128_ONLY } from '../helpers/barcodes.js';
import { startSandboxProcess } from '../helpers/sandbox-process.js';

const [DAY, OTHER_DAY] = (await loadCollectionCalendar()).collectionDays(new Date(), ['NSW'], {}, 3).slice(1) as [string, string];

/** True when `tool` runs on this machine. */
function has(tool: string): boolean {
  try {
    execFileSync(tool, ['-v'], { stdio: 'ignore' });
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}
const POPPLER = has('pdftotext') && has('pdftoppm');
const ZBAR = has('zbarimg');

const KEY = 'sk_test_dock_0123456789';
const running: ChildProcess[] = [];
afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
});

/** The two sandboxes: the built-in one (no base URL), and `shipbook sandbox` in a process of its own. */
const TARGETS: Array<{ name: string; env: () => Promise<Record<string, string>> }> = [
  { name: 'the built-in sandbox', env: async () => ({}) },
  {
    name: '`shipbook sandbox`',
    env: async () => ({ SHIPBOOK_BASE_URL: await startSandboxProcess(['--api-key', KEY], running), SHIPBOOK_API_KEY: KEY }),
  },
];

for (const target of TARGETS)
  describe(`the dock, scanning from standard input on ${target.name}`, () => {
    const state = mkdtempSync(join(tmpdir(), 'shipbook-dock-state-'));
    const dir = mkdtempSync(join(tmpdir(), 'shipbook-dock-'));
    let env: Record<string, string> = { SHIPBOOK_STATE_DIR: state };
    const fixture = readFileSync(join(ROOT, 'fixtures/orders/domestic-syd-mel.yaml'), 'utf8');
    const doc = (n: number, where = dir): string => {
      const file = join(where, `o${String(n).padStart(2, '0')}.yaml`);
      writeFileSync(file, fixture.replace('SO-10482', `SO-${30000 + n}`).replace('description: Homewares', `description: Homewares ${n}`));
      return file;
    };
    const ok = (r: CliResult) => expect(r.code, r.stderr).toBe(0);
    const ids = { stepwise: [] as string[], cancelled: '', otherDay: '' };
    /** Tracking numbers of the day's twenty parcels, by order id. */
    const tracking = new Map<string, string>();
    let left: string;
    let otherDayTracking: string;
    let dock: CliResult;
    let lines: Array<{ scan?: { result: string; code: string; tracking_number?: string }; summary?: Record<string, any> }>;

    beforeAll(async () => {
      env = { ...(await target.env()), SHIPBOOK_STATE_DIR: state };
      // A batch of 15, three single books, two accepted without waiting: twenty orders for DAY.
      const batch = join(dir, 'batch');
      mkdirSync(batch);
      for (let n = 0; n < 15; n++) doc(n, batch);
      ok(await runShipbook(['book', batch, '--pickup-date', DAY, '--poll', '20ms', '--journal', join(dir, 'journal.ndjson')], { env }));
      for (let n = 15; n < 18; n++) ok(await runShipbook(['book', doc(n), '--pickup-date', DAY, '--poll', '20ms'], { env }));
      for (let n = 18; n < 20; n++) {
        const created = await runShipbook(['order', 'create', doc(n), '--pickup-date', DAY, '--json'], { env });
        ok(created);
        const id = (JSON.parse(created.stdout) as { order: { id: string } }).order.id;
        ok(await runShipbook(['order', 'accept', id, '--payment', 'credit'], { env }));
        ids.stepwise.push(id);
      }
      // One cancelled, one picked up another day.
      const created = await runShipbook(['order', 'create', doc(20), '--pickup-date', DAY, '--json'], { env });
      ok(created);
      ids.cancelled = (JSON.parse(created.stdout) as { order: { id: string } }).order.id;
      ok(await runShipbook(['order', 'cancel', ids.cancelled], { env }));
      const other = await runShipbook(['book', doc(21), '--pickup-date', OTHER_DAY, '--poll', '20ms', '--json'], { env });
      ok(other);
      ids.otherDay = (JSON.parse(other.stdout) as { order: { id: string } }).order.id;

      // The service's own list (read without recording anything): every tracking number.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const listed = await runShipbook(['order', 'list', '--from-service', '--json'], { env });
      ok(listed);
      for (const o of (JSON.parse(listed.stdout) as { orders: Array<{ order_id: string; status: string; tracking_numbers?: string[] }> }).orders)
        if (o.status === 'processed' && o.order_id !== ids.otherDay) tracking.set(o.order_id, o.tracking_numbers![0]!);
        else if (o.order_id === ids.otherDay) otherDayTracking = o.tracking_numbers![0]!;
      expect(tracking.size).toBe(20);

      // Scanned: 19 of the 20 (one left out), then the cancelled order's id, an unknown code, a
      // repeat, and the other day's parcel.
      const day = [...tracking.values()].sort();
      left = day[7]!;
      const codes = [...day.filter((t) => t !== left), ids.cancelled, 'SBX0000000000', day[0]!, otherDayTracking];
      dock = await runCli(['dock', '--date', DAY, '--driver', 'Sam Lee', '--vehicle', 'XYZ-123', '--station', 'dock-1', '--json'], {
        env,
        input: `${codes.join('\n')}\n`,
        timeoutMs: 60_000,
      });
      lines = dock.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as (typeof lines)[number]);
    }, 180_000);

    it('reads the result of the orders accepted without waiting before it opens, and records it', () => {
      expect(dock.stderr).toContain(`Read the booking result of 2 accepted order(s) of ${DAY}: 2 processed.`);
    });

    it('prints a line per scan, each exception named, and a summary that agrees; exit 8', () => {
      expect(dock.code, dock.stderr).toBe(8);
      const scans = lines.filter((l) => l.scan !== undefined).map((l) => l.scan!);
      expect(scans.length).toBe(23);
      expect(scans.filter((s) => s.result === 'ok').length).toBe(19);
      expect(scans.slice(19).map((s) => s.result)).toEqual(['cancelled', 'unknown', 'already_scanned', 'another_day']);
      const summary = lines.at(-1)!.summary!;
      expect(summary.expected).toBe(20);
      expect(summary.scanned).toBe(19);
      expect(summary.driver).toBe('Sam Lee');
      expect(summary.exceptions).toEqual({ cancelled: 1, unknown: 1, already_scanned: 1, another_day: 1 });
      expect(summary.missing.map((m: { tracking_number: string }) => m.tracking_number)).toEqual([left]);
      expect(dock.stderr).toContain('19 of 20 parcel(s) scanned, handed to Sam Lee');
      expect(dock.stderr).toContain('Exceptions: 1 unknown, 1 cancelled, 1 another day, 1 already scanned');
      expect(dock.stderr).toContain(`Missing: 1 parcel(s) expected and not scanned:\n  ${left}`);
    });

    it('records one ledger record per parcel scanned, with who, when, station and driver', async () => {
      const r = await runShipbook(['history', '--operation', 'dock', '--json'], { env });
      ok(r);
      const all = (JSON.parse(r.stdout) as { history: HistoryRow[] }).history;
      // The results the dock read before opening are recorded too, as the dock's.
      expect(all.filter((row) => row.step === 'result').map((row) => [row.order_id, row.status])).toEqual(
        expect.arrayContaining(ids.stepwise.map((id) => [id, 'processed'])),
      );
      const rows = all.filter((row) => row.step !== 'result');
      expect(rows.length).toBe(19);
      for (const row of rows) {
        expect(row.step).toBe('scan');
        expect(row.station).toBe('dock-1');
        expect(row.driver).toBe('Sam Lee');
        expect(row.vehicle).toBe('XYZ-123');
        expect(row.user).toBeTruthy();
      }
      expect(rows.map((row) => row.tracking_numbers![0]).sort()).toEqual([...tracking.values()].filter((t) => t !== left).sort());
    });

    it('the sheet says what was scanned and by whom, and --driver limits it to what the driver took', async () => {
      const r = await runShipbook(['handover', '--date', DAY, '--json'], { env });
      ok(r);
      const sheet = (JSON.parse(r.stdout) as { handover: Sheet }).handover;
      const all = sheet.sections.flatMap((s) => s.carriers.flatMap((c) => c.lines));
      expect(all.length).toBe(20);
      expect(sheet.scanned).toBe(19);
      expect(all.filter((l) => l.scanned === undefined).map((l) => l.tracking)).toEqual([left]);
      for (const l of all.filter((x) => x.scanned !== undefined)) expect(l.scanned).toMatchObject({ driver: 'Sam Lee', station: 'dock-1' });
      expect(sheet.cancelled).toBe(1);
      const sam = await runShipbook(['handover', '--date', DAY, '--driver', 'Sam Lee', '--json'], { env });
      ok(sam);
      const only = (JSON.parse(sam.stdout) as { handover: Sheet }).handover;
      expect(only.totals.shipments).toBe(19);
      const nobody = await runShipbook(['handover', '--date', DAY, '--driver', 'Sam Le'], { env });
      expect(nobody.code).toBe(2);
      expect(nobody.stderr).toContain('no shipment matches --driver "Sam Le" (20 shipments on');
      expect(nobody.stderr).toContain('Did you mean --driver "Sam Lee"?');
    });

    it.skipIf(!POPPLER)('the PDF sheet agrees: one parcel not scanned, every barcode decodes', async () => {
      const pdf = join(dir, 'sheet.pdf');
      ok(await runCli(['handover', '--date', DAY, '--pdf', pdf], { env }));
      const text = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
      expect(text.match(/not scanned/g)?.length).toBe(1);
      expect(text.match(/to Sam Lee \(XYZ-123\)/g)?.length).toBe(19);
      expect(text).toContain('20 shipment(s)');
      expect(text).toContain('19 scanned');
      if (!ZBAR) return;
      execFileSync('pdftoppm', ['-r', '150', '-png', pdf, join(dir, 'page')]);
      const images = readdirSync(dir)
        .filter((f) => f.startsWith('page') && f.endsWith('.png'))
        .map((f) => join(dir, f));
      // zbarimg exits non-zero when a page (the last, with the totals) has no barcode: read what it printed.
      const decoded = spawnSync('zbarimg', [...CODE128_ONLY, ...images], { encoding: 'utf8' })
        .stdout.trim()
        .split('\n')
        .sort();
      expect(decoded).toEqual([...tracking.values()].sort());
    });

    it('a second dock of the same parcels sees them as already scanned, by whom and where', async () => {
      const again = await runCli(['dock', '--date', DAY, '--offline', '--no-input'], { env, input: `${[...tracking.values()].find((t) => t !== left)}\n` });
      expect(again.code, again.stdout + again.stderr).toBe(8);
      expect(again.stdout).toMatch(/^already_scanned\tSBX\d+\t.*\talready scanned at \d\d:\d\d:\d\d by \S+ at dock-1$/m);
    });
  });
