/**
 * Addresses that arrive, end to end with the built program against a sandbox on 127.0.0.1: a
 * Melbourne delivery with Perth's postcode and a phone number "12" are warnings at their lines in
 * `validate`, in single `book` and in a CSV batch (and in its CSV and JSON reports, per row);
 * `--strict-addresses` makes them errors (exit 2, nothing sent); `--normalize-phones` sends E.164;
 * a country written `AUS` is refused with the code it means.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, describe, expect, it } from 'vitest';
import { useSandbox, E2E_API_KEY } from '../helpers/sandbox.js';
import { ROOT, runCli } from '../helpers/cli.js';

const fx = useSandbox();
const dir = mkdtempSync(join(tmpdir(), 'shipbook-addresses-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The domestic fixture with Perth's postcode for the Melbourne recipient and the phone number "12". */
function wrongAddressFile(): string {
  const text = readFileSync(join(ROOT, 'fixtures/orders/domestic-syd-mel.yaml'), 'utf8')
    .replace('postcode: "3000"', 'postcode: "6000"')
    .replace('phone: "+61 412 555 019"', 'phone: "12"');
  const file = join(dir, 'perth-postcode.yaml');
  writeFileSync(file, text);
  return file;
}

/** How many orders the sandbox holds. */
async function orderCount(): Promise<number> {
  const res = await fetch(`${fx.sandbox.url}_sandbox/orders/`, { headers: { Authorization: `Bearer ${E2E_API_KEY}` } });
  return ((await res.json()) as { result: { orders: unknown[] } }).result.orders.length;
}

/** fixtures/csv/orders.csv with the first order's recipient given Perth's postcode (row 2). */
function wrongAddressCsv(): string {
  const text = readFileSync(join(ROOT, 'fixtures/csv/orders.csv'), 'utf8');
  const lines = text.split('\n');
  lines[1] = lines[1]!.replace(',AU,3000,Melbourne,', ',AU,6000,Melbourne,');
  expect(lines[1]).toContain(',AU,6000,Melbourne,');
  const file = join(dir, 'orders.csv');
  writeFileSync(file, lines.join('\n'));
  return file;
}

