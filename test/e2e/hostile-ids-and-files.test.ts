/**
 * Ids and words from a hostile service carry control characters (clear screen, set the title,
 * a C1 CSI, a right-to-left override): every command prints them as visible escapes, in the
 * heading, hints, warnings, progress lines and a batch's lines, and never sends one raw to the
 * terminal. A pasted hint still names the same order (bash ANSI-C quoting). A recursive YAML alias
 * is refused with exit 2 and its line.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hostileServiceEnv } from '../helpers/fault-server.js';
import { runCli } from '../helpers/cli.js';

const KEY = 'sk_test_hostile_ids_0123456789';
const ID = 'ORD-\u001b[2J\u001b]0;pwned\u0007\u009b31m\u202eX';
const SHIPMENT = 'SHP-\u001b[1A\u0008';
const TRACKING = 'TRK\u001b]8;;http://evil/\u0007link';
const { server, env } = hostileServiceEnv(KEY);
// NO_COLOR is set for every run (test/helpers/cli.ts): no escape sequence of shipbook's own is expected either.
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** Every route answers this order: created, accepted and processed at once, with a total that does not add up (a warning naming the id). */
function answerHostileOrder(status: string) {
  const order = {
    id: ID,
    status,
    shipments: [{ id: SHIPMENT, status: 'NEW', tracking_number: TRACKING }],
    price: { amount: 10, insurance: 0, gst: 1, total: 99 },
  };
  server.set('*', { mode: 'ok', status: 201, result: { order } });
}

describe('control characters in ids from the service', () => {
  it('order create, order accept --wait and book print them as escapes, in headings, hints, warnings and progress', async () => {
    answerHostileOrder('NEW');
    const created = await runCli(['order', 'create', 'fixtures/orders/domestic-syd-mel.yaml'], { env: env() });
    expect(created.code, created.stderr).toBe(0);
    answerHostileOrder('processed');
    const runs = [
      created,
      await runCli(['order', 'create', 'fixtures/orders/domestic-syd-mel.yaml', '--output', 'table'], { env: env() }),
      await runCli(['order', 'accept', ID, '--payment', 'credit', '--wait', '--poll', '20ms'], { env: env() }),
      await runCli(['book', 'fixtures/orders/domestic-syd-mel.yaml', '--poll', '20ms', '--payment', 'credit'], { env: env() }),
    ];
    for (const r of runs) {
      expect(r.stdout + r.stderr).not.toMatch(RAW);
      expect(r.code, r.stderr).toBe(0);
    }
    expect(created.stdout).toContain('ORD-\\x1b[2J\\x1b]0;pwned\\x07\\x9b31m\\u{202e}X');
    // The hint names the same order when pasted into bash.
    const hint = created.stderr.split('\n').find((l) => l.startsWith('Accept it with: '))!;
    expect(hint).toContain("shipbook order accept $'ORD-\\x1b[2J\\x1b]0;pwned\\x07\\u009b31m\\u202eX'");
    expect(runs[3]!.stderr).toMatch(/warning: order ORD-\\x1b\[2J.*total 99\.00 AUD/);
  });

  it('a batch prints them as escapes in its lines, its summary and its report on stdout', async () => {
    answerHostileOrder('processed');
    const dir = mkdtempSync(join(tmpdir(), 'shipbook-hostile-ids-'));
    const r = await runCli(['book', 'fixtures/orders/domestic-syd-mel.yaml', '--journal', join(dir, 'j.ndjson'), '--poll', '20ms', '--payment', 'credit'], {
      env: env(),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).not.toMatch(RAW);
    expect(r.stdout).toContain('ORD-\\x1b[2J');
    const json = await runCli(
      ['book', 'fixtures/orders/domestic-syd-mel.yaml', '--journal', join(dir, 'j2.ndjson'), '--poll', '20ms', '--payment', 'credit', '--json'],
      { env: env() },
    );
    expect(json.stdout + json.stderr).not.toMatch(RAW);
    // In JSON the id is still the service's own, once parsed.
    expect((JSON.parse(json.stdout) as { orders: Array<{ order_id: string }> }).orders[0]!.order_id).toBe(ID);
  });
});

describe('a recursive YAML alias', () => {
  it('is refused with exit 2 and its line by validate and by a batch, never a stack overflow', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shipbook-recursive-'));
    const file = join(dir, 'loop.yaml');
    writeFileSync(file, 'a: &a\n  b: *a\n');
    const validate = await runCli(['validate', file]);
    expect(validate.code, validate.stderr).toBe(2);
    expect(validate.stdout + validate.stderr).toContain(`${file}:2:6`);
    expect(validate.stdout + validate.stderr).toContain('alias *a is inside &a, the value it stands for: a recursive alias has no end');
    expect(validate.stderr).not.toMatch(/internal error|call stack/);
    const batch = join(dir, 'orders.yaml');
    writeFileSync(batch, 'order: {}\n---\nx: &x\n  - *x\n');
    const book = await runCli(['book', batch, '--journal', join(dir, 'j.ndjson')], { env: env() });
    expect(book.code, book.stderr).toBe(2);
    expect(book.stderr).toContain(`${batch}:4:5`);
    expect(book.stderr).not.toMatch(/internal error|call stack/);
  });
});
