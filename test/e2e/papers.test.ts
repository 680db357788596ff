/**
 * End-to-end: customs papers on the built-in sandbox. An order to the US (three items, packages in
 * inches and pounds), a consolidated-mail parent with two shipments (GB, NZ) and a domestic order are
 * booked; `shipbook documents` then makes every paper kind from the ledger, offline, on A4 and on a
 * 4x6 label, in 3 copies, checked with poppler: `pdftotext` finds the items, values, origins, total,
 * addresses and tracking number on the right pages, `pdfinfo` counts copies × pages, and
 * `pdftotext -bbox` shows every word inside the margins.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCollectionCalendar } from '../../src/booking/pickup/calendar.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { runShipbook } from '../helpers/run.js';
import { POSTGRES_MISSING, startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { ROOT } from '../helpers/cli.js';

/** The pickup date of the orders booked here: the first collection day from now in Sydney and Melbourne. */
const DAY = (await loadCollectionCalendar()).collectionDays(new Date(), ['NSW', 'VIC'], {}, 1)[0]!;

/** True when `tool` runs on this machine. */
function has(tool: string): boolean {
  try {
    execFileSync(tool, ['-v'], { stdio: 'ignore' });
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}
const POPPLER = has('pdftotext') && has('pdfinfo');

/** The text of page `n` (1-based) of `pdf`. */
function pageText(pdf: string, n: number): string {
  return execFileSync('pdftotext', ['-layout', '-f', String(n), '-l', String(n), pdf, '-'], { encoding: 'utf8' });
}

/** The number of pages of `pdf`. */
function pageCount(pdf: string): number {
  return Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [pdf], { encoding: 'utf8' }))![1]);
}

/** Every word of `pdf` with its box, in points: [xMin, yMin, xMax, yMax], and the page sizes. */
function wordBoxes(pdf: string): Array<{ page: number; width: number; height: number; box: number[]; word: string }> {
  const html = execFileSync('pdftotext', ['-bbox', pdf, '-'], { encoding: 'utf8' });
  const out: Array<{ page: number; width: number; height: number; box: number[]; word: string }> = [];
  let page = 0;
  let size = [0, 0];
  for (const line of html.split('\n')) {
    const p = /<page width="([\d.]+)" height="([\d.]+)">/.exec(line);
    if (p) {
      page++;
      size = [Number(p[1]), Number(p[2])];
      continue;
    }
    const w = /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*)<\/word>/.exec(line);
    if (w) out.push({ page, width: size[0]!, height: size[1]!, box: [1, 2, 3, 4].map((i) => Number(w[i])), word: w[5]! });
  }
  return out;
}

