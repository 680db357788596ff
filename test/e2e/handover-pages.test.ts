/**
 * End-to-end: a hand-over sheet of 40 shipments runs over several pages, and every page still
 * stands alone: the title, the collection and the column headings repeated, "page x of y" with
 * the date and the collection, a count of its shipments with a line for the driver's initials,
 * and a signature that says which pages it covers. Read with poppler's `pdftotext` page by page;
 * the barcodes of every page decoded with zbar's `zbarimg` (pages rendered by `pdftoppm`).
 */
import { loadCollectionCalendar } from '../../src/booking/pickup/calendar.js';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import type { Sheet } from '../../src/ledger/reports/sheet.js';
import { runShipbook } from '../helpers/run.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { CODE128_ONLY } from '../helpers/barcodes.js';

const KEY = 'sk_test_handover_pages_0123';
const DAY = (await loadCollectionCalendar()).collectionDays(new Date(), ['NSW'], {}, 2)[1]!;

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

describe.skipIf(!POPPLER)('a 40-shipment hand-over sheet on several pages', () => {
  let sandbox: Sandbox;
  const state = mkdtempSync(join(tmpdir(), 'shipbook-pages-state-'));
  const dir = mkdtempSync(join(tmpdir(), 'shipbook-pages-'));
  const env = () => ({ SHIPBOOK_BASE_URL: sandbox.url, SHIPBOOK_API_KEY: KEY, SHIPBOOK_STATE_DIR: state });
  const pdf = join(dir, 'sheet.pdf');
  let sheet: Sheet;
  let pages: number;

  beforeAll(async () => {
    sandbox = await startSandbox({ processingDelayMs: 10, apiKey: KEY } as Parameters<typeof startSandbox>[0]);
    const docs = join(dir, 'orders');
    mkdirSync(docs);
    const fixture = readFileSync(join(ROOT, 'fixtures/orders/domestic-syd-mel.yaml'), 'utf8');
    for (let i = 0; i < 40; i++)
      writeFileSync(
        join(docs, `o${String(i).padStart(2, '0')}.yaml`),
        fixture.replace('SO-10482', `SO-${20000 + i}`).replace('description: Homewares', `description: Homewares ${i}`),
      );
    const batch = await runShipbook(['book', docs, '--pickup-date', DAY, '--poll', '20ms', '--journal', join(dir, 'journal.ndjson')], { env: env() });
    expect(batch.code, batch.stderr).toBe(0);
    const made = await runCli(['handover', '--date', DAY, '--pdf', pdf], { env: env() });
    expect(made.code, made.stderr).toBe(0);
    const json = await runCli(['handover', '--date', DAY, '--json'], { env: env() });
    sheet = (JSON.parse(json.stdout) as { handover: Sheet }).handover;
    pages = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [pdf], { encoding: 'utf8' }))![1]);
  }, 120_000);

  afterAll(async () => {
    await sandbox.close();
  });

  it('repeats the headings, "page x of y" with the date and collection, and a count on every page', () => {
    expect(sheet.totals.shipments).toBe(40);
    expect(pages).toBeGreaterThanOrEqual(3);
    let counted = 0;
    for (let p = 1; p <= pages; p++) {
      const text = execFileSync('pdftotext', ['-layout', '-f', String(p), '-l', String(p), pdf, '-'], { encoding: 'utf8' });
      expect(text, `page ${p}`).toContain(`Hand-over sheet: ${DAY}`);
      expect(text, `page ${p}`).toContain('Collection: Harbour Homewares Pty Ltd');
      expect(text, `page ${p}`).toMatch(/Tracking number\s+Order\s+City, country\s+Pkgs\s+kg\s+Service/);
      expect(text, `page ${p}`).toContain(`${DAY} - Harbour Homewares Pty Ltd`);
      expect(text, `page ${p}`).toContain(`page ${p} of ${pages}`);
      const count = /This page: (\d+) shipment\(s\)/.exec(text);
      expect(count, `page ${p}`).not.toBeNull();
      counted += Number(count![1]);
      if (p > 1) expect(text, `page ${p}`).toContain('StarTrack (continued)');
    }
    // The per-page counts add up to what the one signature covers.
    expect(counted).toBe(40);
    const last = execFileSync('pdftotext', ['-layout', '-f', String(pages), '-l', String(pages), pdf, '-'], { encoding: 'utf8' });
    expect(last).toContain(`This signature covers pages 1-${pages}: 40 shipment(s), 80 package(s).`);
  });

  it.skipIf(!ZBAR)('every barcode on every page decodes to its tracking number', () => {
    const base = join(dir, 'page');
    execFileSync('pdftoppm', ['-r', '150', '-png', pdf, base]);
    const images = readdirSync(dir)
      .filter((f) => f.startsWith('page') && f.endsWith('.png'))
      .map((f) => join(dir, f));
    expect(images.length).toBe(pages);
    const decoded = execFileSync('zbarimg', [...CODE128_ONLY, ...images], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .sort();
    const listed = sheet.sections.flatMap((s) => s.carriers.flatMap((c) => c.lines.map((l) => l.tracking))).sort();
    expect(decoded).toEqual(listed);
  });
});
