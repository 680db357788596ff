/**
 * The dock's screen on a real pseudo-terminal (tmux), at 80 and 120 columns: a simulated scanner
 * types codes as fast as a keyboard-wedge scanner does (no pause between codes); the screen ticks
 * each parcel with its order and recipient city, marks each exception, counts expected against
 * scanned per carrier, and every line fits the width. At the end the missing parcel is confirmed
 * as not handed over and the driver named, and the ledger and the sheet say so.
 */
import { loadCollectionCalendar } from '../../src/booking/pickup/calendar.js';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Sheet } from '../../src/ledger/reports/sheet.js';
import type { HistoryRow } from '../../src/ledger/reports/history.js';
import { runShipbook } from '../helpers/run.js';
import { ROOT } from '../helpers/cli.js';
import { hasTmux, killTerminals, Terminal } from '../helpers/terminal.js';

if (!hasTmux) console.warn('skipping the pseudo-terminal tests of the dock screen: tmux is not installed (apt-get install tmux)');
afterAll(killTerminals);

const DAY = (await loadCollectionCalendar()).collectionDays(new Date(), ['NSW'], {}, 2)[1]!;

/** A directory of its own (home, configuration and the built-in sandbox's state) with six parcels booked for DAY; their tracking numbers. */
async function sixParcels(): Promise<{ dir: string; env: Record<string, string>; tracking: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'shipbook-dock-screen-'));
  const env = { HOME: dir, XDG_CONFIG_HOME: dir, SHIPBOOK_STATE_DIR: join(dir, 'state') };
  const docs = join(dir, 'orders');
  mkdirSync(docs);
  const fixture = readFileSync(join(ROOT, 'fixtures/orders/domestic-syd-mel.yaml'), 'utf8');
  for (let i = 0; i < 6; i++)
    writeFileSync(join(docs, `o${i}.yaml`), fixture.replace('SO-10482', `SO-${40000 + i}`).replace('description: Homewares', `description: Homewares ${i}`));
  const batch = await runShipbook(['book', docs, '--pickup-date', DAY, '--poll', '20ms', '--journal', join(dir, 'journal.ndjson')], { env });
  expect(batch.code, batch.stderr).toBe(0);
  const sheet = await runShipbook(['handover', '--date', DAY, '--json'], { env });
  const tracking = (JSON.parse(sheet.stdout) as { handover: Sheet }).handover.sections.flatMap((s) =>
    s.carriers.flatMap((c) => c.lines.map((l) => l.tracking)),
  );
  expect(tracking.length).toBe(6);
  return { dir, env, tracking };
}

describe.skipIf(!hasTmux)('the dock screen in a pseudo-terminal', () => {
  for (const columns of [80, 120]) {
    it(`ticks each scan, marks each exception and fits ${columns} columns; the end confirms the missing parcel and names the driver`, async () => {
      const { dir, env, tracking } = await sixParcels();
      const t = Terminal.start(['dock', '--date', DAY, '--station', 'dock-1'], env, columns, 30);
      await t.waitFor('Scan a parcel');
      expect(t.rang()).toBe(false);
      // The scanner: five parcels, an unknown code and a repeat, typed without a pause.
      for (const code of [...tracking.slice(0, 3), 'SBX0000000000', tracking[3]!, tracking[0]!, tracking[4]!]) t.keys('-l', `${code}\r`);
      const screen = await t.waitFor(/Scanned 5 of 6 {4}exceptions 2/);
      const rows = t.visible().split('\n');
      for (const row of rows) expect(row.length, `a row wider than ${columns} columns: ${row}`).toBeLessThanOrEqual(columns);
      for (const code of tracking.slice(0, 5)) expect(screen).toMatch(new RegExp(`✓ ${code}  ORD-\\w+  Melbourne, AU  StarTrack`));
      expect(screen).toContain('✗ UNKNOWN  SBX0000000000  unknown code');
      expect(screen).toMatch(new RegExp(`✗ ALREADY SCANNED  ${tracking[0]}  already scanned at \\d\\d:\\d\\d:\\d\\d by \\S+ at dock-1`));
      expect(screen).toMatch(/StarTrack +5\/6 +\[#+\.+\]/);
      // The exceptions rang the bell.
      expect(t.rang()).toBe(true);
      writeFileSync(join(tmpdir(), `shipbook-dock-screen-${columns}.txt`), t.visible());

      // The end: an empty line; the missing parcel listed and confirmed; the driver named.
      t.keys('Enter');
      await t.waitFor(`1 parcel(s) expected and not scanned:\n  ${tracking[5]}`);
      await t.answer('Record these 1 parcel(s) as not handed over? (no: go on scanning)', 'y');
      await t.answer("Driver's name:", 'Sam Lee');
      await t.answer('Vehicle (registration, optional):', 'XYZ-123');
      const end = await t.exit();
      expect(end.code).toBe(8);
      expect(end.screen).toContain('Dock');
      expect(end.screen).toContain('5 of 6 parcel(s) scanned, handed to Sam Lee');
      expect(end.screen).toContain('Recorded 1 parcel(s) as not handed over.');

      const history = await runShipbook(['history', '--operation', 'dock', '--json'], { env });
      const rows2 = (JSON.parse(history.stdout) as { history: HistoryRow[] }).history;
      expect(rows2.filter((r) => r.step === 'scan').length).toBe(5);
      expect(rows2.filter((r) => r.step === 'handed_over').map((r) => r.driver)).toEqual(Array(5).fill('Sam Lee'));
      expect(rows2.filter((r) => r.step === 'not_handed_over').map((r) => r.tracking_numbers![0])).toEqual([tracking[5]]);
      const sheet = await runShipbook(['handover', '--date', DAY, '--json'], { env });
      const lines = (JSON.parse(sheet.stdout) as { handover: Sheet }).handover.sections.flatMap((s) => s.carriers.flatMap((c) => c.lines));
      expect(lines.filter((l) => l.scanned?.driver === 'Sam Lee' && l.scanned.vehicle === 'XYZ-123').length).toBe(5);
      expect(lines.filter((l) => l.not_handed_over).map((l) => l.tracking)).toEqual([tracking[5]]);
      expect(dir).toBeTruthy();
    }, 120_000);
  }

  it('Ctrl-C ends the screen at once (exit 130); the scans made stay recorded, no hand-over is', async () => {
    const { env, tracking } = await sixParcels();
    const t = Terminal.start(['dock', '--date', DAY, '--station', 'dock-1'], env, 80, 30);
    await t.waitFor('Scan a parcel');
    t.keys('-l', `${tracking[0]}\r`);
    await t.waitFor('Scanned 1 of 6');
    t.keys('C-c');
    expect((await t.exit()).code).toBe(130);
    const history = await runShipbook(['history', '--operation', 'dock', '--json'], { env });
    expect((JSON.parse(history.stdout) as { history: HistoryRow[] }).history.map((r) => r.step)).toEqual(['scan']);
  }, 120_000);
});