describe.skipIf(!POPPLER)('customs papers of international orders, on the built-in sandbox', () => {
  const state = mkdtempSync(join(tmpdir(), 'shipbook-papers-state-'));
  const dir = mkdtempSync(join(tmpdir(), 'shipbook-papers-'));
  const env = { SHIPBOOK_STATE_DIR: state };
  const catalogue = join(ROOT, 'fixtures/papers/catalogue.csv');
  const signature = join(ROOT, 'fixtures/papers/signature.png');
  let us: { id: string; tracking: string };
  let parent: { id: string; tracking: string[] };
  let domestic: string;

  /** Books `fixture` and returns its order as `book --json` prints it. */
  async function book(fixture: string): Promise<{ id: string; shipments: Array<{ tracking_number: string; delivery: { country: string } }> }> {
    const r = await runShipbook(['book', fixture, '--pickup-date', DAY, '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    return (JSON.parse(r.stdout) as { order: { id: string; shipments: Array<{ tracking_number: string; delivery: { country: string } }> } }).order;
  }

  /** Runs `documents` and returns its JSON answer. */
  async function documents(
    args: string[],
  ): Promise<{ files: Array<{ path: string; pages: number; papers: number; order_ids: string[] }>; notes: unknown[]; unprintable: unknown[] }> {
    const r = await runShipbook(['documents', ...args, '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    return (JSON.parse(r.stdout) as { documents: never }).documents;
  }

  beforeAll(async () => {
    const o = await book('fixtures/papers/us-three-items.yaml');
    us = { id: o.id, tracking: o.shipments[0]!.tracking_number };
    const p = await book('fixtures/papers/consolidated-gb-nz.yaml');
    parent = { id: p.id, tracking: p.shipments.map((s) => s.tracking_number) };
    expect(p.shipments.map((s) => s.delivery.country)).toEqual(['GB', 'NZ', 'AU']);
    domestic = (await book('fixtures/orders/domestic-syd-mel.yaml')).id;
  }, 120_000);

  it('makes the commercial invoice of the US order on A4 in 3 copies: every item, value, origin, the total, the addresses and the tracking number on each copy', async () => {
    const out = join(dir, 'us-invoice.pdf');
    const made = await documents([us.id, '--invoice', '--copies', '3', '--out', out, '--catalogue', catalogue, '--signature', signature]);
    expect(made.files).toEqual([{ path: out, order_ids: [us.id], papers: 1, pages: 3 }]);
    expect(pageCount(out)).toBe(3);
    for (const n of [1, 2, 3]) {
      const text = pageText(out, n);
      expect(text).toContain('COMMERCIAL INVOICE');
      expect(text).toContain(`Copy ${n} of 3`);
      expect(text).toContain(`Invoice no. (order): ${us.id}`);
      expect(text).toContain(`Tracking number: ${us.tracking}`);
      // Items: description, HS code from the catalogue, origin, quantity, unit and line values.
      expect(text).toMatch(/Hardcover atlas of Australia\s+4905\.91\s+AU\s+2\s+89\.95\s+179\.90/);
      expect(text).toMatch(/Fountain pen BB-PEN-07\s+9608\.30\s+DE\s+3\s+45\.50\s+136\.50/);
      expect(text).toMatch(/Linen notebook\s+-\s+CN\s+5\s+12\.40\s+62\.00/);
      expect(text).toContain('Total value: AUD 378.40');
      // 4.5 lb and 9 lb: 2.041 kg and 4.082 kg, 6.123 kg gross (13.5 lb).
      expect(text).toContain('Packages: 2, gross weight 6.123 kg (13.5 lb)');
      expect(text).toContain('12 x 10 x 6 in, 4.5 lb (2.041 kg)');
      // Shipper and consignee with phone and e-mail; reason and tax status; the declaration and signature.
      for (const s of ['Collins Street Books Pty Ltd', 'Melbourne 3000, AU', '+61 3 9555 0142', 'dispatch@collinsstreetbooks.com.au'])
        expect(text).toContain(s);
      for (const s of ['José Álvarez', 'Hudson Reading Room', 'New York 10001, US', '+1 212 555 0187', 'jose.alvarez@example.com']) expect(text).toContain(s);
      expect(text).toMatch(/Reason for export: Sale\s+Tax status: Company/);
      expect(text).toContain('I declare that the information in this invoice is true and correct');
      expect(text).toMatch(/Name: Zoë Brennan\s+Date: \d{4}-\d{2}-\d{2}/);
    }
    // The signature image is drawn once per copy.
    const images = execFileSync('pdfimages', ['-list', out], { encoding: 'utf8' }).trim().split('\n').slice(2);
    expect(images.length).toBe(3);
  });

  it('makes an invoice per shipment of the consolidated parent, each with its own consignee and tracking number, none for the main shipment', async () => {
    const out = join(dir, 'parent-invoice.pdf');
    const made = await documents([parent.tracking[1]!, '--invoice', '--copies', '3', '--out', out]);
    expect(made.files[0]).toMatchObject({ order_ids: [parent.id], papers: 2, pages: 6 });
    expect(pageCount(out)).toBe(6);
    for (const n of [1, 2, 3]) {
      const text = pageText(out, n);
      expect(text).toContain(`Tracking number: ${parent.tracking[0]}`);
      expect(text).toContain("Siobhán O'Neill");
      expect(text).toContain('London SW1A 2AA, GB');
      expect(text).toMatch(/Lemon myrtle black tea 200g\s+-\s+AU\s+4\s+18\.90\s+75\.60/);
      expect(text).toMatch(/Ceramic teapot\s+-\s+JP\s+1\s+64\.00\s+64\.00/);
      expect(text).toContain('Total value: AUD 139.60');
      // The shipper is the main shipment's collection, not the hub the parcels are dropped at.
      expect(text).toContain('Harbour Tea Merchants');
      expect(text).not.toContain(parent.tracking[1]);
    }
    for (const n of [4, 5, 6]) {
      const text = pageText(out, n);
      expect(text).toContain(`Tracking number: ${parent.tracking[1]}`);
      // Tūhoe: the fonts have no ū; it is printed as u, and the run says so.
      expect(text).toContain('Mere Tuhoe');
      expect(text).toMatch(/Wattleseed chai 150g\s+-\s+AU\s+2\s+16\.50\s+33\.00/);
      expect(text).toContain('Total value: AUD 33.00');
      expect(text).toContain('Reason for export: Gift');
    }
    expect(made.unprintable).toEqual([{ char: 'ū', shown_as: 'u' }]);
    for (const n of [1, 2, 3, 4, 5, 6]) expect(pageText(out, n)).not.toContain(parent.tracking[2]);
  });

  it('makes every paper kind on A4, Letter and 4x6 in 3 copies: pages = copies × pages, every word inside the margins', async () => {
    for (const paper of ['a4', 'letter', '4x6'] as const) {
      for (const kind of [['--invoice'], ['--packing-slip'], ['--packing-slip', '--no-prices'], []]) {
        const one = join(dir, `${paper}-${kind.join('')}-1.pdf`);
        const three = join(dir, `${paper}-${kind.join('')}-3.pdf`);
        await documents([us.id, parent.id, ...kind, '--paper', paper, '--out', one, '--catalogue', catalogue]);
        const made = await documents([us.id, parent.id, ...kind, '--paper', paper, '--copies', '3', '--out', three, '--catalogue', catalogue]);
        const pages = pageCount(one);
        expect(pageCount(three)).toBe(3 * pages);
        expect(made.files[0]!.pages).toBe(3 * pages);
        const margin = paper === '4x6' ? 13 : 42;
        for (const w of wordBoxes(three)) {
          expect(w.box[0], `${w.word} on page ${w.page} of ${three}`).toBeGreaterThanOrEqual(margin - 0.5);
          expect(w.box[2], `${w.word} on page ${w.page} of ${three}`).toBeLessThanOrEqual(w.width - margin + 0.5);
          // pdftotext measures from the top of the page.
          expect(w.box[1], `${w.word} on page ${w.page} of ${three}`).toBeGreaterThanOrEqual(margin - 0.5);
          expect(w.box[3], `${w.word} on page ${w.page} of ${three}`).toBeLessThanOrEqual(w.height - margin + 0.5);
        }
        // Every page of the US order's papers carries its tracking number; the text of all pages, its items.
        const all = execFileSync('pdftotext', [three, '-'], { encoding: 'utf8' });
        for (const item of ['Hardcover atlas of Australia', 'Fountain pen BB-PEN-07', 'Linen notebook', 'Wattleseed chai 150g']) expect(all).toContain(item);
        if (kind.includes('--no-prices')) {
          expect(all).toContain('GIFT PACKING SLIP');
          expect(all).not.toContain('AUD');
        } else expect(all).toContain('AUD 378.40');
      }
    }
  }, 120_000);

  it('writes one PDF per order into a directory, by day; a domestic order asks for no papers and says so', async () => {
    const out = join(dir, 'today');
    const today = await runShipbook(['documents', '--date', DAY, '--out', out], { env });
    expect(today.code, today.stderr).toBe(0);
    expect(today.stderr).toContain(`order ${domestic} stays in Australia: it needs no customs papers; none made`);
    expect(readdirSync(out).sort()).toEqual([`${parent.id}-papers.pdf`, `${us.id}-papers.pdf`].sort());

    const alone = await runShipbook(['documents', domestic, '--out', join(dir, 'domestic')], { env });
    expect(alone.code, alone.stderr).toBe(0);
    expect(alone.stdout).toBe('');
    expect(alone.stderr).toContain(`order ${domestic} stays in Australia: it needs no customs papers; none made`);
    expect(alone.stderr).toContain('No customs papers were made');
    expect(existsSync(join(dir, 'domestic'))).toBe(false);
  });

  it('--check lists the items without a tariff code', async () => {
    const r = await runShipbook(['documents', us.id, parent.id, '--check', '--catalogue', catalogue], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => l.split('\t')[2]),
    ).toEqual(['Linen notebook', 'Wattleseed chai 150g']);
    expect(r.stderr).toContain('2 item(s) without a tariff (HS) code');
  });

  it('refuses an order the ledger does not know, exit 2, making nothing', async () => {
    const r = await runShipbook(['documents', 'ORD-NOPE1234', '--out', join(dir, 'nope')], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('the ledger of this target has no order or tracking number "ORD-NOPE1234"; no papers made');
    expect(existsSync(join(dir, 'nope'))).toBe(false);
  });
});

describe.skipIf(!POPPLER)('book --documents: the papers of every international order of a batch, once', () => {
  const state = mkdtempSync(join(tmpdir(), 'shipbook-papers-book-state-'));
  const dir = mkdtempSync(join(tmpdir(), 'shipbook-papers-book-'));
  const env = { SHIPBOOK_STATE_DIR: state };
  const inputs = ['fixtures/papers/us-three-items.yaml', 'fixtures/papers/consolidated-gb-nz.yaml', 'fixtures/orders/domestic-syd-mel.yaml'];

  /** The `papers` records of the ledger of the built-in sandbox in `state`. */
  function papersRecords(): Array<{ order_id: string; files: string[] }> {
    const ledgers = join(state, 'ledger');
    return readdirSync(ledgers)
      .filter((f) => f.endsWith('.ndjson'))
      .flatMap((f) => readFileSync(join(ledgers, f), 'utf8').trim().split('\n'))
      .map((l) => JSON.parse(l) as { event: string; order_id: string; files: string[] })
      .filter((r) => r.event === 'papers');
  }

  /** Books the inputs with `--documents` and returns the report's orders. */
  async function bookBatch(extra: string[] = []): Promise<Array<{ order_id: string; status: string; file: string; documents?: string[] }>> {
    const report = join(dir, `report-${Math.random().toString(36).slice(2)}.json`);
    const r = await runShipbook(['book', ...inputs, '--pickup-date', DAY, '--documents', join(dir, 'papers'), '--report', report, ...extra], { env });
    expect(r.code, r.stderr).toBe(0);
    const orders = (JSON.parse(readFileSync(report, 'utf8')) as { orders: Array<{ order_id: string; status: string; file: string; documents?: string[] }> })
      .orders;
    // In the order of the inputs (the report lists them as they finish).
    return inputs.map((f) => orders.find((o) => o.file === f)!);
  }

  it('writes the papers of each international order as it is processed, records them in the ledger, and a rerun makes none twice', async () => {
    const first = await bookBatch();
    const [us, parent, domestic] = first;
    expect(first.map((o) => o.status)).toEqual(['booked', 'booked', 'booked']);
    expect(us!.documents).toEqual([join(dir, 'papers', `${us!.order_id}-papers.pdf`)]);
    expect(parent!.documents).toEqual([join(dir, 'papers', `${parent!.order_id}-papers.pdf`)]);
    expect(domestic!.documents).toBeUndefined();
    // The US order: its invoice and its packing slip; the parent: an invoice and a slip per shipment abroad.
    expect(pageCount(us!.documents![0]!)).toBe(2);
    expect(pageCount(parent!.documents![0]!)).toBe(4);
    expect(pageText(us!.documents![0]!, 1)).toContain('Total value: AUD 378.40');
    expect(
      papersRecords()
        .map((r) => r.order_id)
        .sort(),
    ).toEqual([us!.order_id, parent!.order_id].sort());

    const made = statSync(us!.documents![0]!).mtimeMs;
    const again = await bookBatch();
    expect(again.map((o) => o.status)).toEqual(['already_booked', 'already_booked', 'already_booked']);
    // The report names the files made before; nothing is written or recorded again.
    expect(again[0]!.documents).toEqual(us!.documents);
    expect(statSync(us!.documents![0]!).mtimeMs).toBe(made);
    expect(papersRecords().length).toBe(2);

    // Asked for: made again, and recorded again.
    await bookBatch(['--documents-again']);
    expect(papersRecords().length).toBe(4);
  }, 120_000);
});

describe.skipIf(!POPPLER || POSTGRES_MISSING !== undefined)(
  `documents from the shared ledger${POSTGRES_MISSING ? ` (skipped: ${POSTGRES_MISSING})` : ''}`,
  () => {
    let pg: TestPostgres;
    const state = mkdtempSync(join(tmpdir(), 'shipbook-papers-pg-state-'));
    const dir = mkdtempSync(join(tmpdir(), 'shipbook-papers-pg-'));

    beforeAll(() => {
      pg = startPostgres();
    }, 120_000);

    afterAll(() => {
      pg?.stop();
    });

    it('makes the papers of an order recorded in the shared ledger, which the file ledger of this machine does not hold', async () => {
      const env = { SHIPBOOK_STATE_DIR: state, SHIPBOOK_LEDGER: pg.url };
      const booked = await runShipbook(['book', 'fixtures/papers/us-three-items.yaml', '--pickup-date', DAY, '--json'], { env });
      expect(booked.code, booked.stderr).toBe(0);
      const order = (JSON.parse(booked.stdout) as { order: { id: string; shipments: Array<{ tracking_number: string }> } }).order;
      const out = join(dir, 'us.pdf');
      const r = await runShipbook(['documents', order.shipments[0]!.tracking_number, '--invoice', '--out', out], { env });
      expect(r.code, r.stderr).toBe(0);
      expect(pageCount(out)).toBe(1);
      const text = pageText(out, 1);
      expect(text).toContain(`Invoice no. (order): ${order.id}`);
      expect(text).toContain('Total value: AUD 378.40');
      // Without the shared ledger, this machine knows no such order.
      const alone = await runShipbook(['documents', order.id, '--out', join(dir, 'alone')], { env: { SHIPBOOK_STATE_DIR: state } });
      expect(alone.code).toBe(2);
    }, 120_000);
  },
);

describe.skipIf(!POPPLER)("the profile's papers settings: catalogue and signature", () => {
  let sandbox: Sandbox;
  const KEY = 'sk_test_papers_0123456789';
  const config = mkdtempSync(join(tmpdir(), 'shipbook-papers-config-'));
  const state = mkdtempSync(join(tmpdir(), 'shipbook-papers-profile-state-'));
  const dir = mkdtempSync(join(tmpdir(), 'shipbook-papers-profile-'));
  const env = () => ({ SHIPBOOK_BASE_URL: sandbox.url, SHIPBOOK_API_KEY: KEY, SHIPBOOK_STATE_DIR: state, SHIPBOOK_CONFIG_DIR: config });

  beforeAll(async () => {
    sandbox = await startSandbox({ processingDelayMs: 30, apiKey: KEY } as Parameters<typeof startSandbox>[0]);
  });

  afterAll(async () => {
    await sandbox.close();
  });

  it('prints the codes of the catalogue and draws the signature set in the profile; refuses a signature that is not an image file', async () => {
    const shop = ['--profile', 'shop'];
    for (const [key, value] of [
      ['papers.catalogue', join(ROOT, 'fixtures/papers/catalogue.csv')],
      ['papers.signature', join(ROOT, 'fixtures/papers/signature.png')],
    ] as const) {
      const set = await runShipbook([...shop, 'config', 'set', key, value], { env: env() });
      expect(set.code, set.stderr).toBe(0);
    }
    const bad = await runShipbook([...shop, 'config', 'set', 'papers.signature', 'signature.txt'], { env: env() });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('must be a .png, .jpg or .jpeg image file');

    const booked = await runShipbook([...shop, 'book', 'fixtures/papers/us-three-items.yaml', '--pickup-date', DAY, '--json'], { env: env() });
    expect(booked.code, booked.stderr).toBe(0);
    const id = (JSON.parse(booked.stdout) as { order: { id: string } }).order.id;
    const out = join(dir, 'invoice.pdf');
    const r = await runShipbook([...shop, 'documents', id, '--invoice', '--out', out], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(pageText(out, 1)).toMatch(/Fountain pen BB-PEN-07\s+9608\.30\s+DE/);
    expect(execFileSync('pdfimages', ['-list', out], { encoding: 'utf8' }).trim().split('\n').slice(2).length).toBe(1);
    const check = await runShipbook([...shop, 'documents', id, '--check', '--json'], { env: env() });
    expect(check.code, check.stderr).toBe(0);
    expect(
      (JSON.parse(check.stdout) as { documents: { missing_codes: Array<{ description: string }> } }).documents.missing_codes.map((m) => m.description),
    ).toEqual(['Linen notebook']);
  }, 120_000);
});
