/**
 * Two stations at the dock scanning into one shared ledger on a real PostgreSQL server
 * (test/helpers/postgres.ts): each machine has its own state directory, both name the same
 * database (`SHIPBOOK_LEDGER`). A station still scanning sees a parcel the other one scanned
 * meanwhile as already scanned there, and the sheet of either machine lists both stations' scans.
 */
import { loadCollectionCalendar } from '../../src/booking/pickup/calendar.js';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import type { Sheet } from '../../src/ledger/reports/sheet.js';
import { BIN, ROOT, isolatedEnv, runCli } from '../helpers/cli.js';
import { POSTGRES_MISSING, startPostgres, type TestPostgres } from '../helpers/postgres.js';

const KEY = 'sk_test_dock_stations_0123';
const DAY = (await loadCollectionCalendar()).collectionDays(new Date(), ['NSW'], {}, 2)[1]!;

describe.skipIf(POSTGRES_MISSING !== undefined)(`two stations, one shared ledger${POSTGRES_MISSING ? ` (skipped: ${POSTGRES_MISSING})` : ''}`, () => {
  let pg: TestPostgres;
  let sandbox: Sandbox;
  const dir = mkdtempSync(join(tmpdir(), 'shipbook-dock-stations-'));
  const machine = (name: string) => ({
    SHIPBOOK_BASE_URL: sandbox.url,
    SHIPBOOK_API_KEY: KEY,
    SHIPBOOK_LEDGER: pg.url,
    SHIPBOOK_STATE_DIR: join(dir, name, 'state'),
    SHIPBOOK_CONFIG_DIR: join(dir, name, 'config'),
  });
  let tracking: string[];

  beforeAll(async () => {
    pg = startPostgres();
    sandbox = await startSandbox({ processingDelayMs: 10, apiKey: KEY } as Parameters<typeof startSandbox>[0]);
    const docs = join(dir, 'orders');
    mkdirSync(docs);
    const fixture = readFileSync(join(ROOT, 'fixtures/orders/domestic-syd-mel.yaml'), 'utf8');
    for (let i = 0; i < 4; i++)
      writeFileSync(join(docs, `o${i}.yaml`), fixture.replace('SO-10482', `SO-${50000 + i}`).replace('description: Homewares', `description: Homewares ${i}`));
    const booked = await runCli(['book', docs, '--pickup-date', DAY, '--poll', '20ms', '--journal', join(dir, 'journal.ndjson')], {
      env: machine('a'),
      timeoutMs: 60_000,
    });
    expect(booked.code, booked.stderr).toBe(0);
    const sheet = await runCli(['handover', '--date', DAY, '--json'], { env: machine('b') });
    expect(sheet.code, sheet.stderr).toBe(0);
    tracking = (JSON.parse(sheet.stdout) as { handover: Sheet }).handover.sections.flatMap((s) => s.carriers.flatMap((c) => c.lines.map((l) => l.tracking)));
    expect(tracking.length).toBe(4);
  }, 120_000);

  afterAll(async () => {
    await sandbox?.close();
    pg?.stop();
  });

  it("a station still scanning sees the other station's scan of a parcel as already scanned there", async () => {
    // Station B opens and scans one parcel; it keeps reading standard input.
    const b = spawn(process.execPath, [BIN, 'dock', '--date', DAY, '--station', 'dock-b', '--driver', 'Sam Lee', '--json'], {
      cwd: ROOT,
      env: isolatedEnv(machine('b')),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    b.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    b.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    const lineCount = async (n: number) => {
      for (let i = 0; i < 600 && out.split('\n').length <= n; i++) await new Promise((r) => setTimeout(r, 50));
      expect(out.split('\n').length, err).toBeGreaterThan(n);
    };
    b.stdin.write(`${tracking[0]}\n`);
    await lineCount(1);

    // Meanwhile station A, on another machine, scans two parcels.
    const a = await runCli(['dock', '--date', DAY, '--station', 'dock-a', '--driver', 'Sam Lee', '--json'], {
      env: machine('a'),
      input: `${tracking[1]}\n${tracking[2]}\n`,
    });
    expect(a.code).toBe(8);
    const seenAt = Date.now();

    // B scans one of them right after.
    b.stdin.write(`${tracking[1]}\n`);
    await lineCount(2);
    b.stdin.end();
    const code = await new Promise<number | null>((resolve) => b.on('close', resolve));
    expect(Date.now() - seenAt).toBeLessThan(10_000);
    const lines = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { scan?: { result: string; earlier?: { station: string } }; summary?: Record<string, any> });
    expect(lines[0]!.scan!.result).toBe('ok');
    expect(lines[1]!.scan).toMatchObject({ result: 'already_scanned', earlier: { station: 'dock-a' } });
    const summary = lines.at(-1)!.summary!;
    // Three of four scanned (one here, two at A); the fourth is missing: exit 8.
    expect(summary).toMatchObject({ expected: 4, scanned: 3, scanned_here: 1 });
    expect(summary.missing.map((m: { tracking_number: string }) => m.tracking_number)).toEqual([tracking[3]]);
    expect(code).toBe(8);

    // Either machine's sheet lists both stations' scans.
    const sheet = await runCli(['handover', '--date', DAY, '--json', '--offline'], { env: machine('a') });
    const scanned = (JSON.parse(sheet.stdout) as { handover: Sheet }).handover.sections.flatMap((s) =>
      s.carriers.flatMap((c) => c.lines.map((l) => l.scanned?.station ?? '-')),
    );
    expect(scanned.sort()).toEqual(['-', 'dock-a', 'dock-a', 'dock-b']);
  }, 120_000);
});