describe('address checks', () => {
  it('validate lists the wrong postcode and the impossible phone number at their lines, as warnings', async () => {
    const file = wrongAddressFile();
    const r = await runCli(['validate', file], { env: fx.env });
    expect(r.code, r.stderr).toBe(0);
    const out = r.stdout + r.stderr;
    expect(out).toContain(
      `${file}:28:16\torder.shipments[0].delivery.phone\twarning\tphone "12" is not a possible phone number for AU (wrong number of digits)`,
    );
    expect(out).toContain(
      `${file}:30:19\torder.shipments[0].delivery.postcode\twarning\tpostcode 6000 is WA (Perth, Perth GPO …); Melbourne VIC is 3000–3001, 3004 …`,
    );
    expect(out).toContain('valid, 2 warnings');
  });

  it('--strict-addresses makes them errors: validate and book exit 2, and book sends nothing', async () => {
    const file = wrongAddressFile();
    const v = await runCli(['--strict-addresses', 'validate', file], { env: fx.env });
    expect(v.code).toBe(2);
    expect(v.stdout + v.stderr).toContain('order.shipments[0].delivery.postcode\terror\tpostcode 6000 is WA');
    const before = await orderCount();
    const b = await runCli(['--strict-addresses', 'book', file], { env: fx.env });
    expect(b.code, b.stderr).toBe(2);
    expect(b.stderr).toContain('error: 2 problems found; nothing was sent');
    expect(b.stderr).toContain(`${file}:28:16  order.shipments[0].delivery.phone  phone "12" is not a possible phone number for AU`);
    expect(b.stderr).toContain(`${file}:30:19  order.shipments[0].delivery.postcode  postcode 6000 is WA (Perth, Perth GPO …)`);
    expect(await orderCount()).toBe(before);
  });

  it("--no-strict-addresses lets one run send the address as written over a profile's strict-addresses=true", async () => {
    const file = wrongAddressFile();
    const configDir = mkdtempSync(join(tmpdir(), 'shipbook-strict-'));
    try {
      const env = { ...fx.env, SHIPBOOK_CONFIG_DIR: configDir };
      const set = await runCli(['--profile', 'work', 'config', 'set', 'strict-addresses', 'true'], { env });
      expect(set.code, set.stderr).toBe(0);
      const strict = await runCli(['--profile', 'work', 'validate', file], { env });
      expect(strict.code).toBe(2);
      const loose = await runCli(['--profile', 'work', '--no-strict-addresses', 'validate', file], { env });
      expect(loose.code, loose.stderr).toBe(0);
      expect(loose.stdout + loose.stderr).toContain('valid, 2 warnings');
    } finally {
      rmSync(configDir, { recursive: true, force: true });
    }
  });

  it('single book prints the warnings and books the address as written', async () => {
    const file = wrongAddressFile();
    const b = await runCli(['book', '--dry-run', file], { env: fx.env });
    expect(b.code, b.stderr).toBe(0);
    expect(b.stderr).toContain(`${file}:30:19  order.shipments[0].delivery.postcode  warning: postcode 6000 is WA`);
    expect(b.stdout + b.stderr).toContain('"postcode": "6000"');
  });

  it('--normalize-phones sends phone numbers in E.164', async () => {
    const b = await runCli(['--normalize-phones', 'book', '--dry-run', 'fixtures/orders/domestic-syd-mel.yaml'], { env: fx.env });
    expect(b.code, b.stderr).toBe(0);
    const out = b.stdout + b.stderr;
    expect(out).toContain('"phone": "+61295550142"');
    expect(out).toContain('"phone": "+61412555019"');
  });

  it('a CSV batch prints the warning at its row, and its CSV report carries it on that row', async () => {
    const csv = wrongAddressCsv();
    const report = join(dir, 'dry-report.csv');
    const r = await runCli(['book', '--dry-run', csv, '--report', report], { env: fx.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`${csv}:2:delivery_postcode  order.shipments[0].delivery.postcode  warning: postcode 6000 is WA (Perth, Perth GPO …)`);
    const rows = parse(readFileSync(report, 'utf8').replace(/^\uFEFF/, ''), { columns: true }) as Array<Record<string, string>>;
    expect(rows[0]!.warnings).toMatch(/order\.shipments\[0\]\.delivery\.postcode {2}warning: postcode 6000 is WA/);
    expect(rows[1]!.warnings).toBe('');
  });

  it('a booked CSV batch keeps the warnings per order in the JSON report; --strict-addresses sends nothing', async () => {
    const csv = wrongAddressCsv();
    const state = mkdtempSync(join(dir, 'state-'));
    const before = await orderCount();
    const strict = await runCli(['--strict-addresses', 'book', csv, '--journal', join(state, 'journal')], { env: { ...fx.env, SHIPBOOK_STATE_DIR: state } });
    expect(strict.code, strict.stderr).toBe(2);
    expect(strict.stderr).toContain('nothing was sent');
    expect(await orderCount()).toBe(before);
    const report = join(dir, 'report.json');
    const r = await runCli(['book', csv, '--report', report, '--journal', join(state, 'journal')], {
      env: { ...fx.env, SHIPBOOK_STATE_DIR: state },
      timeoutMs: 60_000,
    });
    expect(r.code, r.stderr).toBe(0);
    const orders = (
      JSON.parse(readFileSync(report, 'utf8')) as { orders: Array<{ line: number; status: string; warnings?: Array<{ line: number; message: string }> }> }
    ).orders;
    const first = orders.find((o) => o.line === 2)!;
    expect(first.status).toBe('booked');
    expect(first.warnings?.map((w) => [w.line, w.message])).toEqual([[2, expect.stringMatching(/^postcode 6000 is WA/)]]);
    expect(orders.filter((o) => o.line !== 2).every((o) => o.warnings === undefined)).toBe(true);
  });

  it('suggests by one rule in flags and files, naming what was typed: a typo is the locality of the postcode, a PO box is never proposed', async () => {
    const flags = await runCli(['quote', '--from', 'AU:2000:Sydney', '--to', 'AU:2150:Paramatta', '--package', '30x20x15cm:2kg'], { env: fx.env });
    expect(flags.code, flags.stderr).toBe(0);
    const paramatta = '"Paramatta" is not a locality of postcode 2150: did you mean Parramatta 2150? (Paramatta SA is 5558)';
    expect(flags.stderr).toContain(`--to AU:2150:Paramatta  warning: ${paramatta}`);
    expect(flags.stderr).not.toContain('delivery_');
    const sydny = await runCli(['quote', '--from', 'AU:3000:Sydny', '--to', 'AU:2150:Parramatta', '--package', '30x20x15cm:2kg'], { env: fx.env });
    expect(sydny.stderr).toContain('--from AU:3000:Sydny  warning: "Sydny" is not a locality of postcode 3000: did you mean Sydney 2000?');
    // The same place in a file: the same words, at the file's line.
    const file = join(dir, 'paramatta.yaml');
    writeFileSync(
      file,
      readFileSync(join(ROOT, 'fixtures/quotes/syd-mel-single.yaml'), 'utf8')
        .replace(/delivery_postcode: .*/, 'delivery_postcode: "2150"')
        .replace(/delivery_city: .*/, 'delivery_city: Paramatta'),
    );
    const validated = await runCli(['validate', file], { env: fx.env });
    expect(validated.code, validated.stderr).toBe(0);
    expect(validated.stdout + validated.stderr).toMatch(new RegExp(`delivery_city\twarning\t${paramatta.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  });

  it('refuses a country written AUS with the code it means, in a flag', async () => {
    const r = await runCli(['quote', '--from', 'AUS:2000:Sydney', '--to', 'AU:3000:Melbourne', '--package', '30x20x15cm:2kg'], { env: fx.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--from "AUS:2000:Sydney": unknown country code "AUS" (did you mean AU?)');
    expect(r.stderr).toContain('For example --from AU:2000:Sydney');
  });
});
