/**
 * What a new user trips over: credentials without a base URL, sandbox
 * output marked on stdout, the documented `state` beside every wire `status`, and an error object
 * for usage errors, in every output format.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { runShipbook } from '../helpers/run.js';

const ORDER = 'fixtures/orders/domestic-syd-mel.yaml';
const STATES = ['pending', 'accepted', 'processed', 'failed', 'cancelled'];

/** Reads a machine document in `format`. */
function readDoc(format: string, text: string): Record<string, unknown> {
  if (format === 'yaml') return parseYaml(text) as Record<string, unknown>;
  if (format === 'ndjson') {
    expect(text.trim().split('\n')).toHaveLength(1);
    return JSON.parse(text) as Record<string, unknown>;
  }
  return JSON.parse(text) as Record<string, unknown>;
}

describe('credentials without a base URL', () => {
  it('refuses with exit 4, names the missing variable and the misspelt one, and starts no sandbox', async () => {
    const r = await runShipbook(['book', ORDER, '--json'], { env: { SHIPBOOK_API_KEY: 'sk_live_realkey9876', SHIPBOOK_BASEURL: 'https://api.example.com/' } });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('SHIPBOOK_BASE_URL is not set');
    expect(r.stderr).toContain('SHIPBOOK_BASEURL is set');
    expect(r.stderr).not.toContain('[sandbox]');
    expect(r.stderr).not.toContain('sk_live_realkey9876');
    const { error } = JSON.parse(r.stdout) as { error: { code: string; exit_code: number } };
    expect(error).toMatchObject({ code: 'config_error', exit_code: 4 });
  });

  it('runs on the built-in sandbox without a key, and says so on stdout in tsv', async () => {
    const r = await runShipbook(['order', 'create', ORDER]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('sandbox\tsimulated service, nothing is really booked');
  });
});

describe.each(['json', 'yaml', 'ndjson'])('machine output as %s', (format) => {
  it('marks sandbox output and gives every order and shipment a documented state beside the wire status', async () => {
    const created = await runShipbook(['order', 'create', ORDER, '--output', format]);
    expect(created.code, created.stderr).toBe(0);
    const doc = readDoc(format, created.stdout) as {
      sandbox: boolean;
      order: { status: string; state: string; shipments: Array<{ status: string; state: string }> };
    };
    expect(doc.sandbox).toBe(true);
    expect(doc.order.status).toBe('new');
    expect(doc.order.state).toBe('pending');
    for (const s of doc.order.shipments) {
      expect(s.status).toBeTypeOf('string');
      expect(s.state).toBe('pending');
    }

    const booked = await runShipbook(['book', ORDER, '--output', format]);
    expect(booked.code, booked.stderr).toBe(0);
    const done = readDoc(format, booked.stdout) as typeof doc;
    expect(done.order.state).toBe('processed');
    for (const s of done.order.shipments) expect(STATES).toContain(s.state);
    expect(done.order.shipments.map((s) => s.state)).toEqual(done.order.shipments.map(() => 'processed'));
  });

  it('prints an error object for a usage error', async () => {
    const r = await runShipbook(['book', ORDER, '--output', format, '--no-such-flag']);
    expect(r.code).toBe(2);
    const { error } = readDoc(format, r.stdout) as { error: { code: string; message: string; exit_code: number } };
    expect(error).toEqual({ code: 'usage', message: "unknown option '--no-such-flag'", exit_code: 2 });
  });
});

describe('an empty id', () => {
  it('is a usage error (exit 2), nothing is sent', async () => {
    for (const args of [
      ['order', 'get', ''],
      ['order', 'cancel', ' '],
      ['order', 'accept', '', '--payment', 'credit'],
    ]) {
      const r = await runShipbook([...args, '--json']);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain('an id cannot be empty');
      expect(r.stderr).not.toContain('[sandbox]');
      expect((JSON.parse(r.stdout) as { error: { code: string } }).error.code).toBe('usage');
    }
  });
});

describe('hints keep their context', () => {
  it('carry --profile when one was given and leave the payment to the profile; run as printed, they work', async () => {
    // One built-in sandbox state for both runs, as for a user in one shell.
    const env = { SHIPBOOK_STATE_DIR: mkdtempSync(join(tmpdir(), 'shipbook-hints-')) };
    const created = await runShipbook(['--profile', 'sandbox', 'order', 'create', ORDER], { env });
    expect(created.code, created.stderr).toBe(0);
    const hint = /^Accept it with: shipbook (.*)$/m.exec(created.stderr);
    expect(hint, created.stderr).not.toBeNull();
    expect(hint![1]).toMatch(/^--profile sandbox order accept ORD-\w+$/);
    expect(hint![1]).not.toContain('--payment');
    const accepted = await runShipbook(hint![1]!.split(' '), { env });
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(accepted.stderr).toMatch(/See the result with: shipbook --profile sandbox order get ORD-\w+/);
  });

  it('carry no --profile when none was given', async () => {
    const created = await runShipbook(['order', 'create', ORDER]);
    expect(created.stderr).toMatch(/^Accept it with: shipbook order accept ORD-\w+$/m);
  });
});

describe('smaller defects', () => {
  it('quote of a missing file states the problem once', async () => {
    const r = await runShipbook(['quote', 'nonexist.yaml']);
    expect(r.code).toBe(2);
    expect(r.stderr.match(/no such file/g)).toHaveLength(1);
  });

  it('schema orders suggests order', async () => {
    const r = await runShipbook(['schema', 'orders']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('hint: Did you mean "order"? shipbook schema order');
  });

  it('config messages: a bad sender file was not saved; a bad setting names its key once; --no-input says prompting is off', async () => {
    const env = { SHIPBOOK_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'shipbook-cfg-')) };
    expect((await runShipbook(['--profile', 'staging', 'config', 'set', 'base-url', 'https://api.example.com/'], { env })).code).toBe(0);
    const sender = await runShipbook(['--profile', 'staging', 'config', 'sender', 'set', 'home', ORDER], { env });
    expect(sender.code).toBe(2);
    expect(sender.stderr).toMatch(/problems? found; nothing was saved/);
    expect(sender.stderr).not.toContain('nothing was sent');
    const path = await runShipbook(['--profile', 'staging', 'config', 'set', 'paths.fetch-order', 'v2/orders/'], { env });
    expect(path.code).toBe(2);
    expect(path.stderr.match(/paths\.fetch-order/g)).toHaveLength(1);
    const login = await runShipbook(['--no-input', '--profile', 'staging', 'auth', 'login'], { env });
    expect(login.code).toBe(2);
    expect(login.stderr).toContain('prompting is turned off by --no-input');
    expect(login.stderr).not.toContain('no terminal');
  });
});

describe('one word per state in tables and tsv', () => {
  it("a parent order's children and main shipment all read pending, not new beside pending", async () => {
    const env = { SHIPBOOK_STATE_DIR: mkdtempSync(join(tmpdir(), 'shipbook-words-')) };
    const ids: string[] = [];
    for (const file of ['fixtures/shipments/au-us-1.yaml', 'fixtures/shipments/au-gb-2.yaml']) {
      const r = await runShipbook(['shipment', 'create', file, '--quiet'], { env });
      expect(r.code, r.stderr).toBe(0);
      ids.push(r.stdout.trim());
    }
    const combined = await runShipbook(['shipment', 'combine', ...ids, '--main', 'fixtures/shipments/main-to-hub.yaml'], { env });
    expect(combined.code, combined.stderr).toBe(0);
    const rows = combined.stdout
      .split('\n')
      .map((l) => l.split('\t'))
      .filter((c) => c[0] === 'child' || c[0] === 'main');
    expect(rows.length).toBe(3);
    expect(new Set(rows.map((c) => c[5]))).toEqual(new Set(['pending']));
  });
});

describe('payment flags and a payment file that disagree', () => {
  it('are a usage error, not a silently dropped card', async () => {
    const r = await runShipbook([
      'book',
      ORDER,
      '--payment',
      'stored_card',
      '--card',
      'card_visa_4242',
      '--payment-file',
      'fixtures/payments/credit-card.yaml',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--payment stored_card and fixtures/payments/credit-card.yaml (payment type credit_card) disagree');
    expect(r.stdout).not.toMatch(/^order\t/m);
  });

  it('agreeing flags and file still work', async () => {
    const r = await runShipbook(['book', ORDER, '--payment', 'credit_card', '--payment-file', 'fixtures/payments/credit-card.yaml', '--poll', '50ms']);
    expect(r.code, r.stderr).toBe(0);
  });
});

describe('validate a directory of JSON Schemas', () => {
  it('says what it skipped and why', async () => {
    const r = await runShipbook(['validate', 'fixtures/schemas/']);
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/skipped \d+ \*\.schema\.json files: JSON Schemas describe input files, they are not one/);
  });
});

describe('--save-as with a complete order file', () => {
  it('is saved (not silently ignored), and a folder that does not exist is an error before anything is created', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shipbook-saveas-'));
    const out = join(dir, 'again.yaml');
    const r = await runShipbook(['order', 'create', 'fixtures/orders/domestic-syd-mel.yaml', '--save-as', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`Saved the order as ${out}`);
    const again = await runShipbook(['validate', out]);
    expect(again.code, again.stderr).toBe(0);
    const bad = await runShipbook(['order', 'create', 'fixtures/orders/domestic-syd-mel.yaml', '--save-as', join(dir, 'missing', 'x.yaml'), '--json']);
    expect(bad.code).toBe(2);
    expect(bad.stdout).not.toContain('"order"');
  });
});
